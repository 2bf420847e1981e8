//! Checkpoints: a wait another process can take up with the same deadline, poll count,
//! successes in a row, backoff position and jitter, bound to its waiter's definition and to
//! the input it polls ([`WaitCheckpoint`], [`CheckpointError`]); their JSON form (`json`).

mod error;
pub(crate) mod json;

use std::borrow::Cow;
use std::time::{Duration, SystemTime};

use tokio::time::Instant;

pub use error::CheckpointError;

use super::input::InputId;
use super::metadata::WaiterMetadata;

/// Where a wait stood after one of its polls, as plain data: taken with
/// [`PollEvent::checkpoint`](super::PollEvent::checkpoint), saved anywhere as JSON
/// ([`to_json`](Self::to_json), [`from_json`](Self::from_json); with the `serde` feature it is
/// `Serialize` and `Deserialize` in the same shape), and taken up with
/// [`Waiter::resume`](super::Waiter::resume), in this process or another.
///
/// **What it is bound to.** A checkpoint records its format version ([`FORMAT`](Self::FORMAT)),
/// the waiter's name, a fingerprint of the waiter's definition (its acceptors and delays,
/// computed by `#[waitable]`), and the identity of the input the wait polls (a digest of the
/// `wait_until_*` arguments: see [`InputIdentity`](super::InputIdentity)). Resuming it with
/// another waiter, another definition (an upgrade changed the acceptors or delays), on another
/// input (`wait_until_stream_exists("B")` with stream `A`'s checkpoint), or from a newer or
/// unknown format is a [`CheckpointError`] naming the difference: never a silent resume, never
/// a fresh start. A corrupt or truncated one is an error too, never a panic.
///
/// **What it keeps.** The wait's start by the wall clock (`started_at`): the resumed wait keeps
/// the deadline `started_at + max_wait`, counting the time the wait was not running (a
/// restart) by the wall clock (each process reads it once, then counts on its monotonic
/// clock). The polls, the successes in a row, the backoff position and the
/// jitter's seed go on where they were, so the resumed wait draws the delays the whole wait
/// would have. The next poll is due at `started_at + elapsed + next_poll_in`
/// ([`next_poll_at`](Self::next_poll_at)): the resumed wait sleeps what remained of that delay,
/// not a new one, and polls at once if that time has passed (never past its deadline).
///
/// **What to keep beside it.** Nothing the resume reads: the input's identity is in it. To
/// build the waiter again, you need the `wait_until_*` arguments (a deploy tool keys its
/// store by resource: the key says which), and the same options as the first process
/// (`min_delay`, retries...). The waiter module's docs ("Checkpoints") give the JSON shape and
/// how a store keeps two processes from resuming one wait.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::{Searchable, waitable};
/// use waiter_runtime::waiter::{PollEvent, WaitCheckpoint};
///
/// #[derive(Debug, Searchable)]
/// struct Stack { status: String }
///
/// #[waitable(Ready: { acceptors: [{ state: "success", matcher: { output: {
///     path: "status", expected: "READY", comparator: "stringEquals" } } }] })]
/// async fn get_stack(name: &str) -> Result<Stack, std::io::Error> {
///     let _ = name;
///     Ok(Stack { status: "CREATING".into() })
/// }
///
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// // Save the latest checkpoint after every poll (to a file, a database...).
/// let mut saved: Option<String> = None;
/// let _ = wait_until_ready("web")
///     .on_poll(|e: &PollEvent| if let Some(c) = e.checkpoint() { saved = Some(c.to_json()) })
///     .wait(Duration::from_secs(30))
///     .await;
/// let saved = WaitCheckpoint::from_json(&saved.unwrap()).unwrap();
/// assert_eq!((saved.waiter.as_ref(), saved.max_wait), ("Ready", Duration::from_secs(30)));
/// assert!(saved.polls > 1);
/// assert_eq!(saved.format, WaitCheckpoint::FORMAT);
/// // Bound to its definition (`READY_WAITER` is the metadata `#[waitable]` emits) and input.
/// assert_eq!(saved.definition, READY_WAITER.fingerprint);
/// assert!(saved.input.is_some());
/// # }
/// ```
///
/// [`Waiter::resume`](super::Waiter::resume) shows a wait dropped and taken up.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaitCheckpoint {
    /// The checkpoint's format version: [`FORMAT`](Self::FORMAT) for the checkpoints this
    /// version takes; a checkpoint without one (the first format) reads as `1`.
    pub format: u32,
    /// The waiter's name: [`Waiter::resume`](super::Waiter::resume) takes up only a
    /// checkpoint of the same waiter.
    pub waiter: Cow<'static, str>,
    /// The fingerprint of the waiter's definition
    /// ([`WaiterMetadata::fingerprint`](super::WaiterMetadata::fingerprint)).
    pub definition: u64,
    /// The identity of the input the wait polls (an [`InputDigest`](super::InputDigest) of
    /// the `wait_until_*` arguments, or of [`checkpoint_key`](super::Waiter::checkpoint_key)'s
    /// key); `None` when an argument has no [`InputIdentity`](super::InputIdentity).
    pub input: Option<u64>,
    /// When the wait started, by the wall clock.
    pub started_at: SystemTime,
    /// The wait's maximum: the deadline is `started_at + max_wait`.
    pub max_wait: Duration,
    /// Time from the start of the wait to the end of the checkpoint's poll, by the waiter's
    /// clock.
    pub elapsed: Duration,
    /// The delay the wait had planned before its next poll.
    pub next_poll_in: Duration,
    /// Polls made so far.
    pub polls: u32,
    /// Polls in a row that matched `success` so far.
    pub consecutive_successes: u32,
    /// The backoff position: the retries so far (the spec's attempt number).
    pub retries: u32,
    /// The longest poll so far (it sets the last poll's head start).
    pub longest_poll: Duration,
    /// Whether the wait had planned its last poll (the next one ends the wait).
    pub last_poll_planned: bool,
    /// The seed of the wait's jitter: the resumed wait draws the delays the whole wait would
    /// have.
    pub jitter: u64,
}

