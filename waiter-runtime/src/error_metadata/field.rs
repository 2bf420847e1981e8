//! How `#[derive(ProvideErrorMetadata)]` reads fields marked `#[error_metadata(code)]`,
//! `#[error_metadata(message)]`, `#[error_metadata(status)]` and `#[error_metadata(retry_after)]`.
//!
//! The derive calls these traits on the marked field, so a field may be of any type that
//! implements the matching trait: the common ones are covered, and you can implement them for
//! your own types.
//!
//! ```
//! use std::time::Duration;
//! use waiter_runtime::ProvideErrorMetadata;
//!
//! #[derive(Debug, ProvideErrorMetadata)]
//! enum PutItemError {
//!     #[error_metadata(retryable(throttling))]
//!     Throttled {
//!         #[error_metadata(message)]
//!         message: String,
//!         #[error_metadata(retry_after)]
//!         retry_after: Option<Duration>,
//!     },
//!     Unhandled {
//!         #[error_metadata(code)]
//!         code: Option<String>,
//!         #[error_metadata(status)]
//!         status: u16,
//!     },
//! }
//!
//! let e = PutItemError::Throttled { message: "slow down".into(), retry_after: None };
//! assert_eq!(e.code(), Some("Throttled"));
//! assert_eq!(e.message(), Some("slow down"));
//! assert!(e.is_throttling());
//!
//! let e = PutItemError::Unhandled { code: Some("Teapot".into()), status: 418 };
//! assert_eq!((e.code(), e.http_status()), (Some("Teapot"), Some(418)));
//! ```

use std::borrow::Cow;
use std::time::Duration;

/// A field that may hold an error's code or message.
///
/// Marking a field of another type is a compile error at the field:
///
/// ```compile_fail
/// use waiter_runtime::ProvideErrorMetadata;
///
/// #[derive(ProvideErrorMetadata)]
/// enum E {
///     A {
///         #[error_metadata(message)]
///         message: u32, // `u32` cannot be read as an error code or message
///     },
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read as an error code or message",
    label = "this field is marked `code` or `message`",
    note = "use `String`, `&str`, `Box<str>`, `Cow<str>` or an `Option` of one of them, \
            or implement `waiter_runtime::error_metadata::field::Text` for `{Self}`"
)]
pub trait Text {
    /// The text, if there is one.
    fn text(&self) -> Option<&str>;
}

impl Text for str {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}
impl Text for String {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}
impl Text for Box<str> {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}
impl Text for Cow<'_, str> {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}
impl<T: Text + ?Sized> Text for &T {
    fn text(&self) -> Option<&str> {
        (**self).text()
    }
}
impl<T: Text> Text for Option<T> {
    fn text(&self) -> Option<&str> {
        self.as_ref().and_then(Text::text)
    }
}

/// A field that may hold the HTTP status code of the response that carried an error.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read as an HTTP status code",
    label = "this field is marked `status`",
    note = "use `u16`, `Option<u16>` (or `http::StatusCode` with the `http` feature), \
            or implement `waiter_runtime::error_metadata::field::Status` for `{Self}`"
)]
pub trait Status {
    /// The status code, if there is one.
    fn status(&self) -> Option<u16>;
}

impl Status for u16 {
    fn status(&self) -> Option<u16> {
        Some(*self)
    }
}
impl<T: Status + ?Sized> Status for &T {
    fn status(&self) -> Option<u16> {
        (**self).status()
    }
}
impl<T: Status> Status for Option<T> {
    fn status(&self) -> Option<u16> {
        self.as_ref().and_then(Status::status)
    }
}

/// A field that may hold how long the service asked the client to wait before retrying.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read as a retry-after delay",
    label = "this field is marked `retry_after`",
    note = "use `std::time::Duration` or `Option<Duration>`, \
            or implement `waiter_runtime::error_metadata::field::RetryAfter` for `{Self}`"
)]
pub trait RetryAfter {
    /// The delay, if there is one.
    fn retry_after(&self) -> Option<Duration>;

    /// Whether the field says not to retry at all (a response's headers may: gRPC's
    /// pushback). By default `false`.
    fn retry_forbidden(&self) -> bool {
        false
    }
}

impl RetryAfter for Duration {
    fn retry_after(&self) -> Option<Duration> {
        Some(*self)
    }
}
impl<T: RetryAfter + ?Sized> RetryAfter for &T {
    fn retry_after(&self) -> Option<Duration> {
        (**self).retry_after()
    }
    fn retry_forbidden(&self) -> bool {
        (**self).retry_forbidden()
    }
}
impl<T: RetryAfter> RetryAfter for Option<T> {
    fn retry_after(&self) -> Option<Duration> {
        self.as_ref().and_then(RetryAfter::retry_after)
    }
    fn retry_forbidden(&self) -> bool {
        self.as_ref().is_some_and(RetryAfter::retry_forbidden)
    }
}
