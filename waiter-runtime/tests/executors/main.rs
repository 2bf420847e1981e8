//! Waiters, `WaitAll` and retries awaited outside any tokio runtime: on smol and on
//! `futures::executor::block_on`, with nothing turned on (the fallback timer). Real clock, small
//! durations: no paused clock exists outside tokio.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState};
use waiter_runtime::retry::{Jitter, Retrier, RetryConfig};
use waiter_runtime::{ProvideErrorMetadata, Searchable, WaitAll, WaiterError, waitable};

#[derive(Debug, ProvideErrorMetadata)]
enum Error {
    #[allow(dead_code)] // named by the retry acceptor
    NotFound,
    #[error_metadata(status = 503)]
    Unavailable,
}

#[derive(Debug, Searchable)]
struct Thing {
    status: String,
}

/// Ready at poll `ready_at` (1 is the first), pending before.
struct Client {
    polls: AtomicU32,
    ready_at: u32,
}

impl Client {
    fn new(ready_at: u32) -> Self {
        Client {
            polls: AtomicU32::new(0),
            ready_at,
        }
    }

    #[waitable(ThingReady: { acceptors: [
        { state: "success", matcher: { output: { path: "status", expected: "ready", comparator: "stringEquals" } } }
        { state: "retry", matcher: { errorType: "NotFound" } }
    ] })]
    async fn get_thing(&self) -> Result<Thing, Error> {
        let n = self.polls.fetch_add(1, Ordering::Relaxed) + 1;
        let status = if n >= self.ready_at {
            "ready"
        } else {
            "pending"
        };
        Ok(Thing {
            status: status.into(),
        })
    }

    /// Never answers: only the deadline ends the wait.
    #[waitable(Never: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    async fn hang(&self) -> Result<(), Error> {
        std::future::pending().await
    }
}

const MS: Duration = Duration::from_millis(1);

/// A waiter whose third poll succeeds, 10 ms apart at least.
async fn waiter_succeeds() {
    let client = Client::new(3);
    let start = Instant::now();
    let done = client
        .wait_until_thing_ready()
        .min_delay(10 * MS)
        .max_delay(10 * MS)
        .wait(Duration::from_secs(10))
        .await
        .unwrap();
    assert_eq!(done.polls, 3);
    assert!(start.elapsed() >= 20 * MS, "{:?}", start.elapsed());
}

/// A poll in flight at the deadline is cancelled there.
async fn deadline_cancels_the_poll() {
    let client = Client::new(1);
    let start = Instant::now();
    let err = client.wait_until_never().wait(30 * MS).await.unwrap_err();
    assert!(
        matches!(
            err,
            WaiterError::ExceededMaxWait {
                polls: 0,
                cancelled_in_flight: true,
                ..
            }
        ),
        "{err:?}"
    );
    let elapsed = start.elapsed();
    assert!(
        elapsed >= 30 * MS && elapsed < Duration::from_secs(5),
        "{elapsed:?}"
    );
}

/// Two waiters in one set.
async fn wait_all() {
    let (a, b) = (Client::new(1), Client::new(2));
    let results = WaitAll::new([
        a.wait_until_thing_ready().min_delay(5 * MS),
        b.wait_until_thing_ready()
            .min_delay(5 * MS)
            .max_delay(5 * MS),
    ])
    .wait(Duration::from_secs(10))
    .await;
    assert_eq!(results.len(), 2);
    assert_eq!(results[0].as_ref().unwrap().polls, 1);
    assert_eq!(results[1].as_ref().unwrap().polls, 2);
}

/// Retries through an adaptive rate limiter that makes them wait: 20 tokens/s and an empty
/// bucket, so that each of the three attempts waits for its token (about 50 ms each).
async fn adaptive_retries() {
    let limiter = ClientRateLimiter::with_state(RateLimiterState::steady_at(20.0, 0.0).unwrap());
    while limiter.try_acquire() {}
    let retrier = Retrier::new(
        RetryConfig::adaptive()
            .max_attempts(3)
            .transient_backoff(MS)
            .jitter(Jitter::None)
            .build(),
    )
    .with_rate_limiter(Arc::new(limiter.clone()));
    let calls = AtomicU32::new(0);
    let start = Instant::now();
    let out = retrier
        .run(|| async {
            match calls.fetch_add(1, Ordering::Relaxed) {
                0 | 1 => Err(Error::Unavailable),
                _ => Ok("done"),
            }
        })
        .await;
    assert_eq!(out.unwrap(), "done");
    assert_eq!(calls.load(Ordering::Relaxed), 3);
    // Three tokens at 20/s from an empty bucket: at least two full token times.
    assert!(start.elapsed() >= 100 * MS, "{:?}", start.elapsed());
}

#[test]
fn a_waiter_on_smol() {
    smol::block_on(waiter_succeeds());
    smol::block_on(deadline_cancels_the_poll());
}

#[test]
fn a_waiter_on_the_futures_executor() {
    futures::executor::block_on(waiter_succeeds());
    futures::executor::block_on(deadline_cancels_the_poll());
}

#[test]
fn wait_all_on_smol_and_the_futures_executor() {
    smol::block_on(wait_all());
    futures::executor::block_on(wait_all());
}

#[test]
fn adaptive_retries_on_smol_and_the_futures_executor() {
    smol::block_on(adaptive_retries());
    futures::executor::block_on(adaptive_retries());
}

/// A timer of the user's own: here a thread per sleep, counting the sleeps it makes.
#[derive(Debug, Default)]
struct ThreadSleep(AtomicU32);

impl waiter_runtime::timer::AsyncSleep for ThreadSleep {
    fn sleep(&self, duration: Duration) -> waiter_runtime::timer::Sleep {
        self.0.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = futures::channel::oneshot::channel();
        std::thread::spawn(move || {
            std::thread::sleep(duration);
            let _ = tx.send(());
        });
        waiter_runtime::timer::Sleep::new(async move {
            let _ = rx.await;
        })
    }
}

/// A supplied timer is the one a waiter's delays and a retrier's backoffs sleep on.
#[test]
fn a_supplied_timer_is_used() {
    use waiter_runtime::timer::SharedAsyncSleep;
    let timer = Arc::new(ThreadSleep::default());
    #[derive(Debug)]
    struct Shared(Arc<ThreadSleep>);
    impl waiter_runtime::timer::AsyncSleep for Shared {
        fn sleep(&self, duration: Duration) -> waiter_runtime::timer::Sleep {
            self.0.sleep(duration)
        }
    }
    let sleep = SharedAsyncSleep::new(Shared(Arc::clone(&timer)));
    let client = Client::new(3);
    let done = futures::executor::block_on(
        client
            .wait_until_thing_ready()
            .min_delay(MS)
            .sleep_impl(sleep.clone())
            .wait(Duration::from_secs(10)),
    )
    .unwrap();
    assert_eq!(done.polls, 3);
    // Two delays, and the deadline of each poll that had to wait (none here).
    assert_eq!(timer.0.load(Ordering::Relaxed), 2);

    let retrier = Retrier::new(
        RetryConfig::standard()
            .transient_backoff(MS)
            .jitter(Jitter::None)
            .build(),
    )
    .with_sleep_impl(sleep);
    let calls = AtomicU32::new(0);
    let out = smol::block_on(retrier.run(|| async {
        match calls.fetch_add(1, Ordering::Relaxed) {
            0 => Err(Error::Unavailable),
            _ => Ok(()),
        }
    }));
    assert!(out.is_ok());
    assert_eq!(timer.0.load(Ordering::Relaxed), 3);
}
