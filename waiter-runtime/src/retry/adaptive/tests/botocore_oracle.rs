//! Adaptive retry against botocore as oracle (its adaptive classes are the same in 1.43 and
//! 1.44): random sequences recorded from botocore 1.43's own `CubicCalculator`, `RateClocker`,
//! `TokenBucket` and `ClientRateLimiter` on a fake clock (`waiter-runtime/tests/support/botocore/gen_botocore_oracle.py`, fixture
//! `waiter-runtime/tests/support/botocore/botocore_adaptive.json`),
//! replayed through our explicit-time types and compared step by step, floats to 1e-9 relative
//! (1e-12 absolute near zero, for the tokens left after a take).
//!
//! Our one documented deviation (the `retry::adaptive` module docs, BENCHMARKS "Adaptive retry"): before
//! the transmit rate is first measured, a throttle cuts the rate to `0.7 x` the rate the
//! service was seen to admit, where the SDKs cut it from the measured rate (0, or an idle
//! start's trickle) to the 0.5/s floor. `warm` sequences have no throttle before that first
//! measurement and must match botocore at every step from the first measurement on; `cold`
//! ones have one, and the deviation is asserted where it applies. With `ColdStart::Sdk`
//! (`Tuning::SDK`) there is no deviation: every sequence matches from the first response.
//! The state is built with `Tuning::AWS`: the SDKs' algorithm with our cold start and none of
//! the default's other mechanisms (one cut per congestion event, bursts of 50 ms), which part
//! from botocore by design.

use crate::retry::adaptive::{Cubic, RateLimiterState, TokenBucket, TransmitRate, Tuning};

use super::botocore_fixture::{
    Step, acquire_like_botocore, assert_close, assert_same_state, close, f, fixture, seqs, steps,
};

