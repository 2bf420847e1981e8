//! Issue 39.7: the retrier's entry points report every attempt to the adaptive limiter the same
//! way, with its send mark, so that a first-try success through `run`'s fast path ends the
//! recovery period after a cut as one through `run_report` or `run_blocking` does.

use std::sync::Arc;

use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState};
use waiter_runtime::retry::{Retrier, RetryConfig};

#[derive(Debug, ProvideErrorMetadata)]
enum OpError {
    #[error_metadata(code = "ThrottlingException", status = 400)]
    Throttled,
}

/// A limiter at a steady 100 requests/s (a full bucket: no waits) and a retrier of one attempt.
fn setup() -> (ClientRateLimiter, Retrier) {
    let limiter = ClientRateLimiter::with_state(RateLimiterState::steady_at(100.0, 0.0).unwrap());
    let retrier = Retrier::new(RetryConfig::adaptive().max_attempts(1).build())
        .with_rate_limiter(Arc::new(limiter.clone()));
    (limiter, retrier)
}

#[derive(Clone, Copy, Debug)]
enum Entry {
    Run,
    RunReport,
    RunBlocking,
}

/// One call through `entry` whose one attempt succeeds (`ok`) or is throttled.
async fn call(retrier: &Retrier, entry: Entry, ok: bool) {
    let outcome = move || if ok { Ok(()) } else { Err(OpError::Throttled) };
    let result = match entry {
        Entry::Run => retrier.run(|| async move { outcome() }).await,
        Entry::RunReport => retrier.run_report(|| async move { outcome() }).await.result,
        Entry::RunBlocking => {
            let retrier = retrier.clone();
            tokio::task::spawn_blocking(move || retrier.run_blocking(outcome))
                .await
                .unwrap()
        }
    };
    assert_eq!(result.is_ok(), ok);
}

/// A throttle (a cut, its recovery period opens), a success sent after the cut (it ends the
/// recovery period), then a throttle of a request sent after that: a new congestion event, a
/// second cut. Through `run`'s fast path the success was reported without its send mark, the
/// recovery period never ended, and the second throttle cut nothing (`cuts()` 1).
#[tokio::test(start_paused = true)]
async fn every_entry_point_ends_the_recovery_period_with_a_success() {
    for entry in [Entry::Run, Entry::RunReport, Entry::RunBlocking] {
        let (limiter, retrier) = setup();
        call(&retrier, entry, false).await;
        assert_eq!(
            limiter.state().cuts(),
            1,
            "{entry:?}: the first throttle cuts"
        );
        call(&retrier, entry, true).await;
        call(&retrier, entry, false).await;
        assert_eq!(
            limiter.state().cuts(),
            2,
            "{entry:?}: the throttle after the recovery period is a new congestion event"
        );
    }
}
