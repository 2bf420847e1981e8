//! Metrics through the [`metrics`](https://docs.rs/metrics) facade (feature `metrics`): the
//! names, units and labels of what the waiters and the retrier count. Install any recorder
//! (`metrics-exporter-prometheus`, an OpenTelemetry bridge...) and they arrive there; without
//! the feature nothing is counted and nothing is compiled in, and with it but no recorder the
//! facade's no-op recorder takes the calls (`BENCHMARKS.md`, "Metrics", measures both).
//!
//! | name | kind | unit | labels | what |
//! |---|---|---|---|---|
//! | `waiter_waits_total` | counter | waits | `waiter`, `outcome` | waits that ended |
//! | `waiter_wait_duration_seconds` | histogram | seconds | `waiter`, `outcome` | time from a wait's start to its end |
//! | `waiter_polls_total` | counter | polls | `waiter`, `state` | polls that completed |
//! | `waiter_poll_attempts_total` | counter | attempts | `waiter` | attempts made inside polls (1 per poll, plus its retries) |
//! | `waiter_transient_poll_errors_total` | counter | polls | `waiter` | polls whose transient error the wait went on after ([`TransientPollErrors::Retry`](crate::waiter::TransientPollErrors::Retry)) |
//! | `retry_attempts_total` | counter | attempts | | attempts a [`Retrier`](crate::retry::Retrier) made |
//! | `retry_retries_total` | counter | retries | `kind` | retries, by the kind of error retried |
//! | `retry_throttles_total` | counter | responses | | responses the classifiers called throttling |
//! | `retry_quota_refusals_total` | counter | retries | | retries the retry quota refused |
//! | `retry_rate_limit_wait_seconds` | histogram | seconds | | time an attempt waited for the adaptive rate limiter (only attempts that waited) |
//! | `retry_fleet_share` | gauge | requests/s | `fleet` | a [`FleetRateLimiter`](crate::retry::adaptive::FleetRateLimiter) member's share of its fleet's rate at its last answer from Redis (not set while the fleet has no limit) |
//! | `retry_fleet_members` | gauge | members | `fleet` | members of the fleet with a live heartbeat at the member's last answer |
//! | `retry_fleet_fallbacks_total` | counter | fallbacks | `fleet` | times a member's lease ended without an answer (or it had none) and its local controller took over |
//!
//! Label values are bounded: `waiter` is the waiter's name from its model (a `&'static
//! str`); `outcome` is one of `success`, `failure_state`, `operation_failed`,
//! `exceeded_max_wait`, `stopped`, `poll_panicked`, `invalid_options`; `state` one of
//! `success`, `failure`, `retry`; `kind` one of `transient_error`, `throttling_error`,
//! `server_error`, `client_error`; `fleet` the fleet's name given to `FleetRateLimiter::new`
//! (checked there: at most 200 bytes, one value per fleet the process joins). No value from a response, an error message or a resource
//! name is ever a label.

use std::time::Duration;

use crate::retry::ErrorKind;
#[cfg(feature = "metrics")]
use crate::waiter::AcceptorState;
use crate::waiter::{PollEvent, WaiterError};

/// A wait of waiter `waiter` ended after `elapsed` with `outcome`.
#[inline]
pub(crate) fn wait_ended<T, O, E>(
    waiter: &'static str,
    outcome: &Result<T, WaiterError<O, E>>,
    elapsed: Duration,
) {
    #[cfg(feature = "metrics")]
    wait_ended_as(waiter, outcome_label(outcome), elapsed);
    #[cfg(not(feature = "metrics"))]
    let _ = (waiter, outcome, elapsed);
}

/// A wait of waiter `waiter` ended after `elapsed` with `error`.
#[inline]
pub(crate) fn wait_failed<O, E>(
    waiter: &'static str,
    error: &WaiterError<O, E>,
    elapsed: Duration,
) {
    #[cfg(feature = "metrics")]
    wait_ended_as(waiter, error_label(error), elapsed);
    #[cfg(not(feature = "metrics"))]
    let _ = (waiter, error, elapsed);
}

#[cfg(feature = "metrics")]
fn wait_ended_as(waiter: &'static str, outcome: &'static str, elapsed: Duration) {
    {
        ::metrics::counter!("waiter_waits_total", "waiter" => waiter, "outcome" => outcome)
            .increment(1);
        ::metrics::histogram!("waiter_wait_duration_seconds", "waiter" => waiter, "outcome" => outcome)
            .record(elapsed.as_secs_f64());
    }
}

