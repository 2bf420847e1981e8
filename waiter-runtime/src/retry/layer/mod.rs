//! Retries where reqwest and tower users already are: one line on the client gives every
//! request the [`Retrier`](super::Retrier)'s rules (classifiers, retry quota, backoff or the server's
//! retry-after hint, adaptive rate limiting, the waiters' in-poll rule).
//!
#![cfg_attr(
    feature = "reqwest-middleware",
    doc = "* [`RetryMiddleware`] (feature `reqwest-middleware`): a `reqwest_middleware::Middleware`;"
)]
#![cfg_attr(
    not(feature = "reqwest-middleware"),
    doc = "* `RetryMiddleware` (feature `reqwest-middleware`): a `reqwest_middleware::Middleware`;"
)]
#![cfg_attr(
    feature = "tower",
    doc = "* [`RetryLayer`] and [`RetryService`] (feature `tower`): a `tower::Layer` for any"
)]
#![cfg_attr(
    not(feature = "tower"),
    doc = "* `RetryLayer` and `RetryService` (feature `tower`): a `tower::Layer` for any"
)]
//!   `Service<http::Request<B>>` (hyper-util's client, tonic's channels...).
//!
//! Both send each request through the retrier's loop as
//! [`Retrier::run_report_timed`](super::Retrier::run_report_timed) does: a response with a status of 400
//! or more is an error for the classifiers (an [`HttpFailure::Response`]), seen through its
//! status, the error code its headers name (`x-amzn-ErrorType`, else `x-amz-error-code`) and
//! its pacing hint (every header of [`hint`](crate::error_metadata::hint)'s table, gRPC's "do
//! not retry" included); a failure to get a response
//! is an [`HttpFailure::Transport`], transient when it is a connection, timeout or IO error,
//! and not when the response was malformed (a bad status line, status `000`, headers too large
//! or too many: both layers judge hyper's errors alike).
//! With the built-in classifiers plus `429` (which both layers add), that retries:
//!
//! * `429`, and the [throttling codes](super::classifiers::THROTTLING_ERROR_CODES), as
//!   throttling (which the adaptive mode slows down for);
//! * `500`, `502`, `503`, `504`, the [transient codes](super::classifiers::TRANSIENT_ERROR_CODES)
//!   and transport errors that are transient.
//!
//! Classifiers added to the retrier see the same [`HttpFailure`] (downcast it with
//! [`ClassifyContext::downcast_error`](super::ClassifyContext::downcast_error) to read the
//! response). When no retry is left, the caller gets the last response as a response (its
//! status says what happened), or the last transport error; so does a request that could be
//! copied for some retries but not for the next (no token is taken for a retry not made).
//!
//! Clones of a layer share the retrier, so every clone of a client shares one retry quota, its
//! [`RetryBudget`](super::RetryBudget) if it has one, and, in adaptive mode, one rate limiter.
//!
//! With an [`attempt_timeout`](super::RetryConfigBuilder::attempt_timeout) (or a
//! `max_total_time`, or inside a waiter's poll), an attempt that outlasts its time is cut short
//! and retried as a transient error; when the last attempt was, the caller gets an
//! [`AttemptTimedOut`](super::AttemptTimedOut): inside tower's `BoxError` (downcast it, as
//! tower's own `Elapsed`), or as reqwest-middleware's `Error::Middleware`'s `anyhow::Error`.
//!
//! A request is retried only if it can be copied: a request whose body cannot be cloned (a
//! stream) is sent once, still paced by the rate limiter and counted by the quota.
//!
//! Inside a waiter's poll both layers follow the [poll scope](crate::poll_scope)'s rule, as the
//! retrier does: an error one of the running waiter's acceptors names is returned at once, as
//! far as the layer sees its code (a code sent only in the response body is not seen: such an
//! error is retried or not by its status).
#![doc = ""]
#![doc = include_str!("../../docs/retry_layer.md")]
#![cfg_attr(feature = "reqwest-middleware", doc = "")]
#![cfg_attr(feature = "reqwest-middleware", doc = include_str!("../../docs/retry_layer_reqwest_middleware.md"))]
#![cfg_attr(feature = "tower", doc = "")]
#![cfg_attr(feature = "tower", doc = include_str!("../../docs/retry_layer_tower.md"))]

#[cfg(feature = "reqwest-middleware")]
mod reqwest_middleware;
#[cfg(feature = "tower")]
mod tower;

use std::time::Duration;

#[cfg(any(feature = "reqwest-middleware", feature = "tower"))]
use super::HttpStatusCodeClassifier;
use crate::ProvideErrorMetadata;
use crate::error_metadata::{
    error_code_from_header_map, retry_after_from_header_map, retry_forbidden_by,
};

