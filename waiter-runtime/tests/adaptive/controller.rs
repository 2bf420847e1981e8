//! The default controller's mechanisms (`Tuning::DEFAULT`), each against the SDKs' behavior
//! (`Tuning::SDK`), and the state's handling of timestamps it cannot use. Paused clock for the
//! shared limiter and the retrier.

use std::sync::Arc;
use std::time::Duration;

use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState, Tuning};
use waiter_runtime::retry::{Retrier, RetryConfig};

#[derive(Debug, ProvideErrorMetadata)]
enum OpError {
    #[error_metadata(code = "ThrottlingException", status = 400)]
    Throttled,
}

/// 100 requests/s, steady: the state of a client that has found its service's rate.
fn steady(tuning: Tuning) -> RateLimiterState {
    RateLimiterState::steady_at_with_tuning(tuning, 100.0, 0.0).unwrap()
}

#[test]
fn one_overshoot_is_one_cut_however_many_requests_were_in_flight() {
    // 20 requests sent 1 ms apart, all throttled 40 ms later: one overshoot (all were in
    // flight when the first throttle came back).
    let replay = |tuning: Tuning| {
        let mut state = steady(tuning);
        for i in 0..20 {
            let sent = 0.001 * f64::from(i);
            state.on_response_sent_at(sent + 0.04, sent, true);
        }
        state
    };
    let ours = replay(Tuning::DEFAULT);
    assert_eq!(ours.cuts(), 1);
    assert!(
        (ours.fill_rate() - 100.0 * Tuning::DEFAULT.beta).abs() < 1e-9,
        "{}",
        ours.fill_rate()
    );
    assert_eq!(ours.max_rate(), 100.0, "w_max is the rate before the cut");
    // The SDKs cut on every throttle: 0.7^20 of the rate, the floor.
    let sdk = replay(Tuning::SDK);
    assert_eq!(sdk.cuts(), 20);
    assert_eq!(sdk.fill_rate(), 0.5);
}

#[test]
fn a_throttle_of_a_request_sent_after_the_cut_is_a_new_event() {
    let no_recovery = Tuning {
        recovery_period: false,
        ..Tuning::DEFAULT
    };
    let mut state = steady(no_recovery);
    state.on_response_sent_at(1.04, 1.0, true);
    state.on_response_sent_at(1.09, 1.05, true); // sent after the cut at 1.04
    assert_eq!(state.cuts(), 2);
    // Without the send time, every throttle cuts, as in the SDKs.
    let mut blind = steady(Tuning::DEFAULT);
    blind.on_response(1.04, true);
    blind.on_response(1.05, true);
    assert_eq!(blind.cuts(), 2);
}

#[test]
fn a_throttle_in_the_recovery_period_is_the_same_event() {
    let beta = Tuning::DEFAULT.beta;
    // Within the first half-second bucket: the measured rate stays 100.
    let replay = |tuning: Tuning| {
        let mut state = steady(tuning);
        state.on_response_sent_at(0.04, 0.0, true); // the overshoot: a cut, a recovery period
        // Sent just after the cut, answered first: the period ends with it. Throttled, the
        // service's bucket was still empty: the same overshoot, no new cut.
        state.on_response_sent_at(0.09, 0.045, true);
        // Another request sent in the period, answered after it ended: the same.
        state.on_response_sent_at(0.095, 0.05, true);
        let in_recovery = (state.cuts(), state.fill_rate());
        // Sent after the period ended: a new congestion event, cut from the rate in effect.
        state.on_response_sent_at(0.14, 0.10, true);
        (in_recovery, state.cuts(), state.max_rate())
    };
    let ((cuts, rate), after, w_max) = replay(Tuning::DEFAULT);
    assert_eq!(cuts, 1);
    assert!((rate - 100.0 * beta).abs() < 1e-9, "{rate}");
    assert_eq!(after, 2);
    assert!((w_max - rate).abs() < 1e-9);
    // Without the period, the throttle of a request sent just after the cut is a new event:
    // the rate is cut twice within two round trips.
    let ((cuts, rate), ..) = replay(Tuning {
        recovery_period: false,
        ..Tuning::DEFAULT
    });
    assert_eq!(cuts, 2);
    assert!((rate - 100.0 * beta * beta).abs() < 1e-9, "{rate}");
}

