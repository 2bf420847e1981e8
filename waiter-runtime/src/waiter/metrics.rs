//! What the waiters record through the `metrics` facade (feature `metrics`; no-ops without
//! it), and their descriptions. Names, units and labels: the crate's `metrics` module.

use std::time::Duration;

#[cfg(feature = "metrics")]
use crate::waiter::AcceptorState;
use crate::waiter::{PollEvent, WaiterError};

/// Describes the waiters' metrics to the recorder installed now (help text and unit).
#[cfg(feature = "metrics")]
pub(crate) fn describe() {
    use ::metrics::Unit;
    ::metrics::describe_counter!(
        "waiter_waits_total",
        Unit::Count,
        "Waits that ended, by waiter and outcome."
    );
    ::metrics::describe_histogram!(
        "waiter_wait_duration_seconds",
        Unit::Seconds,
        "Time from a wait's start to its end."
    );
    ::metrics::describe_counter!(
        "waiter_polls_total",
        Unit::Count,
        "Polls that completed, by the acceptor state they reached."
    );
    ::metrics::describe_counter!(
        "waiter_poll_attempts_total",
        Unit::Count,
        "Attempts made inside polls: one per poll, plus its retries."
    );
    ::metrics::describe_counter!(
        "waiter_transient_poll_errors_total",
        Unit::Count,
        "Polls whose transient error the wait went on after."
    );
}

/// Describes the waiters' metrics the first time one is recorded in this process.
#[cfg(feature = "metrics")]
#[inline]
fn described() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(describe);
}

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
    described();
    ::metrics::counter!("waiter_waits_total", "waiter" => waiter, "outcome" => outcome)
        .increment(1);
    ::metrics::histogram!("waiter_wait_duration_seconds", "waiter" => waiter, "outcome" => outcome)
        .record(elapsed.as_secs_f64());
}

/// A poll completed.
#[inline]
pub(crate) fn polled(event: &PollEvent) {
    #[cfg(feature = "metrics")]
    {
        described();
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
