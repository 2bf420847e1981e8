//! End to end: a `#[waitable]` method whose body retries through a `Retrier`. Inside the
//! waiter's polls the retrier makes exactly one attempt (the waiter is the retry loop); called
//! directly, the same method retries.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use waiter_runtime::retry::{Jitter, Retrier, RetryConfig};
use waiter_runtime::{ProvideErrorMetadata, waitable};

#[derive(Debug, Clone, PartialEq, ProvideErrorMetadata)]
enum DescribeError {
    #[error_metadata(code = "ThrottlingException")]
    Throttled,
    #[error_metadata(code = "ResourceNotFound", status = 404)]
    NotFound,
}

impl std::fmt::Display for DescribeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}
impl std::error::Error for DescribeError {}

struct Client {
    retrier: Retrier,
    script: Vec<Result<&'static str, DescribeError>>,
    sends: Mutex<usize>,
}

impl Client {
    fn new(script: Vec<Result<&'static str, DescribeError>>, retrier: Retrier) -> Self {
        Client {
            retrier,
            script,
            sends: Mutex::new(0),
        }
    }

    /// One request on the wire.
    async fn send(&self) -> Result<&'static str, DescribeError> {
        let mut sends = self.sends.lock().unwrap();
        *sends += 1;
        self.script[(*sends - 1).min(self.script.len() - 1)].clone()
    }

    fn sends(&self) -> usize {
        *self.sends.lock().unwrap()
    }

    #[waitable(
        ResourceReady: {
            minDelay: 2
            maxDelay: 10
            acceptors: [
                { state: "success", matcher: { success: true } }
                { state: "retry", matcher: { errorType: "ThrottlingException" } }
                { state: "retry", matcher: { errorType: "ResourceNotFound" } }
            ]
        }
    )]
    async fn describe(&self) -> Result<&'static str, DescribeError> {
        self.retrier.run(|| self.send()).await
    }
}

fn retrier(retries: &Arc<AtomicU32>) -> Retrier {
    let counted = retries.clone();
    Retrier::new(
        RetryConfig::standard()
            .max_attempts(5)
            .jitter(Jitter::None)
            .build(),
    )
    .on_retry(move |_| {
        counted.fetch_add(1, Ordering::Relaxed);
    })
}

#[tokio::test(start_paused = true)]
async fn inside_a_waiter_each_poll_is_one_attempt() {
    let retries = Arc::new(AtomicU32::new(0));
    let client = Client::new(
        vec![
            Err(DescribeError::Throttled),
            Err(DescribeError::NotFound),
            Err(DescribeError::Throttled),
            Ok("ready"),
        ],
        retrier(&retries),
    );
    let start = tokio::time::Instant::now();
    let done = client
        .wait_until_resource_ready()
        .seed(7)
        .wait(Duration::from_secs(300))
        .await
        .unwrap();
    assert_eq!(done.polls, 4);
    assert_eq!(
        client.sends(),
        4,
        "one request per poll: the retrier did not retry inside the waiter"
    );
    assert_eq!(retries.load(Ordering::Relaxed), 0, "no retry was scheduled");
    assert_eq!(
        client.retrier.quota().available(),
        500,
        "no retry token was taken"
    );
    // The time between polls is the waiter's (at least minDelay each), not the retrier's backoff.
    assert!(
        start.elapsed() >= Duration::from_secs(6),
        "{:?}",
        start.elapsed()
    );
}

#[tokio::test(start_paused = true)]
async fn called_directly_the_same_method_retries() {
    let retries = Arc::new(AtomicU32::new(0));
    let client = Client::new(
        vec![
            Err(DescribeError::Throttled),
            Err(DescribeError::Throttled),
            Ok("ready"),
        ],
        retrier(&retries),
    );
    assert_eq!(client.describe().await, Ok("ready"));
    assert_eq!(client.sends(), 3);
    assert_eq!(retries.load(Ordering::Relaxed), 2);
    assert_eq!(
        client.retrier.quota().available(),
        495,
        "took 5 then 5, got the last 5 back"
    );
}

#[tokio::test(start_paused = true)]
async fn after_the_waiter_the_retrier_retries_again() {
    let retries = Arc::new(AtomicU32::new(0));
    let client = Client::new(
        vec![Err(DescribeError::Throttled), Ok("ready")],
        retrier(&retries),
    );
    client
        .wait_until_resource_ready()
        .wait(Duration::from_secs(60))
        .await
        .unwrap();
    assert_eq!((client.sends(), retries.load(Ordering::Relaxed)), (2, 0));
    // The script now repeats Ok; a throttled direct call would retry (flag not leaked).
    assert!(!waiter_runtime::poll_scope::in_poll());
    let client = Client::new(
        vec![Err(DescribeError::Throttled), Ok("ready")],
        retrier(&retries),
    );
    assert_eq!(client.describe().await, Ok("ready"));
    assert_eq!((client.sends(), retries.load(Ordering::Relaxed)), (2, 1));
}
