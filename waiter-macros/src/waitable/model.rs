//! The `@waitable` trait value as typed Rust: waiters, acceptors, matchers and comparators, as
//! [`read`](super::read) reads them from the node tree (or [`file`](super::file) from a model
//! file: botocore's add the `status` matcher and a published maximum wait).

use proc_macro2::Span;
use syn::LitStr;

pub(crate) struct Waitable {
    pub waiters: Vec<WaiterDef>,
    /// The model file the waiters were read from (`botocore = ".."`, `smithy = ".."`); `None`
    /// for a pasted trait value.
    pub origin: Option<Origin>,
}

/// Where the waiters of a `#[waitable(botocore = "..")]` or `smithy = ".."` come from: what
/// messages name, since every token of them is the attribute's path.
pub(crate) struct Origin {
    /// The path as the attribute writes it.
    pub file: String,
    /// `botocore` or `smithy`.
    pub format: &'static str,
}

impl Origin {
    /// What a message about acceptor `index` (from 0) of `waiter` starts with.
    pub fn acceptor(&self, waiter: &str, index: usize) -> String {
        format!(
            "`{}`, waiter `{waiter}`, acceptor {}: ",
            self.file,
            index + 1
        )
    }

    /// What a message about `waiter` starts with.
    pub fn waiter(&self, waiter: &str) -> String {
        format!("`{}`, waiter `{waiter}`: ", self.file)
    }

    /// The file, as the waiter's rustdoc names it.
    pub fn describe(&self) -> String {
        let what = match self.format {
            "botocore" => "botocore's",
            _ => "the Smithy model",
        };
        format!("{what} `{}`", self.file)
    }
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
    /// botocore's `delay` x `maxAttempts`, in seconds (`None` for Smithy waiters).
    pub published_max_wait: Option<u64>,
    /// The model file it was read from, as the rustdoc says it (`None`: pasted).
    pub read_from: Option<String>,
}

impl WaiterDef {
    /// A waiter of which only the name is known: what the fallback declares, so that callers
    /// compile while the attribute reports its errors.
    pub fn named(name: String, span: Span) -> WaiterDef {
        WaiterDef {
            name,
            name_span: span,
            documentation: None,
            acceptors: Vec::new(),
            acceptors_written: 0,
            acceptors_span: span,
            min_delay: None,
            max_delay: None,
            deprecated: false,
            tags: Vec::new(),
            published_max_wait: None,
            read_from: None,
        }
    }
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
    /// botocore's `status`: the HTTP status of the answer (read from botocore files only: the
    /// Smithy model has no such matcher).
    Status(u16, Span),
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
