//! Hardening of the retries at run time (issue 24, points 3-5; issue 22, point 1): a restored
//! limiter does not hang, a bad tuning is rejected on every path, zero-delay retries do not
//! starve a current-thread runtime, and a retry that would cross a waiter's deadline is moved
//! up to it instead of ending the wait early.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

use tokio::time::Instant;
use waiter_runtime::poll_scope::{NamedErrors, PollScope};
use waiter_runtime::retry::adaptive::{
    ClientRateLimiter, InvalidSteadyState, RateLimiterState, Tuning,
};
use waiter_runtime::retry::{Jitter, Retrier, RetryConfig, RetryQuota, StopReason};
use waiter_runtime::waiter::WaiterError;
use waiter_runtime::{ProvideErrorMetadata, waitable};

const MS: fn(u64) -> Duration = Duration::from_millis;

// --- issue 24, point 3: a state whose clock ran further than the new limiter's ---------------

/// Takes `n` tokens; returns how long that took on the (paused) clock.
async fn take(limiter: &ClientRateLimiter, n: u32) -> Duration {
    let start = Instant::now();
    for _ in 0..n {
        limiter.acquire().await;
    }
    start.elapsed()
}

#[tokio::test(start_paused = true)]
async fn a_state_taken_at_a_later_time_refills_from_now() {
    // Steady at 10/s as of t = 1e6 s: the bucket holds 10 tokens, then refills at 10/s.
    let limiter = ClientRateLimiter::with_state(RateLimiterState::steady_at(10.0, 1e6).unwrap());
    let took = tokio::time::timeout(Duration::from_secs(60), take(&limiter, 30))
        .await
        .expect("the restored limiter refills (it used to wait until its clock reached 1e6 s)");
    // 10 at once, 20 more at 10/s.
    assert!(took <= Duration::from_millis(2_100), "{took:?}");
    assert!(took >= Duration::from_millis(1_900), "{took:?}");
}

#[tokio::test(start_paused = true)]
async fn a_state_taken_from_a_limiter_that_ran_for_1000_s_carries_on() {
    let old = ClientRateLimiter::with_state(RateLimiterState::steady_at(20.0, 0.0).unwrap());
    tokio::time::advance(Duration::from_secs(1000)).await;
    take(&old, 25).await; // the old limiter's clock is now past 1000 s
    let state = old.state();
    let restored = ClientRateLimiter::with_state(state);
    assert_eq!(restored.state().fill_rate(), state.fill_rate());
    // The bucket was spent: 40 tokens at 20/s take 2 s, not 1000 s.
    let took = tokio::time::timeout(Duration::from_secs(60), take(&restored, 40))
        .await
        .expect("the restored limiter refills");
    assert!(took <= Duration::from_millis(2_100), "{took:?}");
}

#[tokio::test(start_paused = true)]
async fn a_state_from_the_past_keeps_its_times() {
    // A state at t = 0 given at t = 0: nothing to move (the tables the tests replay start so).
    let state = RateLimiterState::steady_at(50.0, 0.0).unwrap();
    let limiter = ClientRateLimiter::with_state(state);
    assert_eq!(limiter.state(), state);
}

// --- issue 24, point 4: the tuning is checked on every path ----------------------------------

#[test]
fn a_bad_tuning_is_rejected_on_every_path() {
    for (field, value) in [
        ("min_fill_rate", 0.0),
        ("min_fill_rate", f64::NAN),
        ("min_capacity", 0.0),
        ("min_capacity", f64::NAN),
    ] {
        let tuning = match field {
            "min_fill_rate" => Tuning {
                min_fill_rate: value,
                ..Tuning::AWS
            },
            _ => Tuning {
                min_capacity: value,
                ..Tuning::AWS
            },
        };
        assert_eq!(
            ClientRateLimiter::with_tuning(tuning).unwrap_err().field(),
            field
        );
        // The only ways to a state with other constants, which `with_state` takes.
        assert_eq!(
            RateLimiterState::with_tuning(tuning, 0.0)
                .unwrap_err()
                .field(),
            field
        );
        match RateLimiterState::steady_at_with_tuning(tuning, 10.0, 0.0) {
            Err(InvalidSteadyState::Tuning(e)) => assert_eq!(e.field(), field),
            other => panic!("{field} = {value}: {other:?}"),
        }
    }
    // A bad rate with good constants is still a bad rate.
    assert!(matches!(
        RateLimiterState::steady_at_with_tuning(Tuning::AWS, f64::NAN, 0.0),
        Err(InvalidSteadyState::Rate(_))
    ));
}

// --- issue 24, point 5: zero-delay retries on a current-thread runtime -------------------------

#[derive(Debug, ProvideErrorMetadata)]
#[error_metadata(status = 503)]
struct Unavailable;

#[tokio::test(flavor = "current_thread")]
async fn zero_delay_retries_let_other_tasks_run() {
    let free = RetryQuota::builder()
        .retry_cost(0)
        .timeout_retry_cost(0)
        .build();
    let retrier = Retrier::new(
        RetryConfig::standard()
            .max_attempts(1_000_000)
            .transient_backoff(Duration::ZERO)
            .throttling_backoff(Duration::ZERO)
            .build(),
    )
    .with_quota(free);
    let other_ran = Arc::new(AtomicBool::new(false));
    let flag = other_ran.clone();
    tokio::spawn(async move { flag.store(true, Ordering::Relaxed) });
    // Ready at once, failing until the other task has run.
    let report = retrier
        .run_report(|| {
            let ran = other_ran.load(Ordering::Relaxed);
            async move { if ran { Ok(()) } else { Err(Unavailable) } }
        })
        .await;
    assert_eq!(report.stop, StopReason::Succeeded, "{report:?}");
    // tokio's budget is 128 units per task poll.
    assert!(report.attempts <= 1_000, "{}", report.attempts);
}

