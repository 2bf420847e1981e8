//! [`Retrier`]: runs an async operation, classifies each result and retries while the rules allow.

use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use super::classifier_chain::merged;
use super::{
    ClassifyContext, ClassifyRetry, ErrorKind, RateLimiter, RetryAction, RetryBehavior,
    RetryClassifiers, RetryConfig, RetryEvent, RetryQuota, RetryReason, RetryToken, RunReport,
    SharedRetryClassifier, StopReason, backoff, run_classifiers,
};
use crate::ProvideErrorMetadata;
use crate::poll_scope::{self, PollScope};
use crate::timer::{self, SharedAsyncSleep};

type RetryHook = Arc<dyn Fn(&RetryEvent<'_>) + Send + Sync>;

/// Runs an async operation at least once and retries it as the AWS SDKs' standard strategy
/// does: prioritised [classifiers](super::ClassifyRetry) decide whether a result is retried,
/// a shared [`RetryQuota`] limits retries across calls, exponential backoff with full jitter
/// (or the server's retry-after hint) spaces them.
///
/// Cheap to clone (clones share the quota); one per client is the normal use.
///
/// Inside a waiter's poll (see [`poll_scope`](crate::poll_scope)) it follows one more rule: an
/// error that one of the waiter's acceptors names is returned at once, never retried (it may be
/// the waiter's own terminal condition); every other error is retried as outside a waiter, but
/// no retry waits past the waiter's deadline (one that would is moved up to leave its attempt
/// time to answer before it).
///
/// ```
/// use std::sync::atomic::{AtomicU32, Ordering};
/// use std::time::Duration;
/// use waiter_runtime::ProvideErrorMetadata;
/// use waiter_runtime::retry::{Retrier, RetryConfig};
///
/// #[derive(Debug, ProvideErrorMetadata)]
/// enum GetThingError {
///     #[error_metadata(code = "ThrottlingException")]
///     Throttled,
///     NotFound,
/// }
///
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// let retrier = Retrier::new(
///     RetryConfig::standard().max_attempts(4).throttling_backoff(Duration::from_millis(100)).build(),
/// );
/// let calls = AtomicU32::new(0);
/// let out = retrier
///     .run(|| async {
///         match calls.fetch_add(1, Ordering::Relaxed) {
///             0 | 1 => Err(GetThingError::Throttled),
///             _ => Ok("thing"),
///         }
///     })
///     .await;
/// assert_eq!(out.unwrap(), "thing");
/// assert_eq!(calls.load(Ordering::Relaxed), 3);
///
/// // Not retryable: one attempt.
/// let out: Result<(), _> = retrier.run(|| async { Err(GetThingError::NotFound) }).await;
/// assert!(matches!(out, Err(GetThingError::NotFound)));
/// # }
/// ```
#[derive(Clone)]
pub struct Retrier {
    inner: Arc<Inner>,
}

#[derive(Clone)]
struct Inner {
    config: RetryConfig,
    quota: RetryQuota,
    classifiers: RetryClassifiers,
    on_retry: Option<RetryHook>,
    rate_limiter: Option<Arc<dyn RateLimiter>>,
    /// The timer the retries sleep on (`None`: the default, see [`crate::timer`]).
    sleep: Option<SharedAsyncSleep>,
}

/// A first try made before entering the retry loop.
struct FirstTry<O, E> {
    result: Result<O, E>,
    /// The call's place in the rate limiter's line, if `acquired`.
    ticket: u64,
    /// Whether the first try went through the rate limiter (which gave `ticket`).
    acquired: bool,
    /// When the call started, read only when a time budget needs it: the budget counts
    /// from before the first try, not from the retry loop.
    started: Option<tokio::time::Instant>,
}

impl Inner {
    /// The rate limiter, when a successful first try can skip classification: no classifier
    /// would retry a success or call it throttling, and no time budget needs a start time.
    #[inline]
    fn adaptive_fast_path(&self) -> Option<&dyn RateLimiter> {
        match &self.rate_limiter {
            Some(limiter)
                if !self.classifiers.inspects_success()
                    && self.config.max_total_time().is_none() =>
            {
                Some(&**limiter)
            }
            _ => None,
        }
    }

    /// Whether a successful first try can skip classification: no classifier would retry a
    /// success and no rate limiter needs to hear of it.
    #[inline]
    fn fast_first_try(&self) -> bool {
        self.rate_limiter.is_none() && !self.classifiers.inspects_success()
    }
}

impl fmt::Debug for Retrier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Retrier")
            .field("config", &self.inner.config)
            .field("quota", &self.inner.quota)
            .field("classifiers", &self.inner.classifiers)
            .field(
                "on_retry",
                &self.inner.on_retry.as_ref().map(|_| "Fn(&RetryEvent)"),
            )
            .field("rate_limiter", &self.inner.rate_limiter)
            .field("sleep_impl", &self.inner.sleep)
            .finish()
    }
}

