//! How an error describes itself to waiters (`errorType` matchers) and to retry classifiers.
//!
//! Implement [`ProvideErrorMetadata`] by hand, or derive it for an error enum (or struct) with
//! `#[derive(ProvideErrorMetadata)]`.
//!
//! # Deriving
//!
//! Each variant's code is its name unless `code = "..."` says otherwise. Every key is optional:
//!
//! | on a variant (or a struct) | meaning |
//! |---|---|
//! | `code = "Wire.Code"` | the code sent on the wire (default: the variant's name) |
//! | `no_code` | the variant has no code (`code()` is `None`) |
//! | `status = 404` | the HTTP status that always comes with this error |
//! | `retryable` | modeled as retryable (`@retryable`) |
//! | `retryable(throttling)` or `throttling` | modeled as throttling (`@retryable(throttling: true)`) |
//! | `transient` | a timeout, connection or IO error |
//! | `transparent` | forward everything to the variant's only field, itself a `ProvideErrorMetadata` |
//! | `codes = ["A", "B"]` | on a catch-all (its code read from a field) or a `transparent` variant: codes it may carry that no variant models |
//!
//! | on a field | the field holds... | its type implements |
//! |---|---|---|
//! | `code` | the code (when it is known only at run time) | [`field::Text`] |
//! | `message` | the message | [`field::Text`] |
//! | `status` | the HTTP status | [`field::Status`] |
//! | `retry_after` | the server's retry-after hint | [`field::RetryAfter`] |
//!
//! On the enum, `crate = "path::to::waiter_runtime"` names the runtime crate when it is
//! re-exported under another path.
//!
//! The codes a derived type models (its variants' codes, and its catch-all's `codes`) are
//! known at compile time: `#[waitable]` warns, as Smithy does, of an `errorType` that is none
//! of them, with "did you mean" for a near miss (`ResourceNotFound` ->
//! `ResourceNotFoundException`) and the list of codes otherwise. A catch-all that declares no
//! `codes` carries only codes the type does not model, as far as the check is concerned; a type
//! whose only code is a catch-all's without `codes` is not checked. A `transparent` variant
//! wrapping a transport error this crate describes (`std::io::Error`, `reqwest::Error`,
//! `http::StatusCode`, `reqwest_middleware::Error`, the tower layer's `TransportError`, the
//! retrier's `AttemptTimedOut`, or a `Box` or `Arc` of one: they carry no service code) adds no code and keeps the check on; one
//! wrapping a derived type with no code likewise; one wrapping another type adds the codes it
//! declares (`#[error_metadata(transparent, codes = ["Throttling"])]`), and without them turns
//! the check off for the type, which the first `errorType` of each `#[waitable]` says in a
//! warning.
//!
//! ```
//! use std::time::Duration;
//! use waiter_runtime::ProvideErrorMetadata;
//!
//! #[derive(Debug)]
//! struct TransportError;
//! impl ProvideErrorMetadata for TransportError {
//!     fn code(&self) -> Option<&str> { None }
//!     fn is_transient(&self) -> bool { true }
//! }
//!
//! #[derive(Debug, ProvideErrorMetadata)]
//! enum GetThingError {
//!     #[error_metadata(code = "ResourceNotFoundException", status = 404)]
//!     NotFound { #[error_metadata(message)] message: String },
//!     #[error_metadata(code = "ThrottlingException", throttling)]
//!     Throttled(#[error_metadata(retry_after)] Option<Duration>),
//!     #[error_metadata(transparent)]
//!     Transport(TransportError),
//! }
//!
//! let e = GetThingError::NotFound { message: "no such thing".into() };
//! assert_eq!(e.code(), Some("ResourceNotFoundException"));
//! assert_eq!((e.message(), e.http_status()), (Some("no such thing"), Some(404)));
//!
//! let e = GetThingError::Throttled(Some(Duration::from_secs(2)));
//! assert!(e.is_throttling() && e.is_retryable());
//! assert_eq!(e.retry_after(), Some(Duration::from_secs(2)));
//!
//! assert!(GetThingError::Transport(TransportError).is_transient());
//! ```
//!
//! Mistakes are reported at the offending token, all of them in one go:
//!
//! ```compile_fail
//! use waiter_runtime::ProvideErrorMetadata;
//!
//! #[derive(ProvideErrorMetadata)]
//! enum E {
//!     #[error_metadata(code = NotFound)] // expected a string literal, like `code = "NotFound"`
//!     A,
//!     #[error_metadata(retry)] // unknown variant key `retry`; expected one of ...
//!     B,
//! }
//! ```

use std::time::Duration;

