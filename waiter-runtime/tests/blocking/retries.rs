//! `Retrier::run_blocking`: one quota and one rate limiter for blocking and async callers.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState};
use waiter_runtime::retry::{Retrier, RetryConfig, StopReason};
use waiter_runtime::{Searchable, waitable};

use crate::waiter::Error;

const MS: Duration = Duration::from_millis(1);

#[derive(Debug, Searchable)]
pub struct Thing {
    status: String,
}

/// The async twin of `waiter::Client`, for comparisons.
pub struct AsyncClient(Mutex<Vec<&'static str>>);

impl AsyncClient {
    pub fn new(script: Vec<Result<&'static str, Error>>) -> Self {
        let mut script: Vec<_> = script.into_iter().map(Result::unwrap).collect();
        script.reverse();
        AsyncClient(Mutex::new(script))
    }

    #[waitable(ThingReady: { acceptors: [
        { state: "success", matcher: { output: { path: "status", expected: "ready", comparator: "stringEquals" } } }
    ] })]
    pub async fn get_thing(&self) -> Result<Thing, Error> {
        let mut script = self.0.lock().unwrap();
        let status = if script.len() > 1 {
            script.pop().unwrap()
        } else {
            script[0]
        };
        Ok(Thing {
            status: status.into(),
        })
    }
}

/// Blocking and async calls of one retrier draw on one quota.
#[test]
fn blocking_and_async_calls_share_one_quota() {
    let retrier = Retrier::new(
        RetryConfig::standard()
            .max_attempts(2)
            .transient_backoff(MS)
            .build(),
    );
    let full = retrier.quota().available();
    let report = retrier.run_report_blocking(|| Err::<(), _>(Error::Unavailable));
    assert_eq!((report.attempts, report.stop), (2, StopReason::MaxAttempts));
    let cost = full - retrier.quota().available();
    assert!(cost > 0);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let clone = retrier.clone();
    let report = rt.block_on(async move {
        clone
            .run_report(|| async { Err::<(), _>(Error::Unavailable) })
            .await
    });
    assert_eq!(report.attempts, 2);
    assert_eq!(retrier.quota().available(), full - 2 * cost);
    // A blocking success gives back what its retry took, to the same quota.
    let calls = AtomicU32::new(0);
    let out = retrier.run_blocking(|| match calls.fetch_add(1, Ordering::Relaxed) {
        0 => Err(Error::Unavailable),
        _ => Ok(7),
    });
    assert_eq!(out, Ok(7));
    assert_eq!(retrier.quota().available(), full - 2 * cost);
    // The overrides of one call work the same.
    let report = retrier
        .customize()
        .max_attempts(1)
        .run_report_blocking(|| Err::<(), _>(Error::Unavailable));
    assert_eq!(report.attempts, 1);
}

/// One line for both kinds of callers: a blocking caller, then an async one, then a blocking
/// one, waiting for tokens of a limiter at 20 tokens/s with an empty bucket, get them in the
/// order they came.
#[test]
fn the_rate_limiters_line_is_first_come_first_served_for_both_kinds() {
    let limiter = ClientRateLimiter::with_state(RateLimiterState::steady_at(20.0, 0.0).unwrap());
    while limiter.try_acquire() {}
    let retrier =
        Retrier::new(RetryConfig::adaptive().build()).with_rate_limiter(Arc::new(limiter.clone()));
    let order = Arc::new(Mutex::new(Vec::new()));
    let wait_for = |waiting: usize| {
        let start = Instant::now();
        while limiter.waiting() < waiting {
            assert!(start.elapsed() < Duration::from_secs(5), "never queued");
            std::thread::sleep(Duration::from_micros(200));
        }
    };
    std::thread::scope(|s| {
        let blocking = |name: &'static str| {
            let (retrier, order) = (retrier.clone(), Arc::clone(&order));
            move || {
                retrier.run_blocking(|| Ok::<_, Error>(())).unwrap();
                order.lock().unwrap().push(name);
            }
        };
        s.spawn(blocking("blocking 1"));
        wait_for(1);
        let (async_retrier, async_order) = (retrier.clone(), Arc::clone(&order));
        s.spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
                .unwrap();
            rt.block_on(async {
                async_retrier
                    .run(|| async { Ok::<_, Error>(()) })
                    .await
                    .unwrap();
            });
            async_order.lock().unwrap().push("async");
        });
        wait_for(2);
        s.spawn(blocking("blocking 2"));
    });
    assert_eq!(
        *order.lock().unwrap(),
        ["blocking 1", "async", "blocking 2"]
    );
}

