//! `RetryConfig` and `RetryMode`: defaults, builder, parsing.

use std::time::Duration;

use waiter_runtime::retry::{Jitter, RetryConfig, RetryMode};

#[test]
fn defaults_match_the_standard_strategy() {
    let c = RetryConfig::standard().build();
    assert_eq!(c.mode(), RetryMode::Standard);
    assert_eq!(c.max_attempts(), 3);
    assert_eq!(c.initial_backoff(), Duration::from_secs(1));
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
    assert_eq!(c.initial_backoff(), Duration::from_secs(1));
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
        .initial_backoff(Duration::from_millis(50))
        .max_backoff(Duration::from_secs(2))
        .max_total_time(Duration::from_secs(9))
        .jitter(Jitter::None)
        .mode(RetryMode::Adaptive)
        .build();
    assert_eq!(c.max_attempts(), 7);
    assert_eq!(c.initial_backoff(), Duration::from_millis(50));
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