impl Default for Retrier {
    fn default() -> Self {
        Retrier::new(RetryConfig::default())
    }
}

impl Retrier {
    /// A retrier with the built-in classifiers and a standard quota of its own, whose costs
    /// follow the config's [`RetryBehavior`](super::RetryBehavior).
    ///
    /// In [`RetryMode::Adaptive`](super::RetryMode::Adaptive), attempts are paced by a
    /// [`ClientRateLimiter`](super::adaptive::ClientRateLimiter) of its own (shared by clones),
    /// or by the rate limiter given with [`with_rate_limiter`](Self::with_rate_limiter).
    pub fn new(config: RetryConfig) -> Self {
        let rate_limiter = (config.mode() == super::RetryMode::Adaptive)
            .then(|| Arc::new(super::adaptive::ClientRateLimiter::new()) as Arc<dyn RateLimiter>);
        Retrier {
            inner: Arc::new(Inner {
                quota: RetryQuota::builder().behavior(config.behavior()).build(),
                config,
                classifiers: RetryClassifiers::defaults(),
                on_retry: None,
                rate_limiter,
                sleep: None,
            }),
        }
    }

    fn edit(mut self, f: impl FnOnce(&mut Inner)) -> Self {
        f(Arc::make_mut(&mut self.inner));
        self
    }

    /// Shares `quota` (with other retriers, say) instead of this retrier's own.
    pub fn with_quota(self, quota: RetryQuota) -> Self {
        self.edit(|inner| inner.quota = quota)
    }

    /// Adds a classifier; it runs according to its [priority](ClassifyRetry::priority).
    pub fn retry_classifier(self, classifier: impl ClassifyRetry + 'static) -> Self {
        self.shared_retry_classifier(SharedRetryClassifier::new(classifier))
    }

    /// Adds a shared classifier; it runs according to its priority.
    pub fn shared_retry_classifier(self, classifier: SharedRetryClassifier) -> Self {
        self.edit(|inner| {
            inner.classifiers.push_shared(classifier);
        })
    }

    /// Replaces every classifier, the built-in ones included.
    pub fn with_retry_classifiers(
        self,
        classifiers: impl IntoIterator<Item = SharedRetryClassifier>,
    ) -> Self {
        self.edit(|inner| inner.classifiers = classifiers.into_iter().collect())
    }

