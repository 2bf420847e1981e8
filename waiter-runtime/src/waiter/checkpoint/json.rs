//! A checkpoint as JSON, with or without the `serde` feature: [`WaitCheckpoint::to_json`] and
//! [`WaitCheckpoint::from_json`] (serde and serde_json are dependencies of the crate anyway;
//! the feature adds no derive), and under `serde` the `Serialize`/`Deserialize` impls in the
//! same shape. Reading checks every
//! field: a truncated, edited or foreign text is a [`CheckpointError::Corrupt`], a newer or
//! unknown format a [`CheckpointError::Format`], never a panic.

use std::borrow::Cow;
use std::time::{Duration, SystemTime};

use serde::ser::{Serialize, SerializeStruct, Serializer};
use serde_json::{Map, Value};

use super::{CheckpointError, WaitCheckpoint};

impl WaitCheckpoint {
    /// The checkpoint as one line of JSON (the shape is in the waiter module's docs,
    /// "Checkpoints"); [`from_json`](Self::from_json) reads it back.
    ///
    /// ```
    /// use std::time::Duration;
    /// use waiter_runtime::waiter::{PollEvent, WaitCheckpoint};
    /// use waiter_runtime::waitable;
    ///
    /// #[waitable(Ready: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    /// async fn ping(host: &str) -> Result<(), std::io::Error> {
    ///     let _ = host;
    ///     Err(std::io::ErrorKind::TimedOut.into()) // transient: ridden out
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let mut saved = None;
    /// let _ = wait_until_ready("db-1")
    ///     .transient_poll_errors(waiter_runtime::waiter::TransientPollErrors::Retry)
    ///     .on_poll(|e: &PollEvent| saved = saved.take().or(e.checkpoint()))
    ///     .wait(Duration::from_secs(10))
    ///     .await;
    /// let checkpoint = saved.unwrap();
    /// let json = checkpoint.to_json();
    /// assert!(json.starts_with(r#"{"format":2,"waiter":"Ready","definition":""#), "{json}");
    /// assert_eq!(WaitCheckpoint::from_json(&json).unwrap(), checkpoint);
    /// // Truncated: an error, never a panic.
    /// assert!(WaitCheckpoint::from_json(&json[..json.len() / 2]).is_err());
    /// # }
    /// ```
    pub fn to_json(&self) -> String {
        // Writing a struct of strings and numbers cannot fail.
        serde_json::to_string(&Wire(self)).unwrap_or_default()
    }

    /// Reads a checkpoint [`to_json`](Self::to_json) wrote (or its `serde` form in JSON).
    /// Text that is not such a checkpoint (truncated, a field missing or of the wrong type, a
    /// number out of range) is [`CheckpointError::Corrupt`], saying what is wrong; a format
    /// other than [`FORMAT`](Self::FORMAT) is [`CheckpointError::Format`].
    pub fn from_json(text: &str) -> Result<Self, CheckpointError> {
        let value: Value =
            serde_json::from_str(text).map_err(|error| corrupt(error.to_string()))?;
        Self::from_value(&value)
    }

    /// The checkpoint a JSON value holds, checked field by field.
    pub(crate) fn from_value(value: &Value) -> Result<Self, CheckpointError> {
        let fields = Fields::of(value, "a checkpoint")?;
        let format = fields.format()?;
        if format != WaitCheckpoint::FORMAT {
            return Err(CheckpointError::Format {
                found: format,
                supported: WaitCheckpoint::FORMAT,
            });
        }
        Ok(WaitCheckpoint {
            format,
            waiter: Cow::Owned(fields.string("waiter")?.to_owned()),
            definition: fields.hex("definition")?,
            input: fields.optional_hex("input")?,
            started_at: fields.time("started_at")?,
            max_wait: fields.duration("max_wait")?,
            elapsed: fields.duration("elapsed")?,
            next_poll_in: fields.duration("next_poll_in")?,
            polls: fields.u32("polls")?,
            consecutive_successes: fields.u32("consecutive_successes")?,
            retries: fields.u32("retries")?,
            longest_poll: fields.duration("longest_poll")?,
            last_poll_planned: fields.bool("last_poll_planned")?,
            jitter: fields.hex("jitter")?,
        })
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for WaitCheckpoint {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Wire(self).serialize(serializer)
    }
}

/// Read through a JSON value, so any self-describing format (JSON, YAML, CBOR, MessagePack...)
/// holds the same shape, checked as [`WaitCheckpoint::from_json`] checks it.
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for WaitCheckpoint {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = <Value as serde::Deserialize>::deserialize(deserializer)?;
        WaitCheckpoint::from_value(&value).map_err(serde::de::Error::custom)
    }
}

pub(crate) fn corrupt(reason: impl Into<String>) -> CheckpointError {
    CheckpointError::Corrupt {
        reason: reason.into(),
    }
}

/// A fingerprint, digest or seed: 16 hexadecimal digits (a JSON number above 2^53 loses
/// digits in JavaScript and in some stores).
pub(crate) fn hex(value: u64) -> String {
    format!("{value:016x}")
}

/// A checkpoint as it is written: its fields in the documented order (serde_json's `Value`
/// would sort them).
pub(crate) struct Wire<'a>(pub(crate) &'a WaitCheckpoint);

