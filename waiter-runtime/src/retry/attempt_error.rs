//! An attempt cut short at its timeout ([`AttemptTimedOut`]), and the error of a call whose
//! attempts may be ([`AttemptError`]): the operation's own error type stays as it is.

use std::convert::Infallible;
use std::fmt;
use std::time::Duration;

use crate::ProvideErrorMetadata;

/// An attempt outlasted its time and was cancelled: `attempt_timeout`, or what was left of
/// `max_total_time` or of the waiter's `max_wait` if that was less
/// ([`Retrier::run_timed`](super::Retrier::run_timed)).
///
/// A transient error for the classifiers (retried as a timeout, with its quota cost); no code,
/// no status. Downcast to it in a classifier
/// ([`ClassifyContext::downcast_error`](super::ClassifyContext::downcast_error)) to treat it
/// otherwise.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::ProvideErrorMetadata;
/// use waiter_runtime::retry::AttemptTimedOut;
///
/// let timed_out = AttemptTimedOut::new(2, Duration::from_secs(3));
/// assert_eq!(timed_out.to_string(), "attempt 2 timed out after 3s");
/// assert!(timed_out.is_transient());
/// assert_eq!((timed_out.attempt(), timed_out.after()), (2, Duration::from_secs(3)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct AttemptTimedOut {
    attempt: u32,
    after: Duration,
}

impl AttemptTimedOut {
    /// Attempt number `attempt` (1 for the first try) was cancelled after `after`.
    pub fn new(attempt: u32, after: Duration) -> Self {
        AttemptTimedOut { attempt, after }
    }

    /// The number of the attempt (1 for the first try).
    pub fn attempt(&self) -> u32 {
        self.attempt
    }

    /// How long it had, and ran, before it was cancelled.
    pub fn after(&self) -> Duration {
        self.after
    }
}

impl fmt::Display for AttemptTimedOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "attempt {} timed out after {:?}",
            self.attempt, self.after
        )
    }
}

impl std::error::Error for AttemptTimedOut {}

impl ProvideErrorMetadata for AttemptTimedOut {
    fn code(&self) -> Option<&str> {
        None
    }
    fn is_transient(&self) -> bool {
        true
    }
}

/// How a call through [`Retrier::run_timed`](super::Retrier::run_timed) failed: its last
/// attempt returned the operation's error, or was cut short at its timeout. The operation's
/// error type `E` needs no variant for the timeout.
///
/// `Display`, `Error::source` and [`ProvideErrorMetadata`] are the operation error's for
/// [`Failed`](Self::Failed) (transparent) and the [`AttemptTimedOut`]'s otherwise. An error
/// type that can hold the timeout itself (`E: From<AttemptTimedOut>`: a `BoxError`, an
/// `anyhow::Error`, an enum with a `#[from] AttemptTimedOut` variant) gets it back with
/// [`into_error`](Self::into_error).
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::retry::{AttemptError, AttemptTimedOut};
///
/// type BoxError = Box<dyn std::error::Error + Send + Sync>;
/// let err: AttemptError<BoxError> = AttemptError::TimedOut(AttemptTimedOut::new(1, Duration::from_secs(2)));
/// assert_eq!(err.timed_out().map(AttemptTimedOut::after), Some(Duration::from_secs(2)));
/// let err: BoxError = err.into_error();
/// assert!(err.is::<AttemptTimedOut>());
/// ```
#[derive(Debug)]
pub enum AttemptError<E> {
    /// The last attempt returned this error.
    Failed(E),
    /// The last attempt was cancelled at its timeout.
    TimedOut(AttemptTimedOut),
}

impl<E> AttemptError<E> {
    /// The operation's error, if the last attempt returned one.
    pub fn failed(self) -> Option<E> {
        match self {
            AttemptError::Failed(e) => Some(e),
            AttemptError::TimedOut(_) => None,
        }
    }

    /// The timeout, if the last attempt was cut short.
    pub fn timed_out(&self) -> Option<&AttemptTimedOut> {
        match self {
            AttemptError::Failed(_) => None,
            AttemptError::TimedOut(timed_out) => Some(timed_out),
        }
    }

    /// The error as an `E`, for an error type that can hold the timeout.
    pub fn into_error(self) -> E
    where
        E: From<AttemptTimedOut>,
    {
        match self {
            AttemptError::Failed(e) => e,
            AttemptError::TimedOut(timed_out) => E::from(timed_out),
        }
    }
}

impl<E: fmt::Display> fmt::Display for AttemptError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AttemptError::Failed(e) => e.fmt(f),
            AttemptError::TimedOut(timed_out) => timed_out.fmt(f),
        }
    }
}

impl<E: std::error::Error> std::error::Error for AttemptError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AttemptError::Failed(e) => e.source(),
            AttemptError::TimedOut(_) => None,
        }
    }
}

impl<E: ProvideErrorMetadata> ProvideErrorMetadata for AttemptError<E> {
    fn code(&self) -> Option<&str> {
        self.metadata().code()
    }
    fn message(&self) -> Option<&str> {
        self.metadata().message()
    }
    fn http_status(&self) -> Option<u16> {
        self.metadata().http_status()
    }
    fn retry_after(&self) -> Option<Duration> {
        self.metadata().retry_after()
    }
    fn retry_forbidden(&self) -> bool {
        self.metadata().retry_forbidden()
    }
    fn is_transient(&self) -> bool {
        self.metadata().is_transient()
    }
    fn is_retryable(&self) -> bool {
        self.metadata().is_retryable()
    }
    fn is_throttling(&self) -> bool {
        self.metadata().is_throttling()
    }
}

impl<E: ProvideErrorMetadata> AttemptError<E> {
    fn metadata(&self) -> &dyn ProvideErrorMetadata {
        match self {
            AttemptError::Failed(e) => e,
            AttemptError::TimedOut(timed_out) => timed_out,
        }
    }
}

/// What the retry loop does with an attempt that outlasts its time: cut it short and end with
/// the timeout ([`AttemptTimedOut`], the `run_timed` calls), or let it run (`Infallible`: the
/// calls whose error is the operation's own, which could not hold the timeout).
pub(super) trait OnTimeout: Copy + 'static {
    /// The value a cut attempt ends with, for a call that cuts its attempts short.
    fn cut(timed_out: AttemptTimedOut) -> Option<Self>;
    /// What the cut attempt was.
    fn timed_out(&self) -> &AttemptTimedOut;
}

impl OnTimeout for Infallible {
    fn cut(_: AttemptTimedOut) -> Option<Self> {
        None
    }
    fn timed_out(&self) -> &AttemptTimedOut {
        match *self {}
    }
}

impl OnTimeout for AttemptTimedOut {
    fn cut(timed_out: AttemptTimedOut) -> Option<Self> {
        Some(timed_out)
    }
    fn timed_out(&self) -> &AttemptTimedOut {
        self
    }
}
