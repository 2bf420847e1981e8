//! The `@waitable` trait value as typed Rust: waiters, acceptors, matchers and comparators, as
//! [`read`](super::read) reads them from the node tree.

use proc_macro2::Span;
use syn::LitStr;

pub(crate) struct Waitable {
    pub waiters: Vec<WaiterDef>,
}

/// The spec's default `minDelay` and `maxDelay`, in seconds: this crate's one home for them.
/// The runtime's twins are `WaiterMetadata::DEFAULT_MIN_DELAY`/`DEFAULT_MAX_DELAY` (a proc-macro
/// crate exports only macros, so the runtime cannot read these);
/// `waiter-runtime/tests/waitable/macro_runtime_agreement.rs` keeps them equal.
pub(crate) const DEFAULT_MIN_DELAY_SECS: u64 = 2;
pub(crate) const DEFAULT_MAX_DELAY_SECS: u64 = 120;

pub(crate) struct WaiterDef {
    pub name: String,
    pub name_span: Span,
    pub documentation: Option<String>,
    pub acceptors: Vec<Acceptor>,
    /// How many acceptors were written (some may have failed to read).
    pub acceptors_written: usize,
    /// Span of the `acceptors` key, or of the waiter's braces when it is missing.
    pub acceptors_span: Span,
    pub min_delay: Option<(u64, Span)>,
    pub max_delay: Option<(u64, Span)>,
    pub deprecated: bool,
    pub tags: Vec<String>,
}

pub(crate) struct Acceptor {
    pub state: State,
    pub matcher: Matcher,
    pub message: Option<LitStr>,
    /// Span of the `message` key.
    pub message_key_span: Span,
    /// No error was found while reading it (its typed-path checks are worth running).
    pub read_cleanly: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum State {
    Success,
    Failure,
    Retry,
}

pub(crate) enum Matcher {
    Success(bool),
    ErrorType(LitStr),
    Output(PathMatcher),
    InputOutput(PathMatcher),
}

pub(crate) struct PathMatcher {
    pub path: LitStr,
    pub expected: LitStr,
    pub comparator: Comparator,
    /// Span of the `output`/`inputOutput` key.
    pub key_span: Span,
    /// `booleanEquals` with an `expected` other than "true"/"false" (reported once the path's
    /// type is known, saying which string comparator fits it): the path's comparator need is
    /// not checked too, its field chain is.
    pub expected_not_boolean: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[allow(clippy::enum_variant_names)] // the names are the spec's
pub(crate) enum Comparator {
    StringEquals,
    BooleanEquals,
    AllStringEquals,
    AnyStringEquals,
}

impl Comparator {
    pub fn name(self) -> &'static str {
        match self {
            Comparator::StringEquals => "stringEquals",
            Comparator::BooleanEquals => "booleanEquals",
            Comparator::AllStringEquals => "allStringEquals",
            Comparator::AnyStringEquals => "anyStringEquals",
        }
    }
}