#[tokio::test(start_paused = true)]
async fn the_shared_limiter_ends_the_recovery_period_with_the_marks() {
    let limiter = ClientRateLimiter::with_state(steady(Tuning::DEFAULT));
    let before = limiter.sent();
    limiter.on_response_to(before, true); // a cut
    let in_recovery = limiter.sent();
    assert_ne!(in_recovery, before);
    limiter.on_response_to(in_recovery, false); // the first answer: the period ends
    let after = limiter.sent();
    assert_ne!(after, in_recovery);
    limiter.on_response_to(before, true); // the first event's: nothing
    assert_eq!(limiter.state().cuts(), 1);
    limiter.on_response_to(after, true); // a new event
    assert_eq!(limiter.state().cuts(), 2);
}

#[test]
fn a_client_throttled_often_climbs_back_more_slowly() {
    // Cut every 20 responses (a throttle share of 5 %, 2.5 times the 2 % target): after the
    // third cut (two intervals measured) CUBIC's curve is stretched by 2 (`max_stretch`).
    let climb_after_cuts = |tuning: Tuning, every: u32| {
        let mut state = steady(tuning);
        let mut t = 0.0;
        for _ in 0..3 {
            for _ in 0..every {
                t += 0.01;
                state.on_response_sent_at(t, t - 0.005, false);
            }
            t += 0.01;
            state.on_response_sent_at(t, t - 0.005, true);
            // The recovery period's first answer, a success.
            t += 0.01;
            state.on_response_sent_at(t, t - 0.005, false);
        }
        let cut = state.calculated_rate();
        let w_max = state.max_rate();
        // Half a second on: how far back towards w_max CUBIC's rate has climbed.
        state.on_response_sent_at(t + 0.5, t + 0.495, false);
        (state.calculated_rate() - cut) / (w_max - cut)
    };
    let off = Tuning {
        throttle_share_target: 0.0,
        ..Tuning::DEFAULT
    };
    // Throttled once every 1000 responses (0.1 %): CUBIC's own curve, as with the target off.
    assert_eq!(
        climb_after_cuts(Tuning::DEFAULT, 1000),
        climb_after_cuts(off, 1000)
    );
    // Once every 20: the same climb takes twice as long. Early in it, CUBIC's curve climbs
    // about `3 t / K`: half as far in the same time.
    let (often, unstretched) = (
        climb_after_cuts(Tuning::DEFAULT, 20),
        climb_after_cuts(off, 20),
    );
    assert!(
        often > 0.45 * unstretched && often < 0.6 * unstretched,
        "{often} {unstretched}"
    );
}

#[test]
fn fast_convergence_lowers_w_max_after_a_cut_below_it() {
    let second_cut = |tuning: Tuning| {
        let mut state = steady(tuning);
        // Within the first half-second bucket: the measured rate stays 100.
        state.on_response_sent_at(0.04, 0.0, true); // from 100 to 75
        state.on_response_sent_at(0.09, 0.05, true); // again, at 75: below w_max = 100
        state.max_rate()
    };
    // A new event each (no recovery period), so that the second cut sets w_max.
    let plain = Tuning {
        recovery_period: false,
        ..Tuning::DEFAULT
    };
    let fast = Tuning {
        fast_convergence: true,
        ..plain
    };
    let beta = plain.beta;
    assert!((second_cut(fast) - 100.0 * beta * (1.0 + beta) / 2.0).abs() < 1e-9);
    assert_eq!(second_cut(plain), 100.0 * beta); // opt-in
}

#[test]
fn the_bucket_holds_tens_of_milliseconds_of_tokens() {
    let burst = |tuning: Tuning| {
        let mut state = RateLimiterState::steady_at_with_tuning(tuning, 400.0, 0.0).unwrap();
        let mut taken = 0;
        while state.try_acquire(10.0).is_ok() {
            taken += 1;
        }
        taken
    };
    assert_eq!(burst(Tuning::DEFAULT), 20); // 50 ms at 400/s
    assert_eq!(burst(Tuning::SDK), 400); // a whole second's
}

