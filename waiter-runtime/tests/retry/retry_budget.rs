//! `RetryBudget` through the retrier (issue 36): Finagle's budget (a call deposits, a retry
//! withdraws, both leave a sliding window; a floor of retries a second), alone or alongside the
//! AWS quota. Paused clock.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::time::Instant;
use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState};
use waiter_runtime::retry::{
    Jitter, Retrier, RetryBudget, RetryConfig, RetryQuota, RunReport, StopReason,
};

use crate::support::TestError;

const MS: Duration = Duration::from_millis(1);

/// Two attempts, no backoff: a call makes at most one retry, at once.
fn config() -> RetryConfig {
    RetryConfig::standard()
        .max_attempts(2)
        .transient_backoff(Duration::ZERO)
        .jitter(Jitter::None)
        .build()
}

/// The budget alone (an unlimited quota).
fn budget_only(budget: &RetryBudget) -> Retrier {
    Retrier::new(config())
        .with_budget(budget.clone())
        .with_quota(RetryQuota::unlimited())
}

async fn call(retrier: &Retrier, failing: &AtomicBool) -> RunReport<(), TestError> {
    retrier
        .run_report(|| async {
            if failing.load(Ordering::Relaxed) {
                Err(TestError::Unavailable)
            } else {
                Ok(())
            }
        })
        .await
}

/// 50 calls a second against a service failing every request, for a minute: the budget holds
/// the retries to 20 % of the calls plus the floor of 10 a second, exactly (the window's
/// slots are whole seconds from the budget's creation, and the demand, one retry per call, is
/// above what the budget allows in every window). Then the service recovers: calls stop
/// retrying, and after a window of successes the budget is whole again.
#[tokio::test(start_paused = true)]
async fn under_a_failing_service_retries_are_a_fifth_of_the_calls_plus_the_floor() {
    let budget = RetryBudget::default();
    let retrier = budget_only(&budget);
    let failing = AtomicBool::new(true);
    let start = Instant::now();
    let (mut calls, mut attempts, mut refused) = (0u64, 0u64, 0u64);
    for k in 0..3000 {
        tokio::time::sleep_until(start + 20 * MS * k).await;
        let report = call(&retrier, &failing).await;
        calls += 1;
        attempts += u64::from(report.attempts);
        match report.stop {
            StopReason::RetryBudgetExhausted => refused += 1,
            stop => assert_eq!(stop, StopReason::MaxAttempts),
        }
    }
    let retries = attempts - calls;
    let seconds = 60;
    assert_eq!(retries, calls / 5 + 10 * seconds, "{calls} calls");
    assert_eq!(retries, 1200);
    assert_eq!(refused, calls - retries);

    // The service recovers: 10 s of calls that succeed at once.
    failing.store(false, Ordering::Relaxed);
    for k in 3000..3500 {
        tokio::time::sleep_until(start + 20 * MS * k).await;
        let report = call(&retrier, &failing).await;
        assert_eq!((report.attempts, report.stop), (1, StopReason::Succeeded));
    }
    // At 70 s every withdrawal has left the window (its ten slots are the seconds from 61 s
    // to this one, which has no call yet): the floor and 450 calls, (500 + 450) / 5 units a
    // retry.
    tokio::time::sleep_until(start + 20 * MS * 3500).await;
    assert_eq!(budget.available(), (500 + 450) / 5);
    failing.store(true, Ordering::Relaxed);
    let report = call(&retrier, &failing).await;
    assert_eq!((report.attempts, report.stop), (2, StopReason::MaxAttempts));
}

