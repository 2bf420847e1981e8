//! The adaptive state machine replayed against the AWS SDKs' published tables
//! (smithy-rs `client_rate_limiter.rs`, aws-sdk-go-v2 `adaptive_ratelimit_test.go`,
//! botocore `tests/unit/retries/test_{adaptive,throttling,bucket}.py`).

use std::time::Duration;

use crate::retry::adaptive::{Cubic, RateLimiterState, TokenBucket, TransmitRate, Tuning};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const TOLERANCE: f64 = 1e-9;

#[track_caller]
fn assert_close(actual: f64, expected: f64, what: &str) {
    assert!(
        (actual - expected).abs() <= TOLERANCE,
        "{what}: expected {expected}, got {actual} (off by {})",
        (actual - expected).abs()
    );
}

#[test]
fn cubic_successes_after_a_throttle_at_10_match_the_published_table() {
    // The published table (smithy-rs, aws-sdk-go-v2): w_max = 10, last throttle at t = 5.
    let cubic = Cubic::with_max_rate(Tuning::AWS, 10.0, 5.0);
    let expected = [
        (5.0, 7.0),
        (6.0, 9.64893600966),
        (7.0, 10.000030849917364),
        (8.0, 10.453284520772092),
        (9.0, 13.408697022224185),
        (10.0, 21.26626835427364),
        (11.0, 36.425998516920465),
    ];
    for (t, rate) in expected {
        assert_close(
            cubic.success(t),
            rate,
            &format!("calculated rate at t = {t}"),
        );
    }
}

#[test]
fn cubic_with_throttles_matches_the_published_table() {
    // Go v2's table: on a throttle the test sets w_max to the *reduced* rate, so it is replayed
    // here as a fresh calculator from that rate, exactly as the SDKs' tests do.
    let mut cubic = Cubic::with_max_rate(Tuning::AWS, 10.0, 5.0);
    let mut rate = 0.0;
    let table = [
        (false, 5.0, 7.0),
        (false, 6.0, 9.64893600966),
        (true, 7.0, 6.754255206761999),
        (true, 8.0, 4.727978644733399),
        (false, 9.0, 4.670125557970046),
        (false, 10.0, 4.770870456867401),
        (false, 11.0, 6.011819748005445),
        (false, 12.0, 10.792973431384178),
    ];
    for (throttled, t, expected) in table {
        if throttled {
            rate = Cubic::with_max_rate(Tuning::AWS, rate, t).throttle(rate, t);
            cubic = Cubic::with_max_rate(Tuning::AWS, rate, t);
        } else {
            rate = cubic.success(t);
        }
        assert_close(rate, expected, &format!("calculated rate at t = {t}"));
    }
}

#[test]
fn cubic_time_window_and_beta_decrease_match_botocore() {
    let cubic = Cubic::with_max_rate(Tuning::AWS, 10.0, 0.0);
    assert_close(cubic.time_window(), 1.9574338205844317, "K for w_max = 10");
    // Below w_max before K, at w_max at K, above it after.
    let k = cubic.time_window();
    for t in [k / 3.0, k / 2.0, k / 1.1] {
        assert!(cubic.success(t) <= 10.0);
    }
    assert_close(cubic.success(k), 10.0, "rate at K");
    for t in [k * 1.1, k * 2.0] {
        assert!(cubic.success(t) >= 10.0);
    }

    let mut cubic = Cubic::with_max_rate(Tuning::AWS, 10.0, 0.0);
    assert_close(
        cubic.throttle(8.0, 1.0),
        8.0 * 0.7,
        "rate after a throttle at 8",
    );
    assert_eq!(cubic.max_rate(), 8.0);
    assert_eq!(cubic.last_throttle(), 1.0);
    assert_close(cubic.time_window(), 1.8171205928321397, "K for w_max = 8");

    let beta_06 = Tuning {
        beta: 0.6,
        ..Tuning::AWS
    };
    let mut cubic = Cubic::with_max_rate(beta_06, 10.0, 0.0);
    assert_eq!(cubic.throttle(10.0, 1.0), 6.0);
    assert_close(cubic.success(1.0), 6.0, "rate right after the throttle");
}

