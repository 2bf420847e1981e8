//! `ProvideErrorMetadata` for `http` types (feature `http`).

use std::time::{Duration, SystemTime};

use super::hint::RetryHint;
use super::{ProvideErrorMetadata, field, hint};

/// The retry-after hint in `headers` (every header of [`hint`]'s table, the first that reads
/// wins), read at the current wall-clock time; `None` also when the hint is not to retry.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::error_metadata::retry_after_from_header_map;
///
/// let mut headers = http::HeaderMap::new();
/// headers.insert(http::header::RETRY_AFTER, "7".parse().unwrap());
/// assert_eq!(retry_after_from_header_map(&headers), Some(Duration::from_secs(7)));
/// headers.insert("retry-after-ms", "1500".parse().unwrap());
/// assert_eq!(retry_after_from_header_map(&headers), Some(Duration::from_millis(1500)));
/// ```
pub fn retry_after_from_header_map(headers: &http::HeaderMap) -> Option<Duration> {
    match retry_hint_from_header_map(headers)? {
        RetryHint::After(after) => Some(after),
        _ => None,
    }
}

/// The pacing hint in `headers` ([`hint`]'s table: a delay, or gRPC's "do not retry"), read at
/// the current wall-clock time.
///
/// ```
/// use waiter_runtime::error_metadata::hint::RetryHint;
/// use waiter_runtime::error_metadata::retry_hint_from_header_map;
///
/// let mut headers = http::HeaderMap::new();
/// headers.insert("grpc-retry-pushback-ms", "-1".parse().unwrap());
/// assert_eq!(retry_hint_from_header_map(&headers), Some(RetryHint::DoNotRetry));
/// ```
pub fn retry_hint_from_header_map(headers: &http::HeaderMap) -> Option<RetryHint> {
    hint::retry_hint_from_headers(
        headers
            .iter()
            .map(|(name, value)| (name.as_str(), value.as_bytes())),
        SystemTime::now(),
    )
}

/// Whether `headers` ask for no retry ([`RetryHint::DoNotRetry`]).
pub(crate) fn retry_forbidden_by(headers: &http::HeaderMap) -> bool {
    retry_hint_from_header_map(headers) == Some(RetryHint::DoNotRetry)
}

/// The error code an AWS-style response names in its headers: `x-amzn-ErrorType` (restJson,
/// awsJson), else `x-amz-error-code` (restXml services behind some front ends), through
/// [`normalize_code`](super::normalize_code). Codes sent only in the body are not seen here.
///
/// ```
/// use waiter_runtime::error_metadata::error_code_from_header_map;
///
/// let mut headers = http::HeaderMap::new();
/// headers.insert("x-amz-error-code", "SlowDown".parse().unwrap());
/// assert_eq!(error_code_from_header_map(&headers), Some("SlowDown"));
/// headers.insert("x-amzn-errortype", "ThrottlingException:http://internal.amazon.com/".parse().unwrap());
/// assert_eq!(error_code_from_header_map(&headers), Some("ThrottlingException"));
/// ```
pub fn error_code_from_header_map(headers: &http::HeaderMap) -> Option<&str> {
    ["x-amzn-errortype", "x-amz-error-code"]
        .into_iter()
        .filter_map(|name| headers.get(name)?.to_str().ok())
        .map(super::normalize_code)
        .find(|code| !code.is_empty())
}

pub(crate) use error_code_from_header_map as error_type;

impl field::Status for http::StatusCode {
    fn status(&self) -> Option<u16> {
        Some(self.as_u16())
    }
}

/// A marked `#[error_metadata(retry_after)]` field may be the response's headers.
impl field::RetryAfter for http::HeaderMap {
    fn retry_after(&self) -> Option<Duration> {
        retry_after_from_header_map(self)
    }
    fn retry_forbidden(&self) -> bool {
        retry_forbidden_by(self)
    }
}

/// A bare status code as an error: no code, its status.
impl ProvideErrorMetadata for http::StatusCode {
    fn code(&self) -> Option<&str> {
        None
    }
    fn http_status(&self) -> Option<u16> {
        Some(self.as_u16())
    }
}

/// A whole response as an error: its status, its retry-after headers, and the code named in
/// `x-amzn-errortype` or `x-amz-error-code` if any.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::ProvideErrorMetadata;
///
/// let response = http::Response::builder()
///     .status(503)
///     .header("x-amzn-errortype", "ThrottlingException:http://internal.amazon.com/")
///     .header("retry-after", "2")
///     .body(())
///     .unwrap();
/// assert_eq!(response.http_status(), Some(503));
/// assert_eq!(response.code(), Some("ThrottlingException"));
/// assert_eq!(response.retry_after(), Some(Duration::from_secs(2)));
/// ```
impl<B> ProvideErrorMetadata for http::Response<B> {
    fn code(&self) -> Option<&str> {
        error_type(self.headers())
    }
    fn http_status(&self) -> Option<u16> {
        Some(self.status().as_u16())
    }
    fn retry_after(&self) -> Option<Duration> {
        retry_after_from_header_map(self.headers())
    }
    fn retry_forbidden(&self) -> bool {
        retry_forbidden_by(self.headers())
    }
}
