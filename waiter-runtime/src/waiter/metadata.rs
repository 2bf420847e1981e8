//! What a Smithy model says about one waiter, readable at compile time.

use std::fmt;
use std::time::Duration;

use super::AcceptorState;
use crate::poll_scope::NamedErrors;

/// A waiter's static description: `#[waitable]` emits one as a `const` beside each waiter
/// function (`BUCKET_EXISTS_WAITER` for `BucketExists`).
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::waiter::{AcceptorDescription, AcceptorState, MatcherDescription, WaiterMetadata};
///
/// const META: WaiterMetadata = WaiterMetadata::new("BucketExists", "head_bucket")
///     .with_delays(Duration::from_secs(5), Duration::from_secs(60))
///     .with_tags(&["s3"])
///     .with_acceptors(&[
///         AcceptorDescription::new(AcceptorState::Success, MatcherDescription::Success(true)),
///         AcceptorDescription::new(AcceptorState::Retry, MatcherDescription::ErrorType("NotFound")),
///     ]);
/// assert_eq!(META.min_delay, Duration::from_secs(5));
/// assert_eq!(META.tags, ["s3"]);
/// assert!(META.named_errors().names(Some("NotFound")));
/// assert!(!META.named_errors().names(Some("Throttling")));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaiterMetadata {
    /// The waiter's name as the model writes it (`BucketExists`).
    pub name: &'static str,
    /// The Rust function the waiter polls (`head_bucket`).
    pub operation: &'static str,
    /// The model's `documentation`, if any.
    pub documentation: Option<&'static str>,
    /// `minDelay` (default [`DEFAULT_MIN_DELAY`](Self::DEFAULT_MIN_DELAY), 2 s).
    pub min_delay: Duration,
    /// `maxDelay` (default [`DEFAULT_MAX_DELAY`](Self::DEFAULT_MAX_DELAY), 120 s).
    pub max_delay: Duration,
    /// `deprecated` (default `false`).
    pub deprecated: bool,
    /// `tags` (default empty).
    pub tags: &'static [&'static str],
    /// The acceptors, in order (empty when not described: a hand-written waiter).
    pub acceptors: &'static [AcceptorDescription],
    /// A fingerprint of the waiter's definition (its acceptors and delays), computed by
    /// `#[waitable]` when it expands: a checkpoint taken under another definition is refused
    /// ([`CheckpointError::OtherDefinition`](super::CheckpointError::OtherDefinition)). `0`
    /// for metadata made by hand, unless [`with_fingerprint`](Self::with_fingerprint) says
    /// otherwise.
    pub fingerprint: u64,
    /// The longest wait the model publishes, for a waiter read from botocore's
    /// `waiters-2.json`: its `delay` x `maxAttempts` (`None` for a Smithy waiter, whose caller
    /// alone chooses the maximum wait). A value to give `.wait(..)`, never applied by itself.
    pub published_max_wait: Option<Duration>,
}

impl WaiterMetadata {
    /// The spec's default `minDelay`: 2 seconds. The one place the runtime spells it.
    pub const DEFAULT_MIN_DELAY: Duration = Duration::from_secs(2);
    /// The spec's default `maxDelay`: 120 seconds. The one place the runtime spells it.
    pub const DEFAULT_MAX_DELAY: Duration = Duration::from_secs(120);

    /// A waiter with the spec's defaults.
    pub const fn new(name: &'static str, operation: &'static str) -> Self {
        WaiterMetadata {
            name,
            operation,
            documentation: None,
            min_delay: Self::DEFAULT_MIN_DELAY,
            max_delay: Self::DEFAULT_MAX_DELAY,
            deprecated: false,
            tags: &[],
            acceptors: &[],
            fingerprint: 0,
            published_max_wait: None,
        }
    }

    /// Sets `minDelay` and `maxDelay`.
    pub const fn with_delays(mut self, min_delay: Duration, max_delay: Duration) -> Self {
        self.min_delay = min_delay;
        self.max_delay = max_delay;
        self
    }

    /// Sets `minDelay` only (`maxDelay` keeps its value).
    pub const fn with_min_delay(mut self, min_delay: Duration) -> Self {
        self.min_delay = min_delay;
        self
    }

    /// Sets `maxDelay` only (`minDelay` keeps its value).
    pub const fn with_max_delay(mut self, max_delay: Duration) -> Self {
        self.max_delay = max_delay;
        self
    }

    /// Sets `documentation`.
    pub const fn with_documentation(mut self, documentation: &'static str) -> Self {
        self.documentation = Some(documentation);
        self
    }

    /// Sets `deprecated`.
    pub const fn with_deprecated(mut self, deprecated: bool) -> Self {
        self.deprecated = deprecated;
        self
    }