#[test]
fn sending_rates_match_the_published_table() {
    // smithy-rs / Go v2 `test_client_sending_rates`: one response every 200 ms from t = 0.
    let mut state = RateLimiterState::with_tuning(Tuning::AWS, 0.0).unwrap();
    let table = [
        (false, 0.2, 0.0, 0.5),
        (false, 0.4, 0.0, 0.5),
        (false, 0.6, 4.800000000000001, 0.5),
        (false, 0.8, 4.800000000000001, 0.5),
        (false, 1.0, 4.16, 0.5),
        (false, 1.2, 4.16, 0.6912),
        (false, 1.4, 4.16, 1.0975999999999997),
        (false, 1.6, 5.632000000000001, 1.6384000000000005),
        (false, 1.8, 5.632000000000001, 2.3328),
        (true, 2.0, 4.3264, 3.0284799999999996),
        (false, 2.2, 4.3264, 3.48663917347026),
        (false, 2.4, 4.3264, 3.821874416040255),
        (false, 2.6, 5.66528, 4.053385727709987),
        (false, 2.8, 5.66528, 4.200373108479454),
        (false, 3.0, 4.333056, 4.282036558348658),
        (true, 3.2, 4.333056, 2.99742559084406),
        (false, 3.4, 4.333056, 3.4522263943863463),
    ];
    for (i, (throttled, t, measured, fill)) in table.into_iter().enumerate() {
        // The SDKs read the time as the sum of 200 ms `Duration`s, in seconds.
        let now = (Duration::from_millis(200) * (i as u32 + 1)).as_secs_f64();
        assert_close(now, t, "timestamp");
        state.on_response(now, throttled);
        assert_close(
            state.measured_transmit_rate(),
            measured,
            &format!("measured at {t}"),
        );
        assert_close(state.fill_rate(), fill, &format!("fill rate at {t}"));
        assert_eq!(state.is_enabled(), i >= 9, "enabled at {t}");
    }
}

#[test]
fn throttle_uses_the_measured_rate_before_the_bucket_is_on_and_the_min_after() {
    let mut state = RateLimiterState::with_tuning(Tuning::AWS, 0.0).unwrap();
    for i in 1..=40 {
        state.on_response(i as f64 * 0.05, false); // 20 per second for 2 s
    }
    let measured = state.measured_transmit_rate();
    state.on_response(2.0, true);
    assert_eq!(
        state.cubic().max_rate(),
        measured,
        "w_max: the measured rate"
    );
    assert_close(
        state.calculated_rate(),
        measured * 0.7,
        "rate after the first throttle",
    );

    // Enabled: w_max is min(measured, fill rate).
    let fill = state.fill_rate();
    state.on_response(2.01, true);
    let expected = state.measured_transmit_rate().min(fill);
    assert_eq!(state.cubic().max_rate(), expected);
    assert!(expected < measured);
}

#[test]
fn max_rate_is_capped_at_twice_the_measured_rate() {
    // botocore `test_max_rate_cant_exceed_20_percent_max`: CUBIC says far more than 2 x measured.
    let mut state = RateLimiterState::with_tuning(Tuning::AWS, 0.0).unwrap();
    for i in 1..=40 {
        state.on_response(i as f64 * 0.05, false); // 20 responses/s
    }
    state.on_response(2.01, true);
    for i in 41..=240 {
        state.on_response(i as f64 * 0.05, false); // still 20/s, 10 s after the throttle
    }
    let measured = state.measured_transmit_rate();
    assert!((19.0..=21.0).contains(&measured), "{measured}");
    assert!(
        state.calculated_rate() > 2.0 * measured,
        "CUBIC is far above 2 x measured"
    );
    assert_close(state.fill_rate(), 2.0 * measured, "fill rate cap");
    assert_close(
        state.max_capacity(),
        state.fill_rate(),
        "capacity follows the rate",
    );
}

#[test]
fn fill_rate_and_capacity_have_floors() {
    let mut bucket = TokenBucket::new(Tuning::AWS);
    bucket.set_rate(0.0, 0.1);
    assert_eq!(bucket.fill_rate(), 0.5);
    assert_eq!(bucket.max_capacity(), 1.0);
    bucket.set_rate(0.0, 0.7);
    assert_eq!((bucket.fill_rate(), bucket.max_capacity()), (0.7, 1.0));
    bucket.set_rate(0.0, 10.0);
    assert_eq!((bucket.fill_rate(), bucket.max_capacity()), (10.0, 10.0));
    let tuned = Tuning {
        min_fill_rate: 0.2,
        ..Tuning::AWS
    };
    let mut bucket = TokenBucket::new(tuned);
    bucket.set_rate(1.0, 0.1);
    assert_eq!((bucket.fill_rate(), bucket.max_capacity()), (0.2, 1.0));
}

