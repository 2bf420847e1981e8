//! Backoff on tokio's paused clock: exact delays without jitter (the transient and the
//! throttling base of retry behavior 2.1), bounds with full jitter, the server's retry-after
//! hint (2.1: followed within 5 s of the computed delay; 2.0: replacing it, bounded by
//! `max_backoff`), and a property test that delays stay within their bounds for any attempt.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::support::{Script, TestError};
use proptest::prelude::*;
use waiter_runtime::retry::{
    ErrorKind, Jitter, Retrier, RetryBehavior, RetryConfig, RetryQuota, StopReason,
};

const S: fn(u64) -> Duration = Duration::from_secs;

fn retrier(config: RetryConfig) -> Retrier {
    // A big quota, so only the backoff rules are exercised here.
    Retrier::new(config).with_quota(RetryQuota::builder().capacity(1_000_000).build())
}

const MS: fn(u64) -> Duration = Duration::from_millis;

#[tokio::test(start_paused = true)]
async fn without_jitter_throttles_double_from_1s_then_cap() {
    let config = RetryConfig::standard()
        .max_attempts(8)
        .max_backoff(S(20))
        .jitter(Jitter::None)
        .build();
    let script = Script::failing(TestError::Throttling);
    let report = retrier(config).run_report(|| script.call()).await;
    assert_eq!(report.attempts, 8);
    assert_eq!(report.stop, StopReason::MaxAttempts);
    assert_eq!(script.gaps(), [S(1), S(2), S(4), S(8), S(16), S(20), S(20)]);
}

#[tokio::test(start_paused = true)]
async fn without_jitter_transient_errors_double_from_50ms_in_2_1_and_1s_in_2_0() {
    let build = |behavior| {
        RetryConfig::standard()
            .behavior(behavior)
            .max_attempts(8)
            .max_backoff(S(2))
            .jitter(Jitter::None)
            .build()
    };
    for error in [TestError::Unavailable, TestError::Timeout] {
        let script = Script::failing(error.clone());
        retrier(build(RetryBehavior::V2_1))
            .run(|| script.call())
            .await
            .unwrap_err();
        // The cap (2 s) applies to the bound, before any jitter.
        let expected = [50, 100, 200, 400, 800, 1600, 2000].map(MS);
        assert_eq!(script.gaps(), expected, "{error:?}");
        let script = Script::failing(error.clone());
        retrier(build(RetryBehavior::V2_0))
            .run(|| script.call())
            .await
            .unwrap_err();
        assert_eq!(script.gaps(), [S(1), S(2), S(2), S(2), S(2), S(2), S(2)]);
    }
    // A throttle then a transient error: each retry takes the base of its own error.
    let script = Script::new([
        Err(TestError::Throttling),
        Err(TestError::Unavailable),
        Err(TestError::Throttling),
        Ok(1),
    ]);
    retrier(build(RetryBehavior::V2_1))
        .run(|| script.call())
        .await
        .unwrap();
    assert_eq!(script.gaps(), [S(1), MS(100), S(2)]);
}

#[tokio::test(start_paused = true)]
async fn no_delay_before_the_first_try() {
    let start = tokio::time::Instant::now();
    let script = Script::new([Ok(1)]);
    retrier(RetryConfig::default())
        .run(|| script.call())
        .await
        .unwrap();
    assert_eq!(start.elapsed(), Duration::ZERO);
}

#[tokio::test(start_paused = true)]
async fn full_jitter_delays_stay_below_each_attempts_bound() {
    let config = RetryConfig::standard()
        .max_attempts(7)
        .transient_backoff(Duration::from_millis(100))
        .throttling_backoff(Duration::from_millis(100))
        .max_backoff(S(2))
        .build();
    let bounds: Vec<Duration> = (1..7)
        .map(|a| config.backoff_bound(ErrorKind::ServerError, a))
        .collect();
    assert_eq!(
        bounds,
        [100, 200, 400, 800, 1600, 2000].map(Duration::from_millis),
        "bound = min(initial * 2^(attempt-1), max)"
    );
    let delays = Arc::new(Mutex::new(Vec::new()));
    let recorded = delays.clone();
    let retrier = retrier(config).on_retry(move |event| recorded.lock().unwrap().push(event.delay));
    let mut all_equal = true;
    for _ in 0..50 {
        delays.lock().unwrap().clear();
        let script = Script::failing(TestError::Unavailable);
        retrier.run(|| script.call()).await.unwrap_err();
        let delays = delays.lock().unwrap().clone();
        assert_eq!(delays.len(), 6);
        for ((delay, bound), gap) in delays.iter().zip(&bounds).zip(script.gaps()) {
            assert!(
                delay < bound,
                "delay {delay:?} not below its bound {bound:?}"
            );
            // tokio's timer has millisecond resolution: the sleep ends on the next tick.
            assert!(
                *delay <= gap && gap <= *delay + Duration::from_millis(1),
                "slept {gap:?} for {delay:?}"
            );
        }
        all_equal &= delays.iter().zip(&bounds).all(|(d, b)| d == b);
    }
    assert!(!all_equal, "jitter never moved a delay");
}