#[test]
fn cubic_matches_botocore_cubic_calculator() {
    let fixture = fixture();
    let mut compared = 0;
    for (n, seq) in seqs(&fixture, "cubic").iter().enumerate() {
        let mut cubic = Cubic::with_max_rate(Tuning::AWS, f(&seq["w0"]), f(&seq["t0"]));
        for (i, step) in steps(seq).iter().enumerate() {
            let what = format!("cubic sequence {n} step {i}");
            let t = f(&step[1]);
            let ours = match step[0].as_str() {
                Some("S") => cubic.success(t),
                Some("E") => cubic.throttle(f(&step[2]), t),
                op => panic!("unknown op {op:?}"),
            };
            assert_close(ours, f(&step[3]), &format!("{what}: returned rate"));
            assert_close(cubic.max_rate(), f(&step[4]), &format!("{what}: w_max"));
            assert_close(cubic.time_window(), f(&step[5]), &format!("{what}: k"));
            assert_close(
                cubic.last_throttle(),
                f(&step[6]),
                &format!("{what}: last_fail"),
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 30 * 60);
}

#[test]
fn transmit_rate_matches_botocore_rate_clocker() {
    let fixture = fixture();
    let mut compared = 0;
    for (n, seq) in seqs(&fixture, "clocker").iter().enumerate() {
        let mut rate = TransmitRate::new(Tuning::AWS, f(&seq["t0"]));
        for (i, step) in steps(seq).iter().enumerate() {
            let measured = rate.record(f(&step[0]));
            assert_close(
                measured,
                f(&step[1]),
                &format!(
                    "clocker sequence {n} (t0 = {}) step {i} at t = {}",
                    seq["t0"], step[0]
                ),
            );
            assert_eq!(measured, rate.measured());
            compared += 1;
        }
    }
    assert_eq!(compared, 30 * 150);
}

#[test]
fn token_bucket_matches_botocore_token_bucket() {
    let fixture = fixture();
    let mut compared = 0;
    for (n, seq) in seqs(&fixture, "bucket").iter().enumerate() {
        // botocore's constructor sets the rate at its clock's time.
        let mut bucket = TokenBucket::new(Tuning::AWS);
        bucket.set_rate(f(&seq["t0"]), f(&seq["r0"]));
        for (i, step) in steps(seq).iter().enumerate() {
            let what = format!("bucket sequence {n} step {i}");
            let t = f(&step[1]);
            match step[0].as_str() {
                Some("R") => bucket.set_rate(t, f(&step[2])),
                Some("A") => {
                    let taken = bucket.try_take(t);
                    let botocore_took = step[2].as_bool().expect("acquired?");
                    match taken {
                        Ok(()) => {
                            assert!(botocore_took, "{what}: we took a token, botocore did not")
                        }
                        Err(wait) => {
                            assert!(!botocore_took, "{what}: botocore took a token, we did not");
                            // Ours rounds the wait up to the next nanosecond.
                            let theirs = f(&step[6]);
                            let ours = wait.as_secs_f64();
                            assert!(
                                ours >= theirs - 1e-12 && ours - theirs <= 1e-9 + 1e-9 * theirs,
                                "{what}: wait: botocore {theirs}, ours {ours}"
                            );
                        }
                    }
                }
                op => panic!("unknown op {op:?}"),
            }
            assert_close(
                bucket.fill_rate(),
                f(&step[3]),
                &format!("{what}: fill rate"),
            );
            assert_close(
                bucket.max_capacity(),
                f(&step[4]),
                &format!("{what}: max capacity"),
            );
            assert_close(bucket.capacity(), f(&step[5]), &format!("{what}: tokens"));
            compared += 1;
        }
    }
    assert_eq!(compared, 30 * 100);
}

#[test]
fn warm_limiter_sequences_match_botocore_from_the_first_measurement_on() {
    let fixture = fixture();
    let (mut compared, mut with_tokens, mut before_measurement) = (0, 0, 0);
    let (mut throttles, mut waits) = (0, 0);
    for (n, seq) in seqs(&fixture, "limiter")
        .iter()
        .enumerate()
        .filter(|(_, seq)| seq["cold"] == false)
    {
        let t0 = f(&seq["t0"]);
        let mut state = RateLimiterState::with_tuning(Tuning::AWS, t0).unwrap();
        // A shadow of our transmit rate, to know when it is first measured.
        let mut shadow = TransmitRate::new(Tuning::AWS, t0);
        // Whether both buckets have been full at once since the first measurement.
        let mut synced = false;
        for (i, step) in steps(seq).iter().map(Step::parse).enumerate() {
            let what = format!("warm limiter sequence {n} (t0 = {t0}) step {i}");
            acquire_like_botocore(&mut state, &step, &what);
            waits += usize::from(step.send > step.planned);
            shadow.record(step.resp);
            state.on_response(step.resp, step.throttled);
            throttles += usize::from(step.throttled);
            assert_close(
                state.measured_transmit_rate(),
                step.measured,
                &format!("{what}: measured rate"),
            );
            assert_eq!(state.is_enabled(), step.enabled, "{what}: enabled");
            if shadow.is_measured() {
                // What the buckets hold before the first throttle (when they are not used)
                // is not the SDKs' algorithm: botocore's fills at 1/s from its construction,
                // smithy-rs's at 0.5/s from the first response without a cap, ours paces the
                // cold start (see `RateLimiterState::on_response`). Once both are full they
                // hold the same, and must from then on, throttles and waits included.
                synced |= close(state.capacity(), state.max_capacity())
                    && close(step.tokens, step.max_capacity);
                assert!(
                    synced || !step.enabled,
                    "{what}: throttled before both buckets were full (regenerate the fixture)"
                );
                assert_same_state(&state, &step, synced, &what);
                compared += 1;
                with_tokens += usize::from(synced);
            } else {
                // Not measured yet, so (warm) not throttled yet: the limiter is off and CUBIC
                // untouched; the bucket is not used until the first throttle (its rate follows
                // the rate sent so far here, the measured rate of 0 in botocore).
                assert!(!step.throttled && !step.enabled, "{what}: a warm sequence");
                assert_close(
                    state.cubic().max_rate(),
                    step.w_max,
                    &format!("{what}: w_max"),
                );
                assert_close(
                    state.cubic().last_throttle(),
                    step.last_fail,
                    &format!("{what}: last_fail"),
                );
                before_measurement += 1;
            }
        }
        assert!(
            synced,
            "warm sequence {n}: the buckets filled up at some point"
        );
    }
    assert_eq!(compared + before_measurement, 30 * 220);
    eprintln!(
        "{compared} steps compared from the first measurement on ({with_tokens} with the \
         tokens), {before_measurement} before it; {throttles} throttles, {waits} waits"
    );
    assert!(
        with_tokens > 20 * 220,
        "{with_tokens} steps compared with the tokens"
    );
    assert!(
        throttles > 300 && waits > 300,
        "{throttles} throttles, {waits} waits for a token"
    );
}

#[test]
fn cold_limiter_sequences_show_the_documented_cold_start_deviation() {
    let fixture = fixture();
    let (mut deviations, mut compared, mut resynced, mut resynced_steps) = (0, 0, 0, 0);
    for (n, seq) in seqs(&fixture, "limiter")
        .iter()
        .enumerate()
        .filter(|(_, seq)| seq["cold"] == true)
    {
        let t0 = f(&seq["t0"]);
        let mut state = RateLimiterState::with_tuning(Tuning::AWS, t0).unwrap();
        let mut shadow = TransmitRate::new(Tuning::AWS, t0);
        let mut first_bucket = None;
        let mut admitted = 0u32;
        let mut cold_throttles = 0;
        let mut synced = false;
        for (i, step) in steps(seq).iter().map(Step::parse).enumerate() {
            let what = format!("cold limiter sequence {n} (t0 = {t0}) step {i}");
            shadow.record(step.resp);
            let first = *first_bucket.get_or_insert((step.resp * 2.0).floor() / 2.0);
            if synced {
                acquire_like_botocore(&mut state, &step, &what);
            } else if let Some(send) = step.send {
                // The states differ by the cold-start cut (w_max, the rate, the tokens it let
                // through): ours may have a token where botocore's had none, or none yet.
                let _ = state.try_acquire(send);
            }
            state.on_response(step.resp, step.throttled);
            assert_close(
                state.measured_transmit_rate(),
                step.measured,
                &format!("{what}: measured rate"),
            );
            assert_eq!(state.is_enabled(), step.enabled, "{what}: enabled");
            compared += 1;
            if shadow.is_measured() {
                // The cut is forgotten once a throttle after the first measurement has set
                // the same w_max at the same time on both sides and both buckets are full:
                // from there on the states must agree at every step.
                synced |= close(state.cubic().max_rate(), step.w_max)
                    && state.cubic().last_throttle() == step.last_fail
                    && close(state.capacity(), state.max_capacity())
                    && close(step.tokens, step.max_capacity);
                if synced {
                    assert_same_state(&state, &step, true, &what);
                    resynced_steps += 1;
                }
                continue;
            }
            if !step.throttled {
                admitted += 1;
                continue;
            }
            // A throttle before the first measurement: botocore cuts from its measured rate,
            // to the 0.5/s floor when nothing is measured...
            cold_throttles += 1;
            let sdk = (0.7 * step.measured).min(2.0 * step.measured).max(0.5);
            assert_close(step.fill_rate, sdk, &format!("{what}: botocore's cut"));
            assert_close(
                step.w_max,
                step.measured,
                &format!("{what}: botocore's w_max"),
            );
            // ... ours from the rate the service was seen to admit, the successes since the
            // start of the first response's bucket: w_max = admitted / elapsed, rate 0.7 x that.
            let observed = f64::from(admitted) / (step.resp - first);
            assert_close(
                state.cubic().max_rate(),
                observed,
                &format!("{what}: our w_max"),
            );
            assert_close(
                state.fill_rate(),
                (0.7 * observed).max(0.5),
                &format!("{what}: our cut"),
            );
            assert_eq!(
                state.max_capacity(),
                1.0,
                "{what}: one token at most before a measurement"
            );
            assert_close(
                state.cubic().last_throttle(),
                step.last_fail,
                &format!("{what}: last_fail"),
            );
            if !close(state.fill_rate(), step.fill_rate) {
                deviations += 1;
                assert!(
                    state.fill_rate() > step.fill_rate,
                    "{what}: the deviation only keeps more of the rate the service admitted"
                );
            }
        }
        assert!(cold_throttles > 0, "sequence {n} is cold");
        resynced += usize::from(synced);
    }
    assert_eq!(compared, 12 * 200);
    eprintln!(
        "{deviations} cold throttles deviate; {resynced} of 12 sequences met botocore's state \
         again, {resynced_steps} steps compared from there"
    );
    assert!(
        resynced >= 6 && resynced_steps > 600,
        "{resynced} sequences met again"
    );
    assert!(
        deviations >= 6,
        "the deviation shows in {deviations} cold throttles"
    );
}

#[test]
fn the_oracle_waits_are_real_waits() {
    // Guard on the fixture itself: a wait recorded in it is longer than the microsecond the
    // generator adds, so the limiter comparisons above exercise blocked acquires.
    let fixture = fixture();
    let longest = seqs(&fixture, "limiter")
        .iter()
        .flat_map(steps)
        .map(Step::parse)
        .filter_map(|s| Some(s.send? - s.planned?))
        .fold(0.0, f64::max);
    assert!(longest > 0.01, "longest wait {longest}");
}

/// Regression (found by the oracle): our transmit rate started counting at the half-second
/// `now` falls in, the SDKs (botocore's `RateClocker`, smithy-rs, the JS and .NET SDKs) at the
/// whole second, so a client built in the second half of a second measured its first response
/// later than they do, and its measured rate stayed off theirs.
#[test]
fn transmit_rate_counts_from_the_whole_second_like_the_sdks() {
    let mut rate = TransmitRate::new(Tuning::AWS, 100.7);
    // Bucket [100.5, 101) is later than [100, 100.5): one response over half a second.
    assert_eq!(rate.record(100.9), 0.8 * 2.0);
    assert!(
        !rate.is_measured(),
        "no whole bucket of the client's traffic yet"
    );
    assert_close(rate.record(101.2), 0.8 * 2.0 + 0.2 * 1.6, "second bucket");
    assert!(rate.is_measured());

    // A bucket wider than a second starts counting at its own start, the earlier one.
    let wide = Tuning {
        rate_bucket_width: 2.0,
        ..Tuning::AWS
    };
    let mut rate = TransmitRate::new(wide, 3.5);
    assert_eq!(rate.record(3.9), 0.0, "same bucket [2, 4)");
    assert_eq!(rate.record(4.1), 0.8 * 2.0 / 2.0);
}
