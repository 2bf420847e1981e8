//! `RetryConfig`, `RetryMode` and `RetryBehavior`: defaults, builder, precedence of explicit
//! settings, presets, validation, parsing.

use std::time::Duration;

use waiter_runtime::retry::{InvalidRetryConfig, Jitter, RetryBehavior, RetryConfig, RetryMode};

const MS: fn(u64) -> Duration = Duration::from_millis;
const S: fn(u64) -> Duration = Duration::from_secs;

#[test]
fn defaults_follow_retry_behavior_2_1() {
    let c = RetryConfig::standard().build();
    assert_eq!(c.mode(), RetryMode::Standard);
    assert_eq!(c.behavior(), RetryBehavior::V2_1);
    assert_eq!(c.max_attempts(), 3);
    assert_eq!(c.transient_backoff(), MS(50));
    assert_eq!(c.throttling_backoff(), S(1));
    assert_eq!(c.max_backoff(), Duration::from_secs(20));
    assert_eq!(c.max_total_time(), None);
    assert_eq!(c.jitter(), Jitter::Full);
    assert_eq!(c, RetryConfig::default());
}

#[test]
fn adaptive_builder_sets_only_the_mode() {
    let c = RetryConfig::adaptive().max_attempts(5).build();
    assert_eq!(c.mode(), RetryMode::Adaptive);
    assert_eq!(c.max_attempts(), 5);
    assert_eq!(c.transient_backoff(), MS(50));
    assert_eq!(c.behavior(), RetryBehavior::V2_1);
}

#[test]
fn the_earlier_behavior_by_name() {
    let c = RetryConfig::standard()
        .behavior(RetryBehavior::V2_0)
        .build();
    assert_eq!(
        (
            c.max_attempts(),
            c.transient_backoff(),
            c.throttling_backoff()
        ),
        (3, S(1), S(1))
    );
    let c = RetryConfig::standard()
        .behavior("2.0".parse().unwrap())
        .build();
    assert_eq!(c.behavior(), RetryBehavior::V2_0);
}

#[test]
fn explicit_settings_keep_precedence_whatever_the_order() {
    let set_first = RetryConfig::dynamodb()
        .max_attempts(6)
        .transient_backoff(MS(70))
        .behavior(RetryBehavior::V2_0)
        .build();
    let set_last = RetryConfig::dynamodb()
        .behavior(RetryBehavior::V2_0)
        .max_attempts(6)
        .transient_backoff(MS(70))
        .build();
    assert_eq!(set_first, set_last);
    // The throttling base was not set: the behavior's.
    assert_eq!(
        (
            set_first.max_attempts(),
            set_first.transient_backoff(),
            set_first.throttling_backoff()
        ),
        (6, MS(70), S(1))
    );
}

#[test]
fn dynamodb_preset_is_the_sdks() {
    let c = RetryConfig::dynamodb().build();
    assert_eq!(
        (
            c.max_attempts(),
            c.transient_backoff(),
            c.throttling_backoff()
        ),
        (4, MS(25), S(1))
    );
    assert_eq!(c.behavior(), RetryBehavior::V2_1);
    assert_eq!(c.mode(), RetryMode::Standard);
    let c = RetryConfig::dynamodb().adaptive().build();
    assert_eq!((c.mode(), c.max_attempts()), (RetryMode::Adaptive, 4));
    // The preset is 2.1's: under 2.0 the general defaults apply.
    let c = RetryConfig::dynamodb()
        .behavior(RetryBehavior::V2_0)
        .build();
    assert_eq!((c.max_attempts(), c.transient_backoff()), (3, S(1)));
}

#[test]
#[allow(deprecated)]
fn the_deprecated_initial_backoff_sets_both_bases() {
    let c = RetryConfig::standard().initial_backoff(MS(300)).build();
    assert_eq!(
        (c.transient_backoff(), c.throttling_backoff()),
        (MS(300), MS(300))
    );
    assert_eq!(c.initial_backoff(), MS(300));
    // A base set after it wins for its kind.
    let c = RetryConfig::standard()
        .initial_backoff(MS(300))
        .throttling_backoff(S(2))
        .build();
    assert_eq!(
        (c.transient_backoff(), c.throttling_backoff()),
        (MS(300), S(2))
    );
}