#[tokio::test(start_paused = true)]
async fn the_budget_is_asked_before_the_quota_and_gets_back_what_the_quota_refuses() {
    let failing = AtomicBool::new(true);
    // The budget allows, the quota refuses: the budget gets its retry back.
    let budget = RetryBudget::default();
    let empty = RetryQuota::builder().capacity(0).build();
    let retrier = Retrier::new(config())
        .with_budget(budget.clone())
        .with_quota(empty);
    let report = call(&retrier, &failing).await;
    assert!(
        matches!(report.stop, StopReason::QuotaExhausted(_)),
        "{:?}",
        report.stop
    );
    assert_eq!(
        budget.available(),
        100,
        "the floor (500 units) and a call (1 unit)"
    );

    // The budget refuses: the quota is not asked, nothing is taken from it.
    let none = RetryBudget::new(0.0, 0, Duration::from_secs(10)).unwrap();
    let retrier = Retrier::new(config()).with_budget(none);
    let report = call(&retrier, &failing).await;
    assert_eq!(
        (report.attempts, report.stop),
        (1, StopReason::RetryBudgetExhausted)
    );
    assert_eq!(retrier.quota().available(), retrier.quota().capacity());
    assert_eq!(report.tokens_taken, 0);

    // Both allow: the retry takes from both.
    let budget = RetryBudget::default();
    let retrier = Retrier::new(config()).with_budget(budget.clone());
    let report = call(&retrier, &failing).await;
    assert_eq!((report.attempts, report.tokens_taken), (2, 14));
    assert_eq!(budget.available(), 99);
}

#[tokio::test(start_paused = true)]
async fn clones_of_the_retrier_share_the_budget() {
    let budget = RetryBudget::new(0.0, 1, Duration::from_secs(2)).unwrap();
    let retrier = budget_only(&budget);
    let clone = retrier.clone();
    assert!(clone.budget().unwrap().shares_budget_with(&budget));
    let failing = AtomicBool::new(true);
    assert_eq!(call(&retrier, &failing).await.attempts, 2);
    assert_eq!(call(&clone, &failing).await.attempts, 2);
    // Two retries in the 2 s window: the floor is spent, for both.
    assert_eq!(
        call(&retrier, &failing).await.stop,
        StopReason::RetryBudgetExhausted
    );
    assert_eq!(
        call(&clone, &failing).await.stop,
        StopReason::RetryBudgetExhausted
    );
}

#[tokio::test(start_paused = true)]
async fn a_long_polling_call_refused_by_the_budget_backs_off_once() {
    let none = RetryBudget::new(0.0, 0, Duration::from_secs(10)).unwrap();
    let retrier = Retrier::new(
        RetryConfig::standard()
            .jitter(Jitter::None)
            .transient_backoff(50 * MS)
            .build(),
    )
    .with_budget(none);
    let start = Instant::now();
    let report = retrier
        .customize()
        .long_polling(true)
        .run_report(|| async { Err::<(), _>(TestError::Unavailable) })
        .await;
    assert_eq!(report.stop, StopReason::RetryBudgetExhausted);
    assert_eq!(start.elapsed(), 50 * MS);
}

/// A retry whose rate-limiter token would come past the time budget is not made: its
/// withdrawal goes back to the budget, as its quota cost goes back to the quota.
#[tokio::test(start_paused = true)]
async fn a_retry_not_made_for_the_rate_limiter_gives_its_withdrawal_back() {
    let limiter = ClientRateLimiter::with_state(RateLimiterState::steady_at(1.0, 0.0).unwrap());
    while limiter.try_acquire() {}
    let budget = RetryBudget::default();
    let retrier = Retrier::new(
        RetryConfig::adaptive()
            .max_attempts(2)
            .max_total_time(200 * MS)
            .transient_backoff(MS)
            .build(),
    )
    .with_rate_limiter(Arc::new(limiter))
    .with_budget(budget.clone());
    let report = retrier
        .run_report(|| async { Err::<(), _>(TestError::Unavailable) })
        .await;
    assert_eq!(
        (report.attempts, report.stop),
        (1, StopReason::TimeBudgetExhausted)
    );
    assert_eq!(
        budget.available(),
        100,
        "the floor and the call's deposit, whole"
    );
}