    /// Sets `tags`.
    pub const fn with_tags(mut self, tags: &'static [&'static str]) -> Self {
        self.tags = tags;
        self
    }

    /// Sets the published maximum wait (botocore's `delay` x `maxAttempts`).
    ///
    /// ```
    /// use std::time::Duration;
    /// use waiter_runtime::waiter::WaiterMetadata;
    ///
    /// // DynamoDB's `TableExists` in botocore: `delay` 20, `maxAttempts` 25.
    /// const META: WaiterMetadata = WaiterMetadata::new("TableExists", "describe_table")
    ///     .with_published_max_wait(Duration::from_secs(20 * 25));
    /// assert_eq!(META.published_max_wait, Some(Duration::from_secs(500)));
    /// ```
    pub const fn with_published_max_wait(mut self, max_wait: Duration) -> Self {
        self.published_max_wait = Some(max_wait);
        self
    }

    /// Describes the acceptors, in the model's order (`#[waitable]` always does).
    pub const fn with_acceptors(mut self, acceptors: &'static [AcceptorDescription]) -> Self {
        self.acceptors = acceptors;
        self
    }

    /// Sets the fingerprint of the waiter's definition (`#[waitable]` always does; a waiter
    /// written by hand sets one, and changes it when its acceptors or delays change, to have
    /// its old checkpoints refused).
    pub const fn with_fingerprint(mut self, fingerprint: u64) -> Self {
        self.fingerprint = fingerprint;
        self
    }

    /// The errors the acceptors name, which a retry layer inside a poll returns at once: the
    /// `errorType` codes and the HTTP statuses of `status` matchers, or every error when an
    /// acceptor is `success: false`. A waiter whose acceptors are not described names every
    /// error (its polls make one attempt each).
    ///
    /// ```
    /// use waiter_runtime::waiter::{AcceptorDescription, AcceptorState, MatcherDescription, WaiterMetadata};
    ///
    /// let hand_written = WaiterMetadata::new("Ready", "get");
    /// assert!(hand_written.named_errors().is_every());
    /// const ANY_ERROR_FAILS: WaiterMetadata = WaiterMetadata::new("Ready", "get").with_acceptors(&[
    ///     AcceptorDescription::new(AcceptorState::Success, MatcherDescription::Success(true)),
    ///     AcceptorDescription::new(AcceptorState::Failure, MatcherDescription::Success(false)),
    /// ]);
    /// assert!(ANY_ERROR_FAILS.named_errors().is_every());
    /// ```
    pub fn named_errors(&self) -> NamedErrors {
        if self.acceptors.is_empty()
            || self
                .acceptors
                .iter()
                .any(|a| a.matcher == MatcherDescription::Success(false))
        {
            return NamedErrors::every();
        }
        NamedErrors::codes(self.acceptors.iter().filter_map(|a| match a.matcher {
            MatcherDescription::ErrorType(code) => Some(code),
            _ => None,
        }))
        .with_statuses(self.acceptors.iter().filter_map(|a| match a.matcher {
            MatcherDescription::Status(status) => Some(status),
            _ => None,
        }))
    }
}

/// One acceptor of a waiter, as the model writes it: for messages, and for the errors a retry
/// layer must leave to the waiter ([`WaiterMetadata::named_errors`]).
///
/// `Display` reads as the model does: the state, then what the acceptor matches
/// ([`MatcherDescription`]'s `Display` alone is the matcher):
///
/// ```
/// use waiter_runtime::waiter::{AcceptorDescription, AcceptorState, Comparator, MatcherDescription};
///
/// let rollback = AcceptorDescription::new(
///     AcceptorState::Failure,
///     MatcherDescription::Output {
///         path: "Stacks[].StackStatus",
///         comparator: Comparator::AnyStringEquals,
///         expected: "ROLLBACK_COMPLETE",
///     },
/// );
/// assert_eq!(
///     rollback.to_string(),
///     r#"failure when Stacks[].StackStatus anyStringEquals "ROLLBACK_COMPLETE""#
/// );
/// assert_eq!(
///     rollback.matcher.to_string(),
///     r#"Stacks[].StackStatus anyStringEquals "ROLLBACK_COMPLETE""#
/// );
/// let missing = AcceptorDescription::new(AcceptorState::Retry, MatcherDescription::ErrorType("ResourceNotFoundException"));
/// assert_eq!(missing.to_string(), "retry when errorType ResourceNotFoundException");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AcceptorDescription {
    /// The state the acceptor moves the waiter to.
    pub state: AcceptorState,
    /// What it matches.
    pub matcher: MatcherDescription,
}

impl AcceptorDescription {
    /// An acceptor moving to `state` when `matcher` matches.
    pub const fn new(state: AcceptorState, matcher: MatcherDescription) -> Self {
        AcceptorDescription { state, matcher }
    }
}

impl fmt::Display for AcceptorDescription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} when {}", self.state, self.matcher)
    }
}

