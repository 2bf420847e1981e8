//! What the retrier records through the `metrics` facade (feature `metrics`; no-ops without
//! it), and their descriptions. Names, units and labels: the crate's `metrics` module.

use std::time::Duration;

use crate::retry::ErrorKind;

/// Describes the retrier's metrics to the recorder installed now (help text and unit).
#[cfg(feature = "metrics")]
pub(crate) fn describe() {
    use ::metrics::Unit;
    ::metrics::describe_counter!(
        "retry_attempts_total",
        Unit::Count,
        "Attempts a retrier made."
    );
    ::metrics::describe_counter!(
        "retry_retries_total",
        Unit::Count,
        "Retries made, by the kind of error retried."
    );
    ::metrics::describe_counter!(
        "retry_throttles_total",
        Unit::Count,
        "Responses the retry classifiers called throttling."
    );
    ::metrics::describe_counter!(
        "retry_quota_refusals_total",
        Unit::Count,
        "Retries the retry quota refused."
    );
    ::metrics::describe_histogram!(
        "retry_rate_limit_wait_seconds",
        Unit::Seconds,
        "Time an attempt waited for the adaptive rate limiter (attempts that waited only)."
    );
    ::metrics::describe_counter!(
        "retry_budget_refusals_total",
        Unit::Count,
        "Retries the retry budget refused."
    );
    ::metrics::describe_counter!(
        "retry_attempt_timeouts_total",
        Unit::Count,
        "Attempts cut short at their timeout."
    );
}

/// Describes the retrier's metrics the first time one is recorded in this process.
#[cfg(feature = "metrics")]
#[inline]
fn described() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(describe);
}

/// The retrier made an attempt.
#[inline]
pub(crate) fn attempted() {
    #[cfg(feature = "metrics")]
    {
        described();
        ::metrics::counter!("retry_attempts_total").increment(1);
    }
}

/// The classifiers called an attempt's result throttling.
#[inline]
pub(crate) fn throttled() {
    #[cfg(feature = "metrics")]
    {
        described();
        ::metrics::counter!("retry_throttles_total").increment(1);
    }
}

/// The retrier retries an error of this kind.
#[inline]
pub(crate) fn retried(kind: ErrorKind) {
    #[cfg(feature = "metrics")]
    {
        described();
        ::metrics::counter!("retry_retries_total", "kind" => kind_label(kind)).increment(1);
    }
    #[cfg(not(feature = "metrics"))]
    let _ = kind;
}

/// The retry quota refused a retry.
#[inline]
pub(crate) fn quota_refused() {
    #[cfg(feature = "metrics")]
    {
        described();
        ::metrics::counter!("retry_quota_refusals_total").increment(1);
    }
}

/// An attempt waited this long for the rate limiter.
#[inline]
pub(crate) fn rate_limit_waited(wait: Duration) {
    #[cfg(feature = "metrics")]
    {
        described();
        ::metrics::histogram!("retry_rate_limit_wait_seconds").record(wait.as_secs_f64());
    }
    #[cfg(not(feature = "metrics"))]
    let _ = wait;
}

/// The retry budget refused a retry.
#[inline]
pub(crate) fn budget_refused() {
    #[cfg(feature = "metrics")]
    {
        described();
        ::metrics::counter!("retry_budget_refusals_total").increment(1);
    }
}

/// An attempt was cut short at its timeout.
#[inline]
pub(crate) fn attempt_timed_out() {
    #[cfg(feature = "metrics")]
    {
        described();
        ::metrics::counter!("retry_attempt_timeouts_total").increment(1);
    }
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
