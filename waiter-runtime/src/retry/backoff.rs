//! Exponential backoff with full jitter. [`bound`] is the crate's one exponential backoff: the
//! retrier's (`transient_backoff` or `throttling_backoff`, `max_backoff`) and the waiter's (`minDelay`, `maxDelay`).

use std::time::Duration;

/// `min(initial * 2^(attempt-1), max)`, saturating for any attempt.
pub(crate) fn bound(attempt: u32, initial: Duration, max: Duration) -> Duration {
    let doublings = attempt.saturating_sub(1);
    let nanos = 1u128
        .checked_shl(doublings)
        .filter(|_| doublings < 128)
        .and_then(|factor| initial.as_nanos().checked_mul(factor));
    match nanos {
        Some(nanos) if nanos < max.as_nanos() => from_nanos(nanos),
        Some(_) => max,
        None if initial.is_zero() => Duration::ZERO,
        None => max,
    }
}

fn from_nanos(nanos: u128) -> Duration {
    const NANOS_PER_SEC: u128 = 1_000_000_000;
    // `nanos` is below some `Duration`'s nanos, so the seconds fit in a u64.
    Duration::new(
        (nanos / NANOS_PER_SEC) as u64,
        (nanos % NANOS_PER_SEC) as u32,
    )
}

/// `random * bound`, for `random` in `[0, 1)`; values outside are clamped, so the result is
/// always within `[0, bound]`.
pub(crate) fn jittered(bound: Duration, random: f64) -> Duration {
    let random = if random.is_nan() {
        0.0
    } else {
        random.clamp(0.0, 1.0)
    };
    // `Duration::mul_f64` panics when the product rounds past `Duration::MAX` (a bound near
    // 2^64 s times a number near 1): such a product is the bound.
    Duration::try_from_secs_f64(bound.as_secs_f64() * random).map_or(bound, |d| d.min(bound))
}

/// A random number in `[0, 1)`, from a small per-thread generator seeded from the OS once.
///
/// Jitter needs spread, not secrecy: `SmallRng` (no ChaCha, no `rand_chacha` in the user's
/// build) is as fast as `rand::random` and keeps the runtime's dependencies lean.
pub(crate) fn random() -> f64 {
    use std::cell::RefCell;

    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    thread_local! {
        // An OS without a random source still gets jitter (seeded from the clock), not a panic.
        static JITTER: RefCell<SmallRng> = RefCell::new(SmallRng::try_from_os_rng().unwrap_or_else(|_| {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            SmallRng::seed_from_u64(now.map_or(0, |d| d.as_nanos() as u64))
        }));
    }
    JITTER.with(|rng| rng.borrow_mut().random::<f64>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bound_doubles_then_caps() {
        let s = Duration::from_secs;
        let b: Vec<_> = (1..=7).map(|a| bound(a, s(1), s(20))).collect();
        assert_eq!(b, [s(1), s(2), s(4), s(8), s(16), s(20), s(20)]);
        assert_eq!(bound(0, s(1), s(20)), s(1));
        assert_eq!(bound(u32::MAX, s(1), s(20)), s(20));
        assert_eq!(bound(40, Duration::ZERO, s(20)), Duration::ZERO);
        assert_eq!(
            bound(33, Duration::from_nanos(1), s(20)),
            Duration::from_nanos(1 << 32)
        );
        assert_eq!(bound(36, Duration::from_nanos(1), s(20)), s(20));
        assert_eq!(bound(200, s(1), Duration::MAX), Duration::MAX);
    }

    #[test]
    fn jitter_stays_in_bounds_for_odd_inputs() {
        let b = Duration::from_secs(4);
        assert_eq!(jittered(b, 0.0), Duration::ZERO);
        assert_eq!(jittered(b, 0.5), Duration::from_secs(2));
        assert_eq!(jittered(b, f64::NAN), Duration::ZERO);
        assert_eq!(jittered(b, 7.0), b);
        assert_eq!(jittered(b, -1.0), Duration::ZERO);
        // Regression: a bound near 2^64 s times a number near 1 rounds past `Duration::MAX`.
        for bound in [Duration::MAX, Duration::from_secs(u64::MAX - 1024)] {
            for random in [1.0, 0.999_999_999_999_999_9, 7.0] {
                assert!(jittered(bound, random) <= bound, "{bound:?} x {random}");
            }
            assert_eq!(jittered(bound, 0.0), Duration::ZERO);
        }
    }
}
