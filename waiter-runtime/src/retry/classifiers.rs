//! The built-in classifiers, from the highest priority to the lowest:
//! [`TransientErrorClassifier`], [`ModeledAsRetryableClassifier`], [`ErrorCodeClassifier`],
//! [`HttpStatusCodeClassifier`], [`ServerPushbackClassifier`].
//!
//! Each attaches the error's [`retry_after`](crate::ProvideErrorMetadata::retry_after) hint to
//! the retry it indicates; the last one forbids the retry when the server asked for none.

use std::borrow::Cow;

use super::{ClassifyContext, ClassifyRetry, ErrorKind, RetryAction, RetryClassifierPriority};

/// Error codes the AWS SDKs treat as throttling.
pub const THROTTLING_ERROR_CODES: &[&str] = &[
    "Throttling",
    "ThrottlingException",
    "ThrottledException",
    "RequestThrottledException",
    "TooManyRequestsException",
    "ProvisionedThroughputExceededException",
    "TransactionInProgressException",
    "RequestLimitExceeded",
    "BandwidthLimitExceeded",
    "LimitExceededException",
    "RequestThrottled",
    "SlowDown",
    "PriorRequestNotComplete",
    "EC2ThrottledException",
];

/// Error codes the AWS SDKs treat as transient.
pub const TRANSIENT_ERROR_CODES: &[&str] = &["RequestTimeout", "RequestTimeoutException"];

/// HTTP status codes retried by default.
pub const DEFAULT_RETRYABLE_STATUS_CODES: &[u16] = &[500, 502, 503, 504];

/// Retries errors that say they are transient (timeouts, connection and IO errors) as
/// [`ErrorKind::TransientError`]. Highest built-in priority.
#[derive(Clone, Copy, Debug, Default)]
pub struct TransientErrorClassifier;

impl ClassifyRetry for TransientErrorClassifier {
    fn classify_retry(&self, ctx: &ClassifyContext<'_>) -> RetryAction {
        match ctx.error() {
            Some(e) if e.is_transient() => {
                RetryAction::transient_error().with_retry_after(e.retry_after())
            }
            _ => RetryAction::NoActionIndicated,
        }
    }
    fn name(&self) -> &'static str {
        "transient error"
    }
    fn priority(&self) -> RetryClassifierPriority {
        RetryClassifierPriority::transient_error_classifier()
    }
}

/// Retries errors modeled as retryable (`@retryable`): throttling ones as
/// [`ErrorKind::ThrottlingError`], others as [`ErrorKind::ServerError`] when the status is 5xx
/// and [`ErrorKind::ClientError`] otherwise.
#[derive(Clone, Copy, Debug, Default)]
pub struct ModeledAsRetryableClassifier;

impl ClassifyRetry for ModeledAsRetryableClassifier {
    fn classify_retry(&self, ctx: &ClassifyContext<'_>) -> RetryAction {
        let Some(e) = ctx.error() else {
            return RetryAction::NoActionIndicated;
        };
        let kind = if e.is_throttling() {
            ErrorKind::ThrottlingError
        } else if e.is_retryable() {
            match e.http_status() {
                Some(500..=599) => ErrorKind::ServerError,
                _ => ErrorKind::ClientError,
            }
        } else {
            return RetryAction::NoActionIndicated;
        };
        RetryAction::retryable_error(kind).with_retry_after(e.retry_after())
    }
    fn name(&self) -> &'static str {
        "modeled as retryable"
    }
    fn priority(&self) -> RetryClassifierPriority {
        RetryClassifierPriority::modeled_as_retryable_classifier()
    }
}

/// Retries errors by their code: the [throttling codes](THROTTLING_ERROR_CODES) as
/// [`ErrorKind::ThrottlingError`], the [transient codes](TRANSIENT_ERROR_CODES) as
/// [`ErrorKind::TransientError`]. Both lists can be extended. The error's code is compared
/// through [`normalize_code`](crate::error_metadata::normalize_code): an absolute shape ID
/// (`com.amazonaws.dynamodb.v20120810#ThrottlingException`) is its name.
///
/// ```
/// use waiter_runtime::retry::ErrorCodeClassifier;
///
/// let classifier = ErrorCodeClassifier::new().with_throttling_code("Backpressure");
/// assert!(classifier.throttling_codes().any(|c| c == "SlowDown"));
/// assert!(classifier.throttling_codes().any(|c| c == "Backpressure"));
/// ```
#[derive(Clone, Debug)]
pub struct ErrorCodeClassifier {
    throttling: Vec<Cow<'static, str>>,
    transient: Vec<Cow<'static, str>>,
}

impl Default for ErrorCodeClassifier {
    fn default() -> Self {
        Self::new()
    }
}

impl ErrorCodeClassifier {
    /// The AWS SDKs' code lists.
    pub fn new() -> Self {
        ErrorCodeClassifier {
            throttling: THROTTLING_ERROR_CODES
                .iter()
                .map(|c| Cow::Borrowed(*c))
                .collect(),
            transient: TRANSIENT_ERROR_CODES
                .iter()
                .map(|c| Cow::Borrowed(*c))
                .collect(),
        }
    }

    /// Also treats `code` as throttling.
    pub fn with_throttling_code(mut self, code: impl Into<Cow<'static, str>>) -> Self {
        self.throttling.push(code.into());
        self
    }

