//! The blocking waiter: the same decisions as the async one, and what happens at the deadline.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState};
use waiter_runtime::retry::{Retrier, RetryConfig};
use waiter_runtime::waiter::PollEvent;
use waiter_runtime::{ProvideErrorMetadata, Searchable, WaiterError, blocking, waitable};

#[derive(Debug, PartialEq, ProvideErrorMetadata)]
pub enum Error {
    #[error_metadata(code = "NotFound")]
    NotFound,
    #[error_metadata(code = "Throttling", throttling)]
    Throttled,
    #[error_metadata(status = 503)]
    Unavailable,
    #[error_metadata(code = "AccessDenied")]
    Denied,
}

#[derive(Debug, Searchable)]
pub struct Thing {
    pub status: String,
}

const MS: Duration = Duration::from_millis(1);

/// A blocking client whose answers are scripted, one per request (the last repeats), each
/// taking `latency`.
pub struct Client {
    script: Mutex<Vec<Result<&'static str, Error>>>,
    requests: AtomicU32,
    latency: Duration,
}

fn answer(r: &Result<&'static str, Error>) -> Result<&'static str, Error> {
    match r {
        Ok(s) => Ok(s),
        Err(Error::NotFound) => Err(Error::NotFound),
        Err(Error::Throttled) => Err(Error::Throttled),
        Err(Error::Unavailable) => Err(Error::Unavailable),
        Err(Error::Denied) => Err(Error::Denied),
    }
}

impl Client {
    pub fn new(script: Vec<Result<&'static str, Error>>) -> Self {
        Client::slow(script, Duration::ZERO)
    }

    pub fn slow(mut script: Vec<Result<&'static str, Error>>, latency: Duration) -> Self {
        script.reverse();
        Client {
            script: Mutex::new(script),
            requests: AtomicU32::new(0),
            latency,
        }
    }

    fn next(&self) -> Result<&'static str, Error> {
        self.requests.fetch_add(1, Ordering::Relaxed);
        std::thread::sleep(self.latency);
        let mut script = self.script.lock().unwrap();
        if script.len() > 1 {
            answer(&script.pop().unwrap())
        } else {
            answer(script.last().unwrap())
        }
    }

    pub fn requests(&self) -> u32 {
        self.requests.load(Ordering::Relaxed)
    }

    #[waitable(ThingReady: { acceptors: [
        { state: "success", matcher: { output: { path: "status", expected: "ready", comparator: "stringEquals" } } }
        { state: "failure", matcher: { output: { path: "status", expected: "broken", comparator: "stringEquals" } } }
        { state: "retry", matcher: { errorType: "NotFound" } }
        { state: "retry", matcher: { errorType: "Throttling" } }
    ] })]
    pub fn get_thing(&self, name: &str) -> Result<Thing, Error> {
        let _ = name;
        self.next().map(|status| Thing {
            status: status.into(),
        })
    }

    /// The same operation retrying by itself, as a client with a retry layer does.
    #[waitable(ThingReadyRetrying: { acceptors: [
        { state: "success", matcher: { output: { path: "status", expected: "ready", comparator: "stringEquals" } } }
        { state: "retry", matcher: { errorType: "Throttling" } }
    ] })]
    pub fn get_thing_retrying(&self, retrier: &Retrier) -> Result<Thing, Error> {
        retrier.run_blocking(|| {
            self.next().map(|status| Thing {
                status: status.into(),
            })
        })
    }
}

/// A free function works as a method does.
#[waitable(Up: { acceptors: [{ state: "success", matcher: { success: true } }] })]
fn ping(host: String) -> Result<(), Error> {
    let _ = host;
    Ok(())
}

#[test]
fn a_plain_fn_gets_a_blocking_waiter_that_returns_directly() {
    let client = Client::new(vec![Err(Error::NotFound), Ok("pending"), Ok("ready")]);
    let waiter: blocking::Waiter<'_, Thing, Error> = client.wait_until_thing_ready("t");
    assert_eq!(waiter.metadata().name, "ThingReady");
    let start = Instant::now();
    let done = waiter
        .min_delay(10 * MS)
        .max_delay(10 * MS)
        .wait(Duration::from_secs(10))
        .unwrap();
    assert_eq!((done.polls, client.requests()), (3, 3));
    assert_eq!(done.output().unwrap().status, "ready");
    assert!(start.elapsed() >= 20 * MS);
    assert_eq!(
        wait_until_up("h".into())
            .wait(Duration::from_secs(1))
            .unwrap()
            .polls,
        1
    );
    assert_eq!(CLIENT_THING_READY.name, "ThingReady");
}

// The metadata const of a method's waiter, as on an async fn.
const CLIENT_THING_READY: waiter_runtime::waiter::WaiterMetadata = Client::THING_READY_WAITER;

