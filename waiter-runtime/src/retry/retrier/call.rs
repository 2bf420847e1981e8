//! Per-call settings of a [`Retrier`]: [`CustomizedRun`] (public) and what the loop reads.

use std::future::Future;

use super::setup::Retrier;
use crate::ProvideErrorMetadata;
use crate::retry::attempt_error::OnTimeout;
use crate::retry::{
    AttemptError, ClassifyRetry, RetryClassifiers, RunReport, SharedRetryClassifier,
};

/// Per-call overrides of a [`Retrier`]; see [`Retrier::customize`].
#[derive(Debug)]
#[must_use = "finish with `.run(op)` or `.run_report(op)`"]
pub struct CustomizedRun<'r> {
    pub(super) retrier: &'r Retrier,
    pub(super) classifiers: RetryClassifiers,
    pub(super) replace: bool,
    pub(super) max_attempts: Option<u32>,
    pub(super) long_polling: bool,
}

/// What one call runs with, besides the retrier's own settings.
#[derive(Default)]
pub(super) struct CallSettings<'a> {
    pub(super) classifiers: Option<RetryClassifiers>,
    pub(super) replace: bool,
    pub(super) max_attempts: Option<u32>,
    /// A long-polling operation (see [`CustomizedRun::long_polling`]).
    pub(super) long_polling: bool,
    /// The waiter's own retries around a whole poll (`Waiter::retry`): they stand down when
    /// the operation has a retry layer of its own.
    pub(super) waiter_owned: bool,
    /// Whether the operation can be made once more (see `run_report_while`).
    pub(super) can_repeat: Option<&'a (dyn Fn() -> bool + Sync)>,
}

impl CallSettings<'_> {
    /// The settings of a waiter's own retries around a whole poll.
    pub(super) fn waiter_owned() -> Self {
        CallSettings {
            waiter_owned: true,
            ..CallSettings::default()
        }
    }
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

    /// Runs the blocking `op` with the overrides; see [`Retrier::run_blocking`].
    pub fn run_blocking<F, O, E>(self, op: F) -> Result<O, E>
    where
        F: FnMut() -> Result<O, E>,
        E: ProvideErrorMetadata + 'static,
    {
        self.run_report_blocking(op).result
    }

    /// Runs the blocking `op` with the overrides; see [`Retrier::run_report_blocking`].
    pub fn run_report_blocking<F, O, E>(self, op: F) -> RunReport<O, E>
    where
        F: FnMut() -> Result<O, E>,
        E: ProvideErrorMetadata + 'static,
    {
        let (retrier, settings) = self.settings();
        retrier.execute_blocking(&settings, op)
    }

    /// Runs `op` with the overrides; see [`Retrier::run_report`].
    pub async fn run_report<F, Fut, O, E>(self, op: F) -> RunReport<O, E>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        E: ProvideErrorMetadata + 'static,
    {
        self.execute(op).await.into_plain()
    }

    /// Runs `op` with the overrides; see [`Retrier::run_timed`].
    pub async fn run_timed<F, Fut, O, E>(self, op: F) -> Result<O, AttemptError<E>>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        E: ProvideErrorMetadata + 'static,
    {
        self.run_report_timed(op).await.result
    }

    /// Runs `op` with the overrides; see [`Retrier::run_report_timed`].
    pub async fn run_report_timed<F, Fut, O, E>(self, op: F) -> RunReport<O, AttemptError<E>>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        E: ProvideErrorMetadata + 'static,
    {
        self.execute(op).await.into_timed()
    }

    /// The retry loop with the overrides.
    async fn execute<F, Fut, O, E, T>(self, op: F) -> RunReport<Result<O, E>, T>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        E: ProvideErrorMetadata + 'static,
        T: OnTimeout,
    {
        let (retrier, settings) = self.settings();
        let token = retrier.inner.quota.acquire();
        retrier.execute(&settings, op, token, None).await
    }
}
