//! A set's checkpoint ([`WaitAllCheckpoint`]): its deadline, its fail-fast state and every
//! member's checkpoint or ending, as plain data and as JSON.

use std::borrow::Cow;
use std::time::{Duration, SystemTime};

use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::Value;

use crate::waiter::checkpoint::json::{Fields, Span, Time, Wire, corrupt, hex};
use crate::waiter::outcome::{FinalPoll, WaiterError};
use crate::waiter::{CheckpointError, WaitCheckpoint};

/// Where a [`WaitAll`](super::WaitAll) stood, as plain data: taken with
/// [`WaitAllCheckpoints::checkpoint`](super::WaitAllCheckpoints::checkpoint), saved anywhere as
/// JSON ([`to_json`](Self::to_json), [`from_json`](Self::from_json); `Serialize` and
/// `Deserialize` in the same shape with the `serde` feature), and taken up whole with
/// [`WaitAll::resume`](super::WaitAll::resume): the set's deadline, its fail-fast state, and
/// every member's own checkpoint, or how it ended (a member that finished is not polled
/// again).
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaitAllCheckpoint {
    /// The format ([`WaitCheckpoint::FORMAT`], shared with the members' checkpoints).
    pub format: u32,
    /// When the set's wait started, by the wall clock.
    pub started_at: SystemTime,
    /// The set's maximum wait: its deadline is `started_at + max_wait`.
    pub max_wait: Duration,
    /// Whether the first failure stops the others ([`WaitAll::fail_fast`](super::WaitAll::fail_fast)).
    pub fail_fast: bool,
    /// The member whose failure stopped the set, if one did: the resumed set's members that
    /// had not finished end as stopped by it.
    pub stopped_by: Option<usize>,
    /// Every member, in the set's order.
    pub members: Vec<MemberCheckpoint>,
}

/// One member of a [`WaitAllCheckpoint`].
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemberCheckpoint {
    /// Not polled yet: it starts under the set's deadline as a member of a new set does.
    Pending {
        /// The waiter's name.
        waiter: Cow<'static, str>,
        /// Its definition's fingerprint.
        definition: u64,
        /// Its input's identity (see [`WaitCheckpoint::input`]).
        input: Option<u64>,
    },
    /// Polled, and going on: its own checkpoint.
    Waiting(WaitCheckpoint),
    /// Finished: how. It is not polled again.
    Finished(MemberOutcome),
}

impl MemberCheckpoint {
    /// The member's waiter, definition and input, whatever its state.
    pub fn identity(&self) -> (&str, u64, Option<u64>) {
        match self {
            MemberCheckpoint::Pending {
                waiter,
                definition,
                input,
            } => (waiter, *definition, *input),
            MemberCheckpoint::Waiting(checkpoint) => {
                (&checkpoint.waiter, checkpoint.definition, checkpoint.input)
            }
            MemberCheckpoint::Finished(outcome) => {
                (&outcome.waiter, outcome.definition, outcome.input)
            }
        }
    }
}

/// How a member of a set ended, as a checkpoint keeps it (without the operation's output or
/// error, which are not data the crate can write).
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberOutcome {
    /// The waiter's name.
    pub waiter: Cow<'static, str>,
    /// Its definition's fingerprint.
    pub definition: u64,
    /// Its input's identity.
    pub input: Option<u64>,
    /// How it ended.
    pub ended: Ended,
    /// Polls made.
    pub polls: u32,
    /// Time from the set's start to the member's end.
    pub elapsed: Duration,
    /// The failure acceptor's message, or the panic's.
    pub message: Option<String>,
}

/// How a member of a set ended: [`WaiterError`]'s variants, and success.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// It succeeded.
    Succeeded,
    /// A `failure` acceptor matched (its index).
    FailureState {
        /// The acceptor's index.
        acceptor: usize,
    },
    /// An error no acceptor matched.
    OperationFailed,
    /// The deadline came first.
    ExceededMaxWait,
    /// Stopped by the failure of the member at `by` (fail-fast).
    Stopped {
        /// That member's index.
        by: usize,
    },
    /// A poll panicked.
    PollPanicked,
    /// Its options were refused.
    InvalidOptions,
}

