//! A limiter restored from a `RateLimiterState` carries on from now, whatever clock the state
//! was taken on; a bad `Tuning` is rejected on every path that builds a limiter or a state.

use std::time::Duration;

use tokio::time::Instant;
use waiter_runtime::retry::adaptive::{
    ClientRateLimiter, InvalidSteadyState, RateLimiterState, Tuning,
};

/// Takes `n` tokens; returns how long that took on the (paused) clock.
async fn take(limiter: &ClientRateLimiter, n: u32) -> Duration {
    let start = Instant::now();
    for _ in 0..n {
        limiter.acquire().await;
    }
    start.elapsed()
}

#[tokio::test(start_paused = true)]
async fn a_state_taken_at_a_later_time_refills_from_now() {
    // Steady at 10/s as of t = 1e6 s, bursts of a second (`Tuning::AWS`): the bucket holds 10
    // tokens, then refills at 10/s.
    let steady = RateLimiterState::steady_at_with_tuning(Tuning::AWS, 10.0, 1e6).unwrap();
    let limiter = ClientRateLimiter::with_state(steady);
    let took = tokio::time::timeout(Duration::from_secs(60), take(&limiter, 30))
        .await
        .expect("the restored limiter refills (it used to wait until its clock reached 1e6 s)");
    // 10 at once, 20 more at 10/s.
    assert!(took <= Duration::from_millis(2_100), "{took:?}");
    assert!(took >= Duration::from_millis(1_900), "{took:?}");
}

#[tokio::test(start_paused = true)]
async fn a_state_taken_from_a_limiter_that_ran_for_1000_s_carries_on() {
    let old = ClientRateLimiter::with_state(RateLimiterState::steady_at(20.0, 0.0).unwrap());
    tokio::time::advance(Duration::from_secs(1000)).await;
    take(&old, 25).await; // the old limiter's clock is now past 1000 s
    let state = old.state();
    let restored = ClientRateLimiter::with_state(state);
    assert_eq!(restored.state().fill_rate(), state.fill_rate());
    // The bucket was spent: 40 tokens at 20/s take 2 s, not 1000 s.
    let took = tokio::time::timeout(Duration::from_secs(60), take(&restored, 40))
        .await
        .expect("the restored limiter refills");
    assert!(took <= Duration::from_millis(2_100), "{took:?}");
}

#[tokio::test(start_paused = true)]
async fn a_state_from_the_past_keeps_its_times() {
    // A state at t = 0 given at t = 0: nothing to move (the tables the tests replay start so).
    let state = RateLimiterState::steady_at(50.0, 0.0).unwrap();
    let limiter = ClientRateLimiter::with_state(state);
    assert_eq!(limiter.state(), state);
}

// The tuning is checked on every path.

#[test]
fn a_bad_tuning_is_rejected_on_every_path() {
    for (field, value) in [
        ("min_fill_rate", 0.0),
        ("min_fill_rate", f64::NAN),
        ("min_capacity", 0.0),
        ("min_capacity", f64::NAN),
    ] {
        let tuning = match field {
            "min_fill_rate" => Tuning {
                min_fill_rate: value,
                ..Tuning::AWS
            },
            _ => Tuning {
                min_capacity: value,
                ..Tuning::AWS
            },
        };
        assert_eq!(
            ClientRateLimiter::with_tuning(tuning).unwrap_err().field(),
            field
        );
        // The only ways to a state with other constants, which `with_state` takes.
        assert_eq!(
            RateLimiterState::with_tuning(tuning, 0.0)
                .unwrap_err()
                .field(),
            field
        );
        match RateLimiterState::steady_at_with_tuning(tuning, 10.0, 0.0) {
            Err(InvalidSteadyState::Tuning(e)) => assert_eq!(e.field(), field),
            other => panic!("{field} = {value}: {other:?}"),
        }
    }
    // A bad rate with good constants is still a bad rate.
    assert!(matches!(
        RateLimiterState::steady_at_with_tuning(Tuning::AWS, f64::NAN, 0.0),
        Err(InvalidSteadyState::Rate(_))
    ));
}
