//! A blocking operation reads the time its attempt has (issue 36): the waiter's deadline inside
//! a blocking waiter's poll, and `attempt_timeout` from a blocking retrier, whichever comes
//! first. Real clock: upper bounds are exact, lower ones leave room for a loaded machine.

use std::sync::Mutex;
use std::time::Duration;

use waiter_runtime::retry::{Retrier, RetryConfig, attempt_time_left};
use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
enum Error {
    #[error_metadata(status = 503)]
    Unavailable,
}

#[derive(Debug, Searchable)]
struct Thing {
    status: String,
}

/// A blocking client that records the time each request was handed, and answers `ready`.
struct Client {
    retrier: Option<Retrier>,
    handed: Mutex<Vec<Option<Duration>>>,
}

impl Client {
    fn request(&self) -> Result<Thing, Error> {
        // What a ureq or `reqwest::blocking` call would give its own timeout.
        self.handed.lock().unwrap().push(attempt_time_left());
        Ok(Thing {
            status: "ready".into(),
        })
    }

    #[waitable(Ready: { acceptors: [
        { state: "success", matcher: { output: { path: "status", expected: "ready", comparator: "stringEquals" } } }
    ] })]
    fn get_thing(&self) -> Result<Thing, Error> {
        match &self.retrier {
            Some(retrier) => retrier.run_blocking(|| self.request()),
            None => self.request(),
        }
    }
}

fn handed(retrier: Option<Retrier>, max_wait: Duration) -> Duration {
    let client = Client {
        retrier,
        handed: Mutex::new(Vec::new()),
    };
    client.wait_until_ready().wait(max_wait).unwrap();
    let handed = client.handed.lock().unwrap();
    assert_eq!(handed.len(), 1);
    handed[0].expect("the poll has a deadline")
}

#[test]
fn a_blocking_poll_reads_the_time_left_before_the_deadline() {
    let max_wait = Duration::from_secs(30);
    let left = handed(None, max_wait);
    assert!(
        left <= max_wait && left > Duration::from_secs(25),
        "{left:?}"
    );
    // A retrier with a shorter attempt timeout: that.
    let retrier = Retrier::new(
        RetryConfig::standard()
            .attempt_timeout(Duration::from_secs(2))
            .build(),
    );
    let left = handed(Some(retrier), max_wait);
    assert!(
        left <= Duration::from_secs(2) && left > Duration::from_secs(1),
        "{left:?}"
    );
    // A longer one: the waiter's deadline.
    let retrier = Retrier::new(
        RetryConfig::standard()
            .attempt_timeout(Duration::from_secs(600))
            .build(),
    );
    let left = handed(Some(retrier), max_wait);
    assert!(
        left <= max_wait && left > Duration::from_secs(25),
        "{left:?}"
    );
    assert!(Error::Unavailable.http_status().is_some());
}
