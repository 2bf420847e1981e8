//! The retrier and its configuration at the edges of their ranges: the longest durations, a
//! server's absurd retry-after hint, a call taking more quota tokens than fit in a `u32`.
//! Regressions: each of these panicked (unchecked `Instant + Duration`, `Duration::mul_f64`,
//! `u32` addition).

mod retry_support;

use std::time::Duration;

use retry_support::{Script, TestError};
use waiter_runtime::retry::hint::parse_retry_after;
use waiter_runtime::retry::{Jitter, Retrier, RetryConfig, RetryQuota, StopReason};

#[tokio::test(start_paused = true)]
async fn the_longest_time_budget_is_no_budget() {
    let script = Script::new([
        Err(TestError::Unavailable),
        Err(TestError::Unavailable),
        Ok(1),
    ]);
    let retrier = Retrier::new(
        RetryConfig::standard()
            .max_total_time(Duration::MAX)
            .initial_backoff(Duration::from_millis(10))
            .build(),
    );
    let report = retrier.run_report(|| script.call()).await;
    assert_eq!((report.attempts, report.result), (3, Ok(1)));
    // `run` takes the fast path for the first try, which reads the start time itself.
    let script = Script::new([Err(TestError::Unavailable), Ok(2)]);
    assert_eq!(retrier.run(|| script.call()).await, Ok(2));
}

#[tokio::test(start_paused = true)]
async fn an_absurd_retry_after_hint_ends_past_any_time_budget() {
    let hint = parse_retry_after("99999999999999999999", std::time::SystemTime::now()).unwrap();
    for budget in [
        Duration::ZERO,
        Duration::from_secs(60),
        Duration::from_secs(1 << 40),
    ] {
        let script = Script::new([Err(TestError::UnavailableAfter(hint)), Ok(1)]);
        let retrier = Retrier::new(
            RetryConfig::standard()
                .max_backoff(Duration::MAX)
                .max_total_time(budget)
                .build(),
        );
        let report = retrier.run_report(|| script.call()).await;
        assert_eq!(report.attempts, 1, "budget {budget:?}");
        assert_eq!(
            report.stop,
            StopReason::TimeBudgetExhausted,
            "budget {budget:?}"
        );
    }
    // The longest budget is no budget: the retrier waits as told (tokio's timers stop at about
    // 30 years, a paused clock gets there at once) and retries.
    let script = Script::new([Err(TestError::UnavailableAfter(hint)), Ok(1)]);
    let retrier = Retrier::new(
        RetryConfig::standard()
            .max_backoff(Duration::MAX)
            .max_total_time(Duration::MAX)
            .build(),
    );
    let report = retrier.run_report(|| script.call()).await;
    assert_eq!((report.attempts, report.result), (2, Ok(1)));
}

#[tokio::test(start_paused = true)]
async fn the_tokens_a_call_takes_are_counted_past_u32_max() {
    // Every attempt refills the quota (as other calls' successes would), so every retry can take
    // the whole of it.
    let quota = RetryQuota::builder()
        .capacity(u32::MAX)
        .retry_cost(u32::MAX)
        .success_reward(u32::MAX)
        .build();
    let retrier = Retrier::new(
        RetryConfig::standard()
            .max_attempts(4)
            .initial_backoff(Duration::ZERO)
            .build(),
    )
    .with_quota(quota.clone());
    let report = retrier
        .run_report(|| {
            let _ = quota.acquire().success();
            async { Err::<(), _>(TestError::Unavailable) }
        })
        .await;
    assert_eq!(report.attempts, 4);
    assert_eq!(report.tokens_taken, 3 * u64::from(u32::MAX));
}

#[test]
fn delays_near_the_largest_duration_are_clamped_to_their_bound() {
    let near_max = [
        Duration::MAX,
        Duration::from_secs(u64::MAX - 1),
        Duration::from_secs(1 << 63),
    ];
    for bound in near_max {
        let config = RetryConfig::standard()
            .initial_backoff(bound)
            .max_backoff(bound)
            .build();
        for attempt in [1, 2, 64, u32::MAX] {
            for random in [0.0, 0.5, 0.999_999_999_999_999_9, 1.0, 2.0, f64::NAN] {
                let delay = config.delay(attempt, random, None);
                assert!(delay <= bound, "{bound:?} x {random}: {delay:?}");
            }
            assert_eq!(config.delay(attempt, 1.0, Some(Duration::MAX)), bound);
        }
        let fixed = RetryConfig::standard()
            .initial_backoff(bound)
            .max_backoff(bound)
            .jitter(Jitter::None)
            .build();
        assert_eq!(fixed.delay(3, 0.3, None), bound);
    }
}