#[test]
fn at_a_few_requests_a_second_the_rate_can_be_measured_over_ten_responses() {
    // 4 responses a second, regular: the SDKs' half-second buckets hold 2 responses (or 1, or
    // 3 when the phase drifts); ours wait for 10 responses, 2.5 s.
    let tuning = Tuning {
        rate_min_responses: 10,
        ..Tuning::DEFAULT
    };
    let mut ours = RateLimiterState::with_tuning(tuning, 0.0).unwrap();
    let mut sdk = RateLimiterState::with_tuning(Tuning::SDK, 0.0).unwrap();
    let mut measured = Vec::new();
    for i in 1..=40 {
        let t = f64::from(i) * 0.25 + 0.01;
        ours.on_response(t, false);
        sdk.on_response(t, false);
        if i % 10 == 0 {
            measured.push(ours.measured_transmit_rate());
        }
    }
    // 10 responses over 2.5 s: exactly 4/s per closed bucket, smoothed towards it.
    let last = *measured.last().unwrap();
    assert!((last - 4.0).abs() < 0.2, "{measured:?}");
    assert!(sdk.measured_transmit_rate() > 0.0);
}

#[test]
fn every_new_field_is_validated_by_name() {
    let field = |tuning: Tuning| tuning.validate().unwrap_err().field();
    assert_eq!(
        field(Tuning {
            rate_min_responses: 0,
            ..Tuning::DEFAULT
        }),
        "rate_min_responses"
    );
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(
            field(Tuning {
                burst_seconds: bad,
                ..Tuning::DEFAULT
            }),
            "burst_seconds"
        );
    }
    for bad in [-0.01, 1.0, 2.0, f64::NAN, f64::INFINITY] {
        assert_eq!(
            field(Tuning {
                throttle_share_target: bad,
                ..Tuning::DEFAULT
            }),
            "throttle_share_target"
        );
    }
    // 0 turns the stretch off, and a stretch of 1 never stretches: both valid.
    let off = Tuning {
        throttle_share_target: 0.0,
        max_stretch: 1.0,
        ..Tuning::DEFAULT
    };
    assert!(off.validate().is_ok());
    for bad in [0.99, 0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(
            field(Tuning {
                max_stretch: bad,
                ..Tuning::DEFAULT
            }),
            "max_stretch"
        );
    }
    let err = ClientRateLimiter::with_tuning(Tuning {
        burst_seconds: 0.0,
        ..Tuning::DEFAULT
    })
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid adaptive retry tuning: `burst_seconds` is 0 but must be > 0"
    );
    assert!(Tuning::DEFAULT.validate().is_ok());
    assert_eq!(Tuning::default(), Tuning::DEFAULT);
}

/// Issue 30: a timestamp far in the future used to become the bucket's last refill, so that no
/// normal time after it refilled the bucket again (4 tokens in 100 s at 10/s).
#[test]
fn a_timestamp_far_in_the_future_is_ignored() {
    for bad in [1e12, 1e300, f64::INFINITY] {
        for tuning in [Tuning::DEFAULT, Tuning::AWS, Tuning::SDK] {
            let mut state = RateLimiterState::steady_at_with_tuning(tuning, 10.0, 0.0).unwrap();
            state.on_response(0.5, false);
            let before = state;
            state.on_response(bad, false);
            assert_eq!(state, before, "{bad} changed the state");
            // A try at a bad time takes a token that is there, and refills nothing.
            let _ = state.try_acquire(bad);
            // A request every 100 ms when a token is there, each answered at once.
            let mut tokens = 0;
            for step in 1..=1000 {
                let now = 0.5 + f64::from(step) * 0.1;
                if state.try_acquire(now).is_ok() {
                    tokens += 1;
                    state.on_response(now, false);
                }
            }
            assert!(
                tokens >= 900,
                "{bad}: {tokens} tokens in 100 s at 10/s and more"
            );
        }
    }
}

/// Issue 30: one NaN timestamp kept the state in its cold start for good (a bucket of one token
/// at the fill rate, a `2 x` cap on the rate sent "so far", a max capacity of 1).
#[test]
fn a_nan_timestamp_is_ignored() {
    let run = |poison: bool| {
        let mut state = RateLimiterState::new(0.0);
        state.on_response(0.01, false);
        if poison {
            let before = state;
            state.on_response(f64::NAN, true);
            assert_eq!(state, before);
            assert!(state.try_acquire(f64::NAN).is_ok()); // off: no bucket yet
            state.on_response_sent_at(f64::NAN, 0.0, false);
            assert_eq!(state, before);
        }
        for i in 2..=2000 {
            state.on_response(f64::from(i) * 0.005, i == 1000);
        }
        state
    };
    let (clean, poisoned) = (run(false), run(true));
    assert_eq!(poisoned, clean);
    assert!(poisoned.max_capacity() > 1.0);
}