    /// Calls `hook` before every retry (after the decision, before the backoff), with what
    /// failed, why it is retried and how long the retrier will wait.
    pub fn on_retry(self, hook: impl Fn(&RetryEvent<'_>) + Send + Sync + 'static) -> Self {
        self.edit(|inner| inner.on_retry = Some(Arc::new(hook)))
    }

    /// Paces every attempt through `limiter` (the adaptive mode's client-side rate limiting).
    pub fn with_rate_limiter(self, limiter: Arc<dyn RateLimiter>) -> Self {
        self.edit(|inner| inner.rate_limiter = Some(limiter))
    }

    /// Sleeps on `sleep` between attempts, instead of the default timer (tokio's inside a
    /// tokio runtime, futures-timer's elsewhere: see [`timer`](crate::timer)). The adaptive
    /// rate limiter, shared by the client's calls, keeps the process default.
    pub fn with_sleep_impl(self, sleep: SharedAsyncSleep) -> Self {
        self.edit(|inner| inner.sleep = Some(sleep))
    }

    /// The configuration.
    pub fn config(&self) -> &RetryConfig {
        &self.inner.config
    }

    /// The retry quota (shared by clones of this retrier).
    pub fn quota(&self) -> &RetryQuota {
        &self.inner.quota
    }

    /// The classifiers, in the order they run.
    pub fn classifiers(&self) -> &RetryClassifiers {
        &self.inner.classifiers
    }

    /// Runs `op` until it succeeds, fails for good, or the rules stop the retries; returns the
    /// last result.
    pub async fn run<F, Fut, O, E>(&self, mut op: F) -> Result<O, E>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        E: ProvideErrorMetadata + 'static,
    {
        let inner = &*self.inner;
        if let Some(limiter) = inner.adaptive_fast_path() {
            // Adaptive mode with no classifier inspecting successes: a first try that
            // succeeds is no throttle, so it is reported without classification and the
            // retry loop (boxed) is only entered by calls that fail.
            let ticket = limiter.call_started();
            let token = inner.quota.acquire();
            acquire_timed(limiter, ticket).await;
            let result = op().await;
            if result.is_ok() {
                limiter.on_response(false);
                token.success();
                return result;
            }
            let first = FirstTry {
                result,
                ticket,
                acquired: true,
                started: None, // the fast path is taken only without a time budget
            };
            return Box::pin(self.execute(&CallSettings::default(), op, token, Some(first)))
                .await
                .result;
        }
        if !inner.fast_first_try() {
            let token = inner.quota.acquire();
            // Boxed: the retry loop's state stays out of the fast path's future.
            return Box::pin(self.execute(&CallSettings::default(), op, token, None))
                .await
                .result;
        }
        // Fast path: a first try that succeeds needs no classification (no classifier would
        // retry a success) and costs one quota update. The retry loop is boxed, so its state
        // is only paid for by calls that fail.
        let token = inner.quota.acquire();
        let started = inner
            .config
            .max_total_time()
            .map(|_| tokio::time::Instant::now());
        let result = op().await;
        if result.is_ok() {
            token.success();
            return result;
        }
        let first = FirstTry {
            result,
            ticket: 0,
            acquired: false,
            started,
        };
        Box::pin(self.execute(&CallSettings::default(), op, token, Some(first)))
            .await
            .result
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
        let token = self.inner.quota.acquire();
        self.execute(&CallSettings::default(), op, token, None)
            .await
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
        let call = CallSettings {
            waiter_owned: true,
            ..CallSettings::default()
        };
        self.execute(&call, op, token, None).await
    }

    /// [`run_report`](Self::run_report) for an operation that can be repeated only while
    /// `can_repeat()` says so (a retry layer holding a copy of the request for one more
    /// attempt): when a retry is indicated and it cannot, the last result is returned as it is
    /// ([`StopReason::CannotRepeat`]), and no token is taken for a retry that is not made.
    #[cfg(any(feature = "tower", feature = "reqwest-middleware"))]
    pub(crate) async fn run_report_while<F, Fut, O, E>(
        &self,
        op: F,
        can_repeat: &(dyn Fn() -> bool + Sync),
    ) -> RunReport<O, E>
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
        self.execute(&call, op, token, None).await
    }

