//! Attempt timeouts inside a waiter's poll (issue 36): an attempt has until the waiter's
//! deadline at most, and a poll whose attempt hangs still ends the wait at `max_wait`, whether
//! the retrier hands the attempt its time (`run`) or cuts it there (`run_timed`). Paused clock.

use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;
use waiter_runtime::retry::{
    AttemptError, AttemptTimedOut, Jitter, Retrier, RetryConfig, attempt_time_left,
};
use waiter_runtime::{ProvideErrorMetadata, Searchable, WaiterError, waitable};

const S: Duration = Duration::from_secs(1);

#[derive(Debug, ProvideErrorMetadata)]
enum Error {
    #[error_metadata(status = 503)]
    Unavailable,
    #[error_metadata(transparent)]
    TimedOut(AttemptTimedOut),
}

impl From<AttemptTimedOut> for Error {
    fn from(timed_out: AttemptTimedOut) -> Self {
        Error::TimedOut(timed_out)
    }
}

#[derive(Debug, Searchable)]
struct Thing {
    status: String,
}

/// A client whose every request hangs, recording the time each attempt was handed.
struct Client {
    retrier: Retrier,
    cut: bool,
    handed: Mutex<Vec<Option<Duration>>>,
}

impl Client {
    fn new(cut: bool) -> Self {
        Client {
            retrier: Retrier::new(
                RetryConfig::standard()
                    .max_attempts(10)
                    .jitter(Jitter::None)
                    .attempt_timeout(2 * S)
                    .build(),
            ),
            cut,
            handed: Mutex::new(Vec::new()),
        }
    }

    async fn hang(&self) -> Result<Thing, Error> {
        self.handed.lock().unwrap().push(attempt_time_left());
        std::future::pending::<()>().await;
        Err(Error::Unavailable)
    }

    #[waitable(Ready: {
        acceptors: [
            { state: "success", matcher: { output: { path: "status", expected: "READY", comparator: "stringEquals" } } },
        ],
        minDelay: 1,
        maxDelay: 1,
    })]
    async fn get_thing(&self) -> Result<Thing, Error> {
        if self.cut {
            self.retrier
                .run_timed(|| self.hang())
                .await
                .map_err(AttemptError::into_error)
        } else {
            self.retrier.run(|| self.hang()).await
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_poll_whose_attempt_hangs_ends_the_wait_at_max_wait() {
    // Handed its time (`run`): the attempt has 2 s of its own but 1.5 s of the wait, and is
    // cancelled with the poll at the deadline.
    let client = Client::new(false);
    let start = Instant::now();
    let out = client
        .wait_until_ready()
        .wait(Duration::from_millis(1500))
        .await;
    assert!(
        matches!(out, Err(WaiterError::ExceededMaxWait { .. })),
        "{out:?}"
    );
    assert_eq!(start.elapsed(), Duration::from_millis(1500));
    assert_eq!(
        *client.handed.lock().unwrap(),
        [Some(Duration::from_millis(1500))]
    );

    // Cut (`run_timed`): at 2 s, retried, cut at the 3 s deadline; the wait ends there.
    let client = Client::new(true);
    let start = Instant::now();
    let out = client.wait_until_ready().wait(3 * S).await;
    assert!(
        matches!(out, Err(WaiterError::ExceededMaxWait { .. })),
        "{out:?}"
    );
    assert_eq!(start.elapsed(), 3 * S);
    let handed = client.handed.lock().unwrap();
    assert_eq!(handed[0], Some(2 * S));
    assert!(handed[1] < Some(S), "{handed:?}: what was left of the 3 s");
}