#[tokio::test(start_paused = true)]
async fn full_jitter_spreads_delays_over_the_whole_range() {
    let config = RetryConfig::standard()
        .max_attempts(2)
        .transient_backoff(S(1))
        .throttling_backoff(S(1))
        .build();
    let retrier = retrier(config);
    let mut low = false;
    let mut high = false;
    for _ in 0..200 {
        let script = Script::failing(TestError::Unavailable);
        retrier.run(|| script.call()).await.unwrap_err();
        let gap = script.gaps()[0];
        low |= gap < Duration::from_millis(250);
        high |= gap > Duration::from_millis(750);
    }
    assert!(
        low && high,
        "200 jittered delays should reach both ends of [0, 1s)"
    );
}

#[tokio::test(start_paused = true)]
async fn retry_after_is_followed_within_5s_of_the_computed_delay_in_2_1() {
    let config = RetryConfig::standard()
        .max_attempts(5)
        .jitter(Jitter::None)
        .build();
    let script = Script::new([
        // t = 50 ms: max(50 ms, min(1.5 s, 5.05 s)) = 1.5 s.
        Err(TestError::UnavailableAfter(MS(1500))),
        // t = 100 ms: the hint (10 ms) never shortens the computed delay.
        Err(TestError::UnavailableAfter(MS(10))),
        // t = 200 ms: an hour is cut to t + 5 s.
        Err(TestError::UnavailableAfter(S(3600))),
        Ok(7),
    ]);
    let out = retrier(config).run(|| script.call()).await;
    assert_eq!(out, Ok(7));
    assert_eq!(script.gaps(), [MS(1500), MS(100), MS(5200)]);
}

#[tokio::test(start_paused = true)]
async fn retry_after_with_jitter_stays_between_t_and_t_plus_5s() {
    let config = RetryConfig::standard().max_attempts(2).build();
    let delays = Arc::new(Mutex::new(Vec::new()));
    let recorded = delays.clone();
    let retrier = retrier(config).on_retry(move |event| recorded.lock().unwrap().push(event.delay));
    for _ in 0..100 {
        let script = Script::new([Err(TestError::UnavailableAfter(S(60))), Ok(1)]);
        retrier.run(|| script.call()).await.unwrap();
    }
    let delays = delays.lock().unwrap();
    // t in [0, 50 ms): the delay is t + 5 s.
    assert!(delays.iter().all(|d| (S(5)..S(5) + MS(50)).contains(d)));
    assert!(delays.iter().any(|d| *d != delays[0]), "jittered");
}

#[tokio::test(start_paused = true)]
async fn retry_after_replaces_the_computed_delay_in_2_0() {
    let config = RetryConfig::standard()
        .behavior(RetryBehavior::V2_0)
        .max_attempts(3)
        .jitter(Jitter::None)
        .build();
    let script = Script::new([
        Err(TestError::UnavailableAfter(Duration::from_millis(1500))),
        Err(TestError::UnavailableAfter(Duration::from_millis(10))),
        Ok(7),
    ]);
    let out = retrier(config).run(|| script.call()).await;
    assert_eq!(out, Ok(7));
    assert_eq!(
        script.gaps(),
        [Duration::from_millis(1500), Duration::from_millis(10)]
    );
}

#[tokio::test(start_paused = true)]
async fn retry_after_is_bounded_by_max_backoff_in_2_0() {
    let config = RetryConfig::standard()
        .behavior(RetryBehavior::V2_0)
        .max_attempts(2)
        .max_backoff(S(5))
        .build();
    let script = Script::new([Err(TestError::UnavailableAfter(S(3600))), Ok(1)]);
    retrier(config).run(|| script.call()).await.unwrap();
    assert_eq!(script.gaps(), [S(5)]);
}

#[tokio::test(start_paused = true)]
async fn zero_backoff_retries_immediately() {
    let config = RetryConfig::standard()
        .max_attempts(4)
        .transient_backoff(Duration::ZERO)
        .throttling_backoff(Duration::ZERO)
        .build();
    let script = Script::new([Err(TestError::Unavailable), Err(TestError::Timeout), Ok(3)]);
    assert_eq!(retrier(config).run(|| script.call()).await, Ok(3));
    assert_eq!(script.gaps(), [Duration::ZERO, Duration::ZERO]);
}

