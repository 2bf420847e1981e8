//! The client's error type: one variant per error the service documents, plus the
//! unmodeled ones and transport failures.

use std::fmt;
use std::time::Duration;

use reqwest::header::HeaderMap;
use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::error_metadata::retry_after_from_header_map;

use super::model::ErrorBody;

/// What can go wrong calling the example service.
///
/// The derive makes each variant describe itself to waiters (`errorType` matches the code) and
/// to retry classifiers (status, throttling, retry-after, transient).
#[derive(Debug, ProvideErrorMetadata)]
#[non_exhaustive]
pub enum ResourceError {
    /// `404 NotFound`: no resource by that name (any more).
    #[error_metadata(status = 404)]
    NotFound {
        /// The service's message.
        #[error_metadata(message)]
        message: String,
    },
    /// `409 ResourceInUseException`: a resource by that name exists.
    #[error_metadata(code = "ResourceInUseException", status = 409)]
    ResourceInUse {
        /// The service's message.
        #[error_metadata(message)]
        message: String,
    },
    /// `400 ValidationException`: the request was malformed.
    #[error_metadata(code = "ValidationException", status = 400)]
    Validation {
        /// The service's message.
        #[error_metadata(message)]
        message: String,
    },
    /// `429 ThrottlingException`: too many requests.
    #[error_metadata(code = "ThrottlingException", status = 429, throttling)]
    Throttling {
        /// The service's message.
        #[error_metadata(message)]
        message: String,
        /// The service's `Retry-After` hint.
        #[error_metadata(retry_after)]
        retry_after: Option<Duration>,
    },
    /// `503 SlowDown`: too many requests.
    #[error_metadata(status = 503, throttling)]
    SlowDown {
        /// The service's message.
        #[error_metadata(message)]
        message: String,
        /// The service's `Retry-After` hint.
        #[error_metadata(retry_after)]
        retry_after: Option<Duration>,
    },
    /// `503 ServiceUnavailable`: the service could not answer now.
    #[error_metadata(status = 503)]
    ServiceUnavailable {
        /// The service's message.
        #[error_metadata(message)]
        message: String,
    },
    /// An error answer this client does not model.
    Unhandled {
        /// The error code, if the body had one.
        #[error_metadata(code)]
        code: Option<String>,
        /// The HTTP status.
        #[error_metadata(status)]
        status: u16,
        /// The message, if the body had one.
        #[error_metadata(message)]
        message: Option<String>,
    },
    /// No (complete) answer: connection refused or reset, timeout. Its metadata is
    /// `reqwest::Error`'s (waiter-runtime's `reqwest` feature): transient when it is one.
    #[error_metadata(transparent)]
    Transport(reqwest::Error),
    /// No (complete) answer to the blocking client on ureq
    /// ([`BlockingResourceClient`](crate::blocking_client::BlockingResourceClient)): its
    /// metadata is `ureq::Error`'s (waiter-runtime's `ureq` feature), transient for a refused
    /// or reset connection or a timeout.
    #[error_metadata(transparent)]
    Http(ureq::Error),
    /// An answer that is not what the service documents (a body that does not parse).
    #[error_metadata(no_code)]
    InvalidResponse {
        /// HTTP status of the answer.
        #[error_metadata(status)]
        status: u16,
        /// What did not parse.
        reason: String,
    },
}

impl ResourceError {
    /// Reads an answer: its JSON body as `T` on success, else the error it describes.
    pub(crate) async fn read_response<T: serde::de::DeserializeOwned>(
        response: reqwest::Response,
    ) -> Result<T, ResourceError> {
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.bytes().await?;
        Self::read_answer(status.as_u16(), &headers, &bytes)
    }

    /// Reads a whole answer: its JSON body as `T` on a 2xx status, else the error it describes.
    pub(crate) fn read_answer<T: serde::de::DeserializeOwned>(
        status: u16,
        headers: &HeaderMap,
        body: &[u8],
    ) -> Result<T, ResourceError> {
        if (200..300).contains(&status) {
            serde_json::from_slice(body).map_err(|e| ResourceError::InvalidResponse {
                status,
                reason: e.to_string(),
            })
        } else {
            Err(ResourceError::from_response(status, headers, body))
        }
    }