    /// Also treats `code` as transient.
    pub fn with_transient_code(mut self, code: impl Into<Cow<'static, str>>) -> Self {
        self.transient.push(code.into());
        self
    }

    /// The codes treated as throttling.
    pub fn throttling_codes(&self) -> impl Iterator<Item = &str> {
        self.throttling.iter().map(|c| &**c)
    }

    /// The codes treated as transient.
    pub fn transient_codes(&self) -> impl Iterator<Item = &str> {
        self.transient.iter().map(|c| &**c)
    }
}

impl ClassifyRetry for ErrorCodeClassifier {
    fn classify_retry(&self, ctx: &ClassifyContext<'_>) -> RetryAction {
        let Some(e) = ctx.error() else {
            return RetryAction::NoActionIndicated;
        };
        let Some(code) = e.code().map(crate::error_metadata::normalize_code) else {
            return RetryAction::NoActionIndicated;
        };
        let action = if self.throttling.iter().any(|c| c == code) {
            RetryAction::throttling_error()
        } else if self.transient.iter().any(|c| c == code) {
            RetryAction::transient_error()
        } else {
            return RetryAction::NoActionIndicated;
        };
        action.with_retry_after(e.retry_after())
    }
    fn name(&self) -> &'static str {
        "error code"
    }
    fn priority(&self) -> RetryClassifierPriority {
        RetryClassifierPriority::error_code_classifier()
    }
}

/// Forbids the retry of an error whose server asked for none
/// ([`retry_forbidden`](crate::ProvideErrorMetadata::retry_forbidden): gRPC's
/// `grpc-retry-pushback-ms`, negative or unreadable, as gRPC A6 says). It runs first and its
/// `RetryForbidden` ends the chain, so no other classifier's verdict overrides the server's.
///
/// ```
/// use waiter_runtime::retry::{ClassifyContext, ClassifyRetry, RetryAction, ServerPushbackClassifier};
///
/// let response = http::Response::builder()
///     .status(503)
///     .header("grpc-retry-pushback-ms", "-1")
///     .body(())
///     .unwrap();
/// let result: Result<(), _> = Err(response);
/// let ctx = ClassifyContext::new(&result, 1);
/// assert_eq!(ServerPushbackClassifier.classify_retry(&ctx), RetryAction::RetryForbidden);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct ServerPushbackClassifier;

impl ClassifyRetry for ServerPushbackClassifier {
    fn classify_retry(&self, ctx: &ClassifyContext<'_>) -> RetryAction {
        match ctx.error() {
            Some(e) if e.retry_forbidden() => RetryAction::RetryForbidden,
            _ => RetryAction::NoActionIndicated,
        }
    }
    fn name(&self) -> &'static str {
        "server pushback"
    }
    fn priority(&self) -> RetryClassifierPriority {
        RetryClassifierPriority::server_pushback_classifier()
    }
}

/// Retries errors by the HTTP status of their response: 500, 502, 503 and 504 by default.
/// A 429 in the list is retried as [`ErrorKind::ThrottlingError`], 5xx as
/// [`ErrorKind::ServerError`], other codes as [`ErrorKind::ClientError`]. Lowest built-in priority.
///
/// ```
/// use waiter_runtime::retry::HttpStatusCodeClassifier;
///
/// // Opt in to retrying 429 Too Many Requests:
/// let classifier = HttpStatusCodeClassifier::default().with_status(429);
/// assert_eq!(classifier.status_codes(), [500, 502, 503, 504, 429]);
/// ```
#[derive(Clone, Debug)]
pub struct HttpStatusCodeClassifier {
    codes: Cow<'static, [u16]>,
}

impl Default for HttpStatusCodeClassifier {
    fn default() -> Self {
        HttpStatusCodeClassifier {
            codes: Cow::Borrowed(DEFAULT_RETRYABLE_STATUS_CODES),
        }
    }
}

impl HttpStatusCodeClassifier {
    /// Retries exactly these status codes.
    pub fn new_from_codes(codes: impl IntoIterator<Item = u16>) -> Self {
        HttpStatusCodeClassifier {
            codes: Cow::Owned(codes.into_iter().collect()),
        }
    }

    /// Also retries `status`.
    pub fn with_status(mut self, status: u16) -> Self {
        self.codes.to_mut().push(status);
        self
    }

    /// The status codes retried.
    pub fn status_codes(&self) -> &[u16] {
        &self.codes
    }
}

impl ClassifyRetry for HttpStatusCodeClassifier {
    fn classify_retry(&self, ctx: &ClassifyContext<'_>) -> RetryAction {
        let Some(e) = ctx.error() else {
            return RetryAction::NoActionIndicated;
        };
        match e.http_status() {
            Some(status) if self.codes.contains(&status) => {
                let kind = match status {
                    429 => ErrorKind::ThrottlingError,
                    500..=599 => ErrorKind::ServerError,
                    _ => ErrorKind::ClientError,
                };
                RetryAction::retryable_error(kind).with_retry_after(e.retry_after())
            }
            _ => RetryAction::NoActionIndicated,
        }
    }
    fn name(&self) -> &'static str {
        "http status code"
    }
    fn priority(&self) -> RetryClassifierPriority {
        RetryClassifierPriority::http_status_code_classifier()
    }
}