#[test]
fn lowering_the_rate_clips_the_capacity_after_counting_tokens_at_the_old_rate() {
    let mut bucket = TokenBucket::new(Tuning::AWS);
    bucket.set_rate(0.0, 10.0);
    bucket.set_rate(0.5, 2.0); // 5 tokens accrued at 10/s, clipped to the new max of 2
    assert_eq!(bucket.capacity(), 2.0);
    // botocore `test_can_change_max_capacity_lower`: 1 request per second still goes at max 1.
    bucket.set_rate(5.0, 1.0);
    for t in 6..=10 {
        assert_eq!(bucket.try_take(t as f64), Ok(()));
    }
}

#[test]
fn bucket_blocks_when_empty_and_says_how_long() {
    // botocore `test_acquiring_blocks_when_capacity_reached`, 10 tokens/s.
    let mut bucket = TokenBucket::new(Tuning::AWS);
    bucket.set_rate(0.0, 10.0);
    assert_eq!(bucket.try_take(0.1), Ok(()));
    assert_eq!(bucket.capacity(), 0.0);
    let wait = bucket.try_take(0.15).unwrap_err();
    assert!(
        wait >= Duration::from_millis(50) && wait <= Duration::from_micros(50_001),
        "{wait:?}"
    );
    assert_eq!(bucket.try_take(0.2), Ok(()));
    assert!(bucket.capacity().abs() < 1e-12);
    assert_eq!(bucket.try_take(0.300001), Ok(()));
    // A clock read out of order adds nothing and removes nothing.
    let before = bucket.capacity();
    assert!(bucket.try_take(0.25).is_err());
    assert_eq!(bucket.capacity(), before);
}

#[test]
fn transmit_rate_matches_botocore() {
    let mut rate = TransmitRate::new(Tuning::AWS, 0.0);
    assert_eq!(rate.measured(), 0.0);
    assert_eq!(
        rate.record(1.0),
        0.8,
        "one response over one second, smoothed"
    );

    let mut rate = TransmitRate::new(Tuning::AWS, 0.0);
    for t in 1..=20 {
        rate.record(t as f64);
    }
    assert!((rate.measured() - 1.0).abs() < 1e-7, "constant 1 TPS");

    let mut rate = TransmitRate::new(Tuning::AWS, 0.0);
    for t in [1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0] {
        rate.record(t);
    }
    assert!((1.99..=2.0).contains(&rate.measured()));
    rate.record(14.0);
    assert!((0.1..=2.0).contains(&rate.measured()));

    let mut rate = TransmitRate::new(Tuning::AWS, 0.0);
    for t in [1.0, 1.0, 1.0, 2.0, 3.0] {
        rate.record(t);
    }
    assert!(rate.measured() >= 1.0, "several responses in one instant");
}

#[test]
fn state_is_off_until_the_first_throttle_and_transients_do_not_count_as_throttles() {
    let mut state = RateLimiterState::with_tuning(Tuning::AWS, 0.0).unwrap();
    for i in 0..1000 {
        let t = i as f64 * 0.001;
        assert_eq!(state.try_acquire(t), Ok(()));
        state.on_response(t, false);
    }
    assert!(!state.is_enabled());
    state.on_response(1.0, true);
    assert!(state.is_enabled());
}

#[test]
fn capacity_stays_within_zero_and_max_under_any_sequence() {
    let mut rng = SmallRng::seed_from_u64(0x5eed);
    for tuning in [
        Tuning::AWS,
        Tuning {
            beta: 0.9,
            scale_constant: 2.0,
            ..Tuning::AWS
        },
    ] {
        let mut state = RateLimiterState::with_tuning(tuning, 0.0).unwrap();
        let mut now = 0.0;
        for _ in 0..100_000 {
            now += rng.random_range(0.0..0.05);
            match rng.random_range(0..10) {
                0 => drop(state.on_response(now, true)),
                1..=4 => drop(state.on_response(now, false)),
                _ => {
                    let _ = state.try_acquire(now);
                }
            }
            let (c, max) = (state.capacity(), state.max_capacity());
            assert!(
                c >= 0.0 && c <= max,
                "capacity {c} outside [0, {max}] at {now}"
            );
            assert!(state.fill_rate() >= tuning.min_fill_rate);
            assert!(max >= tuning.min_capacity);
        }
    }
}

#[test]
fn steady_state_sits_at_its_plateau() {
    let state = RateLimiterState::steady_at_with_tuning(Tuning::AWS, 40.0, 3.0).unwrap();
    assert_close(state.cubic().success(3.0), 40.0, "CUBIC at the plateau");
    assert_eq!((state.fill_rate(), state.capacity()), (40.0, 40.0));
}

