//! `rfc-waiters-rust.md` requirement 3: the waiter is the retry loop. An operation that retries
//! on its own makes exactly one attempt per poll when a waiter polls it.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use waiter_runtime::retry::{Retrier, RetryConfig};
use waiter_runtime::{ProvideErrorMetadata, waitable};

#[derive(Debug, Clone, ProvideErrorMetadata)]
enum CallError {
    /// Retryable for the retry layer; a `retry` state for the waiter.
    #[error_metadata(code = "Throttling", throttling)]
    Throttled,
}

struct Client {
    retrier: Retrier,
    attempts: AtomicU32,
    succeed_from: u32,
}

impl Client {
    async fn attempt(&self) -> Result<u32, CallError> {
        let n = self.attempts.fetch_add(1, Ordering::SeqCst) + 1;
        if n >= self.succeed_from {
            Ok(n)
        } else {
            Err(CallError::Throttled)
        }
    }

    #[waitable(Ready: { acceptors: [
        { state: "success", matcher: { success: true } }
        { state: "retry", matcher: { errorType: "Throttling" } }
    ] minDelay: 1 maxDelay: 1 })]
    async fn get(&self) -> Result<u32, CallError> {
        self.retrier.run(|| self.attempt()).await
    }
}

fn client(succeed_from: u32) -> Client {
    Client {
        retrier: Retrier::new(RetryConfig::default()),
        attempts: AtomicU32::new(0),
        succeed_from,
    }
}

#[tokio::test(start_paused = true)]
async fn one_attempt_per_poll_inside_a_waiter() {
    let c = client(3);
    let done = c
        .wait_until_ready()
        .wait(Duration::from_secs(60))
        .await
        .unwrap();
    assert_eq!(done.polls, 3);
    assert_eq!(
        c.attempts.load(Ordering::SeqCst),
        3,
        "the retrier stood down during polls"
    );
    assert_eq!(done.output(), Some(&3));
}

#[tokio::test(start_paused = true)]
async fn the_same_operation_retries_on_its_own_outside_a_waiter() {
    let c = client(3);
    assert_eq!(c.get().await.unwrap(), 3);
    assert_eq!(
        c.attempts.load(Ordering::SeqCst),
        3,
        "three attempts in one call"
    );
}
