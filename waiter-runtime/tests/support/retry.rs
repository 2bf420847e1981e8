//! Shared by the `retry` and `tracing` tests: an error type, a scripted operation that records when each
//! attempt ran, and a tracing subscriber that captures events.

#![allow(dead_code)]

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;
use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::retry::{Jitter, Retrier, RetryBehavior, RetryConfig, RetryQuota};

#[derive(Debug, Clone, PartialEq, ProvideErrorMetadata)]
pub enum TestError {
    #[error_metadata(code = "ThrottlingException")]
    Throttling,
    #[error_metadata(status = 503)]
    Unavailable,
    #[error_metadata(transient)]
    Timeout,
    #[error_metadata(code = "NotFound", status = 404)]
    NotFound,
    #[error_metadata(code = "ServiceUnavailable", status = 503)]
    UnavailableAfter(#[error_metadata(retry_after)] Duration),
    #[error_metadata(retryable)]
    ModeledRetryable(#[error_metadata(status)] u16),
    #[error_metadata(retryable(throttling))]
    ModeledThrottling,
    #[error_metadata(no_code)]
    Status(#[error_metadata(status)] u16),
    Coded(#[error_metadata(code)] &'static str),
}

/// An operation whose attempts return the scripted outcomes in order (the last one repeats),
/// recording the (paused-clock) instant of every attempt.
pub struct Script {
    outcomes: Mutex<VecDeque<Result<u32, TestError>>>,
    last: Mutex<Option<Result<u32, TestError>>>,
    times: Mutex<Vec<Instant>>,
}

impl Script {
    pub fn new(outcomes: impl IntoIterator<Item = Result<u32, TestError>>) -> Arc<Self> {
        Arc::new(Script {
            outcomes: Mutex::new(outcomes.into_iter().collect()),
            last: Mutex::new(None),
            times: Mutex::new(Vec::new()),
        })
    }

    /// Always fails with `error`.
    pub fn failing(error: TestError) -> Arc<Self> {
        Self::new([Err(error)])
    }

    pub async fn call(&self) -> Result<u32, TestError> {
        self.times.lock().unwrap().push(Instant::now());
        let next = self.outcomes.lock().unwrap().pop_front();
        let mut last = self.last.lock().unwrap();
        match next {
            Some(outcome) => {
                *last = Some(outcome.clone());
                outcome
            }
            None => last.clone().expect("script has no outcomes"),
        }
    }

    pub fn attempts(&self) -> usize {
        self.times.lock().unwrap().len()
    }

    /// The time between consecutive attempts: the backoffs actually slept.
    pub fn gaps(&self) -> Vec<Duration> {
        let times = self.times.lock().unwrap();
        times.windows(2).map(|w| w[1] - w[0]).collect()
    }
}

/// Captures tracing events as maps of field name to value (`message` included).
#[derive(Clone, Default)]
pub struct Capture {
    pub events: Arc<Mutex<Vec<BTreeMap<String, String>>>>,
}

impl Capture {
    pub fn messages(&self, message: &str) -> Vec<BTreeMap<String, String>> {
        let events = self.events.lock().unwrap();
        events
            .iter()
            .filter(|e| e.get("message").map(String::as_str) == Some(message))
            .cloned()
            .collect()
    }
}

struct Visitor<'a>(&'a mut BTreeMap<String, String>);

impl tracing::field::Visit for Visitor<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl tracing::Subscriber for Capture {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        let mut fields = BTreeMap::new();
        fields.insert("level".to_owned(), event.metadata().level().to_string());
        event.record(&mut Visitor(&mut fields));
        self.events.lock().unwrap().push(fields);
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

/// Retry behavior 2.0's whole-second timings make the rules below easy to read; 2.1's are
/// covered by `tests/retry/backoff.rs`, `quota.rs` and the oracle tests.
pub fn no_jitter(max_attempts: u32) -> RetryConfig {
    RetryConfig::standard()
        .behavior(RetryBehavior::V2_0)
        .max_attempts(max_attempts)
        .jitter(Jitter::None)
        .build()
}

/// A retrier whose quota (13 tokens) has no room for a retry after anything but a throttle.
pub fn empty_quota_retrier(behavior: RetryBehavior) -> Retrier {
    Retrier::new(
        RetryConfig::standard()
            .behavior(behavior)
            .jitter(Jitter::None)
            .build(),
    )
    .with_quota(
        RetryQuota::builder()
            .behavior(behavior)
            .capacity(13)
            .build(),
    )
}
