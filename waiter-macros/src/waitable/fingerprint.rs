//! The fingerprint of a waiter's definition: what `WaiterMetadata::fingerprint` holds, and
//! what a checkpoint records so that a changed waiter refuses its old checkpoints.
//!
//! It covers what decides a wait: the delays (the spec's defaults when the model omits them,
//! so that writing `minDelay: 2` changes nothing) and every acceptor in order (its state and
//! matcher). Not the documentation, tags, deprecation, failure messages, the model file it was
//! read from or the maximum wait it publishes, which change no poll's meaning. The definition is written as a canonical text ([`canonical`]), hashed with
//! the crate's one FNV-1a. A new matcher kind adds one case to [`matcher`], with a name of its
//! own; the others' texts, so every fingerprint taken before, stay as they are.

use super::model::{
    Acceptor, Comparator, DEFAULT_MAX_DELAY_SECS, DEFAULT_MIN_DELAY_SECS, Matcher, PathMatcher,
    State, WaiterDef,
};
use crate::typed_paths::description::hash;

/// The fingerprint of `waiter`'s definition.
pub(crate) fn fingerprint(waiter: &WaiterDef) -> u64 {
    hash(&canonical(waiter))
}

/// The definition as one text: `v1;min=2;max=120;success:output(...)...`, each string
/// length-prefixed so that no two definitions write the same text.
fn canonical(waiter: &WaiterDef) -> String {
    let min = waiter.min_delay.map_or(DEFAULT_MIN_DELAY_SECS, |(d, _)| d);
    let max = waiter.max_delay.map_or(DEFAULT_MAX_DELAY_SECS, |(d, _)| d);
    let mut text = format!("v1;min={min};max={max}");
    for acceptor in &waiter.acceptors {
        text.push(';');
        text.push_str(&self::acceptor(acceptor));
    }
    text
}

fn acceptor(acceptor: &Acceptor) -> String {
    let state = match acceptor.state {
        State::Success => "success",
        State::Failure => "failure",
        State::Retry => "retry",
    };
    format!("{state}:{}", matcher(&acceptor.matcher))
}

/// One case per matcher kind.
fn matcher(matcher: &Matcher) -> String {
    match matcher {
        Matcher::Success(expected) => format!("success({expected})"),
        Matcher::ErrorType(code) => format!("errorType({})", string(&code.value())),
        Matcher::Output(path) => format!("output({})", self::path(path)),
        Matcher::InputOutput(path) => format!("inputOutput({})", self::path(path)),
        Matcher::Status(status, _) => format!("status({status})"),
    }
}

fn path(m: &PathMatcher) -> String {
    let comparator = match m.comparator {
        Comparator::StringEquals => "stringEquals",
        Comparator::BooleanEquals => "booleanEquals",
        Comparator::AllStringEquals => "allStringEquals",
        Comparator::AnyStringEquals => "anyStringEquals",
    };
    format!(
        "{},{comparator},{}",
        string(&m.path.value()),
        string(&m.expected.value())
    )
}

/// A string with its length: `6:ACTIVE`.
fn string(s: &str) -> String {
    format!("{}:{s}", s.len())
}

#[cfg(test)]
mod tests {
    use proc_macro2::Span;
    use syn::LitStr;

    use super::*;

    fn waiter(acceptors: Vec<Acceptor>, min_delay: Option<u64>) -> WaiterDef {
        let mut waiter = WaiterDef::named("StreamExists".into(), Span::call_site());
        waiter.acceptors_written = acceptors.len();
        waiter.acceptors = acceptors;
        waiter.min_delay = min_delay.map(|d| (d, Span::call_site()));
        waiter
    }

    fn acceptor(state: State, matcher: Matcher) -> Acceptor {
        Acceptor {
            state,
            matcher,
            message: None,
            message_key_span: Span::call_site(),
            read_cleanly: true,
        }
    }

    fn lit(s: &str) -> LitStr {
        LitStr::new(s, Span::call_site())
    }

    fn output(path: &str, expected: &str) -> Matcher {
        Matcher::Output(PathMatcher {
            path: lit(path),
            expected: lit(expected),
            comparator: Comparator::StringEquals,
            key_span: Span::call_site(),
            expected_not_boolean: false,
        })
    }

    fn stream_exists() -> Vec<Acceptor> {
        vec![
            acceptor(
                State::Success,
                output("StreamDescription.StreamStatus", "ACTIVE"),
            ),
            acceptor(
                State::Retry,
                Matcher::ErrorType(lit("ResourceNotFoundException")),
            ),
        ]
    }

    #[test]
    fn the_definition_is_one_canonical_text() {
        assert_eq!(
            canonical(&waiter(stream_exists(), None)),
            "v1;min=2;max=120;success:output(30:StreamDescription.StreamStatus,stringEquals,6:ACTIVE);retry:errorType(25:ResourceNotFoundException)"
        );
    }

    /// Stored checkpoints hold fingerprints: a change of this value refuses every checkpoint
    /// taken before it, so it is pinned.
    #[test]
    fn fingerprints_are_pinned() {
        assert_eq!(
            fingerprint(&waiter(stream_exists(), None)),
            0x09be_25d3_817a_fb2d
        );
    }

    #[test]
    fn what_decides_a_wait_changes_it_and_nothing_else_does() {
        let base = fingerprint(&waiter(stream_exists(), None));
        // The spec's default, written out: the same definition.
        assert_eq!(fingerprint(&waiter(stream_exists(), Some(2))), base);
        let mut documented = waiter(stream_exists(), None);
        documented.documentation = Some("Waits for a stream.".into());
        documented.tags = vec!["kinesis".into()];
        assert_eq!(fingerprint(&documented), base);
        // A delay, a state, an expected value, the order: another definition.
        assert_ne!(fingerprint(&waiter(stream_exists(), Some(10))), base);
        let mut acceptors = stream_exists();
        acceptors[1].state = State::Failure;
        assert_ne!(fingerprint(&waiter(acceptors, None)), base);
        let mut acceptors = stream_exists();
        acceptors[0].matcher = output("StreamDescription.StreamStatus", "UPDATING");
        assert_ne!(fingerprint(&waiter(acceptors, None)), base);
        let mut acceptors = stream_exists();
        acceptors.reverse();
        assert_ne!(fingerprint(&waiter(acceptors, None)), base);
        // botocore's `status` matcher: its status is part of it.
        let status = |code| {
            let mut acceptors = stream_exists();
            acceptors[1].matcher = Matcher::Status(code, Span::call_site());
            fingerprint(&waiter(acceptors, None))
        };
        assert_ne!(status(404), base);
        assert_ne!(status(404), status(410));
        // Where the model came from, and the maximum wait it publishes, decide no poll.
        let mut read = waiter(stream_exists(), None);
        read.read_from = Some("kinesis/2013-12-02/waiters-2.json".into());
        read.published_max_wait = Some(180);
        assert_eq!(fingerprint(&read), base);
    }
}
