//! What one call of the [`Retrier`](super::Retrier) did and why it stopped ([`RunReport`],
//! [`StopReason`]), and the retry its hooks are told of ([`RetryEvent`]).

use std::convert::Infallible;
use std::fmt;
use std::time::Duration;

use super::{AttemptError, AttemptTimedOut, QuotaExhausted, RetryReason};
use crate::ProvideErrorMetadata;

/// What one [`Retrier::run_report`](super::Retrier::run_report) call did.
#[non_exhaustive]
#[derive(Debug)]
pub struct RunReport<O, E> {
    /// The last attempt's result.
    pub result: Result<O, E>,
    /// How many attempts were made (at least 1).
    pub attempts: u32,
    /// Why there was no further attempt.
    pub stop: StopReason,
    /// Tokens the call's retries took from the quota (a `u64`: a call whose retries take
    /// more than the quota's capacity, as other calls give tokens back, cannot overflow it).
    pub tokens_taken: u64,
    /// Tokens the call gave back to the quota.
    pub tokens_returned: u32,
}

/// Why a call made no further attempt.
#[non_exhaustive]
#[derive(Clone, Copy, Eq, PartialEq, Debug)]
pub enum StopReason {
    /// The last attempt succeeded (and no classifier asked for a retry).
    Succeeded,
    /// The last attempt failed and no classifier indicated a retry, or one forbade it.
    NotRetryable,
    /// A retry was indicated but the attempts allowed were all made.
    MaxAttempts,
    /// A retry was indicated but the quota had too few tokens.
    QuotaExhausted(QuotaExhausted),
    /// A retry was indicated but the [`RetryBudget`](super::RetryBudget) allowed none: the
    /// retries of the last window already add the budget's share of the calls and its floor.
    RetryBudgetExhausted,
    /// A retry was indicated but its backoff would have ended at or past the time budget, or its
    /// rate-limiter token would have come after it (the retry is not made: its quota cost
    /// goes back).
    TimeBudgetExhausted,
    /// The call runs inside a waiter's poll and one of the waiter's acceptors names the error:
    /// the waiter decides what it means, so it is returned at once.
    NamedByWaiter,
    /// A retry was indicated inside a waiter's poll, but too little time was left before the
    /// waiter's deadline for another attempt to answer (twice the longest attempt so far), or
    /// the server's retry-after hint would have ended past it.
    WaiterDeadline,
    /// The waiter's own retries ([`Waiter::retry`](crate::waiter::Waiter::retry)) stood down:
    /// the operation retried inside the poll with a retry layer of its own.
    RetriedByOperation,
    /// A retry was indicated but the operation could not be made again: a retry layer had no
    /// copy of the request to send (the last response is the caller's).
    CannotRepeat,
}

impl<O, E> RunReport<O, E> {
    /// The same report with its result mapped.
    pub(crate) fn map_result<P, F>(
        self,
        f: impl FnOnce(Result<O, E>) -> Result<P, F>,
    ) -> RunReport<P, F> {
        RunReport {
            result: f(self.result),
            attempts: self.attempts,
            stop: self.stop,
            tokens_taken: self.tokens_taken,
            tokens_returned: self.tokens_returned,
        }
    }
}

impl<O, E> RunReport<Result<O, E>, Infallible> {
    /// The report of a call whose attempts are never cut short: the operation's result.
    pub(crate) fn into_plain(self) -> RunReport<O, E> {
        self.map_result(|result| match result {
            Ok(result) => result,
            Err(never) => match never {},
        })
    }
}

impl<O, E> RunReport<Result<O, E>, AttemptTimedOut> {
    /// The report of a call whose attempts may be cut short at their timeout.
    pub(crate) fn into_timed(self) -> RunReport<O, AttemptError<E>> {
        self.map_result(|result| match result {
            Ok(Ok(out)) => Ok(out),
            Ok(Err(e)) => Err(AttemptError::Failed(e)),
            Err(timed_out) => Err(AttemptError::TimedOut(timed_out)),
        })
    }
}

/// A retry about to happen, as passed to [`Retrier::on_retry`](super::Retrier::on_retry) hooks.
#[non_exhaustive]
#[derive(Clone, Copy)]
pub struct RetryEvent<'a> {
    /// The attempt that failed (1 for the first try).
    pub attempt: u32,
    /// Why it is retried.
    pub reason: &'a RetryReason,
    /// How long the retrier waits before the next attempt.
    pub delay: Duration,
    /// The attempt's error, if it returned one (a retry may also be indicated for an `Ok`), or
    /// the [`AttemptTimedOut`] it was cut short with.
    pub error: Option<&'a dyn ProvideErrorMetadata>,
}

impl fmt::Debug for RetryEvent<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RetryEvent")
            .field("attempt", &self.attempt)
            .field("reason", &self.reason)
            .field("delay", &self.delay)
            .field("error_code", &self.error.and_then(|e| e.code()))
            .finish()
    }
}
