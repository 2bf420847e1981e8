//! [`Retrier`]: what a retrier holds (shared by its clones) and how it is set up.

use std::fmt;
use std::sync::Arc;

use crate::retry::{
    ClassifyRetry, RateLimiter, RetryBudget, RetryClassifiers, RetryConfig, RetryEvent, RetryQuota,
    SharedRetryClassifier,
};
use crate::timer::SharedAsyncSleep;
use tokio::time::Instant;

type RetryHook = Arc<dyn Fn(&RetryEvent<'_>) + Send + Sync>;

/// Runs an async operation at least once and retries it as the AWS SDKs' standard strategy
/// does: prioritised [classifiers](crate::retry::ClassifyRetry) decide whether a result is retried,
/// a shared [`RetryQuota`] limits retries across calls, exponential backoff with full jitter
/// (or the server's retry-after hint) spaces them.
///
/// Cheap to clone (clones share the quota); one per client is the normal use. Async calls use
/// [`run`](Self::run), blocking ones [`run_blocking`](Self::run_blocking): one retrier serves
/// both, with one quota and one rate limiter.
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
    pub(super) inner: Arc<Inner>,
}

#[derive(Clone)]
pub(super) struct Inner {
    pub(super) config: RetryConfig,
    pub(super) quota: RetryQuota,
    /// The retry budget, if any (asked before the quota).
    pub(super) budget: Option<RetryBudget>,
    pub(super) classifiers: RetryClassifiers,
    pub(super) on_retry: Option<RetryHook>,
    pub(super) rate_limiter: Option<Arc<dyn RateLimiter>>,
    /// The timer the retries sleep on (`None`: the default, see [`crate::timer`]).
    pub(super) sleep: Option<SharedAsyncSleep>,
    /// Whether a first try needs nothing but the quota's token: no rate limiter, no
    /// classifier inspecting successes, no budget, no time bound (kept by [`Inner::refresh`]).
    pub(super) plain_first_try: bool,
}

impl Inner {
    /// The rate limiter, when a successful first try can skip classification: no classifier
    /// would retry a success or call it throttling, and no time bound (total or per attempt)
    /// needs a start time.
    #[inline]
    pub(super) fn adaptive_fast_path(&self) -> Option<&dyn RateLimiter> {
        match &self.rate_limiter {
            Some(limiter)
                if !self.classifiers.inspects_success() && !self.config.bounds_attempts() =>
            {
                Some(&**limiter)
            }
            _ => None,
        }
    }

    /// Recomputes what is derived from the settings.
    fn refresh(&mut self) {
        self.plain_first_try =
            self.fast_first_try() && self.budget.is_none() && !self.config.bounds_attempts();
    }

    /// Whether a successful first try can skip classification: no classifier would retry a
    /// success and no rate limiter needs to hear of it.
    #[inline]
    pub(super) fn fast_first_try(&self) -> bool {
        self.rate_limiter.is_none() && !self.classifiers.inspects_success()
    }

    /// A call starts: its deposit into the retry budget, if there is one.
    #[inline]
    pub(super) fn deposit(&self) {
        if let Some(budget) = &self.budget {
            budget.deposit();
        }
    }

    /// When a call starting now began and until when its first attempt has (from
    /// `attempt_timeout` and `max_total_time`; `None` inside when past what `Instant` holds),
    /// if the config bounds attempts: the clock is read only then.
    #[inline]
    pub(super) fn first_attempt_bound(&self) -> Option<(Instant, Option<Instant>)> {
        if !self.config.bounds_attempts() {
            return None;
        }
        let started = crate::timer::now();
        let until = |bound: Option<std::time::Duration>| bound.and_then(|d| started.checked_add(d));
        let deadline = match (
            until(self.config.attempt_timeout()),
            until(self.config.max_total_time()),
        ) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Some((started, deadline))
    }
}