#[cfg(feature = "reqwest-middleware")]
pub use self::reqwest_middleware::RetryMiddleware;
#[cfg(feature = "tower")]
pub use self::tower::{CloneBody, CloneRequest, RetryLayer, RetryService, TransportError};

/// What one HTTP attempt gave that the retry classifiers see as an error.
///
/// ```
/// use waiter_runtime::ProvideErrorMetadata;
/// use waiter_runtime::retry::layer::HttpFailure;
///
/// let response = http::Response::builder()
///     .status(400)
///     .header("x-amzn-errortype", "com.amazonaws.sqs#ThrottlingException")
///     .header("x-amz-retry-after", "1500")
///     .body(())
///     .unwrap();
/// let failure = HttpFailure::<_, std::io::Error>::Response(response);
/// assert_eq!(failure.code(), Some("ThrottlingException"));
/// assert_eq!(failure.http_status(), Some(400));
/// assert_eq!(failure.retry_after(), Some(std::time::Duration::from_millis(1500)));
/// ```
#[derive(Debug)]
pub enum HttpFailure<R, E> {
    /// A response with a status of 400 or more. The caller gets it back as a response when it
    /// is not retried, or no retry is left.
    Response(R),
    /// No response: the request could not be sent, or its answer not read.
    Transport(E),
}

/// A response the layers can classify: its status and headers.
pub trait HttpResponse: sealed::Sealed {
    /// The status code.
    fn status_code(&self) -> u16;
    /// The headers.
    fn header_map(&self) -> &http::HeaderMap;
}

mod sealed {
    pub trait Sealed {}
    impl<B> Sealed for http::Response<B> {}
    #[cfg(feature = "reqwest")]
    impl Sealed for reqwest::Response {}
    #[cfg(feature = "reqwest-0_12")]
    impl Sealed for reqwest_0_12::Response {}
}

impl<B> HttpResponse for http::Response<B> {
    fn status_code(&self) -> u16 {
        self.status().as_u16()
    }
    fn header_map(&self) -> &http::HeaderMap {
        self.headers()
    }
}

/// A reqwest response (reqwest 0.13, and 0.12 under feature `reqwest-0_12`).
#[cfg(any(feature = "reqwest", feature = "reqwest-0_12"))]
macro_rules! http_response_for_reqwest {
    ($reqwest:ident) => {
        impl HttpResponse for $reqwest::Response {
            fn status_code(&self) -> u16 {
                self.status().as_u16()
            }
            fn header_map(&self) -> &http::HeaderMap {
                self.headers()
            }
        }
    };
}
#[cfg(feature = "reqwest")]
http_response_for_reqwest!(reqwest);
#[cfg(feature = "reqwest-0_12")]
http_response_for_reqwest!(reqwest_0_12);

impl<R: HttpResponse, E: ProvideErrorMetadata> ProvideErrorMetadata for HttpFailure<R, E> {
    fn code(&self) -> Option<&str> {
        match self {
            HttpFailure::Response(r) => error_code_from_header_map(r.header_map()),
            HttpFailure::Transport(e) => e.code(),
        }
    }
    fn http_status(&self) -> Option<u16> {
        match self {
            HttpFailure::Response(r) => Some(r.status_code()),
            HttpFailure::Transport(e) => e.http_status(),
        }
    }
    fn retry_after(&self) -> Option<Duration> {
        match self {
            HttpFailure::Response(r) => retry_after_from_header_map(r.header_map()),
            HttpFailure::Transport(e) => e.retry_after(),
        }
    }
    fn retry_forbidden(&self) -> bool {
        match self {
            HttpFailure::Response(r) => retry_forbidden_by(r.header_map()),
            HttpFailure::Transport(e) => e.retry_forbidden(),
        }
    }
    fn is_transient(&self) -> bool {
        matches!(self, HttpFailure::Transport(e) if e.is_transient())
    }
    fn is_retryable(&self) -> bool {
        matches!(self, HttpFailure::Transport(e) if e.is_retryable())
    }
    fn is_throttling(&self) -> bool {
        matches!(self, HttpFailure::Transport(e) if e.is_throttling())
    }
}

/// Whether a response is an error for the classifiers.
#[cfg(any(feature = "reqwest-middleware", feature = "tower"))]
fn is_failure(status: u16) -> bool {
    status >= 400
}

/// The retrier both layers use: `retrier` plus a classifier retrying `429 Too Many Requests`
/// as throttling (the built-in status classifier retries 500, 502, 503 and 504).
#[cfg(any(feature = "reqwest-middleware", feature = "tower"))]
fn http_retrier(retrier: super::Retrier) -> super::Retrier {
    retrier.retry_classifier(HttpStatusCodeClassifier::new_from_codes([429]))
}