#[test]
fn tuning_validation_names_the_field() {
    assert!(Tuning::AWS.validate().is_ok());
    let cases = [
        (
            Tuning {
                scale_constant: 0.0,
                ..Tuning::AWS
            },
            "scale_constant",
        ),
        (
            Tuning {
                beta: 1.0,
                ..Tuning::AWS
            },
            "beta",
        ),
        (
            Tuning {
                smoothing: f64::NAN,
                ..Tuning::AWS
            },
            "smoothing",
        ),
        (
            Tuning {
                rate_bucket_width: -1.0,
                ..Tuning::AWS
            },
            "rate_bucket_width",
        ),
        (
            Tuning {
                max_rate_multiplier: 0.5,
                ..Tuning::AWS
            },
            "max_rate_multiplier",
        ),
        (
            Tuning {
                min_fill_rate: 0.0,
                ..Tuning::AWS
            },
            "min_fill_rate",
        ),
        (
            Tuning {
                min_capacity: 0.5,
                ..Tuning::AWS
            },
            "min_capacity",
        ),
        (
            Tuning {
                min_fill_rate: f64::INFINITY,
                ..Tuning::AWS
            },
            "min_fill_rate",
        ),
    ];
    for (tuning, field) in cases {
        let err = tuning.validate().unwrap_err();
        assert_eq!(err.field(), field);
        assert!(err.to_string().contains(field), "{err}");
    }
}

#[test]
fn a_steady_rate_must_be_finite_and_not_negative() {
    // Regression: NaN, negative and infinite rates were taken; after `steady_at(inf)` the
    // measured rate stayed infinite and the limiter never limited again.
    for rate in [
        f64::NAN,
        -1.0,
        -f64::MIN_POSITIVE,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ] {
        let err = RateLimiterState::steady_at(rate, 0.0).unwrap_err();
        assert!(err.rate().is_nan() || err.rate() == rate);
        assert!(
            err.to_string()
                .contains("finite number of requests per second")
        );
    }
    // 0 is the bucket's minimum; a huge finite rate is taken, and throttles cut it down to what
    // the client measures.
    assert_eq!(
        RateLimiterState::steady_at(0.0, 0.0).unwrap().fill_rate(),
        0.5
    );
    assert!(RateLimiterState::steady_at(f64::MAX, 0.0).is_ok());
    let mut state = RateLimiterState::steady_at(1e12, 0.0).unwrap();
    for i in 1..=200 {
        // 10 responses per second, every 20th throttled.
        state.on_response(f64::from(i) * 0.1, i % 20 == 0);
    }
    assert!(state.fill_rate() < 20.0, "{}", state.fill_rate());
    assert!(state.try_acquire(20.0).is_ok());
}

// Cold start: the one deviation from the SDKs (see `RateLimiterState::on_response`). Before a
// whole bucket of traffic has been measured, a throttle cuts to 0.7 x the rate the service was
// observed to admit, where the SDKs cut to the 0.5/s floor (their measured rate is still 0).

/// `successes` successful responses evenly spread over `(start, start + secs]`.
fn admitted(state: &mut RateLimiterState, start: f64, secs: f64, successes: u32) {
    for i in 1..=successes {
        state.on_response(start + secs * f64::from(i) / f64::from(successes), false);
    }
}

#[test]
fn an_early_throttle_cuts_to_beta_times_the_admitted_rate_not_to_the_floor() {
    let mut state = RateLimiterState::with_tuning(Tuning::AWS, 0.0).unwrap();
    admitted(&mut state, 0.0, 0.2, 100); // 500 successes/s
    assert_eq!(state.measured_transmit_rate(), 0.0, "no bucket closed yet");
    state.on_response(0.25, true);
    // 100 admitted over the 0.25 s since the bucket began: 400/s.
    assert_close(state.cubic().max_rate(), 400.0, "w_max: the admitted rate");
    assert_close(
        state.fill_rate(),
        0.7 * 400.0,
        "fill rate after the throttle",
    );
    assert!(state.is_enabled());
}

#[test]
fn an_early_throttle_before_any_success_cuts_from_the_rate_sent() {
    // Nothing admitted yet: the SDKs cut to the floor (0.5/s); the client sent one request
    // in the 0.05 s since its bucket began, so the cut is from 20/s.
    let mut state = RateLimiterState::with_tuning(Tuning::AWS, 0.0).unwrap();
    state.on_response(0.05, true);
    assert_close(state.cubic().max_rate(), 20.0, "w_max");
    assert_close(state.fill_rate(), 0.7 * 20.0, "fill rate");
    let mut sdk = RateLimiterState::with_tuning(Tuning::SDK, 0.0).unwrap();
    sdk.on_response(0.05, true);
    assert_eq!(sdk.fill_rate(), 0.5);
    // A throttle at the very instant the clock started has no rate to go by: the floor.
    let mut state = RateLimiterState::with_tuning(Tuning::AWS, 0.0).unwrap();
    state.on_response(0.0, true);
    assert_eq!(state.fill_rate(), 0.5);
}

