//! Waiters and retries together: inside a poll, an error the waiter's acceptors name
//! is never retried, every other error is retried as outside a waiter, never past the deadline;
//! `Waiter::retry` for operations without a retry layer (no double retries); per-poll attempts
//! and waits in `PollEvent`; the last poll that can answer; delays set at run time; failure
//! messages naming what matched.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;
use waiter_runtime::__private_v0_1::{Matched, Polled, waiter as new_waiter};
use waiter_runtime::retry::{Jitter, RateLimiter, Retrier, RetryConfig};
use waiter_runtime::waiter::{AcceptorState, PollEvent, WaiterMetadata};
use waiter_runtime::{ProvideErrorMetadata, Searchable, WaiterError, waitable};

#[derive(Debug, Clone, PartialEq, ProvideErrorMetadata)]
enum Error {
    #[error_metadata(code = "ThrottlingException", status = 400, throttling)]
    Throttled,
    #[error_metadata(code = "ResourceNotFoundException", status = 400)]
    NotFound,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}
impl std::error::Error for Error {}

#[derive(Debug, Clone, Searchable)]
#[allow(non_snake_case)]
struct Table {
    TableStatus: String,
}

#[derive(Debug, Clone, Searchable)]
#[allow(non_snake_case)]
struct DescribeTableOutput {
    Table: Table,
}

/// A service answering from a script (the last answer repeats), each answer after `latency`.
struct Service {
    script: Vec<Result<&'static str, Error>>,
    sends: AtomicU32,
    latency: Duration,
    retrier: Option<Retrier>,
}

fn no_jitter(attempts: u32) -> RetryConfig {
    RetryConfig::standard()
        .max_attempts(attempts)
        .jitter(Jitter::None)
        .transient_backoff(Duration::from_millis(100))
        .throttling_backoff(Duration::from_millis(100))
        .build()
}

impl Service {
    fn new(script: Vec<Result<&'static str, Error>>, retrier: Option<Retrier>) -> Self {
        Service {
            script,
            sends: AtomicU32::new(0),
            latency: Duration::ZERO,
            retrier,
        }
    }

    fn sends(&self) -> u32 {
        self.sends.load(Ordering::Relaxed)
    }

    async fn send(&self) -> Result<DescribeTableOutput, Error> {
        if !self.latency.is_zero() {
            tokio::time::sleep(self.latency).await;
        }
        let n = self.sends.fetch_add(1, Ordering::Relaxed) as usize;
        self.script[n.min(self.script.len() - 1)]
            .clone()
            .map(|status| DescribeTableOutput {
                Table: Table {
                    TableStatus: status.to_owned(),
                },
            })
    }

    // DynamoDB's `TableExists`, as published (no throttling acceptor), minDelay 20.
    #[waitable({
        "TableExists": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Table.TableStatus", "expected": "ACTIVE", "comparator": "stringEquals" } } },
                { "state": "retry", "matcher": { "errorType": "ResourceNotFoundException" } }
            ],
            "minDelay": 20
        },
        "TableThrottleIsRetry": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Table.TableStatus", "expected": "ACTIVE", "comparator": "stringEquals" } } },
                { "state": "retry", "matcher": { "errorType": "ThrottlingException" } }
            ],
            "minDelay": 1,
            "maxDelay": 1
        },
        "TableThrottleIsFailure": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Table.TableStatus", "expected": "ACTIVE", "comparator": "stringEquals" } } },
                { "state": "retry", "matcher": { "errorType": "ResourceNotFoundException" } },
                { "state": "failure", "matcher": { "errorType": "com.amazonaws.dynamodb#ThrottlingException" } }
            ]
        },
        "TableAnyErrorFails": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Table.TableStatus", "expected": "ACTIVE", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "success": false } }
            ],
            "minDelay": 1
        },
        "TableNotFailed": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Table.TableStatus", "expected": "ACTIVE", "comparator": "stringEquals" } } },
                { "state": "retry", "matcher": { "errorType": "ResourceNotFoundException" } },
                { "state": "failure", "matcher": { "output": { "path": "Table.TableStatus", "expected": "FAILED", "comparator": "stringEquals" } } }
            ],
            "minDelay": 15
        }
    })]
    pub async fn describe_table(&self) -> Result<DescribeTableOutput, Error> {
        match &self.retrier {
            Some(retrier) => retrier.run(|| self.send()).await,
            None => self.send().await,
        }
    }
}

