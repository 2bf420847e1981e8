//! [`Retrier`]: runs an operation (async or blocking), classifies each result and retries
//! while the rules allow. Here, the calls; `setup.rs`, the retrier; `execute.rs`, the loop;
//! `call.rs`, per-call settings.

use std::future::Future;

use crate::ProvideErrorMetadata;
use crate::retry::attempt_time;
use crate::retry::{AttemptError, RetryClassifiers, RetryToken, RunReport};
use crate::timer;

mod call;
mod execute;
mod setup;

use call::CallSettings;
pub use call::CustomizedRun;
use execute::{FirstTry, acquire_timed};
pub use setup::Retrier;

impl Retrier {
    /// `run`'s retry loop, after `first` if the caller made it; boxed, so that its state stays
    /// out of the fast paths' futures (only calls that fail pay for it).
    async fn retry_loop<F, Fut, O, E>(
        &self,
        op: F,
        token: RetryToken<'_>,
        first: Option<FirstTry<O, E>>,
    ) -> Result<O, E>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        E: ProvideErrorMetadata + 'static,
    {
        Box::pin(self.execute(&CallSettings::default(), op, token, first))
            .await
            .into_plain()
            .result
    }

    /// Runs `op` until it succeeds, fails for good, or the rules stop the retries; returns the
    /// last result.
    ///
    /// With an [`attempt_timeout`](crate::retry::RetryConfigBuilder::attempt_timeout) or a
    /// `max_total_time`, each attempt is handed its time
    /// ([`attempt_time_left`](crate::retry::attempt_time_left)) but not cut short: the result
    /// is the operation's, whose error type could not say it timed out.
    /// [`run_timed`](Self::run_timed) cuts it short.
    pub async fn run<F, Fut, O, E>(&self, mut op: F) -> Result<O, E>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        E: ProvideErrorMetadata + 'static,
    {
        let inner = &*self.inner;
        if inner.plain_first_try {
            // Fast path: a first try that succeeds needs no classification (no classifier
            // would retry a success) and costs one quota update.
            let token = inner.quota.acquire();
            let result = op().await;
            crate::retry::metrics::attempted();
            if result.is_ok() {
                token.success();
                return result;
            }
            let first = FirstTry::unpaced(result, None);
            return self.retry_loop(op, token, Some(first)).await;
        }
        if let Some(limiter) = inner.adaptive_fast_path() {
            // Adaptive mode with no classifier inspecting successes: a first try that
            // succeeds is no throttle, so it is reported without classification and the
            // retry loop (boxed) is only entered by calls that fail.
            let ticket = limiter.call_started();
            let token = inner.quota.acquire();
            inner.deposit();
            acquire_timed(limiter, ticket, None, inner.sleep.as_ref()).await;
            let sent = limiter.attempt_sent();
            let result = op().await;
            crate::retry::metrics::attempted();
            if result.is_ok() {
                // With its send mark, as the retry loop reports every attempt: the limiter
                // tells a success sent after a cut from one sent before it (and ends the
                // recovery period after the cut with the first).
                limiter.on_attempt_response(sent, false);
                token.success();
                return result;
            }
            let first = FirstTry {
                result,
                ticket,
                acquired: true,
                sent,
                started: None, // the fast path is taken only without a time bound
            };
            return self.retry_loop(op, token, Some(first)).await;
        }
        if !inner.fast_first_try() {
            let token = inner.quota.acquire();
            return self.retry_loop(op, token, None).await;
        }
        // The fast path with a budget to deposit into or a time bound for the attempt.
        let token = inner.quota.acquire();
        inner.deposit();
        let bound = inner.first_attempt_bound();
        let result = match bound {
            None => op().await,
            Some((_, deadline)) => attempt_time::in_scope(deadline, &mut op).await,
        };
        crate::retry::metrics::attempted();
        if result.is_ok() {
            token.success();
            return result;
        }
        let first = FirstTry::unpaced(result, bound.map(|(started, _)| started));
        self.retry_loop(op, token, Some(first)).await
    }