    /// The retry loop. `token` was acquired before the first try; `first` is the first try
    /// when the caller already made it.
    async fn execute<'q, F, Fut, O, E>(
        &'q self,
        call: &CallSettings<'_>,
        mut op: F,
        mut token: RetryToken<'q>,
        first: Option<FirstTry<O, E>>,
    ) -> RunReport<O, E>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        E: ProvideErrorMetadata + 'static,
    {
        let inner = &*self.inner;
        let config = &inner.config;
        // Inside a waiter's poll: the errors its acceptors name, its deadline, its counters.
        let scope = poll_scope::current();
        if let Some(scope) = &scope {
            if !call.waiter_owned {
                scope.record_retry_layer();
            }
        }
        let started = first
            .as_ref()
            .and_then(|first| first.started)
            .unwrap_or_else(tokio::time::Instant::now);
        // A budget reaching past what `Instant` can hold is no budget.
        let deadline = config
            .max_total_time()
            .and_then(|budget| started.checked_add(budget));
        let inspects_success = match &call.classifiers {
            Some(own) if call.replace => own.inspects_success(),
            Some(own) => own.inspects_success() || inner.classifiers.inspects_success(),
            None => inner.classifiers.inspects_success(),
        };

        let mut attempt = 1u32;
        let mut tokens_taken = 0u64;
        // Inside a poll with a deadline, attempts are timed: a retry that would end past the
        // deadline is moved up to leave the attempt twice the longest one so far to answer
        // (see below). A first try made before this loop without a start time began with the
        // poll, as far as we know.
        let timed = scope
            .as_ref()
            .is_some_and(|scope| scope.deadline().is_some());
        let mut attempt_began = match (&scope, &first) {
            (Some(scope), Some(first)) if timed => Some(first.started.unwrap_or(scope.started())),
            _ if timed => Some(started),
            _ => None,
        };
        let mut longest_attempt = Duration::ZERO;
        let (mut first, ticket) = match first {
            Some(first) if first.acquired => (Some(first.result), first.ticket),
            first => (
                first.map(|first| first.result),
                inner
                    .rate_limiter
                    .as_ref()
                    .map_or(0, |limiter| limiter.call_started()),
            ),
        };
        loop {
            let result = match first.take() {
                Some(result) => result,
                None => {
                    if let Some(limiter) = &inner.rate_limiter {
                        acquire_timed(&**limiter, ticket).await;
                    }
                    if timed {
                        attempt_began = Some(tokio::time::Instant::now());
                    }
                    op().await
                }
            };
            if let Some(began) = attempt_began {
                longest_attempt = longest_attempt.max(began.elapsed());
            }
            crate::metrics::attempted();
            // The waiter's own retries (`Waiter::retry`) stand down once the operation has a
            // retry layer of its own: no double retries.
            if call.waiter_owned
                && result.is_err()
                && scope.as_ref().is_some_and(PollScope::retry_layer_ran)
            {
                token.failure();
                return RunReport {
                    result,
                    attempts: attempt,
                    stop: StopReason::RetriedByOperation,
                    tokens_taken,
                    tokens_returned: 0,
                };
            }
            // Fast path: no classifier would retry a success.
            if result.is_ok() && !inspects_success && inner.rate_limiter.is_none() {
                let tokens_returned = token.success();
                return RunReport {
                    result,
                    attempts: attempt,
                    stop: StopReason::Succeeded,
                    tokens_taken,
                    tokens_returned,
                };
            }
            let action = {
                let ctx = ClassifyContext::new(&result, attempt);
                match (&call.classifiers, call.replace) {
                    (Some(own), true) => own.classify(&ctx),
                    (Some(own), false) => run_classifiers(
                        merged(inner.classifiers.iter().as_slice(), own.iter().as_slice()),
                        &ctx,
                    ),
                    (None, _) => inner.classifiers.classify(&ctx),
                }
            };
            let throttled = matches!(
                action.reason().map(RetryReason::kind),
                Some(ErrorKind::ThrottlingError)
            );
            if throttled {
                crate::metrics::throttled();
            }
            if let Some(limiter) = &inner.rate_limiter {
                limiter.on_response(throttled);
            }

            let done = |stop: StopReason, result: Result<O, E>, tokens_returned: u32| RunReport {
                result,
                attempts: attempt,
                stop,
                tokens_taken,
                tokens_returned,
            };
            let reason = match action {
                RetryAction::RetryIndicated(reason) => reason,
                _ if result.is_ok() => {
                    let returned = token.success();
                    return done(StopReason::Succeeded, result, returned);
                }
                _ => {
                    token.failure();
                    return done(StopReason::NotRetryable, result, 0);
                }
            };

            // Inside a waiter's poll, an error the waiter's acceptors name is its to decide.
            if let (Some(scope), Err(error)) = (&scope, &result) {
                if !call.waiter_owned && scope.names(error) {
                    token.failure();
                    tracing::debug!(attempt, %reason, error_code = error.code(), "not retrying: the waiter's acceptors name this error");
                    return done(StopReason::NamedByWaiter, result, 0);
                }
            }
            let max_attempts = call.max_attempts.unwrap_or(config.max_attempts()).max(1);
            if attempt >= max_attempts {
                token.failure();
                let stop = StopReason::MaxAttempts;
                tracing::debug!(attempt, %reason, ?stop, "not retrying");
                return done(stop, result, 0);
            }
            if call.can_repeat.is_some_and(|can_repeat| !can_repeat()) {
                token.failure();
                let stop = StopReason::CannotRepeat;
                tracing::debug!(attempt, %reason, ?stop, "not retrying: the operation cannot be repeated");
                return done(stop, result, 0);
            }
            let mut delay = backoff_delay(config, &reason, attempt);
            if let Some(deadline) = deadline {
                // A delay reaching past what `Instant` can hold ends past any deadline.
                let end = tokio::time::Instant::now().checked_add(delay);
                if end.is_none_or(|end| end > deadline) {
                    token.failure();
                    tracing::debug!(attempt, %reason, ?delay, "not retrying: the retry would end past the time budget");
                    return done(StopReason::TimeBudgetExhausted, result, 0);
                }
            }
            if let (Some(scope), Some(deadline)) =
                (&scope, scope.as_ref().and_then(PollScope::deadline))
            {
                if !scope.fits(delay) {
                    // The waiter's own rule for its last poll (see `waiter::delay`): rather than
                    // give up with time left, retry when there is just time left for the
                    // attempt to answer, twice the longest attempt so far. Give up only when
                    // there is not, or when the server said when to come back (its hint is a
                    // minimum: an earlier attempt would only be refused again).
                    let left = deadline.saturating_duration_since(tokio::time::Instant::now());
                    match left.checked_sub(longest_attempt.saturating_mul(2)) {
                        Some(early) if !left.is_zero() && reason.retry_after().is_none() => {
                            tracing::debug!(attempt, %reason, ?delay, ?early, "the retry would end past the waiter's deadline: moved up to leave its attempt time to answer");
                            delay = early;
                        }
                        _ => {
                            token.failure();
                            scope.record_deadline_stop();
                            tracing::debug!(attempt, %reason, ?delay, "not retrying: the retry would end past the waiter's deadline");
                            return done(StopReason::WaiterDeadline, result, 0);
                        }
                    }
                }
            }
            token = match token.schedule_retry(reason.kind()) {
                Ok(next) => next,
                Err(exhausted) => {
                    crate::metrics::quota_refused();
                    tracing::debug!(attempt, %reason, %exhausted, "not retrying");
                    if call.long_polling && config.behavior() == RetryBehavior::V2_1 {
                        long_polling_backoff(inner.sleep.as_ref(), delay).await;
                    }
                    return done(StopReason::QuotaExhausted(exhausted), result, 0);
                }
            };
            // At most `u32::MAX` attempts of at most `u32::MAX` tokens: no overflow in a u64.
            tokens_taken += u64::from(token.held());

            let error = result.as_ref().err();
            tracing::debug!(
                attempt,
                max_attempts,
                %reason,
                ?delay,
                error_code = error.and_then(|e| e.code()),
                quota_available = inner.quota.available(),
                "retrying"
            );
            crate::metrics::retried(reason.kind());
            if let Some(hook) = &inner.on_retry {
                hook(&RetryEvent {
                    attempt,
                    reason: &reason,
                    delay,
                    error: error.map(|e| e as &dyn ProvideErrorMetadata),
                });
            }
            drop(result);
            if let Some(scope) = &scope {
                scope.record_retry(delay);
            }
            if !delay.is_zero() {
                // Boxed: keeps the timer out of every call's future, retried or not.
                Box::pin(timer::sleep(inner.sleep.as_ref(), delay)).await;
            } else {
                // A retry that does not sleep still lets the runtime run other tasks once this
                // task has spent its budget (tokio's cooperative scheduling): zero-delay
                // retries of an operation that is ready at once cannot hold a thread.
                timer::consume_budget().await;
            }
            attempt += 1;
        }
    }
}