impl WaitCheckpoint {
    /// The format of the checkpoints this version writes and takes up. `1` was the first
    /// (no format, no definition, no input: it cannot be checked, so it is refused).
    pub const FORMAT: u32 = 2;

    /// When the wait's next poll is due, by the wall clock: `started_at + elapsed +
    /// next_poll_in` (`None` past the times a `SystemTime` holds).
    pub fn next_poll_at(&self) -> Option<SystemTime> {
        self.started_at
            .checked_add(self.elapsed.saturating_add(self.next_poll_in))
    }

    /// The wait's deadline, by the wall clock: `started_at + max_wait` (`None` past the times
    /// a `SystemTime` holds: no deadline).
    pub fn deadline(&self) -> Option<SystemTime> {
        self.started_at.checked_add(self.max_wait)
    }
}

/// When a wait started: by the wall clock (a resumed wait, from its checkpoint), or on the
/// waiter's clock, turned into wall-clock time only when a checkpoint is taken (so that a wait
/// that takes none never reads the wall clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Started {
    At(SystemTime),
    Clock(Instant),
}

impl Started {
    /// The start by the wall clock (as [`timer::wall_now`](crate::timer::wall_now) reads it).
    pub(crate) fn wall(self) -> SystemTime {
        match self {
            Started::At(at) => at,
            Started::Clock(start) => {
                let elapsed = crate::timer::now().saturating_duration_since(start);
                let now = crate::timer::wall_now();
                now.checked_sub(elapsed).unwrap_or(now)
            }
        }
    }
}

/// What a wait is bound to: its waiter's definition and its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Binding {
    pub(crate) definition: u64,
    pub(crate) input: InputId,
}

/// What the decision core needs to know of a wait to take it up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Progress {
    pub(crate) started: Started,
    pub(crate) max_wait: Duration,
    pub(crate) retries: u32,
    pub(crate) longest_poll: Duration,
    pub(crate) last_poll_planned: bool,
    pub(crate) jitter: u64,
    pub(crate) binding: Binding,
}

/// A checkpoint checked against a waiter, ready for its decision core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Resume {
    pub(crate) progress: Progress,
    /// The checkpoint's own `elapsed` and `next_poll_in`.
    pub(crate) elapsed: Duration,
    pub(crate) next_poll_in: Duration,
    pub(crate) polls: u32,
    pub(crate) consecutive_successes: u32,
}