impl fmt::Debug for Retrier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Retrier")
            .field("config", &self.inner.config)
            .field("quota", &self.inner.quota)
            .field("budget", &self.inner.budget)
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
    /// follow the config's [`RetryBehavior`](crate::retry::RetryBehavior).
    ///
    /// In [`RetryMode::Adaptive`](crate::retry::RetryMode::Adaptive), attempts are paced by a
    /// [`ClientRateLimiter`](crate::retry::adaptive::ClientRateLimiter) of its own (shared by clones),
    /// or by the rate limiter given with [`with_rate_limiter`](Self::with_rate_limiter).
    pub fn new(config: RetryConfig) -> Self {
        let rate_limiter = (config.mode() == crate::retry::RetryMode::Adaptive).then(|| {
            Arc::new(crate::retry::adaptive::ClientRateLimiter::new()) as Arc<dyn RateLimiter>
        });
        let mut inner = Inner {
            quota: RetryQuota::builder().behavior(config.behavior()).build(),
            budget: None,
            config,
            classifiers: RetryClassifiers::defaults(),
            on_retry: None,
            rate_limiter,
            sleep: None,
            plain_first_try: false,
        };
        inner.refresh();
        Retrier {
            inner: Arc::new(inner),
        }
    }

    fn edit(mut self, f: impl FnOnce(&mut Inner)) -> Self {
        let inner = Arc::make_mut(&mut self.inner);
        f(inner);
        inner.refresh();
        self
    }

    /// Shares `quota` (with other retriers, say) instead of this retrier's own.
    pub fn with_quota(self, quota: RetryQuota) -> Self {
        self.edit(|inner| inner.quota = quota)
    }

    /// Limits retries with `budget` (shared with its clones: give several retriers one
    /// budget to share it), alongside the retry quota: a retry needs both. The budget is asked
    /// first; a retry it allows that the quota then refuses is given back to it, and a retry
    /// it refuses takes nothing from the quota. For the budget instead of the quota, give the
    /// retrier an unlimited quota as well.
    ///
    /// A refused retry ends the call with
    /// [`StopReason::RetryBudgetExhausted`](crate::retry::StopReason::RetryBudgetExhausted)
    /// (and counts in `retry_budget_refusals_total` under the `metrics` feature). The retry
    /// layers take a retrier, so its budget too.
    ///
    /// ```
    /// use waiter_runtime::ProvideErrorMetadata;
    /// use waiter_runtime::retry::{Retrier, RetryBudget, RetryConfig, RetryQuota, StopReason};
    ///
    /// #[derive(Debug, ProvideErrorMetadata)]
    /// #[error_metadata(status = 503)]
    /// struct Unavailable;
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// // Finagle's budget (20 % of the calls plus 10 retries a second, over 10 s), no AWS quota.
    /// let retrier = Retrier::new(RetryConfig::standard().max_attempts(2).build())
    ///     .with_budget(RetryBudget::default())
    ///     .with_quota(RetryQuota::unlimited());
    /// for _ in 0..125 {
    ///     let report = retrier.run_report(|| async { Err::<(), _>(Unavailable) }).await;
    ///     assert_eq!((report.attempts, report.stop), (2, StopReason::MaxAttempts));
    /// }
    /// // 100 retries from the floor and 25 (20 %) from the 125 calls: the budget is spent.
    /// let report = retrier.run_report(|| async { Err::<(), _>(Unavailable) }).await;
    /// assert_eq!((report.attempts, report.stop), (1, StopReason::RetryBudgetExhausted));
    /// # }
    /// ```
    pub fn with_budget(self, budget: RetryBudget) -> Self {
        self.edit(|inner| inner.budget = Some(budget))
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
    /// failed, why it is retried and how long the retrier will wait. In adaptive mode a retry
    /// announced so may still not be made, when its rate-limiter token would come past the
    /// time budget or the waiter's deadline: [`RunReport`](crate::retry::RunReport)'s
    /// `attempts` and `stop` say what was made.
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

    /// The retry budget, if one was given ([`with_budget`](Self::with_budget)).
    pub fn budget(&self) -> Option<&RetryBudget> {
        self.inner.budget.as_ref()
    }

    /// The classifiers, in the order they run.
    pub fn classifiers(&self) -> &RetryClassifiers {
        &self.inner.classifiers
    }
}