/// An acceptor's matcher, as the model writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatcherDescription {
    /// `success: true` (any successful response) or `success: false` (any error).
    Success(bool),
    /// `errorType`: the error's code (a shape name or absolute shape ID).
    ErrorType(&'static str),
    /// `output`: a JMESPath expression on the output, compared with `expected`.
    Output {
        /// The JMESPath expression.
        path: &'static str,
        /// The comparator.
        comparator: Comparator,
        /// The expected value, as the model writes it.
        expected: &'static str,
    },
    /// `inputOutput`: a JMESPath expression on `{input, output}`, compared with `expected`.
    InputOutput {
        /// The JMESPath expression.
        path: &'static str,
        /// The comparator.
        comparator: Comparator,
        /// The expected value, as the model writes it.
        expected: &'static str,
    },
    /// botocore's `status`: the answer's HTTP status (an error's
    /// [`http_status`](crate::ProvideErrorMetadata::http_status), an output's
    /// [`OutputStatus`](crate::OutputStatus), 200 when it says nothing).
    Status(u16),
}

impl fmt::Display for MatcherDescription {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (prefix, path, comparator, expected) = match *self {
            MatcherDescription::Success(expected) => return write!(f, "success {expected}"),
            MatcherDescription::ErrorType(code) => return write!(f, "errorType {code}"),
            MatcherDescription::Status(status) => return write!(f, "status {status}"),
            MatcherDescription::Output {
                path,
                comparator,
                expected,
            } => ("", path, comparator, expected),
            MatcherDescription::InputOutput {
                path,
                comparator,
                expected,
            } => ("inputOutput ", path, comparator, expected),
        };
        write!(f, "{prefix}{path} {comparator} ")?;
        match comparator {
            Comparator::BooleanEquals => f.write_str(expected),
            _ => write!(f, "{expected:?}"),
        }
    }
}

/// A path matcher's comparator (Smithy's `PathComparator`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Comparator {
    /// `stringEquals`
    StringEquals,
    /// `booleanEquals`
    BooleanEquals,
    /// `allStringEquals`
    AllStringEquals,
    /// `anyStringEquals`
    AnyStringEquals,
}

impl Comparator {
    /// The comparator's name as a model writes it.
    ///
    /// ```
    /// use waiter_runtime::waiter::Comparator;
    /// assert_eq!(Comparator::AnyStringEquals.as_str(), "anyStringEquals");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Comparator::StringEquals => "stringEquals",
            Comparator::BooleanEquals => "booleanEquals",
            Comparator::AllStringEquals => "allStringEquals",
            Comparator::AnyStringEquals => "anyStringEquals",
        }
    }
}

impl fmt::Display for Comparator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_errors_are_the_error_type_codes() {
        const ACCEPTORS: &[AcceptorDescription] = &[
            AcceptorDescription::new(AcceptorState::Success, MatcherDescription::Success(true)),
            AcceptorDescription::new(
                AcceptorState::Retry,
                MatcherDescription::ErrorType("com.amazonaws.ec2#InvalidInstanceID.NotFound"),
            ),
            AcceptorDescription::new(
                AcceptorState::Failure,
                MatcherDescription::ErrorType("ValidationError"),
            ),
        ];
        let named = WaiterMetadata::new("W", "op")
            .with_acceptors(ACCEPTORS)
            .named_errors();
        assert!(named.names(Some("InvalidInstanceID.NotFound")));
        assert!(named.names(Some("ValidationError")));
        assert!(!named.names(Some("RequestLimitExceeded")));
        assert!(!named.names(None));
        assert!(!named.names_status(Some(404)));
    }

    #[test]
    fn named_errors_include_the_statuses_of_status_matchers() {
        // S3's `BucketExists` in botocore.
        const ACCEPTORS: &[AcceptorDescription] = &[
            AcceptorDescription::new(AcceptorState::Success, MatcherDescription::Status(200)),
            AcceptorDescription::new(AcceptorState::Success, MatcherDescription::Status(403)),
            AcceptorDescription::new(AcceptorState::Retry, MatcherDescription::Status(404)),
        ];
        let named = WaiterMetadata::new("BucketExists", "head_bucket")
            .with_acceptors(ACCEPTORS)
            .named_errors();
        assert!(named.names_status(Some(404)));
        assert!(named.names_status(Some(403)));
        assert!(!named.names_status(Some(500)));
        assert!(!named.names_status(None));
        assert!(!named.names(Some("NotFound")));
        assert_eq!(
            AcceptorDescription::new(AcceptorState::Retry, MatcherDescription::Status(404))
                .to_string(),
            "retry when status 404"
        );
    }

    #[test]
    fn matchers_display_as_the_model_writes_them() {
        let io = MatcherDescription::InputOutput {
            path: "length(input.n) == length(output.n)",
            comparator: Comparator::BooleanEquals,
            expected: "true",
        };
        assert_eq!(
            io.to_string(),
            "inputOutput length(input.n) == length(output.n) booleanEquals true"
        );
        assert_eq!(
            MatcherDescription::Success(false).to_string(),
            "success false"
        );
    }
}
