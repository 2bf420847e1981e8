//! Properties of the spec's delay formula over the whole input space.

use std::time::Duration;

use proptest::prelude::*;
use waiter_runtime::waiter::delay::compute_delay;

fn duration(max_secs: u64) -> impl Strategy<Value = Duration> {
    (0..=max_secs, 0u32..1_000_000_000).prop_map(|(s, n)| Duration::new(s, n))
}

proptest! {
    /// The delay is never more than the time left, never below `minDelay` unless only less
    /// is left, and within `[minDelay, maxDelay]` unless it is the final sleep to the deadline.
    #[test]
    fn delay_stays_within_bounds(
        attempt in 1u32..=u32::MAX,
        min in duration(600).prop_filter("min > 0", |d| !d.is_zero()),
        extra in duration(3_600),
        remaining in duration(100_000),
        pick in 0.0f64..=1.0,
    ) {
        let max = min + extra;
        let mut seen = None;
        let delay = compute_delay(attempt, min, max, remaining, |low, high| {
            seen = Some((low, high));
            low + (high - low).mul_f64(pick)
        });
        let (low, high) = seen.unwrap();
        prop_assert_eq!(low, min);
        prop_assert!(high >= min && high <= max);
        prop_assert!(delay <= remaining.max(high));
        if delay == remaining {
            prop_assert!(remaining.saturating_sub(low + (high - low).mul_f64(pick)) <= min);
        } else {
            prop_assert!(delay >= min && delay <= max);
            prop_assert!(remaining - delay > min);
        }
    }

    /// The ceiling doubles from `minDelay` until it reaches `maxDelay`, then stays there.
    #[test]
    fn ceiling_is_min_times_two_to_the_attempt_capped(attempt in 1u32..80, min_ms in 1u64..10_000, factor in 1u64..1_000) {
        let (min, max) = (Duration::from_millis(min_ms), Duration::from_millis(min_ms * factor));
        let mut high = Duration::ZERO;
        compute_delay(attempt, min, max, Duration::MAX, |_, h| { high = h; h });
        let doubled = 2u128.checked_pow(attempt - 1).and_then(|f| f.checked_mul(min_ms as u128));
        let expected = doubled.map_or(max, |ms| Duration::from_millis(ms.min(max.as_millis()) as u64));
        prop_assert_eq!(high, expected);
    }
}
