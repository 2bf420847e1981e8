//! The demo's scenario, as a library function: `cargo run --example demo` prints it, and an
//! end-to-end test runs the same code with shorter delays.
//!
//! Against a fresh [`ExampleService`]: create resources, then wait until all of them are
//! `ACTIVE` with one [`WaitAll`] (one deadline, a bounded number of polls in flight, one line
//! per poll from `PollEvent`'s `Display`, progress through [`run_with_progress`]); wait for all
//! of them with one list call; delete them and wait until each is gone, each wait a
//! [`stream`](waiter_runtime::Waiter::stream) whose lines show the status in each poll's
//! response (`DELETING`); report polls, elapsed time, retries and throttles per waiter.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState};
use waiter_runtime::retry::{RateLimiter, Retrier, RetryConfig};
use waiter_runtime::waiter::{PollEvent, WaitAllChange, WaitAllProgress, WaitUpdate};
use waiter_runtime::{FinalPoll, WaitAll, WaiterError};

use crate::client::{NewMember, ResourceClient};
use crate::report::{Table, human};
use crate::service::{ExampleService, FaultConfig, Outcome, ServiceStats, Settle};

/// The resources the demo creates: name and members (`fail-*` ends `FAILED`).
pub const RESOURCES: &[(&str, &[(&str, &str)])] = &[
    ("web-1", &[("web-1a", "primary"), ("web-1b", "replica")]),
    ("web-2", &[("web-2a", "primary")]),
    (
        "db-main",
        &[
            ("db-a", "primary"),
            ("db-b", "replica"),
            ("db-c", "replica"),
        ],
    ),
    ("cache", &[]),
    ("fail-legacy", &[("legacy-a", "primary")]),
];

/// How the demo runs.
#[derive(Debug, Clone)]
pub struct DemoOptions {
    /// Seed of the service's random choices.
    pub seed: u64,
    /// How long resources stay `CREATING`/`DELETING`.
    pub settle: Settle,
    /// Throttling and other faults injected by the service.
    pub faults: FaultConfig,
    /// Attempts per call, the first included (adaptive retry mode).
    pub max_attempts: u32,
    /// Waiter delay bounds, set through each waiter's builder.
    pub min_delay: Duration,
    /// See `min_delay`.
    pub max_delay: Duration,
    /// Maximum wait of each waiter (of the whole set, for the `WaitAll`).
    pub max_wait: Duration,
    /// Polls in flight at once in the `WaitAll` of the first phase.
    pub concurrency: usize,
}

impl Default for DemoOptions {
    /// What `cargo run --example demo` does: resources settle in 0.5 to 3 s, a quarter of the
    /// requests are throttled (with `Retry-After: 200 ms`), waiters poll every 100 ms to 1 s.
    fn default() -> Self {
        Self {
            seed: 2026,
            settle: Settle::After {
                min: Duration::from_millis(500),
                max: Duration::from_secs(3),
            },
            faults: FaultConfig {
                throttle: 0.15,
                slow_down: 0.10,
                retry_after: Some(Duration::from_millis(200)),
                ..FaultConfig::none()
            },
            max_attempts: 5,
            min_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(1),
            max_wait: Duration::from_secs(30),
            concurrency: 4,
        }
    }
}

/// How a wait ended, in a few words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaitOutcome {
    /// A success acceptor matched.
    Success,
    /// A failure acceptor matched, with its message.
    Failure(Option<String>),
    /// The maximum wait passed.
    GaveUp,
    /// An error no acceptor expected, or the call before the wait failed.
    Error(String),
}

impl fmt::Display for WaitOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WaitOutcome::Success => f.write_str("success"),
            WaitOutcome::Failure(Some(message)) => write!(f, "failure: {message}"),
            WaitOutcome::Failure(None) => f.write_str("failure"),
            WaitOutcome::GaveUp => f.write_str("gave up at the max wait"),
            WaitOutcome::Error(e) => write!(f, "error: {e}"),
        }
    }
}

