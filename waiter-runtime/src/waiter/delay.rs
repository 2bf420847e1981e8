//! The delay between two polls: exponential backoff with jitter, exactly as the Smithy spec,
//! and the head start the waiter gives its last poll.
//!
//! ```text
//! attemptCeiling = (log(maxDelay / minDelay) / log(2)) + 1
//! if attempt > attemptCeiling: delay = maxDelay
//! else:                        delay = minDelay * 2 ** (attempt - 1)
//! delay = random(minDelay, delay)
//! if remainingTime - delay <= minDelay: delay = remainingTime
//! ```
//!
//! [`compute_delay`] is that formula, to the letter (the spec's example table is one of its
//! tests). `attemptCeiling` only exists in the spec to avoid overflow; [`compute_delay`]
//! reaches the same result with checked arithmetic (`min(maxDelay, minDelay * 2^(attempt-1))`,
//! the retrier's exponential backoff), so no attempt number and no [`Duration`] overflows.
//!
//! **One deviation from the spec's text, on purpose: the last poll's head start.** Taken
//! literally, `delay = remainingTime` starts the last poll exactly at the deadline, with no time
//! left to answer: a poll that does I/O is cancelled at its first `.await`, and a resource that
//! became ready before the deadline is reported as not ready. The [`Waiter`](super::Waiter)
//! starts that last poll early instead, by twice the longest poll it has seen so far, and never
//! by more than `minDelay` ([`last_poll_head_start`]), nor by less than 1 ms (the timer's
//! resolution): a request sent at the deadline cannot answer, so none is sent there. Polls
//! that take no time (the spec's example, which assumes "requests complete in 0 seconds") make
//! the spec table's last poll 1 ms before the deadline; a poll that takes 50 ms starts 100 ms
//! before the deadline and answers before it; a slow poll gets at most `minDelay`, which is
//! where aws-sdk-go-v2's `ComputeDelay` always starts it. After that last poll the wait ends.
//! When less time is left than that head start, no other poll is made. It never passes
//! `max_wait`.

use std::time::Duration;

use rand::Rng;

use crate::retry::backoff;

/// Computes the delay before retry number `attempt` (1 for the first retry).
///
/// `remaining` is the time left before the waiter's maximum wait is exceeded, and `random`
/// returns a value between its two arguments, both inclusive (the spec's `random`).
///
pub(crate) fn compute_delay(
    attempt: u32,
    min_delay: Duration,
    max_delay: Duration,
    remaining: Duration,
    random: impl FnOnce(Duration, Duration) -> Duration,
) -> Duration {
    let ceiling = backoff_ceiling(attempt, min_delay, max_delay);
    let delay = random(min_delay, ceiling).clamp(min_delay.min(ceiling), ceiling);
    if remaining.saturating_sub(delay) <= min_delay {
        remaining
    } else {
        delay
    }
}

/// The least head start of a last poll: the timer's resolution (tokio's is 1 ms), so that no
/// request leaves at the deadline, where it could not answer.
pub(crate) const MIN_HEAD_START: Duration = Duration::from_millis(1);

/// How much earlier than the deadline the waiter starts its last poll: twice the longest poll
/// seen so far, at most `min_delay`, at least [`MIN_HEAD_START`].
pub(crate) fn last_poll_head_start(min_delay: Duration, longest_poll: Duration) -> Duration {
    longest_poll
        .saturating_mul(2)
        .min(min_delay)
        .max(MIN_HEAD_START)
}

/// `min(maxDelay, minDelay * 2^(attempt - 1))`, without overflow for any input.
pub(crate) fn backoff_ceiling(attempt: u32, min_delay: Duration, max_delay: Duration) -> Duration {
    backoff::bound(attempt, min_delay, max_delay)
}