impl Ended {
    /// The name the JSON writes (the `outcome` label of the metrics).
    pub fn as_str(self) -> &'static str {
        match self {
            Ended::Succeeded => "success",
            Ended::FailureState { .. } => "failure_state",
            Ended::OperationFailed => "operation_failed",
            Ended::ExceededMaxWait => "exceeded_max_wait",
            Ended::Stopped { .. } => "stopped",
            Ended::PollPanicked => "poll_panicked",
            Ended::InvalidOptions => "invalid_options",
        }
    }
}

impl MemberOutcome {
    /// How `result` ended, for a member bound to `definition` and `input`.
    pub(crate) fn of<O, E>(
        waiter: &'static str,
        definition: u64,
        input: Option<u64>,
        result: &Result<FinalPoll<O, E>, WaiterError<O, E>>,
    ) -> Self {
        let (ended, polls, elapsed, message) = match result {
            Ok(done) => (Ended::Succeeded, done.polls, done.elapsed, None),
            Err(error) => match error {
                WaiterError::FailureState {
                    acceptor,
                    message,
                    final_poll,
                    ..
                } => (
                    Ended::FailureState {
                        acceptor: *acceptor,
                    },
                    final_poll.polls,
                    final_poll.elapsed,
                    message.clone(),
                ),
                WaiterError::OperationFailed { polls, elapsed, .. } => {
                    (Ended::OperationFailed, *polls, *elapsed, None)
                }
                WaiterError::ExceededMaxWait { polls, elapsed, .. } => {
                    (Ended::ExceededMaxWait, *polls, *elapsed, None)
                }
                WaiterError::Stopped {
                    by, polls, elapsed, ..
                } => (Ended::Stopped { by: *by }, *polls, *elapsed, None),
                WaiterError::PollPanicked {
                    message,
                    polls,
                    elapsed,
                    ..
                } => (Ended::PollPanicked, *polls, *elapsed, Some(message.clone())),
                _ => (Ended::InvalidOptions, 0, Duration::ZERO, None),
            },
        };
        MemberOutcome {
            waiter: Cow::Borrowed(waiter),
            definition,
            input,
            ended,
            polls,
            elapsed,
            message,
        }
    }
}

impl WaitAllCheckpoint {
    /// The set's checkpoint as one line of JSON:
    ///
    /// ```text
    /// {"format":2,"started_at":{..},"max_wait":{..},"fail_fast":false,"stopped_by":null,"members":[
    ///   {"state":"pending","waiter":"StreamExists","definition":"..","input":".."},
    ///   {"state":"waiting","checkpoint":{ a WaitCheckpoint }},
    ///   {"state":"finished","waiter":"..","definition":"..","input":"..","outcome":"stopped","by":3,
    ///    "polls":4,"elapsed":{..},"message":null}
    /// ]}
    /// ```
    ///
    /// (`acceptor` beside `"outcome":"failure_state"`, `by` beside `"stopped"`.)
    pub fn to_json(&self) -> String {
        // Writing a struct of strings and numbers cannot fail.
        serde_json::to_string(&SetWire(self)).unwrap_or_default()
    }

    /// Reads a set's checkpoint [`to_json`](Self::to_json) wrote, checking every field as
    /// [`WaitCheckpoint::from_json`] does.
    pub fn from_json(text: &str) -> Result<Self, CheckpointError> {
        let value: Value =
            serde_json::from_str(text).map_err(|error| corrupt(error.to_string()))?;
        Self::from_value(&value)
    }

    fn from_value(value: &Value) -> Result<Self, CheckpointError> {
        let fields = Fields::of(value, "a set's checkpoint")?;
        let format = fields.format()?;
        if format != WaitCheckpoint::FORMAT {
            return Err(CheckpointError::Format {
                found: format,
                supported: WaitCheckpoint::FORMAT,
            });
        }
        let stopped_by = match fields.get("stopped_by")? {
            Value::Null => None,
            _ => Some(index(fields.u64("stopped_by")?)?),
        };
        let members = match fields.get("members")? {
            Value::Array(members) => members.iter().map(member).collect::<Result<_, _>>()?,
            other => return Err(corrupt(format!("`members` is an array, not `{other}`"))),
        };
        Ok(WaitAllCheckpoint {
            format,
            started_at: fields.time("started_at")?,
            max_wait: fields.duration("max_wait")?,
            fail_fast: fields.bool("fail_fast")?,
            stopped_by,
            members,
        })
    }
}

fn index(value: u64) -> Result<usize, CheckpointError> {
    usize::try_from(value).map_err(|_| corrupt(format!("index {value} is out of range")))
}