/// One waiter's line in the summary.
#[derive(Debug, Clone)]
pub struct DemoRow {
    /// Resource (or list prefix) waited for.
    pub resource: String,
    /// Waiter name.
    pub waiter: &'static str,
    /// How the wait ended.
    pub outcome: WaitOutcome,
    /// Polls made.
    pub polls: u32,
    /// Time the wait took.
    pub elapsed: Duration,
    /// The client's retries for this row's calls: create/delete, and inside the polls (a
    /// throttle no acceptor names is retried there).
    pub retries: u32,
    /// Throttling answers received for this row's calls and polls.
    pub throttles: u32,
    order: (u8, usize),
}

/// Widest outcome cell in the table; the full text is in the log.
const OUTCOME_WIDTH: usize = 48;

/// `text` cut to `width` characters, with `...` when cut.
fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_owned()
    } else {
        let kept: String = text.chars().take(width.saturating_sub(3)).collect();
        format!("{}...", kept.trim_end())
    }
}

/// What the demo saw.
#[derive(Debug, Clone)]
pub struct DemoReport {
    /// One row per wait, in phase order then resource order.
    pub rows: Vec<DemoRow>,
    /// The service's counters at the end.
    pub service: ServiceStats,
    /// The adaptive rate limiter at the end.
    pub limiter: RateLimiterState,
    /// Total time.
    pub elapsed: Duration,
}

impl DemoReport {
    /// The summary table.
    pub fn table(&self) -> Table {
        let mut table = Table::new([
            "resource",
            "waiter",
            "outcome",
            "polls",
            "elapsed",
            "retries",
            "throttles",
        ]);
        for r in &self.rows {
            table.row([
                r.resource.clone(),
                r.waiter.to_owned(),
                shorten(&r.outcome.to_string(), OUTCOME_WIDTH),
                r.polls.to_string(),
                human(r.elapsed),
                r.retries.to_string(),
                r.throttles.to_string(),
            ]);
        }
        table
    }
}

impl fmt::Display for DemoReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.table())?;
        writeln!(
            f,
            "polls, elapsed: the waiter's. retries: the client's retries, of create/delete and inside polls"
        )?;
        writeln!(
            f,
            "(no acceptor names a throttle, so it is retried in the poll). throttles: throttling answers.\n"
        )?;
        let s = &self.service;
        writeln!(
            f,
            "service: {} requests, {} throttled ({:.0}%), {} connections",
            s.requests,
            s.throttled,
            100.0 * s.throttled as f64 / s.requests.max(1) as f64,
            s.connections_opened
        )?;
        writeln!(
            f,
            "adaptive rate limiter: {}, fill rate now {:.1} requests/s (measured send rate {:.1}/s)",
            if self.limiter.is_enabled() {
                "engaged since the first throttle"
            } else {
                "never engaged"
            },
            self.limiter.fill_rate(),
            self.limiter.measured_transmit_rate()
        )?;
        write!(f, "done in {}", human(self.elapsed))
    }
}

/// Per-row counters, filled by the hooks through a task-local.
#[derive(Debug, Default)]
struct Counters {
    retries: AtomicU32,
    throttles: AtomicU32,
}

tokio::task_local! {
    static ROW: Arc<Counters>;
}

/// Counts throttling answers for the current row, then lets the adaptive limiter react.
#[derive(Debug)]
struct CountThrottles(ClientRateLimiter);

impl RateLimiter for CountThrottles {
    fn acquire(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(self.0.acquire())
    }

    fn on_response(&self, throttled: bool) {
        self.on_attempt_response(RateLimiter::attempt_sent(&self.0), throttled);
    }

    fn attempt_sent(&self) -> u64 {
        RateLimiter::attempt_sent(&self.0)
    }

    fn on_attempt_response(&self, sent: u64, throttled: bool) {
        if throttled {
            let _ = ROW.try_with(|row| row.throttles.fetch_add(1, Ordering::Relaxed));
        }
        RateLimiter::on_attempt_response(&self.0, sent, throttled);
    }
}

/// Where the demo's lines go.
type Log = Arc<dyn Fn(&str) + Send + Sync>;

struct Run {
    client: ResourceClient,
    options: DemoOptions,
    start: Instant,
    log: Log,
    rows: Mutex<Vec<DemoRow>>,
}

