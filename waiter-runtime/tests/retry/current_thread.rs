//! Zero-delay retries on a current-thread runtime leave other tasks their turn (tokio's
//! cooperative budget), instead of starving them.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::retry::{Retrier, RetryConfig, RetryQuota, StopReason};

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
