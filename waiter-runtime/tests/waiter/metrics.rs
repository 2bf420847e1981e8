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

/// Every counter's total and every histogram's values, by `name{label=value,...}`, and every
/// description by name.
#[derive(Default, Clone)]
struct Recording {
    counters: Arc<Mutex<BTreeMap<String, u64>>>,
    histograms: Arc<Mutex<BTreeMap<String, Vec<f64>>>>,
    descriptions: Arc<Mutex<BTreeMap<String, Description>>>,
}

/// What a recorder was told about a metric: its kind, unit and help text.
#[derive(Debug, Clone, PartialEq)]
struct Description {
    kind: &'static str,
    unit: Option<Unit>,
    help: String,
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
    fn describe_counter(&self, name: KeyName, unit: Option<Unit>, help: SharedString) {
        self.describe("counter", name, unit, help);
    }
    fn describe_gauge(&self, name: KeyName, unit: Option<Unit>, help: SharedString) {
        self.describe("gauge", name, unit, help);
    }
    fn describe_histogram(&self, name: KeyName, unit: Option<Unit>, help: SharedString) {
        self.describe("histogram", name, unit, help);
    }
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
    fn describe(&self, kind: &'static str, name: KeyName, unit: Option<Unit>, help: SharedString) {
        let description = Description {
            kind,
            unit,
            help: help.to_string(),
        };
        let previous = self
            .descriptions
            .lock()
            .unwrap()
            .insert(name.as_str().to_owned(), description);
        assert!(previous.is_none(), "{} described twice", name.as_str());
    }

    fn descriptions(&self) -> BTreeMap<String, Description> {
        self.descriptions.lock().unwrap().clone()
    }

    /// The names of every metric recorded so far.
    fn recorded_names(&self) -> Vec<String> {
        let name = |key: &String| key[..key.find('{').unwrap()].to_owned();
        let mut names: Vec<String> = self.counters.lock().unwrap().keys().map(name).collect();
        names.extend(self.histograms.lock().unwrap().keys().map(name));
        names.sort();
        names.dedup();
        names
    }
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

/// The table of the `metrics` module's docs (`src/docs/metrics.md`): name -> description.
fn documented() -> BTreeMap<String, Description> {
    let table = include_str!("../../src/docs/metrics.md");
    let rows = table.lines().filter(|line| line.starts_with("| `"));
    rows.map(|row| {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        // | name | kind | unit | labels | help |
        let kind = match cells[2] {
            "counter" => "counter",
            "histogram" => "histogram",
            "gauge" => "gauge",
            other => panic!("unknown kind {other}"),
        };
        let unit = match cells[3] {
            "count" => Some(Unit::Count),
            "seconds" => Some(Unit::Seconds),
            other => panic!("unknown unit {other}"),
        };
        let description = Description {
            kind,
            unit,
            help: cells[5].to_owned(),
        };
        (cells[1].trim_matches('`').to_owned(), description)
    })
    .collect()
}

#[test]
fn describe_tells_the_recorder_every_documented_metric_with_its_unit_and_help() {
    let recording = Recording::default();
    metrics::with_local_recorder(&recording, waiter_runtime::metrics::describe);
    let documented = documented();
    assert!(documented.len() >= 10, "{documented:?}");
    assert_eq!(recording.descriptions(), documented);
}

#[test]
fn every_metric_recorded_is_documented() {
    let recording = Recording::default();
    recording.run(async {
        let service = Service::new(vec![Err(Error::Throttled), Ok("CREATING"), Ok("READY")]);
        let _ = service
            .wait_until_stack_ready()
            .retry(config(3))
            .wait(Duration::from_secs(60))
            .await;
        let throttled = Service::new(vec![Err(Error::Throttled)]);
        let _ = throttled
            .wait_until_stack_ready()
            .transient_poll_errors(TransientPollErrors::Retry)
            .wait(Duration::from_secs(3))
            .await;
        let empty = Retrier::new(config(3)).with_quota(RetryQuota::builder().capacity(0).build());
        let _: Result<(), Error> = empty.run(|| async { Err(Error::Throttled) }).await;
        let limited = Retrier::new(config(2)).with_rate_limiter(Arc::new(SlowLimiter));
        let _: Result<(), Error> = limited.run(|| async { Err(Error::Throttled) }).await;
        budget_refusal_and_attempt_timeouts().await;
    });
    let documented = documented();
    let recorded = recording.recorded_names();
    assert_eq!(recorded.len(), documented.len(), "{recorded:?}");
    for name in recorded {
        assert!(documented.contains_key(&name), "{name} is not documented");
    }
}

/// Set in the copy of this test binary that the test below starts.
const FRESH_PROCESS: &str = "WAITER_METRICS_FRESH_PROCESS";

#[test]
fn the_first_recording_in_a_process_describes_the_metrics() {
    let name = "metrics::the_first_recording_in_a_process_describes_the_metrics";
    if std::env::var_os(FRESH_PROCESS).is_none() {
        // The descriptions are made once per process: this test runs alone in a new one.
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([name, "--exact", "--test-threads=1"])
            .env(FRESH_PROCESS, "1")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains("1 passed"), "{stdout}");
        return;
    }
    let recording = Recording::default();
    recording.run(async {
        let service = Service::new(vec![Err(Error::Throttled), Ok("READY")]);
        let _ = service
            .wait_until_stack_ready()
            .retry(config(3))
            .wait(Duration::from_secs(60))
            .await;
    });
    // Nothing was described before this wait: it described both domains' metrics, once.
    assert_eq!(recording.descriptions(), documented());
    let again = Recording::default();
    again.run(async {
        let service = Service::new(vec![Ok("READY")]);
        let _ = service
            .wait_until_stack_ready()
            .wait(Duration::from_secs(60))
            .await;
    });
    assert!(again.descriptions().is_empty());
}