#[test]
fn try_build_reports_what_cannot_work() {
    assert_eq!(
        RetryConfig::standard().max_attempts(0).try_build(),
        Err(InvalidRetryConfig::ZeroAttempts)
    );
    let err = RetryConfig::standard()
        .max_backoff(S(1))
        .throttling_backoff(S(2))
        .try_build()
        .unwrap_err();
    assert_eq!(
        err,
        InvalidRetryConfig::BaseAboveMax {
            setting: "throttling_backoff",
            base: S(2),
            max_backoff: S(1)
        }
    );
    assert_eq!(
        err.to_string(),
        "invalid retry config: `throttling_backoff` is 2s, above `max_backoff` (1s)"
    );
    // Issue 30: a default base (the 2.1 throttling base, 1 s) above a 500 ms max is not the
    // user's: capped at the max by `build` and `try_build` alike, never an error.
    let capped = RetryConfig::standard().max_backoff(MS(500)).try_build();
    assert_eq!(
        capped,
        Ok(RetryConfig::standard().max_backoff(MS(500)).build())
    );
    assert_eq!(capped.unwrap().throttling_backoff(), MS(500));
    assert_eq!(
        RetryConfig::standard()
            .max_backoff(MS(20))
            .build()
            .transient_backoff(),
        MS(20)
    );
    // A base the user set is reported, whatever the order of the setters.
    assert!(matches!(
        RetryConfig::standard()
            .transient_backoff(MS(600))
            .max_backoff(MS(500))
            .try_build(),
        Err(InvalidRetryConfig::BaseAboveMax {
            setting: "transient_backoff",
            ..
        })
    ));
    let _: &dyn std::error::Error = &err;
    assert_eq!(
        RetryConfig::dynamodb().try_build(),
        Ok(RetryConfig::dynamodb().build())
    );
    // Delays read as seconds go through `Duration`, which refuses NaN and negatives.
    for bad in [f64::NAN, -0.05, f64::NEG_INFINITY, f64::INFINITY] {
        assert!(Duration::try_from_secs_f64(bad).is_err(), "{bad}");
    }
}

#[test]
fn retry_behavior_parses_by_name() {
    for (s, behavior) in [
        ("2.1", RetryBehavior::V2_1),
        (" v2.1 ", RetryBehavior::V2_1),
        ("V2_1", RetryBehavior::V2_1),
        ("2.0", RetryBehavior::V2_0),
        ("v2_0", RetryBehavior::V2_0),
    ] {
        assert_eq!(s.parse::<RetryBehavior>(), Ok(behavior), "{s:?}");
    }
    for behavior in [RetryBehavior::V2_0, RetryBehavior::V2_1] {
        assert_eq!(behavior.to_string().parse::<RetryBehavior>(), Ok(behavior));
    }
    let err = " standard ".parse::<RetryBehavior>().unwrap_err();
    assert_eq!(err.given(), "standard");
    assert_eq!(
        err.to_string(),
        "unknown retry behavior `standard`: expected one of `2.1`, `2.0`"
    );
}

#[test]
fn zero_attempts_still_makes_the_first_try() {
    assert_eq!(
        RetryConfig::standard()
            .max_attempts(0)
            .build()
            .max_attempts(),
        1
    );
    assert_eq!(RetryConfig::disabled().max_attempts(), 1);
}

#[test]
fn every_setter_is_kept() {
    let c = RetryConfig::standard()
        .max_attempts(7)
        .transient_backoff(Duration::from_millis(50))
        .throttling_backoff(Duration::from_millis(50))
        .max_backoff(Duration::from_secs(2))
        .max_total_time(Duration::from_secs(9))
        .jitter(Jitter::None)
        .mode(RetryMode::Adaptive)
        .build();
    assert_eq!(c.max_attempts(), 7);
    assert_eq!(c.transient_backoff(), Duration::from_millis(50));
    assert_eq!(c.throttling_backoff(), Duration::from_millis(50));
    assert_eq!(c.max_backoff(), Duration::from_secs(2));
    assert_eq!(c.max_total_time(), Some(Duration::from_secs(9)));
    assert_eq!(c.jitter(), Jitter::None);
    assert_eq!(c.mode(), RetryMode::Adaptive);
}

#[test]
fn retry_mode_parses_trimmed_and_case_insensitive() {
    for (s, mode) in [
        ("standard", RetryMode::Standard),
        ("STANDARD", RetryMode::Standard),
        ("  Standard\n", RetryMode::Standard),
        ("adaptive", RetryMode::Adaptive),
        ("\tAdAptive ", RetryMode::Adaptive),
    ] {
        assert_eq!(s.parse::<RetryMode>(), Ok(mode), "{s:?}");
    }
    assert_eq!(
        RetryMode::Adaptive.to_string().parse::<RetryMode>(),
        Ok(RetryMode::Adaptive)
    );
}

#[test]
fn retry_mode_parse_error_lists_the_valid_values() {
    let err = " legacy ".parse::<RetryMode>().unwrap_err();
    assert_eq!(err.given(), "legacy");
    assert_eq!(
        err.to_string(),
        "unknown retry mode `legacy`: expected one of `standard`, `adaptive`"
    );
    let err = "".parse::<RetryMode>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown retry mode ``: expected one of `standard`, `adaptive`"
    );
    let _: &dyn std::error::Error = &err;
}