fn log() -> (Arc<Mutex<Vec<PollEvent>>>, impl FnMut(&PollEvent) + use<>) {
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = events.clone();
    (events, move |e: &PollEvent| seen.lock().unwrap().push(*e))
}

const SECS: fn(u64) -> Duration = Duration::from_secs;

#[tokio::test(start_paused = true)]
async fn a_throttle_no_acceptor_names_is_retried_inside_the_poll() {
    use Error::*;
    let service = Service::new(
        vec![
            Err(NotFound),
            Err(Throttled),
            Err(Throttled),
            Ok("CREATING"),
            Ok("ACTIVE"),
        ],
        Some(Retrier::new(no_jitter(5))),
    );
    let (events, observer) = log();
    let done = service
        .wait_until_table_exists()
        .seed(1)
        .on_poll(observer)
        .wait(SECS(600))
        .await
        .unwrap();
    assert_eq!((done.polls, service.sends()), (3, 5));
    let events = events.lock().unwrap();
    let per_poll: Vec<_> = events.iter().map(|e| (e.attempts, e.retry_wait)).collect();
    // Poll 2: two throttles retried after 100 ms and 200 ms, then CREATING.
    assert_eq!(
        per_poll,
        [
            (1, Duration::ZERO),
            (3, Duration::from_millis(300)),
            (1, Duration::ZERO)
        ]
    );
    assert_eq!(events[0].acceptor, Some(1), "NotFound: the retry acceptor");
}

#[tokio::test(start_paused = true)]
async fn a_throttle_named_by_a_retry_acceptor_is_one_attempt_per_poll() {
    let service = Service::new(
        vec![Err(Error::Throttled), Err(Error::Throttled), Ok("ACTIVE")],
        Some(Retrier::new(no_jitter(5))),
    );
    let start = Instant::now();
    let done = service
        .wait_until_table_throttle_is_retry()
        .wait(SECS(60))
        .await
        .unwrap();
    assert_eq!((done.polls, service.sends()), (3, 3));
    assert_eq!(start.elapsed(), SECS(2), "the waiter's backoff: 1 s, 1 s");
    assert_eq!(service.retrier.as_ref().unwrap().quota().available(), 500);
}

#[tokio::test(start_paused = true)]
async fn a_throttle_named_by_a_failure_acceptor_ends_the_wait_at_once() {
    let service = Service::new(
        vec![Err(Error::Throttled)],
        Some(Retrier::new(no_jitter(5))),
    );
    let err = service
        .wait_until_table_throttle_is_failure()
        .wait(SECS(60))
        .await
        .unwrap_err();
    let WaiterError::FailureState {
        acceptor,
        ref description,
        ref final_poll,
        ..
    } = err
    else {
        panic!("{err:?}")
    };
    assert_eq!((acceptor, final_poll.polls, service.sends()), (2, 1, 1));
    assert_eq!(
        description.unwrap().to_string(),
        "failure when errorType com.amazonaws.dynamodb#ThrottlingException"
    );
    assert_eq!(
        err.to_string(),
        "waiter `TableThrottleIsFailure` failed: the resource reached a state from which it can never succeed \
         (failure acceptor acceptors[2] matched after 1 poll, 0ns): errorType com.amazonaws.dynamodb#ThrottlingException"
    );
}

#[tokio::test(start_paused = true)]
async fn success_false_names_every_error() {
    let service = Service::new(
        vec![Err(Error::Throttled)],
        Some(Retrier::new(no_jitter(5))),
    );
    let err = service
        .wait_until_table_any_error_fails()
        .wait(SECS(60))
        .await
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::FailureState { acceptor: 1, .. }),
        "{err:?}"
    );
    assert_eq!(service.sends(), 1);
    assert!(err.to_string().ends_with(": success false"), "{err}");
}