/// Lets the first attempt through at once, then makes every other wait an hour.
#[derive(Debug, Default)]
struct FirstOnlyLimiter(std::sync::atomic::AtomicU32);

impl RateLimiter for FirstOnlyLimiter {
    fn acquire(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        let n = self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let wait = if n == 0 {
            Duration::ZERO
        } else {
            Duration::from_secs(3600)
        };
        Box::pin(tokio::time::sleep(wait))
    }
    fn on_response(&self, _: bool) {}
}

/// Issue 39.6: a retry whose rate-limiter token would come after the waiter's deadline is not
/// made, and is counted nowhere: not in the poll's `attempts`, not in
/// `waiter_poll_attempts_total`, not in `retry_retries_total` (each counted it).
#[test]
fn a_retry_not_made_for_the_limiter_is_not_counted() {
    let recording = Recording::default();
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = events.clone();
    let outcome = recording.run(async move {
        let service = Service::new(vec![Err(Error::Throttled)]);
        let retrier =
            Retrier::new(config(3)).with_rate_limiter(Arc::new(FirstOnlyLimiter::default()));
        service
            .wait_until_stack_ready()
            .retrier(retrier)
            .on_poll(move |e: &waiter_runtime::waiter::PollEvent| seen.lock().unwrap().push(*e))
            .wait(Duration::from_secs(60))
            .await
    });
    assert!(
        matches!(
            outcome,
            Err(waiter_runtime::WaiterError::ExceededMaxWait { .. })
        ),
        "{outcome:?}"
    );
    let events = events.lock().unwrap();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].attempts, 1, "{:?}", events[0]);
    let counters = recording.counters();
    assert_eq!(counters.get("retry_attempts_total{}"), Some(&1));
    assert_eq!(
        counters.get("waiter_poll_attempts_total{waiter=StackReady}"),
        Some(&1)
    );
    assert_eq!(
        counters.get("retry_retries_total{kind=throttling_error}"),
        None,
        "{counters:?}"
    );
}

/// One retry the budget refuses (one attempt), and two attempts cut at their timeout.
async fn budget_refusal_and_attempt_timeouts() {
    let none = waiter_runtime::retry::RetryBudget::new(0.0, 0, Duration::from_secs(10)).unwrap();
    let refusing = Retrier::new(config(3)).with_budget(none);
    let _: Result<(), Error> = refusing.run(|| async { Err(Error::Throttled) }).await;
    let timed = Retrier::new(
        RetryConfig::standard()
            .max_attempts(2)
            .attempt_timeout(Duration::from_secs(1))
            .build(),
    );
    let out = timed
        .run_timed(|| async {
            std::future::pending::<()>().await;
            Ok::<(), Error>(())
        })
        .await;
    assert!(out.unwrap_err().timed_out().is_some());
}

/// Issue 36: a retry the budget refuses and an attempt cut at its timeout are counted.
#[test]
fn budget_refusals_and_attempt_timeouts() {
    let recording = Recording::default();
    recording.run(budget_refusal_and_attempt_timeouts());
    let counters = recording.counters();
    assert_eq!(counters.get("retry_budget_refusals_total{}"), Some(&1));
    assert_eq!(counters.get("retry_attempt_timeouts_total{}"), Some(&2));
    assert_eq!(counters.get("retry_attempts_total{}"), Some(&3));
}