// --- issue 22, point 1: a retry that would cross the waiter's deadline -------------------------

#[derive(Debug, Clone, PartialEq, ProvideErrorMetadata)]
enum DescribeError {
    #[error_metadata(code = "ThrottlingException")]
    Throttled,
}

impl std::fmt::Display for DescribeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}
impl std::error::Error for DescribeError {}

/// A client whose requests take 10 ms; the `ok_from`-th request (1-based) and later succeed.
struct Client {
    retrier: Retrier,
    ok_from: u32,
    sends: AtomicU32,
    sent_at: std::sync::Mutex<Vec<Duration>>,
    start: Instant,
}

impl Client {
    fn new(retrier: Retrier, ok_from: u32) -> Self {
        Client {
            retrier,
            ok_from,
            sends: AtomicU32::new(0),
            sent_at: Default::default(),
            start: Instant::now(),
        }
    }

    async fn send(&self) -> Result<&'static str, DescribeError> {
        let n = self.sends.fetch_add(1, Ordering::Relaxed) + 1;
        self.sent_at.lock().unwrap().push(self.start.elapsed());
        tokio::time::sleep(MS(10)).await;
        if n >= self.ok_from {
            Ok("ready")
        } else {
            Err(DescribeError::Throttled)
        }
    }

    #[waitable(
        ResourceReady: {
            acceptors: [
                { state: "success", matcher: { success: true } }
            ]
        }
    )]
    async fn describe(&self) -> Result<&'static str, DescribeError> {
        self.retrier.run(|| self.send()).await
    }
}

fn one_second_backoff() -> Retrier {
    Retrier::new(RetryConfig::standard().jitter(Jitter::None).build())
}

#[tokio::test(start_paused = true)]
async fn a_retry_that_would_cross_the_deadline_is_moved_up_so_its_answer_counts() {
    // The retry's backoff (1 s) would end past the deadline (300 ms): it is moved up to leave
    // the attempt twice the longest attempt so far (2 x 10 ms) to answer, and its answer ends
    // the wait. (It used to give up at 10 ms, saying the time had run out.)
    let client = Client::new(one_second_backoff(), 2);
    let done = client
        .wait_until_resource_ready()
        .wait(MS(300))
        .await
        .unwrap();
    assert_eq!(done.polls, 1);
    assert_eq!(*client.sent_at.lock().unwrap(), [MS(0), MS(280)]);
    assert_eq!(done.elapsed, MS(290));
}

#[tokio::test(start_paused = true)]
async fn a_wait_ends_as_out_of_time_only_when_the_time_ran_out() {
    let client = Client::new(one_second_backoff(), u32::MAX);
    let err = client
        .wait_until_resource_ready()
        .wait(MS(300))
        .await
        .unwrap_err();
    let WaiterError::ExceededMaxWait {
        elapsed,
        polls,
        cancelled_in_flight,
        last,
        ..
    } = err
    else {
        panic!("{err:?}")
    };
    assert_eq!((polls, cancelled_in_flight), (1, false));
    assert_eq!(last.unwrap().unwrap_err(), DescribeError::Throttled);
    assert_eq!(*client.sent_at.lock().unwrap(), [MS(0), MS(280)]);
    assert_eq!(elapsed, MS(290), "the wait used the time it had");
}

#[derive(Debug, ProvideErrorMetadata)]
#[error_metadata(code = "SlowDown", status = 503)]
struct SlowDown(#[error_metadata(retry_after)] Duration);

#[tokio::test(start_paused = true)]
async fn a_server_hint_past_the_deadline_is_not_moved_up() {
    // The server asks for 10 s; the deadline is in 5 s: an earlier retry would only be
    // refused again, so it is given up.
    let scope = PollScope::new(NamedErrors::none(), Some(Instant::now() + MS(5_000)));
    let retrier = Retrier::new(RetryConfig::standard().max_attempts(5).build());
    let report = scope
        .run(retrier.run_report(|| async { Err::<(), _>(SlowDown(MS(10_000))) }))
        .await;
    assert_eq!(
        (report.attempts, report.stop),
        (1, StopReason::WaiterDeadline)
    );
    assert!(scope.stopped_at_deadline());
    // Our own backoff past the deadline is moved up to it.
    let scope = PollScope::new(NamedErrors::none(), Some(Instant::now() + MS(5)));
    let retrier = Retrier::new(
        RetryConfig::standard()
            .max_attempts(5)
            .transient_backoff(MS(10_000))
            .throttling_backoff(MS(10_000))
            .jitter(Jitter::None)
            .build(),
    );
    let start = Instant::now();
    let report = scope
        .run(retrier.run_report(|| async { Err::<(), _>(Unavailable) }))
        .await;
    assert_eq!(
        (report.attempts, report.stop, start.elapsed()),
        (2, StopReason::WaiterDeadline, MS(5))
    );
}

#[tokio::test(start_paused = true)]
async fn with_the_default_backoff_every_wait_uses_its_time() {
    // The case: every request throttled, 300 ms, the default (random) backoff. Some
    // first retries fit (a backoff under 300 ms), most would cross the deadline: either way
    // the wait ends when less than twice an attempt is left, never early.
    for _ in 0..50 {
        let retrier = Retrier::new(RetryConfig::standard().max_attempts(100).build());
        let client = Client::new(retrier, u32::MAX);
        let err = client
            .wait_until_resource_ready()
            .wait(MS(300))
            .await
            .unwrap_err();
        let WaiterError::ExceededMaxWait { elapsed, .. } = err else {
            panic!("{err:?}")
        };
        assert!(elapsed >= MS(280) && elapsed <= MS(300), "{elapsed:?}");
    }
}
