//! The time the current attempt has: [`attempt_deadline`] and [`attempt_time_left`], read by
//! an operation (async or blocking) to give its own transport a timeout.
//!
//! A [`Retrier`](super::Retrier) whose config bounds its attempts
//! ([`attempt_timeout`](super::RetryConfigBuilder::attempt_timeout),
//! [`max_total_time`](super::RetryConfigBuilder::max_total_time)) runs each attempt in a scope
//! holding its deadline, `min(start + attempt_timeout, the call's start + max_total_time)`; a
//! waiter's poll carries the waiter's deadline ([`poll_scope`](crate::poll_scope)). The attempt
//! has until the earliest of them.

use std::future::Future;
use std::time::Duration;

use tokio::time::Instant;

tokio::task_local! {
    /// The deadline of the attempt running in this task (or on this thread, for a blocking one).
    static ATTEMPT: Instant;
}

/// When the current attempt must be over: the earliest of its own deadline (set by the
/// [`Retrier`](super::Retrier) running it, from `attempt_timeout` and `max_total_time`) and
/// the deadline of the waiter whose poll it is in. `None` when nothing bounds it.
///
/// The instant is on the clock the caller's timers follow (tokio's inside a runtime, the
/// system's for a blocking caller): compare it with [`attempt_time_left`].
pub fn attempt_deadline() -> Option<Instant> {
    let own = ATTEMPT.try_with(|deadline| *deadline).ok();
    let waiter = crate::poll_scope::current().and_then(|scope| scope.deadline());
    match (own, waiter) {
        (Some(own), Some(waiter)) => Some(own.min(waiter)),
        (own, waiter) => own.or(waiter),
    }
}

/// The time the current attempt has left (zero once its deadline has passed); `None` when
/// nothing bounds it. See [`attempt_deadline`].
///
/// A blocking operation cannot be cut short: it is handed its time, and sets its own timeout
/// from it (ureq 3: `.config().timeout_global(attempt_time_left()).build()` on the request).
/// With `reqwest::blocking` (the same works on an async `reqwest::RequestBuilder`; a reqwest
/// timeout is a transient error, so retried):
///
/// ```no_run
/// # #[cfg(feature = "reqwest")] {
/// use std::time::Duration;
/// use waiter_runtime::ProvideErrorMetadata;
/// use waiter_runtime::retry::{Retrier, RetryConfig, attempt_time_left};
///
/// #[derive(Debug, ProvideErrorMetadata)]
/// enum Error {
///     #[error_metadata(transparent)]
///     Http(reqwest::Error),
/// }
///
/// let client = reqwest::blocking::Client::new();
/// let retrier = Retrier::new(
///     RetryConfig::standard()
///         .attempt_timeout(Duration::from_secs(2))
///         .max_total_time(Duration::from_secs(5))
///         .build(),
/// );
/// let body = retrier.run_blocking(|| {
///     let mut request = client.get("http://127.0.0.1:8080/things/1");
///     // 2 s for this attempt, or what is left of the 5 s if that is less.
///     if let Some(left) = attempt_time_left() {
///         request = request.timeout(left);
///     }
///     let response = request.send().and_then(|r| r.error_for_status()).map_err(Error::Http)?;
///     response.text().map_err(Error::Http)
/// });
/// # drop(body);
/// # }
/// ```
pub fn attempt_time_left() -> Option<Duration> {
    attempt_deadline().map(|deadline| deadline.saturating_duration_since(crate::timer::now()))
}

/// Makes the attempt of `op` (the call, and every poll of the future it returns) see
/// `deadline` as its own, when there is one.
pub(super) fn in_scope<F, Fut>(
    deadline: Option<Instant>,
    op: F,
) -> futures_util::future::Either<Fut, tokio::task::futures::TaskLocalFuture<Instant, Fut>>
where
    F: FnOnce() -> Fut,
    Fut: Future,
{
    use futures_util::future::Either;
    match deadline {
        None => Either::Left(op()),
        Some(deadline) => {
            // A blocking operation runs in the call; an async one in the future's polls.
            let fut = ATTEMPT.sync_scope(deadline, op);
            Either::Right(ATTEMPT.scope(deadline, fut))
        }
    }
}

/// Runs the blocking `op` as an attempt with `deadline` (see [`in_scope`]).
pub(super) fn in_scope_blocking<R>(deadline: Option<Instant>, op: impl FnOnce() -> R) -> R {
    match deadline {
        None => op(),
        Some(deadline) => ATTEMPT.sync_scope(deadline, op),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poll_scope::{NamedErrors, PollScope};

    #[tokio::test(start_paused = true)]
    async fn the_earliest_deadline_is_the_attempts() {
        assert_eq!(attempt_time_left(), None);
        let now = Instant::now();
        let own = Some(now + Duration::from_secs(2));
        let left = in_scope(own, || async { attempt_time_left() }).await;
        assert_eq!(left, Some(Duration::from_secs(2)));
        let scope = PollScope::new(NamedErrors::none(), Some(now + Duration::from_secs(1)));
        let left = scope
            .run(in_scope(own, || async {
                tokio::time::advance(Duration::from_millis(400)).await;
                attempt_time_left()
            }))
            .await;
        assert_eq!(
            left,
            Some(Duration::from_millis(600)),
            "the waiter's comes first"
        );
        let left = scope.run(async { attempt_time_left() }).await;
        assert_eq!(
            left,
            Some(Duration::from_millis(600)),
            "no retrier: the waiter's"
        );
        assert_eq!(
            in_scope_blocking(Some(now), attempt_time_left),
            Some(Duration::ZERO),
            "past: zero"
        );
    }
}
