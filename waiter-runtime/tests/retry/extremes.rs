//! The retrier and its configuration at the edges of their ranges: the longest durations, a
//! server's absurd retry-after hint, a call taking more quota tokens than fit in a `u32`.
//! Regressions: each of these panicked (unchecked `Instant + Duration`, `Duration::mul_f64`,
//! `u32` addition).

use std::time::Duration;

use crate::support::{Script, TestError};
use waiter_runtime::error_metadata::hint::{parse_amz_retry_after, parse_retry_after};
use waiter_runtime::retry::{
    ErrorKind, Jitter, Retrier, RetryBehavior, RetryConfig, RetryQuota, StopReason,
};

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
            .transient_backoff(Duration::from_millis(10))
            .throttling_backoff(Duration::from_millis(10))
            .build(),
    );
    let report = retrier.run_report(|| script.call()).await;
    assert_eq!((report.attempts, report.result), (3, Ok(1)));
    // `run` takes the fast path for the first try, which reads the start time itself.
    let script = Script::new([Err(TestError::Unavailable), Ok(2)]);
    assert_eq!(retrier.run(|| script.call()).await, Ok(2));
}

#[tokio::test(start_paused = true)]
async fn an_absurd_retry_after_hint_ends_past_any_time_budget_in_2_0() {
    // Retry behavior 2.0 follows the hint up to `max_backoff`; 2.1 never more than 5 s past
    // the computed delay (below).
    // `Retry-After` ignores an absurd hint; `x-amz-retry-after` keeps botocore's rule and
    // saturates it (some 584 million years).
    assert_eq!(
        parse_retry_after("99999999999999999999", std::time::SystemTime::now()),
        None
    );
    let hint = parse_amz_retry_after("99999999999999999999").unwrap();
    for budget in [
        Duration::ZERO,
        Duration::from_secs(60),
        Duration::from_secs(1 << 40),
    ] {
        let script = Script::new([Err(TestError::UnavailableAfter(hint)), Ok(1)]);
        let retrier = Retrier::new(
            RetryConfig::standard()
                .behavior(RetryBehavior::V2_0)
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
            .behavior(RetryBehavior::V2_0)
            .max_backoff(Duration::MAX)
            .max_total_time(Duration::MAX)
            .build(),
    );
    let report = retrier.run_report(|| script.call()).await;
    assert_eq!((report.attempts, report.result), (2, Ok(1)));
}

#[tokio::test(start_paused = true)]
async fn an_absurd_retry_after_hint_waits_at_most_5s_past_the_delay_in_2_1() {
    for header in ["99999999999999999999", "1000000000000000000000000000000"] {
        let hint = parse_amz_retry_after(header).unwrap();
        let script = Script::new([Err(TestError::UnavailableAfter(hint)), Ok(1)]);
        let retrier = Retrier::new(
            RetryConfig::standard()
                .jitter(Jitter::None)
                .max_total_time(Duration::from_secs(60))
                .build(),
        );
        let report = retrier.run_report(|| script.call()).await;
        assert_eq!((report.attempts, report.result), (2, Ok(1)), "{header}");
        assert_eq!(script.gaps(), [Duration::from_millis(5050)], "{header}");
    }
    // Beyond a float's range botocore ignores the header, and so do we: the computed delay.
    let huge = "9".repeat(400);
    assert_eq!(parse_amz_retry_after(&huge), None);
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
            .transient_backoff(Duration::ZERO)
            .throttling_backoff(Duration::ZERO)
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
            .transient_backoff(bound)
            .throttling_backoff(bound)
            .max_backoff(bound)
            .build();
        let v2_0 = RetryConfig::standard()
            .behavior(RetryBehavior::V2_0)
            .transient_backoff(bound)
            .max_backoff(bound)
            .build();
        for attempt in [1, 2, 64, u32::MAX] {
            for kind in [ErrorKind::TransientError, ErrorKind::ThrottlingError] {
                for random in [0.0, 0.5, 0.999_999_999_999_999_9, 1.0, 2.0, f64::NAN] {
                    let delay = config.delay(kind, attempt, random, None);
                    assert!(delay <= bound, "{bound:?} x {random}: {delay:?}");
                    // 2.1: a hint is followed up to 5 s past the computed delay, saturating.
                    let hinted = config.delay(kind, attempt, random, Some(Duration::MAX));
                    assert!(hinted >= delay, "{bound:?} x {random}: {hinted:?}");
                    assert_eq!(hinted, delay.saturating_add(Duration::from_secs(5)));
                }
            }
            assert_eq!(
                v2_0.delay(ErrorKind::TransientError, attempt, 1.0, Some(Duration::MAX)),
                bound
            );
        }
        let fixed = RetryConfig::standard()
            .transient_backoff(bound)
            .throttling_backoff(bound)
            .max_backoff(bound)
            .jitter(Jitter::None)
            .build();
        assert_eq!(fixed.delay(ErrorKind::ServerError, 3, 0.3, None), bound);
    }
}

proptest::proptest! {
    /// Any `x-amz-retry-after` value: never a panic; whole milliseconds are read as botocore
    /// reads them (Python's `int()`), negatives ignored.
    #[test]
    fn any_x_amz_retry_after_value_is_read_or_ignored_never_a_panic(
        junk in ".{0,40}",
        n in 0u64..=u64::MAX,
        pad in "[ \t]{0,3}",
    ) {
        let _ = parse_amz_retry_after(&junk);
        let ms = Some(Duration::from_millis(n));
        proptest::prop_assert_eq!(parse_amz_retry_after(&format!("{pad}{n}{pad}")), ms);
        proptest::prop_assert_eq!(parse_amz_retry_after(&format!("+{n}")), ms);
        let negative = parse_amz_retry_after(&format!("-{n}"));
        proptest::prop_assert_eq!(negative, (n == 0).then_some(Duration::ZERO));
        proptest::prop_assert_eq!(parse_amz_retry_after(&format!("{n}.5")), None);
        proptest::prop_assert_eq!(parse_amz_retry_after(&format!("{n}ms")), None);
    }
}