    /// [`run`](Self::run), cutting an async attempt short when it outlasts its time
    /// ([`attempt_timeout`](crate::retry::RetryConfigBuilder::attempt_timeout), or what is
    /// left of `max_total_time` or of the waiter's `max_wait` if that is less): it is dropped
    /// (cancelled), counts as a transient error ([`AttemptTimedOut`](crate::retry::AttemptTimedOut)) and is retried if
    /// attempts, quota or budget, and time remain. The error says which it was:
    /// [`AttemptError::Failed`] with the operation's own error, or [`AttemptError::TimedOut`]
    /// with the attempt and how long it had. The operation's error type stays as it is.
    ///
    /// ```
    /// use std::time::Duration;
    /// use waiter_runtime::ProvideErrorMetadata;
    /// use waiter_runtime::retry::{AttemptError, Jitter, Retrier, RetryConfig};
    ///
    /// #[derive(Debug, ProvideErrorMetadata)]
    /// #[error_metadata(status = 503)]
    /// struct Unavailable;
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let retrier = Retrier::new(
    ///     RetryConfig::standard()
    ///         .max_attempts(5)
    ///         .attempt_timeout(Duration::from_secs(2))
    ///         .max_total_time(Duration::from_secs(5))
    ///         .jitter(Jitter::None)
    ///         .build(),
    /// );
    /// let start = tokio::time::Instant::now();
    /// // Every attempt hangs: cut at 2 s, at 4.05 s (after a 50 ms backoff), then at the 5 s
    /// // budget (after 100 ms more): what was left of it, 850 ms.
    /// let out = retrier
    ///     .run_timed(|| async {
    ///         std::future::pending::<()>().await;
    ///         Ok::<_, Unavailable>(())
    ///     })
    ///     .await;
    /// match out {
    ///     Err(AttemptError::TimedOut(timed_out)) => {
    ///         assert_eq!(timed_out.attempt(), 3);
    ///         assert_eq!(timed_out.to_string(), "attempt 3 timed out after 850ms");
    ///     }
    ///     other => panic!("{other:?}"),
    /// }
    /// assert_eq!(start.elapsed(), Duration::from_secs(5));
    /// # }
    /// ```
    pub async fn run_timed<F, Fut, O, E>(&self, op: F) -> Result<O, AttemptError<E>>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        E: ProvideErrorMetadata + 'static,
    {
        self.run_report_timed(op).await.result
    }

    /// [`run_report`](Self::run_report) with [`run_timed`](Self::run_timed)'s attempts: the
    /// report of a call whose last attempt was cut short has an
    /// [`AttemptError::TimedOut`] result.
    pub async fn run_report_timed<F, Fut, O, E>(&self, op: F) -> RunReport<O, AttemptError<E>>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        E: ProvideErrorMetadata + 'static,
    {
        self.customize().run_report_timed(op).await
    }

    /// Like [`run`](Self::run), with what happened: attempts, why it stopped, tokens.
    ///
    /// ```
    /// use waiter_runtime::ProvideErrorMetadata;
    /// use waiter_runtime::retry::{Retrier, RetryConfig, StopReason};
    ///
    /// #[derive(Debug, ProvideErrorMetadata)]
    /// #[error_metadata(status = 503)]
    /// struct Unavailable;
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let retrier = Retrier::new(RetryConfig::default());
    /// let report = retrier.run_report(|| async { Err::<(), _>(Unavailable) }).await;
    /// assert_eq!(report.attempts, 3);
    /// assert_eq!(report.stop, StopReason::MaxAttempts);
    /// // Retry behavior 2.1: a retry after a server error costs 14 tokens.
    /// assert_eq!((report.tokens_taken, report.tokens_returned), (28, 0));
    /// assert_eq!(retrier.quota().available(), 472);
    /// # }
    /// ```
    pub async fn run_report<F, Fut, O, E>(&self, op: F) -> RunReport<O, E>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        E: ProvideErrorMetadata + 'static,
    {
        self.customize().run_report(op).await
    }

    /// [`run`](Self::run) for a blocking operation (a ureq or `reqwest::blocking` client):
    /// the same rules, the same quota and the same adaptive rate limiter as the async calls of
    /// this retrier and its clones, sleeping on the calling thread.
    ///
    /// The rate limiter's line is one for both kinds of callers: a blocking call waits for its
    /// token in the same first-come-first-served line as the async ones, its thread parked
    /// until its turn. Called inside a [`blocking::Waiter`](crate::blocking::Waiter)'s poll, it
    /// follows the poll's rules as `run` does inside an async waiter's.
    ///
    /// A blocking attempt cannot be cut short: with an
    /// [`attempt_timeout`](crate::retry::RetryConfigBuilder::attempt_timeout) or a
    /// `max_total_time`, it is handed its time, which it reads with
    /// [`attempt_time_left`](crate::retry::attempt_time_left) to set its own timeout.
    ///
    /// It blocks the calling thread: from async code, call it through
    /// `tokio::task::spawn_blocking` (on a thread driving a runtime's `block_on`, it warns once
    /// through `tracing`). It never needs a runtime, and never waits on tokio's timer.
    ///
    /// ```
    /// use std::time::Duration;
    /// use waiter_runtime::ProvideErrorMetadata;
    /// use waiter_runtime::retry::{Retrier, RetryConfig};
    ///
    /// #[derive(Debug, ProvideErrorMetadata)]
    /// enum Error {
    ///     #[error_metadata(status = 503)]
    ///     Unavailable,
    /// }
    ///
    /// let retrier = Retrier::new(
    ///     RetryConfig::standard().transient_backoff(Duration::from_millis(1)).build(),
    /// );
    /// let mut calls = 0;
    /// let out = retrier.run_blocking(|| {
    ///     calls += 1;
    ///     if calls < 3 { Err(Error::Unavailable) } else { Ok("thing") }
    /// });
    /// assert_eq!(out.unwrap(), "thing");
    /// assert_eq!(calls, 3);
    /// ```
    pub fn run_blocking<F, O, E>(&self, mut op: F) -> Result<O, E>
    where
        F: FnMut() -> Result<O, E>,
        E: ProvideErrorMetadata + 'static,
    {
        let inner = &*self.inner;
        if !inner.fast_first_try() {
            return self.run_report_blocking(op).result;
        }
        // `run`'s fast path: a first try that succeeds needs no classification, no timer and
        // no executor; the retry loop is entered only by calls that fail.
        let token = inner.quota.acquire();
        let bound = if inner.plain_first_try {
            None
        } else {
            inner.deposit();
            inner.first_attempt_bound()
        };
        let result = match bound {
            None => op(),
            Some((_, deadline)) => attempt_time::in_scope_blocking(deadline, &mut op),
        };
        crate::retry::metrics::attempted();
        if result.is_ok() {
            token.success();
            return result;
        }
        let first = FirstTry::unpaced(result, bound.map(|(started, _)| started));
        timer::warn_if_blocking_a_runtime("Retrier::run_blocking");
        (timer::block_on(self.execute(
            &CallSettings::default(),
            || std::future::ready(op()),
            token,
            Some(first),
        )))
        .into_plain()
        .result
    }

    /// [`run_report`](Self::run_report) for a blocking operation: see
    /// [`run_blocking`](Self::run_blocking).
    ///
    /// ```
    /// use waiter_runtime::ProvideErrorMetadata;
    /// use waiter_runtime::retry::{Retrier, RetryConfig, StopReason};
    ///
    /// #[derive(Debug, ProvideErrorMetadata)]
    /// #[error_metadata(status = 503)]
    /// struct Unavailable;
    ///
    /// let retrier = Retrier::new(RetryConfig::standard().max_attempts(2).build());
    /// let report = retrier.run_report_blocking(|| Err::<(), _>(Unavailable));
    /// assert_eq!((report.attempts, report.stop), (2, StopReason::MaxAttempts));
    /// ```
    pub fn run_report_blocking<F, O, E>(&self, op: F) -> RunReport<O, E>
    where
        F: FnMut() -> Result<O, E>,
        E: ProvideErrorMetadata + 'static,
    {
        self.execute_blocking(&CallSettings::default(), op)
    }

    /// The one retry loop, driven on the calling thread for a blocking operation.
    fn execute_blocking<F, O, E>(&self, call: &CallSettings<'_>, mut op: F) -> RunReport<O, E>
    where
        F: FnMut() -> Result<O, E>,
        E: ProvideErrorMetadata + 'static,
    {
        timer::warn_if_blocking_a_runtime("Retrier::run_blocking");
        (timer::block_on(async {
            let token = self.inner.quota.acquire();
            self.execute(call, || std::future::ready(op()), token, None)
                .await
        }))
        .into_plain()
    }

    /// Overrides for one call: classifiers added or replaced, max attempts.
    ///
    /// ```
    /// use waiter_runtime::ProvideErrorMetadata;
    /// use waiter_runtime::retry::{Retrier, RetryAction, classifier_fn};
    ///
    /// #[derive(Debug, ProvideErrorMetadata)]
    /// struct Conflict;
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let retrier = Retrier::default();
    /// // This one call retries `Conflict`, which the retrier's classifiers do not.
    /// let report = retrier
    ///     .customize()
    ///     .retry_classifier(classifier_fn("conflict", |ctx| match ctx.error().and_then(|e| e.code()) {
    ///         Some("Conflict") => RetryAction::client_error(),
    ///         _ => RetryAction::NoActionIndicated,
    ///     }))
    ///     .max_attempts(2)
    ///     .run_report(|| async { Err::<(), _>(Conflict) })
    ///     .await;
    /// assert_eq!(report.attempts, 2);
    /// # }
    /// ```
    pub fn customize(&self) -> CustomizedRun<'_> {
        CustomizedRun {
            retrier: self,
            classifiers: RetryClassifiers::new(),
            replace: false,
            max_attempts: None,
            long_polling: false,
        }
    }

    /// Runs one waiter poll with the waiter's own retries ([`Waiter::retry`]): as
    /// [`run_report`](Self::run_report), except that it does not count as the operation's retry
    /// layer and stands down once the operation shows it has one.
    ///
    /// [`Waiter::retry`]: crate::waiter::Waiter::retry
    pub(crate) async fn run_waiter_poll<F, Fut, O, E>(&self, op: F) -> RunReport<O, E>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        E: ProvideErrorMetadata + 'static,
    {
        let token = self.inner.quota.acquire();
        let call = CallSettings::waiter_owned();
        self.execute(&call, op, token, None).await.into_plain()
    }

    /// [`run_waiter_poll`](Self::run_waiter_poll) for a blocking waiter's poll
    /// ([`blocking::Waiter::retry`](crate::blocking::Waiter::retry)).
    pub(crate) fn run_waiter_poll_blocking<F, O, E>(&self, op: F) -> RunReport<O, E>
    where
        F: FnMut() -> Result<O, E>,
        E: ProvideErrorMetadata + 'static,
    {
        let call = CallSettings::waiter_owned();
        self.execute_blocking(&call, op)
    }

    /// [`run_report_timed`](Self::run_report_timed) for an operation that can be repeated only
    /// while `can_repeat()` says so (a retry layer holding a copy of the request for one more
    /// attempt): when a retry is indicated and it cannot, the last result is returned as it is
    /// ([`StopReason::CannotRepeat`](crate::retry::StopReason::CannotRepeat)), and no token is
    /// taken for a retry that is not made.
    #[cfg(any(feature = "tower", feature = "reqwest-middleware"))]
    pub(crate) async fn run_report_while<F, Fut, O, E>(
        &self,
        op: F,
        can_repeat: &(dyn Fn() -> bool + Sync),
    ) -> RunReport<O, AttemptError<E>>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        E: ProvideErrorMetadata + 'static,
    {
        let token = self.inner.quota.acquire();
        let call = CallSettings {
            can_repeat: Some(can_repeat),
            ..CallSettings::default()
        };
        self.execute(&call, op, token, None).await.into_timed()
    }
}

#[cfg(test)]
mod tests;