pub mod field;
pub mod hint;
#[cfg(feature = "http")]
mod http;
#[cfg(any(feature = "reqwest", feature = "reqwest-0_12", feature = "tower"))]
mod hyper;
#[cfg(feature = "io")]
mod io;
#[cfg(any(feature = "reqwest", feature = "reqwest-0_12"))]
mod reqwest;
#[cfg(feature = "reqwest-middleware")]
mod reqwest_middleware;
#[cfg(feature = "ureq")]
mod ureq;

#[cfg(feature = "http")]
pub(crate) use self::http::retry_forbidden_by;
#[cfg(feature = "http")]
pub use self::http::{
    error_code_from_header_map, retry_after_from_header_map, retry_hint_from_header_map,
};
#[cfg(any(feature = "reqwest", feature = "reqwest-0_12", feature = "tower"))]
pub(crate) use self::hyper::hyper_verdict;
#[cfg(feature = "io")]
pub use self::io::is_transient_io_kind;

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
    ///
    /// It may be given as read off the wire: matchers and classifiers compare it through
    /// [`normalize_code`], so `com.amazonaws.dynamodb.v20120810#ResourceNotFoundException` (an
    /// awsJson `__type`) matches `ResourceNotFoundException`.
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
    /// `x-amz-retry-after` and the other [hints](hint)), if it said.
    fn retry_after(&self) -> Option<Duration> {
        None
    }

    /// Whether the service asked the client not to retry at all (gRPC's
    /// `grpc-retry-pushback-ms` negative or unreadable: see [`hint`]). The built-in
    /// [`ServerPushbackClassifier`](crate::retry::ServerPushbackClassifier) forbids the retry.
    fn retry_forbidden(&self) -> bool {
        false
    }

    /// Whether the error is transient: a timeout, a connection or IO error, where no response
    /// (or no complete one) was received.
    fn is_transient(&self) -> bool {
        false
    }

    /// Whether the error is modeled as retryable (Smithy's `@retryable` trait): the service
    /// documents that sending the same request again may succeed.
    ///
    /// The retry classifier `ModeledAsRetryableClassifier` retries such errors.
    fn is_retryable(&self) -> bool {
        false
    }

    /// Whether the error is modeled as a throttling error (`@retryable(throttling: true)`).
    ///
    /// A throttling error is retryable whatever [`is_retryable`](Self::is_retryable) says; the
    /// retry is classified as throttling, which the adaptive retry mode uses to slow down.
    fn is_throttling(&self) -> bool {
        false
    }
}

/// The error code `code` names, as waiters' `errorType` matchers and the retry classifiers
/// compare it: without the `namespace#` of an absolute shape ID (awsJson's `__type`:
/// `com.amazonaws.dynamodb.v20120810#ResourceNotFoundException`) and without the `:uri`
/// suffix some protocols append (`x-amzn-ErrorType: ThrottlingException:http://internal.amazon.com/`),
/// then trimmed. A code with dots (`InvalidInstanceID.NotFound`) is a plain code.
///
/// This is how the AWS SDKs sanitise a code read off the wire: the part before the first `:`,
/// then the part after the first `#`.
///
/// The macros apply the same rule at compile time, with their own copy of it (the runtime
/// depends on the proc-macro crate, which exports only macros): to the codes
/// `#[derive(ProvideErrorMetadata)]` lists and to `errorType`s, for `#[waitable]`'s check that
/// an `errorType` is a code the error type models. `tests/waitable/macro_runtime_agreement.rs` keeps the
/// two equal.
///
/// ```
/// use waiter_runtime::error_metadata::normalize_code;
///
/// assert_eq!(
///     normalize_code("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"),
///     "ResourceNotFoundException",
/// );
/// assert_eq!(normalize_code("ThrottlingException:http://internal.amazon.com/"), "ThrottlingException");
/// assert_eq!(normalize_code("aws.protocoltests#FooError:http://x/"), "FooError");
/// assert_eq!(normalize_code("InvalidInstanceID.NotFound"), "InvalidInstanceID.NotFound");
/// ```
pub fn normalize_code(code: &str) -> &str {
    let code = code.split_once(':').map_or(code, |(before, _)| before);
    let code = code.split_once('#').map_or(code, |(_, after)| after);
    code.trim()
}

macro_rules! forward_metadata {
    ($($ty:ty),*) => {$(
        impl<T: ProvideErrorMetadata + ?Sized> ProvideErrorMetadata for $ty {
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
            fn retry_forbidden(&self) -> bool {
                (**self).retry_forbidden()
            }
            fn is_transient(&self) -> bool {
                (**self).is_transient()
            }
            fn is_retryable(&self) -> bool {
                (**self).is_retryable()
            }
            fn is_throttling(&self) -> bool {
                (**self).is_throttling()
            }
        }
    )*};
}

forward_metadata!(&T, Box<T>, std::sync::Arc<T>);