#[test]
fn a_failure_acceptor_and_an_unexpected_error_end_the_wait() {
    let client = Client::new(vec![Ok("pending"), Ok("broken")]);
    let err = client
        .wait_until_thing_ready("t")
        .min_delay(MS)
        .wait(Duration::from_secs(10))
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::FailureState { acceptor: 1, ref final_poll, .. } if final_poll.polls == 2)
    );
    let client = Client::new(vec![Err(Error::Denied)]);
    let err = client
        .wait_until_thing_ready("t")
        .wait(Duration::from_secs(10))
        .unwrap_err();
    assert!(matches!(
        err,
        WaiterError::OperationFailed {
            error: Error::Denied,
            polls: 1,
            ..
        }
    ));
}

/// A poll cannot be cancelled: one still running at the deadline finishes, and its result
/// ends the wait, as a success or as `ExceededMaxWait`; no poll follows.
#[test]
fn a_poll_running_at_the_deadline_finishes_and_is_the_last() {
    let client = Client::slow(vec![Ok("pending")], 120 * MS);
    let start = Instant::now();
    let err = client
        .wait_until_thing_ready("t")
        .min_delay(MS)
        .wait(50 * MS)
        .unwrap_err();
    let elapsed = start.elapsed();
    match err {
        WaiterError::ExceededMaxWait {
            polls,
            cancelled_in_flight,
            last,
            ..
        } => {
            assert_eq!((polls, cancelled_in_flight), (1, false));
            assert_eq!(last.unwrap().unwrap().status, "pending");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(client.requests(), 1);
    // Bounded by the poll's own duration: it ends when the poll does.
    assert!(
        elapsed >= 120 * MS && elapsed < Duration::from_secs(3),
        "{elapsed:?}"
    );

    let client = Client::slow(vec![Ok("ready")], 120 * MS);
    let done = client.wait_until_thing_ready("t").wait(50 * MS).unwrap();
    assert_eq!(done.polls, 1);
}

/// The deadline is kept to the clock's resolution: the last poll starts before it, early
/// enough to answer (by twice the longest poll, at most `min_delay`), and the wait ends right
/// after it.
#[test]
fn the_deadline_is_kept() {
    let client = Client::slow(vec![Ok("pending")], 5 * MS);
    let start = Instant::now();
    let err = client
        .wait_until_thing_ready("t")
        .min_delay(20 * MS)
        .max_delay(20 * MS)
        .wait(200 * MS)
        .unwrap_err();
    let elapsed = start.elapsed();
    assert!(matches!(
        err,
        WaiterError::ExceededMaxWait {
            cancelled_in_flight: false,
            ..
        }
    ));
    assert!(
        elapsed >= 180 * MS && elapsed < 200 * MS + Duration::from_millis(500),
        "{elapsed:?}"
    );
}

/// The same options give the same answers as the async waiter: invalid delays, zero
/// successes, a zero or endless max wait, and the same delays for the same seed.
#[test]
fn the_same_answers_as_the_async_waiter() {
    let client = Client::new(vec![Ok("pending")]);
    let err = client
        .wait_until_thing_ready("t")
        .min_delay(Duration::ZERO)
        .wait(Duration::from_secs(1));
    assert!(matches!(err, Err(WaiterError::InvalidDelays { .. })));
    let err = client
        .wait_until_thing_ready("t")
        .consecutive_successes(0)
        .wait(Duration::from_secs(1));
    assert!(matches!(
        err,
        Err(WaiterError::InvalidConsecutiveSuccesses { .. })
    ));
    // Zero: one poll, and its answer.
    let err = client
        .wait_until_thing_ready("t")
        .wait(Duration::ZERO)
        .unwrap_err();
    assert!(matches!(
        err,
        WaiterError::ExceededMaxWait {
            polls: 1,
            last: Some(Ok(_)),
            ..
        }
    ));
    let ready = Client::new(vec![Ok("ready")]);
    assert!(
        ready
            .wait_until_thing_ready("t")
            .wait(Duration::ZERO)
            .is_ok()
    );
    assert!(
        ready
            .wait_until_thing_ready("t")
            .wait(Duration::MAX)
            .is_ok()
    );

    // The same seed: the same delays, blocking or async (polls far from the deadline).
    let delays = |events: &[PollEvent]| events.iter().map(|e| e.next_delay).collect::<Vec<_>>();
    let script = || vec![Ok("pending"), Ok("pending"), Ok("pending"), Ok("ready")];
    let blocking_client = Client::new(script());
    let mut blocking_events = Vec::new();
    blocking_client
        .wait_until_thing_ready("t")
        .min_delay(MS)
        .max_delay(8 * MS)
        .seed(7)
        .on_poll(|e: &PollEvent| blocking_events.push(*e))
        .wait(Duration::from_secs(60))
        .unwrap();
    let async_events = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap()
        .block_on(async {
            let client = crate::retries::AsyncClient::new(script());
            let mut events = Vec::new();
            client
                .wait_until_thing_ready()
                .min_delay(MS)
                .max_delay(8 * MS)
                .seed(7)
                .on_poll(|e: &PollEvent| events.push(*e))
                .wait(Duration::from_secs(60))
                .await
                .unwrap();
            events
        });
    assert_eq!(delays(&blocking_events), delays(&async_events));
    assert_eq!(blocking_events.len(), 4);
}

#[test]
fn successes_in_a_row_and_mapped_types() {
    let client = Client::new(vec![Ok("ready"), Ok("pending"), Ok("ready"), Ok("ready")]);
    let done = client
        .wait_until_thing_ready("t")
        .min_delay(MS)
        .consecutive_successes(2)
        .map_output(|thing| thing.status.len())
        .map_err(|e| format!("{e:?}"))
        .wait(Duration::from_secs(10))
        .unwrap();
    assert_eq!((done.polls, done.result), (4, Ok(5)));
}

/// In-poll retries follow the async rule: an error the acceptors name is never retried; any
/// other is, inside the poll.
#[test]
fn retries_inside_a_poll_never_retry_what_the_acceptors_name() {
    let config = || {
        RetryConfig::standard()
            .transient_backoff(MS)
            .throttling_backoff(MS)
            .build()
    };
    // A 503 no acceptor names: retried inside the poll (2 attempts), then pending, then ready.
    let client = Client::new(vec![Err(Error::Unavailable), Ok("pending"), Ok("ready")]);
    let mut attempts = Vec::new();
    let done = client
        .wait_until_thing_ready("t")
        .min_delay(MS)
        .retry(config())
        .on_poll(|e: &PollEvent| attempts.push(e.attempts))
        .wait(Duration::from_secs(10))
        .unwrap();
    assert_eq!((done.polls, attempts), (2, vec![2, 1]));

    // A throttle a `retry` acceptor names: one attempt per poll, the waiter's delays between.
    let client = Client::new(vec![
        Err(Error::Throttled),
        Err(Error::Throttled),
        Ok("ready"),
    ]);
    let retrier = Retrier::new(config());
    let mut attempts = Vec::new();
    let done = client
        .wait_until_thing_ready_retrying(&retrier)
        .min_delay(MS)
        .on_poll(|e: &PollEvent| attempts.push(e.attempts))
        .wait(Duration::from_secs(10))
        .unwrap();
    assert_eq!((done.polls, attempts), (3, vec![1, 1, 1]));
    // The operation's own retries make the waiter's stand down: no double retries.
    let client = Client::new(vec![Err(Error::Unavailable), Ok("ready")]);
    let mut attempts = Vec::new();
    client
        .wait_until_thing_ready_retrying(&retrier)
        .retry(config())
        .on_poll(|e: &PollEvent| attempts.push(e.attempts))
        .wait(Duration::from_secs(10))
        .unwrap();
    assert_eq!(attempts, [2]);
}

/// On a thread inside a tokio runtime (here its `block_on`, a current-thread runtime), a
/// blocking waiter blocks that thread but never deadlocks: its sleeps and rate-limiter waits
/// are the thread's own, not tokio's timer (which nothing would drive).
#[tokio::test]
async fn on_a_runtime_thread_it_blocks_but_never_deadlocks() {
    // Every attempt waits for a token: 20 tokens/s, the bucket empty.
    let limiter = ClientRateLimiter::with_state(RateLimiterState::steady_at(20.0, 0.0).unwrap());
    while limiter.try_acquire() {}
    let retrier =
        Retrier::new(RetryConfig::adaptive().build()).with_rate_limiter(Arc::new(limiter));
    let client = Client::new(vec![Ok("pending"), Ok("ready")]);
    let start = Instant::now();
    let mut waited = Duration::ZERO;
    let done = client
        .wait_until_thing_ready("t")
        .min_delay(5 * MS)
        .retrier(retrier)
        .on_poll(|e: &PollEvent| waited += e.rate_limit_wait)
        .wait(Duration::from_secs(10))
        .unwrap();
    assert_eq!(done.polls, 2);
    assert!(
        waited >= 40 * MS && start.elapsed() >= 80 * MS,
        "{waited:?}"
    );
}

/// The compiler names the blocking waiter by its public path, `blocking::Waiter`, never by the
/// module that defines it (issue 39: messages showed `waiter_runtime::blocking::waiter::Waiter`
/// beside `blocking::Waiter`): its definition is at that path.
#[test]
fn the_compiler_names_the_blocking_waiter_by_its_public_path() {
    let name = std::any::type_name::<waiter_runtime::blocking::Waiter<'static, (), ()>>();
    assert_eq!(name, "waiter_runtime::blocking::Waiter<'_, (), ()>");
}