impl Serialize for Wire<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let c = self.0;
        let mut out = serializer.serialize_struct("WaitCheckpoint", 14)?;
        out.serialize_field("format", &c.format)?;
        out.serialize_field("waiter", &c.waiter)?;
        out.serialize_field("definition", &hex(c.definition))?;
        out.serialize_field("input", &c.input.map(hex))?;
        out.serialize_field("started_at", &Time(c.started_at))?;
        out.serialize_field("max_wait", &Span(c.max_wait))?;
        out.serialize_field("elapsed", &Span(c.elapsed))?;
        out.serialize_field("next_poll_in", &Span(c.next_poll_in))?;
        out.serialize_field("polls", &c.polls)?;
        out.serialize_field("consecutive_successes", &c.consecutive_successes)?;
        out.serialize_field("retries", &c.retries)?;
        out.serialize_field("longest_poll", &Span(c.longest_poll))?;
        out.serialize_field("last_poll_planned", &c.last_poll_planned)?;
        out.serialize_field("jitter", &hex(c.jitter))?;
        out.end()
    }
}

/// A duration as serde writes one: `{"secs": .., "nanos": ..}`.
pub(crate) struct Span(pub(crate) Duration);

impl Serialize for Span {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("Duration", 2)?;
        out.serialize_field("secs", &self.0.as_secs())?;
        out.serialize_field("nanos", &self.0.subsec_nanos())?;
        out.end()
    }
}

/// A wall-clock time as serde writes one: seconds and nanoseconds since the Unix epoch (a
/// time before it, as the epoch).
pub(crate) struct Time(pub(crate) SystemTime);

impl Serialize for Time {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let since = self
            .0
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default();
        let mut out = serializer.serialize_struct("SystemTime", 2)?;
        out.serialize_field("secs_since_epoch", &since.as_secs())?;
        out.serialize_field("nanos_since_epoch", &since.subsec_nanos())?;
        out.end()
    }
}

/// The members of a JSON object, read with the errors a corrupt checkpoint gets.
pub(crate) struct Fields<'a>(&'a Map<String, Value>);

impl<'a> Fields<'a> {
    /// The members of `value`, which must be an object (`what` says of what, for the error).
    pub(crate) fn of(value: &'a Value, what: &str) -> Result<Self, CheckpointError> {
        value
            .as_object()
            .map(Fields)
            .ok_or_else(|| corrupt(format!("{what} is a JSON object, not `{}`", short(value))))
    }

    pub(crate) fn get(&self, name: &str) -> Result<&'a Value, CheckpointError> {
        self.0
            .get(name)
            .ok_or_else(|| corrupt(format!("`{name}` is missing")))
    }

    fn wrong(name: &str, expected: &str, value: &Value) -> CheckpointError {
        corrupt(format!("`{name}` is {expected}, not `{}`", short(value)))
    }

    /// `format`: `1` when absent (the first format had none).
    pub(crate) fn format(&self) -> Result<u32, CheckpointError> {
        match self.0.get("format") {
            None => Ok(1),
            Some(_) => self.u32("format"),
        }
    }

    pub(crate) fn u64(&self, name: &str) -> Result<u64, CheckpointError> {
        let value = self.get(name)?;
        value
            .as_u64()
            .ok_or_else(|| Self::wrong(name, "a whole number from 0 to 2^64 - 1", value))
    }

    pub(crate) fn u32(&self, name: &str) -> Result<u32, CheckpointError> {
        let value = self.get(name)?;
        value
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| Self::wrong(name, "a whole number from 0 to 2^32 - 1", value))
    }

    pub(crate) fn bool(&self, name: &str) -> Result<bool, CheckpointError> {
        let value = self.get(name)?;
        value
            .as_bool()
            .ok_or_else(|| Self::wrong(name, "`true` or `false`", value))
    }

    pub(crate) fn string(&self, name: &str) -> Result<&'a str, CheckpointError> {
        let value = self.get(name)?;
        value
            .as_str()
            .ok_or_else(|| Self::wrong(name, "a string", value))
    }

    pub(crate) fn hex(&self, name: &str) -> Result<u64, CheckpointError> {
        let value = self.get(name)?;
        value
            .as_str()
            .filter(|s| s.len() == 16)
            .and_then(|s| u64::from_str_radix(s, 16).ok())
            .ok_or_else(|| Self::wrong(name, "16 hexadecimal digits", value))
    }

    pub(crate) fn optional_hex(&self, name: &str) -> Result<Option<u64>, CheckpointError> {
        match self.get(name)? {
            Value::Null => Ok(None),
            _ => self.hex(name).map(Some),
        }
    }

    pub(crate) fn duration(&self, name: &str) -> Result<Duration, CheckpointError> {
        let (secs, nanos) = self.seconds(name, "secs", "nanos")?;
        Ok(Duration::new(secs, nanos))
    }

    pub(crate) fn time(&self, name: &str) -> Result<SystemTime, CheckpointError> {
        let (secs, nanos) = self.seconds(name, "secs_since_epoch", "nanos_since_epoch")?;
        SystemTime::UNIX_EPOCH
            .checked_add(Duration::new(secs, nanos))
            .ok_or_else(|| corrupt(format!("`{name}` is past the times this system holds")))
    }

    /// An object of whole seconds and nanoseconds below a second.
    fn seconds(&self, name: &str, secs: &str, nanos: &str) -> Result<(u64, u32), CheckpointError> {
        let value = self.get(name)?;
        let expected = format!("{{\"{secs}\": .., \"{nanos}\": ..}}");
        let inner = value
            .as_object()
            .map(Fields)
            .ok_or_else(|| Self::wrong(name, &expected, value))?;
        let whole = inner
            .u64(secs)
            .map_err(|_| Self::wrong(name, &expected, value))?;
        let part = inner
            .u32(nanos)
            .map_err(|_| Self::wrong(name, &expected, value))?;
        if part >= 1_000_000_000 {
            return Err(corrupt(format!(
                "`{name}.{nanos}` is {part}, not below 1000000000"
            )));
        }
        Ok((whole, part))
    }
}

/// A value for an error message, cut short.
fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}..", &text[..end]),
        None => text,
    }
}
