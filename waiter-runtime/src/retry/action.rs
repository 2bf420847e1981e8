//! What a classifier says about one attempt's result: [`RetryAction`], [`RetryReason`], [`ErrorKind`].

use std::fmt;
use std::time::Duration;

/// The kind of a retryable error. It decides what a retry costs from the
/// [retry quota](super::RetryQuota), and whether the adaptive mode slows down.
#[non_exhaustive]
#[derive(Clone, Copy, Eq, PartialEq, Hash, Debug)]
pub enum ErrorKind {
    /// A timeout, a connection or an IO error: no complete response was received.
    /// A retry after one costs [`timeout_retry_cost`](super::RetryQuotaBuilder::timeout_retry_cost).
    TransientError,
    /// The service asked the client to slow down.
    ThrottlingError,
    /// The service failed (HTTP 5xx).
    ServerError,
    /// The request failed in a way the service says may succeed if sent again.
    ClientError,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ErrorKind::TransientError => "transient error",
            ErrorKind::ThrottlingError => "throttling error",
            ErrorKind::ServerError => "server error",
            ErrorKind::ClientError => "client error",
        })
    }
}

/// Why a retry is indicated.
#[non_exhaustive]
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum RetryReason {
    /// An error was received that should be retried.
    RetryableError {
        /// The kind of error.
        kind: ErrorKind,
        /// A server may ask the client to retry only after this long.
        retry_after: Option<Duration>,
    },
}

impl RetryReason {
    /// The kind of error behind the retry.
    pub fn kind(&self) -> ErrorKind {
        match self {
            RetryReason::RetryableError { kind, .. } => *kind,
        }
    }

    /// The server's retry-after hint, if it gave one.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            RetryReason::RetryableError { retry_after, .. } => *retry_after,
        }
    }
}

impl fmt::Display for RetryReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetryReason::RetryableError {
                kind,
                retry_after: None,
            } => write!(f, "{kind}"),
            RetryReason::RetryableError {
                kind,
                retry_after: Some(after),
            } => {
                write!(f, "{kind} (server asked to retry after {after:?})")
            }
        }
    }
}

/// The verdict of a [`ClassifyRetry`](super::ClassifyRetry) on one attempt's result.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::retry::{ErrorKind, RetryAction, RetryReason};
///
/// let action = RetryAction::retryable_error_with_explicit_delay(
///     ErrorKind::ThrottlingError,
///     Duration::from_secs(2),
/// );
/// assert_eq!(
///     action,
///     RetryAction::RetryIndicated(RetryReason::RetryableError {
///         kind: ErrorKind::ThrottlingError,
///         retry_after: Some(Duration::from_secs(2)),
///     })
/// );
/// assert_eq!(RetryAction::default(), RetryAction::NoActionIndicated);
/// ```
#[non_exhaustive]
#[derive(Clone, Eq, PartialEq, Debug, Default)]
pub enum RetryAction {
    /// The classifier cannot tell or has no opinion. If every classifier says this, the
    /// result is not retried.
    #[default]
    NoActionIndicated,
    /// The result should be retried, for this reason.
    RetryIndicated(RetryReason),
    /// The result must not be retried. Classification stops at once: the classifiers after
    /// this one do not run.
    RetryForbidden,
}

impl RetryAction {
    /// A retry is indicated because of an error of this kind.
    pub fn retryable_error(kind: ErrorKind) -> Self {
        Self::RetryIndicated(RetryReason::RetryableError {
            kind,
            retry_after: None,
        })
    }

    /// A retry is indicated, after at least `retry_after` (the server said so).
    pub fn retryable_error_with_explicit_delay(kind: ErrorKind, retry_after: Duration) -> Self {
        Self::RetryIndicated(RetryReason::RetryableError {
            kind,
            retry_after: Some(retry_after),
        })
    }

    /// A retry is indicated because of a transient error (timeout, connection, IO).
    pub fn transient_error() -> Self {
        Self::retryable_error(ErrorKind::TransientError)
    }

    /// A retry is indicated because the service throttled the request.
    pub fn throttling_error() -> Self {
        Self::retryable_error(ErrorKind::ThrottlingError)
    }

    /// A retry is indicated because of a server error.
    pub fn server_error() -> Self {
        Self::retryable_error(ErrorKind::ServerError)
    }

    /// A retry is indicated because of a retryable client error.
    pub fn client_error() -> Self {
        Self::retryable_error(ErrorKind::ClientError)
    }

    /// The same action with the server's retry-after hint attached, if it is a retry.
    pub fn with_retry_after(self, hint: Option<Duration>) -> Self {
        match (self, hint) {
            (Self::RetryIndicated(RetryReason::RetryableError { kind, .. }), Some(after)) => {
                Self::retryable_error_with_explicit_delay(kind, after)
            }
            (action, _) => action,
        }
    }

    /// The reason, when a retry is indicated.
    pub fn reason(&self) -> Option<&RetryReason> {
        match self {
            Self::RetryIndicated(reason) => Some(reason),
            _ => None,
        }
    }
}

impl fmt::Display for RetryAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoActionIndicated => f.write_str("no action indicated"),
            Self::RetryIndicated(reason) => write!(f, "retry ({reason})"),
            Self::RetryForbidden => f.write_str("retry forbidden"),
        }
    }
}