#[tokio::test(start_paused = true)]
async fn a_failure_without_message_names_what_matched() {
    let service = Service::new(vec![Ok("CREATING"), Ok("FAILED")], None);
    let (events, observer) = log();
    let err = service
        .wait_until_table_not_failed()
        .on_poll(observer)
        .wait(SECS(600))
        .await
        .unwrap_err();
    // One convention for acceptor numbers: 0-based everywhere, `acceptors[i]` in text.
    let event_acceptor = events.lock().unwrap().last().unwrap().acceptor;
    assert!(matches!(err, WaiterError::FailureState { acceptor: 2, .. }));
    assert_eq!(event_acceptor, Some(2));
    assert!(
        err.to_string().contains("(failure acceptor acceptors[2] matched after 2 polls, 15s): Table.TableStatus stringEquals \"FAILED\""),
        "{err}"
    );
}

#[tokio::test(start_paused = true)]
async fn no_retry_waits_past_the_deadline_and_the_wait_reports_the_time_out() {
    // Throttled for good: retries inside the last poll stop at the deadline.
    let service = Service::new(
        vec![Ok("CREATING"), Err(Error::Throttled)],
        Some(Retrier::new(
            RetryConfig::standard()
                .max_attempts(100)
                .jitter(Jitter::None)
                .transient_backoff(SECS(1))
                .throttling_backoff(SECS(1))
                .max_backoff(SECS(4))
                .build(),
        )),
    );
    let start = Instant::now();
    let err = service
        .wait_until_table_exists()
        .min_delay(SECS(5))
        .max_delay(SECS(5))
        .wait(SECS(12))
        .await
        .unwrap_err();
    // Poll 1 at 0 s; poll 2 at 5 s retries at 6, 8 and would sleep 4 s from 8 to 12: fits;
    // at 12 s the next 4 s would not: the wait ends with the throttle, as a time out.
    let WaiterError::ExceededMaxWait {
        polls,
        cancelled_in_flight,
        ref last,
        ..
    } = err
    else {
        panic!("{err:?}")
    };
    assert_eq!((polls, cancelled_in_flight), (2, false));
    assert!(matches!(last, Some(Err(Error::Throttled))));
    assert!(start.elapsed() <= SECS(12), "{:?}", start.elapsed());
}

#[tokio::test(start_paused = true)]
async fn waiter_retry_gives_a_client_without_retries_the_same() {
    use Error::*;
    let service = Service::new(vec![Err(Throttled), Err(Throttled), Ok("ACTIVE")], None);
    let (events, observer) = log();
    let done = service
        .wait_until_table_exists()
        .retry(no_jitter(5))
        .on_poll(observer)
        .wait(SECS(60))
        .await
        .unwrap();
    assert_eq!((done.polls, service.sends()), (1, 3));
    let e = events.lock().unwrap()[0];
    assert_eq!((e.attempts, e.retry_wait), (3, Duration::from_millis(300)));

    // An error an acceptor matched is the waiter's, never retried by `.retry` either.
    let service = Service::new(vec![Err(Throttled)], None);
    let err = service
        .wait_until_table_throttle_is_failure()
        .retry(no_jitter(5))
        .wait(SECS(60))
        .await
        .unwrap_err();
    assert!(matches!(err, WaiterError::FailureState { .. }));
    assert_eq!(service.sends(), 1);
}

#[tokio::test(start_paused = true)]
async fn waiter_retry_does_not_double_the_operations_own_retries() {
    // The operation retries (3 attempts) and still fails: `.retry` stands down.
    let service = Service::new(
        vec![Err(Error::Throttled)],
        Some(Retrier::new(no_jitter(3))),
    );
    let err = service
        .wait_until_table_exists()
        .retry(no_jitter(5))
        .wait(SECS(60))
        .await
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::OperationFailed { polls: 1, .. }),
        "{err:?}"
    );
    assert_eq!(service.sends(), 3, "3 attempts, not 3 x 5");
}

/// Makes every attempt wait 300 ms for a token.
#[derive(Debug)]
struct Slow;
impl RateLimiter for Slow {
    fn acquire(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(tokio::time::sleep(Duration::from_millis(300)))
    }
    fn on_response(&self, _: bool) {}
}