/// The delay before the retry that follows failed attempt `attempt` for `reason`. A random
/// number is drawn only where the jitter applies to a non-zero bound and its result is used
/// (in 2.0 a retry-after hint replaces the computed delay).
fn backoff_delay(config: &RetryConfig, reason: &RetryReason, attempt: u32) -> Duration {
    let kind = reason.kind();
    let hint = reason.retry_after();
    let jittered = config.jitter() == super::Jitter::Full
        && !config.backoff_bound(kind, attempt).is_zero()
        && (hint.is_none() || config.behavior() == RetryBehavior::V2_1);
    let random = if jittered { backoff::random() } else { 0.0 };
    config.delay(kind, attempt, random, hint)
}

/// Retry behavior 2.1's rule for long-polling operations: when the quota refuses a retry, the
/// call still backs off once before it returns, so that a caller polling in a loop does not
/// spin against a failing service. The delay already fits the time budget and the waiter's
/// deadline: both are checked before the quota.
async fn long_polling_backoff(sleep: Option<&SharedAsyncSleep>, delay: Duration) {
    tracing::debug!(
        ?delay,
        "long-polling operation: backing off before returning"
    );
    if !delay.is_zero() {
        Box::pin(timer::sleep(sleep, delay)).await;
    }
}

/// Waits for the rate limiter; inside a waiter's poll, a wait is added to the poll's counters.
/// The clock is read only when the limiter makes the attempt wait.
async fn acquire_timed(limiter: &dyn RateLimiter, ticket: u64) {
    let mut acquire = limiter.acquire_for(ticket);
    let mut waiting_since = None;
    std::future::poll_fn(|cx| match acquire.as_mut().poll(cx) {
        std::task::Poll::Ready(()) => std::task::Poll::Ready(()),
        std::task::Poll::Pending => {
            waiting_since.get_or_insert_with(tokio::time::Instant::now);
            std::task::Poll::Pending
        }
    })
    .await;
    if let Some(since) = waiting_since {
        let waited = since.elapsed();
        crate::metrics::rate_limit_waited(waited);
        if let Some(scope) = poll_scope::current() {
            scope.record_rate_limit_wait(waited);
        }
    }
}