#[tokio::test(start_paused = true)]
async fn the_retrier_reports_when_each_attempt_was_sent() {
    // 20 calls in flight through one retrier (a bucket of a second's tokens lets them all go
    // at once), all throttled: one congestion event.
    let tuning = Tuning {
        burst_seconds: 1.0,
        ..Tuning::DEFAULT
    };
    let state = RateLimiterState::steady_at_with_tuning(tuning, 100.0, 0.0).unwrap();
    let limiter = ClientRateLimiter::with_state(state);
    let retrier = Retrier::new(RetryConfig::adaptive().max_attempts(1).build())
        .with_rate_limiter(Arc::new(limiter.clone()));
    let calls: Vec<_> = (0..20)
        .map(|_| {
            let retrier = retrier.clone();
            tokio::spawn(async move {
                retrier
                    .run(|| async {
                        tokio::time::sleep(Duration::from_millis(40)).await;
                        Err::<(), _>(OpError::Throttled)
                    })
                    .await
            })
        })
        .collect();
    for call in calls {
        assert!(call.await.unwrap().is_err());
    }
    let state = limiter.state();
    assert_eq!(state.cuts(), 1);
    assert!(
        (state.fill_rate() - 100.0 * tuning.beta).abs() < 1e-9,
        "{}",
        state.fill_rate()
    );
}

#[test]
fn a_saturated_client_is_cut_from_its_fill_rate() {
    // Steady at 100/s, then CUBIC lets it climb while the measured rate (0.8 x the latest
    // half-second bucket) trails; callers keep the bucket empty. A throttle then cuts from
    // the fill rate in effect, not from the lagging measure.
    let climb = |tuning: Tuning| {
        let mut state = RateLimiterState::steady_at_with_tuning(tuning, 100.0, 0.0).unwrap();
        let mut t = 0.0;
        while t < 6.0 {
            t += 0.001; // callers asking 1000 times a second: the bucket runs dry
            if state.try_acquire(t).is_ok() {
                state.on_response(t, false);
            }
        }
        let fill = state.fill_rate();
        let measured = state.measured_transmit_rate();
        state.on_response_sent_at(t + 0.04, t, true);
        (fill, measured, state.max_rate())
    };
    let (fill, measured, w_max) = climb(Tuning {
        cut_from_fill_rate: true,
        ..Tuning::DEFAULT
    });
    assert!(fill > measured, "{fill} {measured}");
    assert_eq!(w_max, fill);
    // The SDKs' rule: from `min(measured, fill rate)`, the measure updated by the throttle's
    // own response first; below the fill rate the client was sent at.
    let (fill, _, w_max) = climb(Tuning::DEFAULT);
    assert!(w_max < fill - 5.0, "{w_max} {fill}");
}

#[test]
fn in_the_cold_start_a_later_throttle_of_the_burst_can_only_raise_the_cut() {
    // 100 callers at once against a service that admits 50 of them: the answers come back
    // 40 to 50 ms later, throttles and successes mixed. The first throttle comes back with few
    // successes counted; the later ones, of the same burst, carry the later count.
    let mut state = RateLimiterState::new(0.0);
    state.on_response_sent_at(0.040, 0.0, false);
    state.on_response_sent_at(0.041, 0.0, true); // the first cut: from 1 success in 41 ms
    let first = state.fill_rate();
    assert_eq!(state.cuts(), 1);
    for i in 0..49 {
        state.on_response_sent_at(0.042 + 0.0001 * f64::from(i), 0.0, false);
    }
    state.on_response_sent_at(0.047, 0.0, true); // same burst: no new cut, a higher base
    assert_eq!(state.cuts(), 1);
    let admitted = 50.0 / 0.047;
    assert!(
        (state.fill_rate() - Tuning::DEFAULT.beta * admitted).abs() < 1e-9,
        "{}",
        state.fill_rate()
    );
    assert!(state.fill_rate() > first);
    // Never lower: a throttle of the burst when the count has not grown leaves the rate.
    let before = state.fill_rate();
    state.on_response_sent_at(0.049, 0.0, true);
    assert_eq!(state.fill_rate(), before);
}