    /// Builds the error from an error answer's status, headers and body.
    pub(crate) fn from_response(status: u16, headers: &HeaderMap, body: &[u8]) -> Self {
        let parsed: ErrorBody = serde_json::from_slice(body).unwrap_or(ErrorBody {
            code: None,
            message: None,
        });
        let message = parsed.message.clone().unwrap_or_default();
        let retry_after = retry_after_from_header_map(headers);
        match parsed.code.as_deref() {
            Some("NotFound") => Self::NotFound { message },
            Some("ResourceInUseException") => Self::ResourceInUse { message },
            Some("ValidationException") => Self::Validation { message },
            Some("ThrottlingException") => Self::Throttling {
                message,
                retry_after,
            },
            Some("SlowDown") => Self::SlowDown {
                message,
                retry_after,
            },
            Some("ServiceUnavailable") => Self::ServiceUnavailable { message },
            _ => Self::Unhandled {
                code: parsed.code,
                status,
                message: parsed.message,
            },
        }
    }

    /// Whether this is a throttling answer (`ThrottlingException`, `SlowDown`).
    pub fn is_throttling_error(&self) -> bool {
        matches!(self, Self::Throttling { .. } | Self::SlowDown { .. })
    }
}

impl fmt::Display for ResourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotFound { message } => write!(f, "resource not found (NotFound): {message}"),
            Self::ResourceInUse { message } => write!(
                f,
                "resource already exists (ResourceInUseException): {message}"
            ),
            Self::Validation { message } => {
                write!(f, "invalid request (ValidationException): {message}")
            }
            Self::Throttling { message, .. } => {
                write!(f, "throttled (ThrottlingException, HTTP 429): {message}")
            }
            Self::SlowDown { message, .. } => {
                write!(f, "throttled (SlowDown, HTTP 503): {message}")
            }
            Self::ServiceUnavailable { message } => {
                write!(
                    f,
                    "service unavailable (ServiceUnavailable, HTTP 503): {message}"
                )
            }
            Self::Unhandled {
                code,
                status,
                message,
            } => {
                write!(
                    f,
                    "service error {} (HTTP {status})",
                    code.as_deref().unwrap_or("without a code")
                )?;
                match message {
                    Some(m) => write!(f, ": {m}"),
                    None => Ok(()),
                }
            }
            Self::Transport(e) => write!(f, "no answer from the service: {e}"),
            Self::Http(e) => write!(f, "no answer from the service: {e}"),
            Self::InvalidResponse { status, reason } => {
                write!(f, "unexpected answer (HTTP {status}): {reason}")
            }
        }
    }
}

impl std::error::Error for ResourceError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Transport(e) => Some(e),
            Self::Http(e) => Some(e),
            _ => None,
        }
    }
}

impl From<reqwest::Error> for ResourceError {
    fn from(e: reqwest::Error) -> Self {
        Self::Transport(e)
    }
}

impl From<ureq::Error> for ResourceError {
    fn from(e: ureq::Error) -> Self {
        Self::Http(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn error_bodies_become_variants_with_metadata() {
        let mut headers = HeaderMap::new();
        headers.insert("retry-after", HeaderValue::from_static("2"));
        let e = ResourceError::from_response(
            429,
            &headers,
            br#"{"code":"ThrottlingException","message":"slow"}"#,
        );
        assert!(matches!(e, ResourceError::Throttling { .. }));
        assert_eq!(
            (e.code(), e.message(), e.http_status()),
            (Some("ThrottlingException"), Some("slow"), Some(429))
        );
        assert_eq!(e.retry_after(), Some(Duration::from_secs(2)));
        assert!(e.is_throttling_error() && e.is_throttling() && !e.is_transient());

        headers.insert("x-amz-retry-after", HeaderValue::from_static("250"));
        let e =
            ResourceError::from_response(503, &headers, br#"{"code":"SlowDown","message":"m"}"#);
        assert_eq!(
            e.retry_after(),
            Some(Duration::from_millis(250)),
            "x-amz-retry-after wins"
        );

        let e = ResourceError::from_response(
            404,
            &HeaderMap::new(),
            br#"{"code":"NotFound","message":"gone"}"#,
        );
        assert_eq!(e.code(), Some("NotFound"));
        assert_eq!(e.to_string(), "resource not found (NotFound): gone");

        let e = ResourceError::from_response(418, &HeaderMap::new(), b"not json");
        assert_eq!((e.code(), e.http_status()), (None, Some(418)));
        assert_eq!(e.to_string(), "service error without a code (HTTP 418)");
        let e = ResourceError::from_response(
            400,
            &HeaderMap::new(),
            br#"{"code":"Teapot","message":"short"}"#,
        );
        assert_eq!((e.code(), e.message()), (Some("Teapot"), Some("short")));
    }
}