#[test]
fn clients_throttled_before_any_success_start_where_the_others_do() {
    // Two clients of a fleet, ten requests each at t = 0 against one service: the first
    // client's ten are admitted (the service's burst), the second's throttled. Both are cut
    // from the rate they saw in their first round trip, so they start even; the SDKs' rule
    // (and ours before) put the second at the 0.5/s floor, behind for seconds.
    let mut admitted = RateLimiterState::new(0.0);
    let mut throttled = RateLimiterState::new(0.0);
    let (a, t) = (admitted.send_mark(), throttled.send_mark());
    for i in 0..10 {
        let now = 0.040 + 0.001 * f64::from(i);
        admitted.on_response_to_mark(now, a, false);
        throttled.on_response_to_mark(now, t, true);
    }
    admitted.on_response_to_mark(0.05, a, true);
    assert!(admitted.is_enabled() && throttled.is_enabled());
    let (x, y) = (admitted.fill_rate(), throttled.fill_rate());
    assert!(y > 0.8 * x && y < 1.2 * x, "{x} and {y}");
}

#[test]
fn early_throttles_answering_one_burst_do_not_compound() {
    let mut state = RateLimiterState::with_tuning(Tuning::AWS, 0.0).unwrap();
    admitted(&mut state, 0.0, 0.1, 50);
    // Fifty throttles come back at once: each cuts from the admitted rate, not from the last
    // cut (the SDKs, once on, would cut 0.7^50 times over).
    for _ in 0..50 {
        state.on_response(0.1, true);
    }
    assert_close(
        state.fill_rate(),
        0.7 * 50.0 / 0.1,
        "fill rate after 50 throttles",
    );
    // Later ones in the same window follow the admitted rate as it is observed.
    admitted(&mut state, 0.1, 0.3, 30);
    state.on_response(0.45, true);
    assert_close(state.fill_rate(), 0.7 * 80.0 / 0.45, "fill rate at 0.45 s");
}

#[test]
fn until_the_first_measurement_the_bucket_paces_without_bursts() {
    let mut state = RateLimiterState::with_tuning(Tuning::AWS, 0.0).unwrap();
    admitted(&mut state, 0.0, 0.2, 40);
    state.on_response(0.2, true); // 140/s
    assert_eq!(state.max_capacity(), 1.0, "one token at most");
    // Idle callers bank no tokens: after 0.2 s idle, one request goes, not 28.
    assert!(state.try_acquire(0.4).is_ok());
    assert!(state.try_acquire(0.4).is_err());
    // Once a bucket is measured, the capacity follows the rate as in the SDKs.
    state.on_response(0.55, false);
    assert!(state.measured_transmit_rate() > 0.0);
    assert_eq!(state.max_capacity(), state.fill_rate());
    assert!(state.max_capacity() > 1.0);
}

#[test]
fn an_idle_start_is_not_a_measurement() {
    // Client created at 0, first traffic 100 s later: the first response closes a bucket of
    // 100 s holding that response alone (the SDKs' measured rate: 0.8 x 1/100 req/s).
    let mut state = RateLimiterState::with_tuning(Tuning::AWS, 0.0).unwrap();
    admitted(&mut state, 100.0, 0.2, 20);
    assert_close(state.measured_transmit_rate(), 0.8 / 100.0, "idle trickle");
    state.on_response(100.25, true);
    // 20 admitted over the 0.25 s since the bucket of the first response began.
    assert_close(state.fill_rate(), 0.7 * 20.0 / 0.25, "fill rate");
}

#[test]
fn once_measured_a_throttle_cuts_as_in_the_sdks() {
    // The same early traffic, then one whole measured bucket: from there on the SDKs' rule,
    // min(measured, fill rate), and the throttles compound.
    let mut state = RateLimiterState::with_tuning(Tuning::AWS, 0.0).unwrap();
    admitted(&mut state, 0.0, 0.2, 40);
    state.on_response(0.2, true);
    admitted(&mut state, 0.2, 0.5, 60); // the bucket [0, 0.5) closes at 0.5
    let (measured, fill) = (state.measured_transmit_rate(), state.fill_rate());
    assert!(measured > 0.0);
    state.on_response(0.9, true);
    let w_max = state.measured_transmit_rate().min(fill);
    assert_close(state.cubic().max_rate(), w_max, "w_max");
    let first_cut = state.fill_rate();
    state.on_response(0.9, true);
    assert!(
        state.fill_rate() < first_cut,
        "throttles compound once measured"
    );
}