#[tokio::test(start_paused = true)]
async fn time_budget_stops_a_retry_that_would_end_past_it() {
    let config = RetryConfig::standard()
        .behavior(RetryBehavior::V2_0)
        .max_attempts(10)
        .jitter(Jitter::None)
        .max_total_time(Duration::from_millis(3500))
        .build();
    let script = Script::failing(TestError::Unavailable);
    let report = retrier(config).run_report(|| script.call()).await;
    // t=0 fails, waits 1 s; t=1 fails, waits 2 s; t=3 fails, a 4 s wait would end at 7 > 3.5.
    assert_eq!(report.attempts, 3);
    assert_eq!(report.stop, StopReason::TimeBudgetExhausted);
    assert_eq!(script.gaps(), [S(1), S(2)]);
    assert_eq!(report.result, Err(TestError::Unavailable));
}

#[tokio::test(start_paused = true)]
async fn time_budget_counts_the_time_attempts_take() {
    let config = RetryConfig::standard()
        .behavior(RetryBehavior::V2_0)
        .max_attempts(10)
        .jitter(Jitter::None)
        .max_total_time(S(10))
        .build();
    let attempts = std::sync::atomic::AtomicU32::new(0);
    let report = retrier(config)
        .run_report(|| async {
            attempts.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tokio::time::sleep(S(4)).await; // each attempt takes 4 s
            Err::<(), _>(TestError::Unavailable)
        })
        .await;
    // 0..4 attempt, 4..5 backoff, 5..9 attempt, then a 2 s backoff would end at 11 > 10.
    assert_eq!(report.attempts, 2);
    assert_eq!(report.stop, StopReason::TimeBudgetExhausted);
}

#[tokio::test(start_paused = true)]
async fn time_budget_counts_the_first_try_through_run_too() {
    // `run` makes the first try before entering the retry loop; the budget still starts
    // before it.
    let config = RetryConfig::standard()
        .behavior(RetryBehavior::V2_0)
        .max_attempts(10)
        .jitter(Jitter::None)
        .max_total_time(S(10))
        .build();
    let attempts = std::sync::atomic::AtomicU32::new(0);
    let result = retrier(config)
        .run(|| async {
            attempts.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            tokio::time::sleep(S(4)).await;
            Err::<(), _>(TestError::Unavailable)
        })
        .await;
    // 0..4 attempt, 4..5 backoff, 5..9 attempt, then a 2 s backoff would end at 11 > 10.
    assert_eq!(attempts.load(std::sync::atomic::Ordering::Relaxed), 2);
    assert_eq!(result, Err(TestError::Unavailable));
}

proptest! {
    #[test]
    fn delays_stay_within_bounds_for_any_attempt(
        attempt in 0u32..=u32::MAX,
        initial_ms in 0u64..=100_000,
        max_ms in 0u64..=1_000_000,
        random in 0.0f64..1.0,
        hint_ms in proptest::option::of(0u64..=10_000_000),
        throttle in any::<bool>(),
    ) {
        let (initial, max) = (Duration::from_millis(initial_ms), Duration::from_millis(max_ms));
        let kind = if throttle { ErrorKind::ThrottlingError } else { ErrorKind::TransientError };
        // The base of the other kind is something else: only `kind`'s applies.
        let other = initial + Duration::from_millis(7);
        let (transient, throttling) = if throttle { (other, initial) } else { (initial, other) };
        let build = |behavior, jitter| RetryConfig::standard()
            .behavior(behavior)
            .transient_backoff(transient)
            .throttling_backoff(throttling)
            .max_backoff(max)
            .jitter(jitter)
            .build();
        let config = build(RetryBehavior::V2_1, Jitter::Full);
        let bound = config.backoff_bound(kind, attempt);

        // The bound is min(initial * 2^(attempt-1), max), computed without overflow.
        let doublings = attempt.saturating_sub(1);
        let expected = if doublings >= 64 {
            if initial.is_zero() { Duration::ZERO } else { max }
        } else {
            let exact = (initial_ms as u128) << doublings;
            if exact >= max_ms as u128 { max } else { Duration::from_millis(exact as u64) }
        };
        prop_assert_eq!(bound, expected);
        prop_assert!(bound <= max);

        let hint = hint_ms.map(Duration::from_millis);
        let computed = config.delay(kind, attempt, random, None);
        prop_assert!(computed <= bound);
        // rand[0,1) * bound, up to Duration's nanosecond rounding.
        let exact = bound.as_secs_f64() * random;
        prop_assert!((computed.as_secs_f64() - exact).abs() <= 1e-6 * (1.0 + exact));
        if !bound.is_zero() && random < 0.999 {
            prop_assert!(computed < bound);
        }
        if let Some(hint) = hint {
            let delay = config.delay(kind, attempt, random, Some(hint));
            prop_assert_eq!(delay, hint.clamp(computed, computed + Duration::from_secs(5)));
            let v2_0 = build(RetryBehavior::V2_0, Jitter::Full);
            prop_assert_eq!(v2_0.delay(kind, attempt, random, Some(hint)), hint.min(max));
        }
        let no_jitter = build(RetryBehavior::V2_1, Jitter::None);
        prop_assert_eq!(no_jitter.delay(kind, attempt, random, None), bound);
    }
}
