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
//! | `retry_retries_total` | counter | retries | `kind` | retries made, by the kind of error retried (one decided but not made, its rate-limiter token past the deadline, is not counted) |
//! | `retry_throttles_total` | counter | responses | | responses the classifiers called throttling |
//! | `retry_quota_refusals_total` | counter | retries | | retries the retry quota refused |
//! | `retry_rate_limit_wait_seconds` | histogram | seconds | | time an attempt waited for the adaptive rate limiter (only attempts that waited) |
//! | `retry_budget_refusals_total` | counter | retries | | retries the [`RetryBudget`](crate::retry::RetryBudget) refused |
//! | `retry_attempt_timeouts_total` | counter | attempts | | attempts cut short at their timeout ([`Retrier::run_timed`](crate::retry::Retrier::run_timed), the retry layers) |
//!
//! Label values are bounded: `waiter` is the waiter's name from its model (a `&'static
//! str`); `outcome` is one of `success`, `failure_state`, `operation_failed`,
//! `exceeded_max_wait`, `stopped`, `poll_panicked`, `invalid_options`; `state` one of
//! `success`, `failure`, `retry`; `kind` one of `transient_error`, `throttling_error`,
//! `server_error`, `client_error`. No value from a response, an error message or a resource
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

// Issue 36: the retry budget and attempt timeouts.

/// The retry budget refused a retry.
#[inline]
pub(crate) fn budget_refused() {
    #[cfg(feature = "metrics")]
    ::metrics::counter!("retry_budget_refusals_total").increment(1);
}

/// An attempt was cut short at its timeout.
#[inline]
pub(crate) fn attempt_timed_out() {
    #[cfg(feature = "metrics")]
    ::metrics::counter!("retry_attempt_timeouts_total").increment(1);
}
