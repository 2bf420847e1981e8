//! `max_total_time` bounds the time a retry waits for the adaptive rate limiter: the budget
//! counts from the first attempt and includes the limiter's waits for retries; a retry whose
//! token would come after it is not made (the first attempt's own wait for a token is outside
//! the budget: the call has no error to return before it).

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::join_all;
use tokio::time::Instant;
use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState};
use waiter_runtime::retry::{Retrier, RetryConfig, StopReason};

use crate::support::TestError;

const MS: Duration = Duration::from_millis(1);

/// A limiter at 1 request/s, `max_total_time(200ms)`, 10 callers answered 503: no call goes on
/// past 200 ms after its first attempt (it went on 1 to 3 s).
#[tokio::test(start_paused = true)]
async fn a_retry_does_not_wait_for_a_token_past_the_time_budget() {
    let limiter = ClientRateLimiter::with_state(RateLimiterState::steady_at(1.0, 0.0).unwrap());
    let retrier = Retrier::new(
        RetryConfig::adaptive()
            .max_attempts(5)
            .max_total_time(200 * MS)
            .transient_backoff(MS)
            .build(),
    )
    .with_rate_limiter(Arc::new(limiter.clone()));
    let calls = (0..10).map(|_| {
        let retrier = retrier.clone();
        async move {
            let mut first = None;
            let report = retrier
                .run_report(|| {
                    first.get_or_insert_with(Instant::now);
                    async { Err::<(), _>(TestError::Unavailable) }
                })
                .await;
            (report, first.unwrap().elapsed())
        }
    });
    let start = Instant::now();
    for (report, after_first) in join_all(calls).await {
        assert!(
            after_first <= 200 * MS,
            "went on {after_first:?} after its first attempt"
        );
        assert_eq!(report.stop, StopReason::TimeBudgetExhausted);
        assert_eq!(report.attempts, 1);
        // The retry that was not made gave its quota cost back.
        assert_eq!(report.tokens_taken, u64::from(report.tokens_returned));
    }
    // The ten first attempts, one token a second (the first one in the full bucket).
    assert!(
        start.elapsed() < Duration::from_secs(11),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(limiter.waiting(), 0);
    assert_eq!(retrier.quota().available(), retrier.quota().capacity());
}

/// A retry whose token comes in time is made.
#[tokio::test(start_paused = true)]
async fn a_token_within_the_budget_is_waited_for() {
    let limiter = ClientRateLimiter::with_state(RateLimiterState::steady_at(10.0, 0.0).unwrap());
    while limiter.try_acquire() {}
    let retrier = Retrier::new(
        RetryConfig::adaptive()
            .max_attempts(2)
            .max_total_time(Duration::from_secs(1))
            .transient_backoff(MS)
            .build(),
    )
    .with_rate_limiter(Arc::new(limiter));
    let report = retrier
        .run_report(|| async { Err::<(), _>(TestError::Unavailable) })
        .await;
    assert_eq!((report.attempts, report.stop), (2, StopReason::MaxAttempts));
}