#[tokio::test(start_paused = true)]
async fn poll_events_report_rate_limiter_waits() {
    let retrier = Retrier::new(no_jitter(5)).with_rate_limiter(Arc::new(Slow));
    let service = Service::new(vec![Err(Error::Throttled), Ok("ACTIVE")], Some(retrier));
    let (events, observer) = log();
    service
        .wait_until_table_exists()
        .on_poll(observer)
        .wait(SECS(60))
        .await
        .unwrap();
    let e = events.lock().unwrap()[0];
    assert_eq!(
        (e.attempts, e.retry_wait, e.rate_limit_wait),
        (2, Duration::from_millis(100), Duration::from_millis(600))
    );
    assert_eq!(e.elapsed, Duration::from_millis(700));
}

#[tokio::test(start_paused = true)]
async fn the_last_poll_can_answer() {
    // Ready at 9.9 s; a poll takes 50 ms and reads the state when it answers; max wait 10 s.
    let poll = |start: Instant| {
        move || async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            let ready = start.elapsed() >= Duration::from_millis(9_900);
            Polled::new(
                Ok::<_, Error>(ready),
                ready.then(|| Matched::new(0, AcceptorState::Success)),
            )
        }
    };
    // With the spec's default delays (2 s to 120 s) and with small ones: the last poll starts
    // twice the longest poll (100 ms) before the deadline and answers before it.
    for (min, max) in [(SECS(2), SECS(120)), (Duration::from_millis(100), SECS(1))] {
        for seed in 0..20 {
            let start_wait = Instant::now();
            let done = new_waiter(WaiterMetadata::new("Ready", "get"), poll(start_wait))
                .min_delay(min)
                .max_delay(max)
                .seed(seed)
                .wait(SECS(10))
                .await
                .unwrap();
            assert!(done.elapsed <= SECS(10) && start_wait.elapsed() <= SECS(10));
            assert!(
                done.elapsed >= Duration::from_millis(9_900),
                "min {min:?}, seed {seed}: {:?}",
                done.elapsed
            );
        }
    }
}

/// A slow poll gets a head start of `minDelay` at most (aws-sdk-go-v2's), and the wait ends
/// after the last poll, within the maximum wait.
#[tokio::test(start_paused = true)]
async fn a_slow_last_poll_starts_min_delay_before_the_deadline() {
    let starts = Arc::new(Mutex::new(Vec::new()));
    let seen = starts.clone();
    let begin = Instant::now();
    let err = new_waiter(WaiterMetadata::new("Slow", "get"), move || {
        let seen = seen.clone();
        async move {
            seen.lock().unwrap().push(begin.elapsed());
            tokio::time::sleep(Duration::from_millis(1_200)).await;
            Polled::new(Ok::<_, Error>(false), None)
        }
    })
    .min_delay(SECS(2))
    .max_delay(SECS(2))
    .wait(SECS(10))
    .await
    .unwrap_err();
    assert!(matches!(err, WaiterError::ExceededMaxWait { .. }), "{err}");
    let starts = starts.lock().unwrap().clone();
    // Polls at 0, 3.2 and 6.4 s (each 1.2 s, then 2 s apart); at 7.6 s the spec's last poll
    // (2.4 s left - 2 s <= minDelay) would be at the deadline: it starts 2 s before it (minDelay,
    // less than 2 x 1.2 s), at 8 s, and answers at 9.2 s; the wait ends there.
    let ms = Duration::from_millis;
    assert_eq!(starts, [ms(0), ms(3_200), ms(6_400), ms(8_000)]);
    assert!(begin.elapsed() <= SECS(10));
}