impl Run {
    /// A line per poll: the time, the resource, and the poll as `PollEvent`'s `Display`
    /// writes it (retries and rate-limiter waits inside the poll explain a gap longer than the
    /// announced delay).
    fn poll_line(&self, resource: &str) -> impl FnMut(&PollEvent) + Send + use<> {
        let (resource, start, log) = (resource.to_owned(), self.start, Arc::clone(&self.log));
        move |e: &PollEvent| {
            log(&format!(
                "{:>7}  {resource:<12} {e}",
                human(start.elapsed())
            ))
        }
    }

    /// A line about a call (not a poll).
    fn event(&self, resource: &str, what: &str) {
        (self.log)(&format!(
            "{:>7}  {resource:<12} {what}",
            human(self.start.elapsed())
        ));
    }

    fn record<O, E: fmt::Display>(
        &self,
        order: (u8, usize),
        resource: &str,
        waiter: &'static str,
        row: &Counters,
        result: Result<FinalPoll<O, E>, WaiterError<O, E>>,
    ) {
        let (outcome, polls, elapsed) = match result {
            Ok(done) => (WaitOutcome::Success, done.polls, done.elapsed),
            Err(WaiterError::FailureState {
                message,
                final_poll,
                ..
            }) => (
                WaitOutcome::Failure(message),
                final_poll.polls,
                final_poll.elapsed,
            ),
            Err(WaiterError::ExceededMaxWait { polls, elapsed, .. }) => {
                (WaitOutcome::GaveUp, polls, elapsed)
            }
            Err(WaiterError::OperationFailed {
                error,
                polls,
                elapsed,
                ..
            }) => (WaitOutcome::Error(error.to_string()), polls, elapsed),
            Err(other) => (WaitOutcome::Error(other.to_string()), 0, Duration::ZERO),
        };
        if outcome != WaitOutcome::Success {
            self.event(resource, &format!("{waiter} ended: {outcome}"));
        }
        self.push(order, resource, waiter, row, outcome, polls, elapsed);
    }

    #[allow(clippy::too_many_arguments)]
    fn push(
        &self,
        order: (u8, usize),
        resource: &str,
        waiter: &'static str,
        row: &Counters,
        outcome: WaitOutcome,
        polls: u32,
        elapsed: Duration,
    ) {
        self.rows.lock().unwrap().push(DemoRow {
            resource: resource.to_owned(),
            waiter,
            outcome,
            polls,
            elapsed,
            retries: row.retries.load(Ordering::Relaxed),
            throttles: row.throttles.load(Ordering::Relaxed),
            order,
        });
    }

    /// Creates a resource; `false` (and its row) if the call failed.
    async fn create(
        self: Arc<Self>,
        i: usize,
        name: &'static str,
        members: Vec<NewMember>,
    ) -> bool {
        let row = ROW.get();
        match self.client.create_resource(name, &members).await {
            Ok(created) => {
                self.event(name, &format!("CreateResource -> {}", created.status));
                true
            }
            Err(err) => {
                let outcome = WaitOutcome::Error(format!("create: {err}"));
                self.push(
                    (0, i),
                    name,
                    "ResourceActive",
                    &row,
                    outcome,
                    0,
                    Duration::ZERO,
                );
                false
            }
        }
    }

