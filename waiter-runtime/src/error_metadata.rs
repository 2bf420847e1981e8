//! How an error describes itself to waiters (`errorType` matchers) and to retry classifiers.

use std::time::Duration;

/// Metadata an operation's error exposes about itself.
///
/// Waiters match `errorType` acceptors against [`code`](Self::code); retry classifiers read the
/// other methods. Every method but `code` has a default, so an implementation states only what
/// it knows.
///
/// ```
/// use waiter_runtime::ProvideErrorMetadata;
///
/// #[derive(Debug)]
/// enum GetThingError {
///     NotFound,
///     Other(String),
/// }
///
/// impl ProvideErrorMetadata for GetThingError {
///     fn code(&self) -> Option<&str> {
///         match self {
///             GetThingError::NotFound => Some("NotFound"),
///             GetThingError::Other(_) => None,
///         }
///     }
/// }
///
/// assert_eq!(GetThingError::NotFound.code(), Some("NotFound"));
/// ```
pub trait ProvideErrorMetadata {
    /// The error's code as the service sends it on the wire (`NotFound`,
    /// `InvalidInstanceID.NotFound`, `ThrottlingException`), if it has one.
    fn code(&self) -> Option<&str>;

    /// A human-readable message from the service, if any.
    fn message(&self) -> Option<&str> {
        None
    }

    /// The HTTP status code of the response that carried the error, if there was one.
    fn http_status(&self) -> Option<u16> {
        None
    }

    /// How long the service asked the client to wait before retrying (`Retry-After`,
    /// `x-amz-retry-after`), if it said.
    fn retry_after(&self) -> Option<Duration> {
        None
    }

    /// Whether the error is transient: a timeout, a connection or IO error, where no response
    /// (or no complete one) was received.
    fn is_transient(&self) -> bool {
        false
    }
}

impl<T: ProvideErrorMetadata + ?Sized> ProvideErrorMetadata for &T {
    fn code(&self) -> Option<&str> {
        (**self).code()
    }
    fn message(&self) -> Option<&str> {
        (**self).message()
    }
    fn http_status(&self) -> Option<u16> {
        (**self).http_status()
    }
    fn retry_after(&self) -> Option<Duration> {
        (**self).retry_after()
    }
    fn is_transient(&self) -> bool {
        (**self).is_transient()
    }
}

impl<T: ProvideErrorMetadata + ?Sized> ProvideErrorMetadata for Box<T> {
    fn code(&self) -> Option<&str> {
        (**self).code()
    }
    fn message(&self) -> Option<&str> {
        (**self).message()
    }
    fn http_status(&self) -> Option<u16> {
        (**self).http_status()
    }
    fn retry_after(&self) -> Option<Duration> {
        (**self).retry_after()
    }
    fn is_transient(&self) -> bool {
        (**self).is_transient()
    }
}
