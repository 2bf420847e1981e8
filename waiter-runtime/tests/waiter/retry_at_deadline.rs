//! A retry inside a waiter's poll that would cross the waiter's deadline is moved up to leave
//! its attempt time to answer, instead of ending the wait early; it is given up (the wait ends
//! as out of time) only when that time is not left or the server's hint asks for later.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use tokio::time::Instant;
use waiter_runtime::retry::{Jitter, Retrier, RetryConfig};
use waiter_runtime::waiter::WaiterError;
use waiter_runtime::{ProvideErrorMetadata, waitable};

const MS: fn(u64) -> Duration = Duration::from_millis;

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

#[tokio::test(start_paused = true)]
async fn with_the_default_backoff_every_wait_uses_its_time() {
    // Every request throttled, 300 ms, the default (random) backoff. Some
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