/// Issue 39, point 3: `run_blocking` on the thread of a current-thread runtime's `block_on`,
/// behind an async caller of that runtime waiting on the same limiter, is served: the async
/// caller's token comes on tokio's timer, which the blocked thread cannot drive, so the
/// blocking caller hands it its token when it is due (in line order) and then takes its own.
/// It used to wait for the async caller forever.
#[test]
fn run_blocking_on_a_block_on_thread_behind_an_async_caller_of_that_runtime_is_served() {
    let limiter = ClientRateLimiter::with_state(RateLimiterState::steady_at(20.0, 0.0).unwrap());
    while limiter.try_acquire() {}
    let retrier =
        Retrier::new(RetryConfig::adaptive().build()).with_rate_limiter(Arc::new(limiter.clone()));
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let order = rt.block_on(async {
            let order = Arc::new(Mutex::new(Vec::new()));
            let (queued, queued_order) = (retrier.clone(), Arc::clone(&order));
            let task = tokio::spawn(async move {
                queued.run(|| async { Ok::<_, Error>(()) }).await.unwrap();
                queued_order.lock().unwrap().push("async");
            });
            while limiter.waiting() < 1 {
                tokio::task::yield_now().await;
            }
            let start = Instant::now();
            retrier.run_blocking(|| Ok::<_, Error>(())).unwrap();
            order.lock().unwrap().push("blocking");
            // Two tokens at 20/s: the async caller's, then the blocking caller's.
            assert!(start.elapsed() >= 90 * MS, "{:?}", start.elapsed());
            task.await.unwrap();
            Arc::try_unwrap(order).unwrap().into_inner().unwrap()
        });
        done.send(order).unwrap();
    });
    let order = finished
        .recv_timeout(Duration::from_secs(10))
        .expect("run_blocking on the block_on thread never returned (a deadlock)");
    // The async caller's token was handed to it first; it ran once the thread was free.
    assert_eq!(order, ["blocking", "async"]);
}

/// Issue 39, point 4: `run_blocking` on `spawn_blocking` inside a `start_paused` runtime, with
/// the limiter's bucket empty, waits on the system clock (the clock the blocking forms read,
/// as the `timer` docs say), not on tokio's paused clock, which no one advances while a
/// blocking task runs. It used to never return. (The runtime is built by hand, as
/// `#[tokio::test(start_paused = true)]` builds it, so that a hang fails the test: dropping a
/// runtime waits for its blocking tasks, `shutdown_background` does not.)
#[test]
fn run_blocking_on_spawn_blocking_in_a_paused_runtime_reads_the_system_clock() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap();
    let waited = rt.block_on(async {
        let limiter =
            ClientRateLimiter::with_state(RateLimiterState::steady_at(20.0, 0.0).unwrap());
        while limiter.try_acquire() {}
        let retrier = Retrier::new(RetryConfig::adaptive().build())
            .with_rate_limiter(Arc::new(limiter.clone()));
        let (done, finished) = std::sync::mpsc::channel();
        drop(tokio::task::spawn_blocking(move || {
            let start = Instant::now();
            retrier.run_blocking(|| Ok::<_, Error>(())).unwrap();
            let _ = done.send(start.elapsed());
        }));
        tokio::task::spawn_blocking(move || finished.recv_timeout(Duration::from_secs(10)))
            .await
            .unwrap()
    });
    rt.shutdown_background();
    let waited = waited.expect("run_blocking on spawn_blocking in a paused runtime never returned");
    // One token at 20/s, on the system clock.
    assert!(waited >= 40 * MS, "{waited:?}");
    assert!(waited < Duration::from_secs(5), "{waited:?}");
}