fn member(value: &Value) -> Result<MemberCheckpoint, CheckpointError> {
    let fields = Fields::of(value, "a member")?;
    let identity = || -> Result<_, CheckpointError> {
        Ok((
            Cow::Owned(fields.string("waiter")?.to_owned()),
            fields.hex("definition")?,
            fields.optional_hex("input")?,
        ))
    };
    match fields.string("state")? {
        "pending" => {
            let (waiter, definition, input) = identity()?;
            Ok(MemberCheckpoint::Pending {
                waiter,
                definition,
                input,
            })
        }
        "waiting" => {
            WaitCheckpoint::from_value(fields.get("checkpoint")?).map(MemberCheckpoint::Waiting)
        }
        "finished" => {
            let (waiter, definition, input) = identity()?;
            let ended = match fields.string("outcome")? {
                "success" => Ended::Succeeded,
                "failure_state" => Ended::FailureState {
                    acceptor: index(fields.u64("acceptor")?)?,
                },
                "operation_failed" => Ended::OperationFailed,
                "exceeded_max_wait" => Ended::ExceededMaxWait,
                "stopped" => Ended::Stopped {
                    by: index(fields.u64("by")?)?,
                },
                "poll_panicked" => Ended::PollPanicked,
                "invalid_options" => Ended::InvalidOptions,
                other => return Err(corrupt(format!("`outcome` `{other}` is unknown"))),
            };
            let message = match fields.get("message")? {
                Value::Null => None,
                _ => Some(fields.string("message")?.to_owned()),
            };
            Ok(MemberCheckpoint::Finished(MemberOutcome {
                waiter,
                definition,
                input,
                ended,
                polls: fields.u32("polls")?,
                elapsed: fields.duration("elapsed")?,
                message,
            }))
        }
        other => Err(corrupt(format!(
            "`state` is `pending`, `waiting` or `finished`, not `{other}`"
        ))),
    }
}

/// A set's checkpoint as it is written, its fields in the documented order.
struct SetWire<'a>(&'a WaitAllCheckpoint);

impl Serialize for SetWire<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let c = self.0;
        let members: Vec<MemberWire<'_>> = c.members.iter().map(MemberWire).collect();
        let mut out = serializer.serialize_struct("WaitAllCheckpoint", 6)?;
        out.serialize_field("format", &c.format)?;
        out.serialize_field("started_at", &Time(c.started_at))?;
        out.serialize_field("max_wait", &Span(c.max_wait))?;
        out.serialize_field("fail_fast", &c.fail_fast)?;
        out.serialize_field("stopped_by", &c.stopped_by)?;
        out.serialize_field("members", &members)?;
        out.end()
    }
}

struct MemberWire<'a>(&'a MemberCheckpoint);

impl Serialize for MemberWire<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (waiter, definition, input) = self.0.identity();
        let mut out = serializer.serialize_struct("MemberCheckpoint", 9)?;
        match self.0 {
            MemberCheckpoint::Waiting(checkpoint) => {
                out.serialize_field("state", "waiting")?;
                out.serialize_field("checkpoint", &Wire(checkpoint))?;
                return out.end();
            }
            MemberCheckpoint::Pending { .. } => out.serialize_field("state", "pending")?,
            MemberCheckpoint::Finished(_) => out.serialize_field("state", "finished")?,
        }
        out.serialize_field("waiter", waiter)?;
        out.serialize_field("definition", &hex(definition))?;
        out.serialize_field("input", &input.map(hex))?;
        if let MemberCheckpoint::Finished(outcome) = self.0 {
            out.serialize_field("outcome", outcome.ended.as_str())?;
            match outcome.ended {
                Ended::FailureState { acceptor } => out.serialize_field("acceptor", &acceptor)?,
                Ended::Stopped { by } => out.serialize_field("by", &by)?,
                _ => {}
            }
            out.serialize_field("polls", &outcome.polls)?;
            out.serialize_field("elapsed", &Span(outcome.elapsed))?;
            out.serialize_field("message", &outcome.message)?;
        }
        out.end()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for WaitAllCheckpoint {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        SetWire(self).serialize(serializer)
    }
}

/// Read through a JSON value, as [`WaitAllCheckpoint::from_json`] reads it.
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for WaitAllCheckpoint {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = <Value as serde::Deserialize>::deserialize(deserializer)?;
        WaitAllCheckpoint::from_value(&value).map_err(serde::de::Error::custom)
    }
}