impl Resume {
    /// Checks `checkpoint` against the waiter described by `metadata`, polling `input`: the
    /// format, the waiter, its definition, its input, the values, the deadline, in this order.
    pub(crate) fn check(
        metadata: &WaiterMetadata,
        input: InputId,
        checkpoint: &WaitCheckpoint,
    ) -> Result<Self, CheckpointError> {
        let waiter = metadata.name;
        if checkpoint.format != WaitCheckpoint::FORMAT {
            return Err(CheckpointError::Format {
                found: checkpoint.format,
                supported: WaitCheckpoint::FORMAT,
            });
        }
        check_binding(
            metadata,
            input,
            (&checkpoint.waiter, checkpoint.definition, checkpoint.input),
        )?;
        if checkpoint.polls == 0 || checkpoint.consecutive_successes > checkpoint.polls {
            return Err(CheckpointError::Corrupt {
                reason: format!(
                    "{} successes in a row out of {} polls (a checkpoint is taken after a poll)",
                    checkpoint.consecutive_successes, checkpoint.polls
                ),
            });
        }
        let resume = Resume {
            progress: Progress {
                started: Started::At(checkpoint.started_at),
                max_wait: checkpoint.max_wait,
                retries: checkpoint.retries,
                longest_poll: checkpoint.longest_poll,
                last_poll_planned: checkpoint.last_poll_planned,
                jitter: checkpoint.jitter,
                binding: Binding {
                    definition: checkpoint.definition,
                    input,
                },
            },
            elapsed: checkpoint.elapsed,
            next_poll_in: checkpoint.next_poll_in,
            polls: checkpoint.polls,
            consecutive_successes: checkpoint.consecutive_successes,
        };
        resume.start(waiter, crate::timer::now()).map(|_| resume)
    }

    /// Time since the wait started: the wall clock's count, or the checkpoint's own if more
    /// (a wall clock set back, or a clock that does not follow the wall clock, such as
    /// tokio's paused one).
    pub(crate) fn elapsed_now(&self) -> Duration {
        let wall = crate::timer::wall_now()
            .duration_since(self.progress.started.wall())
            .unwrap_or_default();
        wall.max(self.elapsed)
    }

    /// The resumed wait's start on the monotonic clock whose time is `now`, and the time
    /// since it.
    pub(crate) fn start(
        &self,
        waiter: &'static str,
        now: Instant,
    ) -> Result<(Instant, Duration), CheckpointError> {
        let elapsed = self.elapsed_now();
        if elapsed >= self.progress.max_wait {
            return Err(CheckpointError::DeadlinePassed {
                waiter,
                max_wait: self.progress.max_wait,
                elapsed,
            });
        }
        match now.checked_sub(elapsed) {
            Some(start) => Ok((start, elapsed)),
            None => Err(CheckpointError::OutOfClockRange { waiter, elapsed }),
        }
    }

    /// The delay left, at `elapsed` into the wait, before the poll the checkpoint planned
    /// (the decision core clamps it to the time left).
    pub(crate) fn first_delay(&self, elapsed: Duration) -> Duration {
        self.elapsed
            .saturating_add(self.next_poll_in)
            .saturating_sub(elapsed)
    }
}

/// Checks that what a checkpoint says it waited on (`(waiter, definition, input)`) is the
/// waiter described by `metadata`, polling `input`: the same waiter, the same definition, the
/// same input (which it must be able to tell).
pub(crate) fn check_binding(
    metadata: &WaiterMetadata,
    input: InputId,
    (name, definition, recorded): (&str, u64, Option<u64>),
) -> Result<(), CheckpointError> {
    let waiter = metadata.name;
    if name != waiter {
        return Err(CheckpointError::OtherWaiter {
            waiter,
            checkpoint: name.to_owned(),
        });
    }
    if definition != metadata.fingerprint {
        return Err(CheckpointError::OtherDefinition {
            waiter,
            checkpoint: definition,
            current: metadata.fingerprint,
        });
    }
    let digest = match input {
        InputId::Digest(digest) => digest,
        InputId::Unidentified(argument) => {
            return Err(CheckpointError::InputNotIdentified { waiter, argument });
        }
    };
    if recorded != Some(digest) {
        return Err(CheckpointError::OtherInput {
            waiter,
            checkpoint: recorded,
            current: digest,
        });
    }
    Ok(())
}

impl Progress {
    /// The checkpoint after a poll that leaves the wait going on.
    pub(crate) fn checkpoint(
        &self,
        waiter: &'static str,
        polls: u32,
        consecutive_successes: u32,
        elapsed: Duration,
        next_poll_in: Duration,
    ) -> WaitCheckpoint {
        WaitCheckpoint {
            format: WaitCheckpoint::FORMAT,
            waiter: Cow::Borrowed(waiter),
            definition: self.binding.definition,
            input: self.binding.input.digest(),
            started_at: self.started.wall(),
            max_wait: self.max_wait,
            elapsed,
            next_poll_in,
            polls,
            consecutive_successes,
            retries: self.retries,
            longest_poll: self.longest_poll,
            last_poll_planned: self.last_poll_planned,
            jitter: self.jitter,
        }
    }
}