/// Per-call overrides of a [`Retrier`]; see [`Retrier::customize`].
#[derive(Debug)]
#[must_use = "finish with `.run(op)` or `.run_report(op)`"]
pub struct CustomizedRun<'r> {
    retrier: &'r Retrier,
    classifiers: RetryClassifiers,
    replace: bool,
    max_attempts: Option<u32>,
    long_polling: bool,
}

#[derive(Default)]
struct CallSettings<'a> {
    classifiers: Option<RetryClassifiers>,
    replace: bool,
    max_attempts: Option<u32>,
    /// A long-polling operation (see [`CustomizedRun::long_polling`]).
    long_polling: bool,
    /// The waiter's own retries around a whole poll (`Waiter::retry`): they stand down when
    /// the operation has a retry layer of its own.
    waiter_owned: bool,
    /// Whether the operation can be made once more (see `run_report_while`).
    can_repeat: Option<&'a (dyn Fn() -> bool + Sync)>,
}

impl<'r> CustomizedRun<'r> {
    /// Adds a classifier for this call; it runs among the retrier's by priority (after them
    /// on equal priorities).
    pub fn retry_classifier(mut self, classifier: impl ClassifyRetry + 'static) -> Self {
        self.classifiers.push(classifier);
        self
    }

    /// Uses only these classifiers for this call (plus any added after with
    /// [`retry_classifier`](Self::retry_classifier)).
    pub fn with_retry_classifiers(
        mut self,
        classifiers: impl IntoIterator<Item = SharedRetryClassifier>,
    ) -> Self {
        self.classifiers = classifiers.into_iter().collect();
        self.replace = true;
        self
    }

