//! What the botocore oracle tests share: the fixture recorded from botocore 1.43's adaptive
//! classes (`waiter-runtime/tests/support/botocore/gen_botocore_oracle.py`, fixture
//! `waiter-runtime/tests/support/botocore/botocore_adaptive.json`), the comparison of floats to
//! 1e-9 relative (1e-12 absolute near zero), and one step of a `limiter` sequence replayed
//! through our state.

use crate::retry::adaptive::RateLimiterState;
use serde_json::Value;

pub(super) const FIXTURE: &str =
    include_str!("../../../../tests/support/botocore/botocore_adaptive.json");

pub(super) fn fixture() -> Value {
    serde_json::from_str(FIXTURE).expect("the fixture is JSON")
}

pub(super) fn close(ours: f64, theirs: f64) -> bool {
    let diff = (ours - theirs).abs();
    diff <= 1e-9 * ours.abs().max(theirs.abs()) || diff <= 1e-12
}

#[track_caller]
pub(super) fn assert_close(ours: f64, theirs: f64, what: &str) {
    assert!(
        close(ours, theirs),
        "{what}: botocore {theirs}, ours {ours} (off by {:e})",
        (ours - theirs).abs()
    );
}

pub(super) fn f(v: &Value) -> f64 {
    v.as_f64()
        .unwrap_or_else(|| panic!("a number in the fixture, got {v}"))
}

pub(super) fn seqs<'a>(fixture: &'a Value, key: &str) -> &'a [Value] {
    fixture[key].as_array().expect("a list of sequences")
}

pub(super) fn steps(seq: &Value) -> &[Value] {
    seq["steps"].as_array().expect("a list of steps")
}

/// One step of a `limiter` sequence.
pub(super) struct Step {
    pub(super) planned: Option<f64>,
    pub(super) send: Option<f64>,
    pub(super) resp: f64,
    pub(super) throttled: bool,
    pub(super) measured: f64,
    pub(super) fill_rate: f64,
    pub(super) max_capacity: f64,
    pub(super) tokens: f64,
    pub(super) w_max: f64,
    pub(super) k: f64,
    pub(super) last_fail: f64,
    pub(super) enabled: bool,
}

impl Step {
    pub(super) fn parse(v: &Value) -> Step {
        Step {
            planned: v[0].as_f64(),
            send: v[1].as_f64(),
            resp: f(&v[2]),
            throttled: v[3].as_bool().expect("throttled?"),
            measured: f(&v[4]),
            fill_rate: f(&v[5]),
            max_capacity: f(&v[6]),
            tokens: f(&v[7]),
            w_max: f(&v[8]),
            k: f(&v[9]),
            last_fail: f(&v[10]),
            enabled: v[11].as_bool().expect("enabled?"),
        }
    }
}

/// Takes the token botocore took for this step's request, if the limiter was on: botocore
/// blocked from `planned` until `send` (we must too: no token at `planned`, one at `send`).
pub(super) fn acquire_like_botocore(state: &mut RateLimiterState, step: &Step, what: &str) {
    match (step.planned, step.send) {
        (None, None) => {
            assert!(
                !state.is_enabled(),
                "{what}: botocore's limiter is off, ours on"
            );
        }
        (Some(planned), Some(send)) => {
            assert!(
                state.is_enabled(),
                "{what}: botocore's limiter is on, ours off"
            );
            if send > planned {
                let wait = state
                    .try_acquire(planned)
                    .expect_err("botocore had to wait for a token: so must we");
                // botocore slept `_sleep_amount` + 1 us (see the generator).
                let theirs = send - planned - 1e-6;
                assert!(
                    (wait.as_secs_f64() - theirs).abs() <= 1e-9 * theirs + 2e-9,
                    "{what}: wait for a token: botocore {theirs}, ours {wait:?}"
                );
            }
            assert_eq!(
                state.try_acquire(send),
                Ok(()),
                "{what}: no token at botocore's send time"
            );
        }
        _ => panic!("{what}: planned and send are both set or both null"),
    }
}

/// Compares our state with botocore's after a response; the tokens only if `tokens`.
#[track_caller]
pub(super) fn assert_same_state(state: &RateLimiterState, step: &Step, tokens: bool, what: &str) {
    assert_close(
        state.fill_rate(),
        step.fill_rate,
        &format!("{what}: fill rate"),
    );
    assert_close(
        state.max_capacity(),
        step.max_capacity,
        &format!("{what}: max capacity"),
    );
    if tokens {
        assert_close(state.capacity(), step.tokens, &format!("{what}: tokens"));
    }
    assert_close(
        state.cubic().max_rate(),
        step.w_max,
        &format!("{what}: w_max (last max rate)"),
    );
    assert_close(state.cubic().time_window(), step.k, &format!("{what}: k"));
    assert_close(
        state.cubic().last_throttle(),
        step.last_fail,
        &format!("{what}: last throttle time"),
    );
}
