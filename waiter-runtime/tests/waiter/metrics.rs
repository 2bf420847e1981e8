//! Feature `metrics`: what the waiters and the retrier count, through a recording recorder
//! of our own (the `metrics` facade's `Recorder`), installed for one thread at a time.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use metrics::{
    Counter, CounterFn, Gauge, Histogram, HistogramFn, Key, KeyName, Metadata, Recorder,
    SharedString, Unit,
};
use waiter_runtime::retry::{Jitter, RateLimiter, Retrier, RetryConfig, RetryQuota};
use waiter_runtime::waiter::TransientPollErrors;

// The scripted service of the transient-errors tests (its waiter polls every 2 s).
use crate::transient_errors::{Error, Service};

/// Every counter's total and every histogram's values, by `name{label=value,...}`.
#[derive(Default, Clone)]
struct Recording {
    counters: Arc<Mutex<BTreeMap<String, u64>>>,
    histograms: Arc<Mutex<BTreeMap<String, Vec<f64>>>>,
}

struct Handle(Recording, String);

impl CounterFn for Handle {
    fn increment(&self, value: u64) {
        *self
            .0
            .counters
            .lock()
            .unwrap()
            .entry(self.1.clone())
            .or_default() += value;
    }
    fn absolute(&self, value: u64) {
        self.0
            .counters
            .lock()
            .unwrap()
            .insert(self.1.clone(), value);
    }
}

impl HistogramFn for Handle {
    fn record(&self, value: f64) {
        let mut all = self.0.histograms.lock().unwrap();
        all.entry(self.1.clone()).or_default().push(value);
    }
}

fn key_text(key: &Key) -> String {
    let labels: Vec<String> = key
        .labels()
        .map(|l| format!("{}={}", l.key(), l.value()))
        .collect();
    format!("{}{{{}}}", key.name(), labels.join(","))
}

impl Recorder for Recording {
    fn describe_counter(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_gauge(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_histogram(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn register_counter(&self, key: &Key, _: &Metadata<'_>) -> Counter {
        Counter::from_arc(Arc::new(Handle(self.clone(), key_text(key))))
    }
    fn register_gauge(&self, _: &Key, _: &Metadata<'_>) -> Gauge {
        Gauge::noop()
    }
    fn register_histogram(&self, key: &Key, _: &Metadata<'_>) -> Histogram {
        Histogram::from_arc(Arc::new(Handle(self.clone(), key_text(key))))
    }
}

impl Recording {
    /// Runs `fut` on a paused clock with this recorder installed on the thread.
    fn run<F: Future>(&self, fut: F) -> F::Output {
        metrics::with_local_recorder(self, || {
            tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .start_paused(true)
                .build()
                .unwrap()
                .block_on(fut)
        })
    }

    fn counters(&self) -> BTreeMap<String, u64> {
        self.counters.lock().unwrap().clone()
    }

    fn histogram(&self, key: &str) -> Vec<f64> {
        let all = self.histograms.lock().unwrap();
        all.get(key).cloned().unwrap_or_default()
    }
}

fn config(attempts: u32) -> RetryConfig {
    RetryConfig::standard()
        .max_attempts(attempts)
        .jitter(Jitter::None)
        .throttling_backoff(Duration::from_millis(100))
        .build()
}

fn map(entries: &[(&str, u64)]) -> BTreeMap<String, u64> {
    entries.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

#[test]
fn a_wait_counts_its_polls_attempts_retries_and_outcome() {
    let recording = Recording::default();
    let service = Service::new(vec![Err(Error::Throttled), Ok("CREATING"), Ok("READY")]);
    let done = recording.run(async {
        service
            .wait_until_stack_ready()
            .retry(config(3))
            .wait(Duration::from_secs(60))
            .await
    });
    assert_eq!(done.unwrap().polls, 2);
    assert_eq!(
        recording.counters(),
        map(&[
            ("retry_attempts_total{}", 3),
            ("retry_retries_total{kind=throttling_error}", 1),
            ("retry_throttles_total{}", 1),
            ("waiter_poll_attempts_total{waiter=StackReady}", 3),
            ("waiter_polls_total{waiter=StackReady,state=retry}", 1),
            ("waiter_polls_total{waiter=StackReady,state=success}", 1),
            ("waiter_waits_total{waiter=StackReady,outcome=success}", 1),
        ])
    );
    // Poll 1 took 100 ms (one retry), then 2 s of delay.
    assert_eq!(
        recording.histogram("waiter_wait_duration_seconds{waiter=StackReady,outcome=success}"),
        [2.1]
    );
}

#[test]
fn outcomes_and_transient_polls_are_labelled() {
    let recording = Recording::default();
    recording.run(async {
        let failing = Service::new(vec![Err(Error::Internal)]);
        let _ = failing
            .wait_until_stack_ready()
            .wait(Duration::from_secs(60))
            .await;
        let throttled = Service::new(vec![Err(Error::Throttled)]);
        let _ = throttled
            .wait_until_stack_ready()
            .transient_poll_errors(TransientPollErrors::Retry)
            .wait(Duration::from_secs(3))
            .await;
        let invalid = Service::new(vec![Ok("READY")]);
        let _ = invalid
            .wait_until_stack_ready()
            .consecutive_successes(0)
            .wait(Duration::from_secs(3))
            .await;
    });
    let counters = recording.counters();
    let waits: Vec<(&str, u64)> = counters
        .iter()
        .filter(|(k, _)| k.starts_with("waiter_waits_total"))
        .map(|(k, v)| (k.as_str(), *v))
        .collect();
    assert_eq!(
        waits,
        [
            (
                "waiter_waits_total{waiter=StackReady,outcome=exceeded_max_wait}",
                1
            ),
            (
                "waiter_waits_total{waiter=StackReady,outcome=invalid_options}",
                1
            ),
            (
                "waiter_waits_total{waiter=StackReady,outcome=operation_failed}",
                1
            ),
        ]
    );
    // Polls at 0 and 2.999 s (the last 1 ms before the deadline: 2 s more would leave less
    // than the minimum delay), each throttled.
    assert_eq!(
        counters.get("waiter_transient_poll_errors_total{waiter=StackReady}"),
        Some(&2)
    );
    assert_eq!(
        recording
            .histogram("waiter_wait_duration_seconds{waiter=StackReady,outcome=exceeded_max_wait}"),
        [2.999]
    );
}

/// Makes every attempt wait a second.
#[derive(Debug)]
struct SlowLimiter;

impl RateLimiter for SlowLimiter {
    fn acquire(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(tokio::time::sleep(Duration::from_secs(1)))
    }
    fn on_response(&self, _: bool) {}
}

#[test]
fn quota_refusals_and_rate_limiter_waits() {
    let recording = Recording::default();
    recording.run(async {
        let empty = Retrier::new(config(3)).with_quota(RetryQuota::builder().capacity(0).build());
        let _: Result<(), Error> = empty.run(|| async { Err(Error::Throttled) }).await;
        let limited = Retrier::new(config(2)).with_rate_limiter(Arc::new(SlowLimiter));
        let _: Result<(), Error> = limited.run(|| async { Err(Error::Throttled) }).await;
    });
    let counters = recording.counters();
    assert_eq!(counters.get("retry_quota_refusals_total{}"), Some(&1));
    assert_eq!(counters.get("retry_attempts_total{}"), Some(&3));
    assert_eq!(
        recording.histogram("retry_rate_limit_wait_seconds{}"),
        [1.0, 1.0]
    );
}