    /// Waits until every created resource is `ACTIVE`, with one `WaitAll`: a line per poll,
    /// and every change to `progress`. The polls of all waiters run in this task; the
    /// client's retries inside them are counted from the poll events (`attempts`), and the
    /// throttling answers from the service's own log.
    async fn wait_all_active(
        &self,
        created: &[(usize, &'static str, Arc<Counters>)],
        service: &crate::service::RunningService,
        progress: &mut (dyn FnMut(&WaitAllProgress) + Send),
    ) {
        let o = &self.options;
        let waiters = created.iter().map(|(_, name, _)| {
            self.client
                .wait_until_resource_active(name)
                .min_delay(o.min_delay)
                .max_delay(o.max_delay)
        });
        let retries: Vec<AtomicU32> = created.iter().map(|_| AtomicU32::new(0)).collect();
        let results = WaitAll::new(waiters)
            .concurrency(o.concurrency)
            .on_progress(|p: &WaitAllProgress| {
                if let WaitAllChange::Polled(event) = &p.change {
                    let (_, name, _) = created[p.index];
                    retries[p.index].fetch_add(event.attempts - 1, Ordering::Relaxed);
                    (self.log)(&format!(
                        "{:>7}  {name:<12} {event}",
                        human(self.start.elapsed())
                    ));
                }
                progress(p);
            })
            .wait(o.max_wait)
            .await;
        let log = service.request_log();
        for (((i, name, row), result), retries) in created.iter().zip(results).zip(&retries) {
            let path = format!("/resources/{name}");
            let throttled = log
                .iter()
                .filter(|r| r.method == "GET" && r.path == path && r.outcome == Outcome::Throttled)
                .count();
            row.retries
                .fetch_add(retries.load(Ordering::Relaxed), Ordering::Relaxed);
            row.throttles.fetch_add(throttled as u32, Ordering::Relaxed);
            self.record((0, *i), name, "ResourceActive", row, result);
        }
    }

    async fn list_and_wait(self: Arc<Self>, i: usize, prefix: &'static str) {
        let row = ROW.get();
        let label = if prefix.is_empty() {
            "(all)".to_owned()
        } else {
            format!("{prefix}*")
        };
        let o = &self.options;
        let result = self
            .client
            .wait_until_all_resources_active(prefix)
            .min_delay(o.min_delay)
            .max_delay(o.max_delay)
            .on_poll(self.poll_line(&label))
            .wait(o.max_wait)
            .await;
        self.record((1, i), &label, "AllResourcesActive", &row, result);
    }

    async fn delete_and_wait(self: Arc<Self>, i: usize, name: &'static str) {
        let row = ROW.get();
        let waiter = "ResourceDeleted";
        match self.client.delete_resource(name).await {
            Ok(deleting) => self.event(name, &format!("DeleteResource -> {}", deleting.status)),
            Err(err) => {
                let outcome = WaitOutcome::Error(format!("delete: {err}"));
                return self.push((2, i), name, waiter, &row, outcome, 0, Duration::ZERO);
            }
        }
        // The wait as a stream: each poll's own response shows the resource's status while
        // it is being deleted (`DELETING`), not only the poll's number.
        let o = &self.options;
        let mut updates = self
            .client
            .wait_until_resource_deleted(name)
            .min_delay(o.min_delay)
            .max_delay(o.max_delay)
            .stream(o.max_wait);
        while let Some(update) = updates.next().await {
            match update {
                WaitUpdate::Polled { event, result } => {
                    let status = match &result {
                        Ok(resource) => resource.status.as_str(),
                        Err(_) => "error",
                    };
                    self.event(name, &format!("{status:<9} {event}"));
                }
                WaitUpdate::Done(result) => {
                    if let Ok(done) = &result {
                        // The last poll's answer: `NotFound`, the waiter's success.
                        let line = format!("gone      {waiter} poll {}: success, done", done.polls);
                        self.event(name, &line);
                    }
                    self.record((2, i), name, waiter, &row, result);
                }
            }
        }
    }
}

/// Runs `task` for a fresh summary row.
async fn in_row<F: Future<Output = ()>>(task: F) {
    ROW.scope(Arc::new(Counters::default()), task).await
}

/// Runs the demo, sending its progress lines to `log`.
///
/// ```no_run
/// # #[tokio::main] async fn main() -> std::io::Result<()> {
/// use waiter_tests::demo::{self, DemoOptions};
///
/// let report = demo::run(DemoOptions::default(), |line| println!("{line}")).await?;
/// println!("{report}");
/// # Ok(()) }
/// ```
pub async fn run(
    options: DemoOptions,
    log: impl Fn(&str) + Send + Sync + 'static,
) -> std::io::Result<DemoReport> {
    run_with_progress(options, log, |_: &WaitAllProgress| {}).await
}

/// [`run`], with every change of the first phase's [`WaitAll`] given to `progress` (the
/// example drives a progress bar with it).
pub async fn run_with_progress(
    options: DemoOptions,
    log: impl Fn(&str) + Send + Sync + 'static,
    mut progress: impl FnMut(&WaitAllProgress) + Send,
) -> std::io::Result<DemoReport> {
    let start = Instant::now();
    let log: Log = Arc::new(log);
    let service = ExampleService::builder()
        .seed(options.seed)
        .settle(options.settle.clone())
        .faults(options.faults.clone())
        .start()
        .await?;
    log(&format!("example service on {}", service.url()));
    let f = &options.faults;
    log(&format!(
        "  names starting with `fail-` end FAILED; {:.0}% of requests throttled; waiter delays {}..{}",
        100.0 * (f.throttle + f.slow_down),
        human(options.min_delay),
        human(options.max_delay)
    ));
    log(
        "  client: adaptive retries; once throttled, it slows down (a request may wait for the rate limiter)\n",
    );

    // Clones of a `ClientRateLimiter` share its state: the demo keeps one to report it.
    let limiter = ClientRateLimiter::new();
    let retrier = Retrier::new(
        RetryConfig::adaptive()
            .max_attempts(options.max_attempts)
            .transient_backoff(Duration::from_millis(50))
            .throttling_backoff(Duration::from_millis(50))
            .max_backoff(Duration::from_secs(1))
            .build(),
    )
    .with_rate_limiter(Arc::new(CountThrottles(limiter.clone())))
    .on_retry(|_: &_| {
        let _ = ROW.try_with(|row| row.retries.fetch_add(1, Ordering::Relaxed));
    });
    let client = ResourceClient::builder(service.url())
        .retrier(retrier)
        .build();
    let run = Arc::new(Run {
        client,
        options,
        start,
        log: Arc::clone(&log),
        rows: Mutex::new(Vec::new()),
    });

    log(
        "== create the resources, then wait until all are ACTIVE with one WaitAll (ResourceActive)",
    );
    let mut tasks = tokio::task::JoinSet::new();
    for (i, (name, members)) in RESOURCES.iter().enumerate() {
        let members = members
            .iter()
            .map(|(m, role)| NewMember::new(*m, *role))
            .collect();
        let (run, row) = (Arc::clone(&run), Arc::new(Counters::default()));
        tasks.spawn(ROW.scope(Arc::clone(&row), async move {
            (i, *name, run.create(i, name, members).await, row)
        }));
    }
    let mut created: Vec<_> = tasks
        .join_all()
        .await
        .into_iter()
        .filter(|(_, _, ok, _)| *ok)
        .map(|(i, name, _, row)| (i, name, row))
        .collect();
    created.sort_by_key(|(i, _, _)| *i);
    log(&format!(
        "   {} waiters under one deadline of {}, at most {} polls in flight",
        created.len(),
        human(run.options.max_wait),
        run.options.concurrency
    ));
    run.wait_all_active(&created, &service, &mut progress).await;

    log(
        "\n== wait for all of them with one list call (AllResourcesActive: allStringEquals over resources[].status)",
    );
    for (i, prefix) in ["web-", ""].into_iter().enumerate() {
        in_row(Arc::clone(&run).list_and_wait(i, prefix)).await;
    }

    log(
        "\n== delete, then wait until each resource is gone (ResourceDeleted: success on errorType NotFound)",
    );
    let mut tasks = tokio::task::JoinSet::new();
    for (i, (name, _)) in RESOURCES.iter().enumerate() {
        tasks.spawn(in_row(Arc::clone(&run).delete_and_wait(i, name)));
    }
    tasks.join_all().await;

    let mut rows = std::mem::take(&mut *run.rows.lock().unwrap());
    rows.sort_by_key(|r| r.order);
    Ok(DemoReport {
        rows,
        service: service.stats(),
        limiter: limiter.state(),
        elapsed: start.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_outcomes_are_shortened() {
        assert_eq!(shorten("success", 10), "success");
        assert_eq!(shorten("failure: something long", 12), "failure:...");
        assert_eq!(shorten("0123456789", 10), "0123456789");
    }
}