/// The generator of one jitter draw of a wait: seeded by the wait's seed and the draw's number
/// (0 for a set's first-poll spread, the retry number for a delay), so that a wait's delays
/// are a function of its seed, and a wait resumed from its checkpoint (which keeps the seed)
/// draws the delays the whole wait would have. SplitMix64: one multiply-xorshift per word.
pub(crate) fn draw(seed: u64, n: u32) -> Draw {
    Draw(seed ^ u64::from(n).wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// See [`draw`].
pub(crate) struct Draw(u64);

impl rand::RngCore for Draw {
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
}

/// The spec's `random(low, high)`, both bounds inclusive.
///
/// When both bounds are whole seconds (always the case for delays from a Smithy model) the
/// result is a whole number of seconds, as in the spec; otherwise (sub-second overrides) it is
/// uniform over the nanoseconds between them.
pub(crate) fn random_between<R: Rng + ?Sized>(
    rng: &mut R,
    low: Duration,
    high: Duration,
) -> Duration {
    if high <= low {
        return low;
    }
    if low.subsec_nanos() == 0 && high.subsec_nanos() == 0 {
        Duration::from_secs(rng.random_range(low.as_secs()..=high.as_secs()))
    } else {
        let span = u64::try_from((high - low).as_nanos()).unwrap_or(u64::MAX);
        low.saturating_add(Duration::from_nanos(rng.random_range(0..=span)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    const fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn ceiling_doubles_from_min_and_stops_at_max() {
        let c = |a| backoff_ceiling(a, secs(2), secs(120));
        assert_eq!(
            [1, 2, 3, 4, 5, 6, 7, 8].map(c),
            [2, 4, 8, 16, 32, 64, 120, 120].map(secs)
        );
    }

    #[test]
    fn ceiling_never_overflows() {
        for attempt in [0, 1, 31, 32, 33, 63, 64, 65, 1_000, u32::MAX] {
            let c = backoff_ceiling(attempt, Duration::MAX, Duration::MAX);
            assert_eq!(c, Duration::MAX);
            let c = backoff_ceiling(attempt, secs(1), Duration::MAX);
            assert!(c >= secs(1));
            assert!(backoff_ceiling(attempt, secs(2), secs(120)) <= secs(120));
        }
        let d = compute_delay(
            u32::MAX,
            Duration::MAX,
            Duration::MAX,
            Duration::MAX,
            |l, _| l,
        );
        assert_eq!(d, Duration::MAX);
        let d = compute_delay(u32::MAX, secs(1), Duration::MAX, Duration::MAX, |_, h| h);
        assert_eq!(d, Duration::MAX);
        assert_eq!(last_poll_head_start(secs(2), Duration::MAX), secs(2));
    }

    #[test]
    fn equal_min_and_max_is_linear_backoff() {
        for attempt in 1..50 {
            assert_eq!(
                compute_delay(attempt, secs(5), secs(5), secs(3600), |l, h| h.max(l)),
                secs(5)
            );
        }
    }

    #[test]
    fn close_to_the_deadline_the_delay_is_the_remaining_time() {
        // remaining - delay == minDelay: sleep until the deadline for one last poll.
        assert_eq!(
            compute_delay(1, secs(2), secs(120), secs(4), |l, _| l),
            secs(4)
        );
        // remaining - delay > minDelay: the computed delay stands.
        assert_eq!(
            compute_delay(1, secs(2), secs(120), secs(5), |l, _| l),
            secs(2)
        );
        // remaining shorter than the delay: the remaining time, never more.
        assert_eq!(
            compute_delay(7, secs(2), secs(120), secs(1), |_, h| h),
            secs(1)
        );
    }

    #[test]
    fn the_head_start_is_twice_the_longest_poll_at_most_min_delay() {
        let ms = Duration::from_millis;
        // Never less than the timer's resolution: no request leaves at the deadline.
        assert_eq!(last_poll_head_start(secs(2), Duration::ZERO), ms(1));
        assert_eq!(
            last_poll_head_start(secs(2), Duration::from_micros(100)),
            ms(1)
        );
        assert_eq!(last_poll_head_start(secs(2), ms(50)), ms(100));
        assert_eq!(last_poll_head_start(secs(2), ms(999)), ms(1998));
        assert_eq!(last_poll_head_start(secs(2), ms(1001)), secs(2));
        assert_eq!(last_poll_head_start(Duration::ZERO, ms(50)), ms(1));
    }

    /// The spec's example table (defaults, maxWaitTime 300, requests taking 0 s), to the letter.
    #[test]
    fn reproduces_the_spec_table() {
        let picks = [2, 3, 6, 6, 22, 62, 43, 24, 71, 42, 9, 6, 4];
        let ceilings = [2, 4, 8, 16, 32, 64, 120, 120, 120, 120, 120, 120, 120];
        let expected_cumulative = [2, 5, 11, 17, 39, 101, 144, 168, 239, 281, 290, 296, 300];
        let mut elapsed = secs(0);
        for (i, attempt) in (1..=13u32).enumerate() {
            let remaining = secs(300) - elapsed;
            let delay = compute_delay(attempt, secs(2), secs(120), remaining, |low, high| {
                assert_eq!(
                    (low, high),
                    (secs(2), secs(ceilings[i])),
                    "attempt {attempt}"
                );
                secs(picks[i])
            });
            elapsed += delay;
            assert_eq!(elapsed, secs(expected_cumulative[i]), "attempt {attempt}");
        }
        // Polls that take no time get the least head start: the last poll is at 299.999 s,
        // a request at 300 s could not answer.
        assert_eq!(
            last_poll_head_start(secs(2), Duration::ZERO),
            Duration::from_millis(1)
        );
    }

    #[test]
    fn random_is_inclusive_and_whole_seconds_for_whole_bounds() {
        let mut rng = SmallRng::seed_from_u64(7);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..1_000 {
            let d = random_between(&mut rng, secs(2), secs(4));
            assert_eq!(d.subsec_nanos(), 0);
            seen.insert(d.as_secs());
        }
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), [2, 3, 4]);
    }

    #[test]
    fn draws_are_a_function_of_the_seed_and_the_number() {
        let delay = |seed, n| random_between(&mut draw(seed, n), secs(1), secs(1_000));
        assert_eq!(delay(7, 3), delay(7, 3));
        let by_number: std::collections::BTreeSet<_> = (1..50).map(|n| delay(7, n)).collect();
        let by_seed: std::collections::BTreeSet<_> = (1..50).map(|seed| delay(seed, 3)).collect();
        assert!(
            by_number.len() > 40 && by_seed.len() > 40,
            "{by_number:?} {by_seed:?}"
        );
    }

    #[test]
    fn random_supports_sub_second_bounds() {
        let mut rng = SmallRng::seed_from_u64(7);
        let (low, high) = (Duration::from_millis(10), Duration::from_millis(20));
        for _ in 0..1_000 {
            let d = random_between(&mut rng, low, high);
            assert!(low <= d && d <= high);
        }
        assert_eq!(random_between(&mut rng, high, low), high);
    }
    #[test]
    fn retry_5_with_the_defaults_has_a_32_s_ceiling() {
        let delay = compute_delay(5, secs(2), secs(120), secs(283), |low, high| {
            assert_eq!((low, high), (secs(2), secs(32)));
            secs(22)
        });
        assert_eq!(delay, secs(22));
        // Close to the deadline the spec sleeps until it, for one last poll.
        assert_eq!(
            compute_delay(13, secs(2), secs(120), secs(4), |low, _| low),
            secs(4)
        );
    }

    #[test]
    fn a_slow_poll_gets_a_head_start_of_min_delay_as_in_aws_sdk_go_v2() {
        let ms = Duration::from_millis;
        assert_eq!(last_poll_head_start(ms(2000), ms(5000)), ms(2000));
    }

    fn duration(max_secs: u64) -> impl Strategy<Value = Duration> {
        (0..=max_secs, 0u32..1_000_000_000).prop_map(|(s, n)| Duration::new(s, n))
    }

    // Properties of the spec's delay formula over the whole input space (regressions in
    // `waiter-runtime/proptest-regressions/waiter/delay.txt`, proptest's place for unit tests).
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
}