#[tokio::test(start_paused = true)]
async fn setting_one_delay_bound_moves_the_other() {
    let service = Service::new(vec![Ok("CREATING")], None);
    // The model says minDelay 15 s (maxDelay 120 s): max_delay(5 s) moves minDelay to 5 s.
    let (events, observer) = log();
    let err = service
        .wait_until_table_not_failed()
        .max_delay(SECS(5))
        .on_poll(observer)
        .wait(SECS(30))
        .await
        .unwrap_err();
    assert!(matches!(err, WaiterError::ExceededMaxWait { .. }), "{err}");
    let delays: Vec<_> = events
        .lock()
        .unwrap()
        .iter()
        .filter_map(|e| e.next_delay)
        .collect();
    // At 20 s, 10 s left - 5 s <= minDelay: the spec's last delay is the remaining time (these
    // polls take no time, so the last poll gets the least head start, 1 ms: at 29.999 s).
    assert_eq!(
        delays,
        [
            SECS(5),
            SECS(5),
            SECS(5),
            SECS(5),
            SECS(10) - Duration::from_millis(1)
        ]
    );
    // min_delay(200 s) above the default maxDelay (120 s) moves it up.
    let (events, observer) = log();
    let _ = service
        .wait_until_table_not_failed()
        .min_delay(SECS(200))
        .on_poll(observer)
        .wait(SECS(1000))
        .await;
    let delays: Vec<_> = events
        .lock()
        .unwrap()
        .iter()
        .filter_map(|e| e.next_delay)
        .collect();
    // 200 s apart, the last one the remaining time to the deadline less its head start (the
    // spec's last poll).
    assert_eq!(
        delays,
        [
            SECS(200),
            SECS(200),
            SECS(200),
            SECS(400) - Duration::from_millis(1)
        ]
    );
    // Both set, contradictory: an error naming both, no poll.
    let sends = service.sends();
    let err = service
        .wait_until_table_not_failed()
        .min_delay(SECS(9))
        .max_delay(SECS(5))
        .wait(SECS(30))
        .await
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::InvalidDelays { min_delay, max_delay, .. } if min_delay == SECS(9) && max_delay == SECS(5))
    );
    assert_eq!(service.sends(), sends);
    // The order does not matter.
    let err = service
        .wait_until_table_not_failed()
        .max_delay(SECS(5))
        .min_delay(SECS(9))
        .wait(SECS(30))
        .await;
    assert!(matches!(err, Err(WaiterError::InvalidDelays { .. })));
    // A contradictory pair in hand-written metadata is an error too.
    let meta = WaiterMetadata::new("Bad", "get").with_delays(SECS(9), SECS(5));
    let err = new_waiter(meta, || async { Polled::new(Ok::<_, Error>(()), None) })
        .wait(SECS(30))
        .await;
    assert!(matches!(err, Err(WaiterError::InvalidDelays { .. })));
}

#[tokio::test(start_paused = true)]
async fn the_deadline_is_a_tokio_timer_with_1_ms_resolution() {
    for (max_wait, ends_at) in [
        (Duration::from_nanos(1), Duration::from_millis(1)),
        (Duration::from_micros(1_500), Duration::from_millis(2)),
        (Duration::from_millis(200), Duration::from_millis(200)),
    ] {
        let start = Instant::now();
        let err = new_waiter(WaiterMetadata::new("Hang", "get"), || async {
            std::future::pending::<Polled<(), Error>>().await
        })
        .wait(max_wait)
        .await
        .unwrap_err();
        assert!(matches!(
            err,
            WaiterError::ExceededMaxWait {
                cancelled_in_flight: true,
                ..
            }
        ));
        assert_eq!(start.elapsed(), ends_at, "max wait {max_wait:?}");
    }
}

#[test]
fn model_defaults_are_the_runtimes() {
    let meta = WaiterMetadata::new("X", "x");
    assert_eq!(
        (meta.min_delay, meta.max_delay),
        (
            WaiterMetadata::DEFAULT_MIN_DELAY,
            WaiterMetadata::DEFAULT_MAX_DELAY
        )
    );
    // A model that sets minDelay only keeps the runtime's default maxDelay.
    assert_eq!(Service::TABLE_EXISTS_WAITER.min_delay, SECS(20));
    assert_eq!(
        Service::TABLE_EXISTS_WAITER.max_delay,
        WaiterMetadata::DEFAULT_MAX_DELAY
    );
    assert_eq!(
        Service::TABLE_THROTTLE_IS_FAILURE_WAITER.min_delay,
        WaiterMetadata::DEFAULT_MIN_DELAY
    );
    assert_eq!(Service::TABLE_EXISTS_WAITER.acceptors.len(), 2);
}
