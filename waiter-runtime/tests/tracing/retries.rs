//! One tracing event per retry, and one when a retryable error is not retried.

use crate::support::{Capture, Script, TestError};
use waiter_runtime::retry::{Jitter, Retrier, RetryConfig};

fn no_jitter(max_attempts: u32) -> RetryConfig {
    RetryConfig::standard()
        .max_attempts(max_attempts)
        .jitter(Jitter::None)
        .build()
}

#[tokio::test(flavor = "current_thread", start_paused = true)]
async fn one_tracing_event_per_retry() {
    let capture = Capture::default();
    let _guard = tracing::subscriber::set_default(capture.clone());
    let script = Script::new([Err(TestError::Unavailable), Err(TestError::Timeout), Ok(1)]);
    Retrier::new(no_jitter(3))
        .run(|| script.call())
        .await
        .unwrap();
    let retries = capture.messages("retrying");
    assert_eq!(retries.len(), 2);
    assert_eq!(retries[0]["attempt"], "1");
    assert_eq!(retries[0]["reason"], "server error");
    // Retry behavior 2.1: a 50 ms base after transient errors.
    assert_eq!(retries[0]["delay"], "50ms");
    assert_eq!(retries[0]["level"], "DEBUG");
    assert_eq!(retries[1]["attempt"], "2");
    assert_eq!(retries[1]["reason"], "transient error");
    assert_eq!(retries[1]["delay"], "100ms");
    assert_eq!(retries[1]["error_code"], "Timeout");

    // A stop after a retryable error says why.
    let script = Script::failing(TestError::Unavailable);
    Retrier::new(no_jitter(1))
        .run(|| script.call())
        .await
        .unwrap_err();
    let stops = capture.messages("not retrying");
    assert_eq!(stops.len(), 1);
    assert_eq!(stops[0]["stop"], "MaxAttempts");
}
