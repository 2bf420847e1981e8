//! The hook through which client-side rate limiting (the adaptive mode) paces every attempt.

use std::fmt;
use std::future::Future;
use std::pin::Pin;

/// Client-side rate limiting, consulted by a [`Retrier`](super::Retrier) around every attempt
/// (the first try included): before it, [`acquire`](Self::acquire) waits until the attempt may
/// be sent; after it, [`on_response`](Self::on_response) learns whether the service throttled.
///
/// The adaptive retry mode implements it (CUBIC, as the AWS SDKs do); a retrier takes one with
/// [`Retrier::with_rate_limiter`](super::Retrier::with_rate_limiter).
///
/// ```
/// use std::future::Future;
/// use std::pin::Pin;
/// use std::sync::atomic::{AtomicU32, Ordering};
/// use waiter_runtime::retry::RateLimiter;
///
/// /// Counts throttling responses; never delays.
/// #[derive(Debug, Default)]
/// struct CountThrottles(AtomicU32);
///
/// impl RateLimiter for CountThrottles {
///     fn acquire(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
///         Box::pin(async {})
///     }
///     fn on_response(&self, throttled: bool) {
///         if throttled {
///             self.0.fetch_add(1, Ordering::Relaxed);
///         }
///     }
/// }
/// ```
pub trait RateLimiter: Send + Sync + fmt::Debug {
    /// Waits until the next attempt may be sent.
    fn acquire(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;

    /// Called once when a call starts, before its first attempt: the call's place in line,
    /// passed to [`acquire_for`](Self::acquire_for) for each of its attempts, so that a call's
    /// retries can wait behind the calls that started before it rather than behind every call
    /// that started since. By default every call gets `0`.
    fn call_started(&self) -> u64 {
        0
    }

    /// Waits until the next attempt of the call whose place in line is `ticket` (from
    /// [`call_started`](Self::call_started)) may be sent. By default, [`acquire`](Self::acquire).
    fn acquire_for(&self, ticket: u64) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        let _ = ticket;
        self.acquire()
    }

    /// Called after every attempt with whether its result was classified as throttling
    /// ([`ErrorKind::ThrottlingError`](super::ErrorKind::ThrottlingError)), unless
    /// [`on_attempt_response`](Self::on_attempt_response) is implemented.
    fn on_response(&self, throttled: bool);

    /// Called once an attempt may be sent (after [`acquire_for`](Self::acquire_for) or
    /// [`acquire`](Self::acquire)), just before it goes out: a mark of when it was sent,
    /// given back with its response to [`on_attempt_response`](Self::on_attempt_response),
    /// so that a limiter can tell the throttles of requests sent before a rate cut from those
    /// of requests sent after it. By default `0`.
    fn attempt_sent(&self) -> u64 {
        0
    }

    /// What the [`Retrier`](super::Retrier) calls after every attempt: the attempt's mark from
    /// [`attempt_sent`](Self::attempt_sent) and whether its result was classified as
    /// throttling. By default, [`on_response`](Self::on_response)`(throttled)`.
    fn on_attempt_response(&self, sent: u64, throttled: bool) {
        let _ = sent;
        self.on_response(throttled);
    }
}