    /// The most attempts for this call, the first try included (0 means 1).
    pub fn max_attempts(mut self, max_attempts: u32) -> Self {
        self.max_attempts = Some(max_attempts.max(1));
        self
    }

    /// Marks this call as a long-polling operation (SQS `ReceiveMessage`, Step Functions
    /// `GetActivityTask`, SWF `PollForActivityTask`/`PollForDecisionTask`...): under retry
    /// behavior 2.1, when the retry quota refuses a retry (and only then), the call still
    /// waits the backoff it would have waited before it returns the error, as the AWS SDKs
    /// do, so that a caller polling in a loop does not spin against a failing service. Under
    /// 2.0 it changes nothing.
    ///
    /// ```
    /// use std::time::Duration;
    /// use waiter_runtime::ProvideErrorMetadata;
    /// use waiter_runtime::retry::{Jitter, Retrier, RetryConfig, RetryQuota, StopReason};
    ///
    /// #[derive(Debug, ProvideErrorMetadata)]
    /// #[error_metadata(status = 503)]
    /// struct Unavailable;
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let retrier = Retrier::new(RetryConfig::standard().jitter(Jitter::None).build())
    ///     .with_quota(RetryQuota::builder().capacity(0).build()); // empty
    /// let start = tokio::time::Instant::now();
    /// let report = retrier
    ///     .customize()
    ///     .long_polling(true)
    ///     .run_report(|| async { Err::<(), _>(Unavailable) })
    ///     .await;
    /// assert!(matches!(report.stop, StopReason::QuotaExhausted(_)));
    /// assert_eq!(report.attempts, 1);
    /// assert_eq!(start.elapsed(), Duration::from_millis(50)); // backed off once
    /// # }
    /// ```
    pub fn long_polling(mut self, long_polling: bool) -> Self {
        self.long_polling = long_polling;
        self
    }

    fn settings(self) -> (&'r Retrier, CallSettings<'static>) {
        let classifiers =
            (self.replace || !self.classifiers.is_empty()).then_some(self.classifiers);
        (
            self.retrier,
            CallSettings {
                classifiers,
                replace: self.replace,
                max_attempts: self.max_attempts,
                long_polling: self.long_polling,
                waiter_owned: false,
                can_repeat: None,
            },
        )
    }

    /// Runs `op` with the overrides; see [`Retrier::run`].
    pub async fn run<F, Fut, O, E>(self, op: F) -> Result<O, E>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        E: ProvideErrorMetadata + 'static,
    {
        self.run_report(op).await.result
    }

    /// Runs `op` with the overrides; see [`Retrier::run_report`].
    pub async fn run_report<F, Fut, O, E>(self, op: F) -> RunReport<O, E>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        E: ProvideErrorMetadata + 'static,
    {
        let (retrier, settings) = self.settings();
        let token = retrier.inner.quota.acquire();
        retrier.execute(&settings, op, token, None).await
    }
}

#[cfg(test)]
mod tests;