/// A poll completed.
#[inline]
pub(crate) fn polled(event: &PollEvent) {
    #[cfg(feature = "metrics")]
    {
        let waiter = event.waiter;
        ::metrics::counter!("waiter_polls_total", "waiter" => waiter, "state" => state_label(event.state))
            .increment(1);
        ::metrics::counter!("waiter_poll_attempts_total", "waiter" => waiter)
            .increment(u64::from(event.attempts));
        if event.transient_error {
            ::metrics::counter!("waiter_transient_poll_errors_total", "waiter" => waiter)
                .increment(1);
        }
    }
    #[cfg(not(feature = "metrics"))]
    let _ = event;
}

/// The retrier made an attempt.
#[inline]
pub(crate) fn attempted() {
    #[cfg(feature = "metrics")]
    ::metrics::counter!("retry_attempts_total").increment(1);
}

/// The classifiers called an attempt's result throttling.
#[inline]
pub(crate) fn throttled() {
    #[cfg(feature = "metrics")]
    ::metrics::counter!("retry_throttles_total").increment(1);
}

/// The retrier retries an error of this kind.
#[inline]
pub(crate) fn retried(kind: ErrorKind) {
    #[cfg(feature = "metrics")]
    ::metrics::counter!("retry_retries_total", "kind" => kind_label(kind)).increment(1);
    #[cfg(not(feature = "metrics"))]
    let _ = kind;
}

/// The retry quota refused a retry.
#[inline]
pub(crate) fn quota_refused() {
    #[cfg(feature = "metrics")]
    ::metrics::counter!("retry_quota_refusals_total").increment(1);
}

/// An attempt waited this long for the rate limiter.
#[inline]
pub(crate) fn rate_limit_waited(wait: Duration) {
    #[cfg(feature = "metrics")]
    ::metrics::histogram!("retry_rate_limit_wait_seconds").record(wait.as_secs_f64());
    #[cfg(not(feature = "metrics"))]
    let _ = wait;
}

/// The `outcome` label of a wait's result.
#[cfg(feature = "metrics")]
fn outcome_label<T, O, E>(outcome: &Result<T, WaiterError<O, E>>) -> &'static str {
    match outcome {
        Ok(_) => "success",
        Err(error) => error_label(error),
    }
}

/// The `outcome` label of a wait's error.
#[cfg(feature = "metrics")]
fn error_label<O, E>(error: &WaiterError<O, E>) -> &'static str {
    match error {
        WaiterError::FailureState { .. } => "failure_state",
        WaiterError::OperationFailed { .. } => "operation_failed",
        WaiterError::ExceededMaxWait { .. } => "exceeded_max_wait",
        WaiterError::Stopped { .. } => "stopped",
        WaiterError::PollPanicked { .. } => "poll_panicked",
        _ => "invalid_options",
    }
}

/// The `state` label of a poll.
#[cfg(feature = "metrics")]
fn state_label(state: AcceptorState) -> &'static str {
    state.as_str()
}

/// The `kind` label of a retry.
#[cfg(feature = "metrics")]
fn kind_label(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::TransientError => "transient_error",
        ErrorKind::ThrottlingError => "throttling_error",
        ErrorKind::ServerError => "server_error",
        ErrorKind::ClientError => "client_error",
    }
}

// Issue 35: a fleet sharing one limiter (`retry::adaptive::FleetRateLimiter`, feature `redis`).

/// A fleet member's share (`None`: no limit) and the members seen, at an answer from Redis.
#[cfg(feature = "redis")]
#[inline]
pub(crate) fn fleet_share(fleet: &str, share: Option<f64>, members: u64) {
    #[cfg(feature = "metrics")]
    {
        let fleet = fleet.to_owned();
        if let Some(share) = share {
            ::metrics::gauge!("retry_fleet_share", "fleet" => fleet.clone()).set(share);
        }
        ::metrics::gauge!("retry_fleet_members", "fleet" => fleet).set(members as f64);
    }
    #[cfg(not(feature = "metrics"))]
    let _ = (fleet, share, members);
}

/// A fleet member fell back to its local controller.
#[cfg(feature = "redis")]
#[inline]
pub(crate) fn fleet_fallback(fleet: &str) {
    #[cfg(feature = "metrics")]
    ::metrics::counter!("retry_fleet_fallbacks_total", "fleet" => fleet.to_owned()).increment(1);
    #[cfg(not(feature = "metrics"))]
    let _ = fleet;
}
