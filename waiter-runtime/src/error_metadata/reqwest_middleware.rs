//! `ProvideErrorMetadata` for `reqwest_middleware::Error` (feature `reqwest-middleware`).

use std::time::Duration;

use super::ProvideErrorMetadata;
use super::io::is_transient_io_kind;

/// A reqwest error is described as [`reqwest::Error`] is (timeouts, connection and body errors
/// are transient); an error from another middleware is transient when a `reqwest::Error` or an
/// IO error of a transient kind caused it.
impl ProvideErrorMetadata for reqwest_middleware::Error {
    fn code(&self) -> Option<&str> {
        None
    }

    fn http_status(&self) -> Option<u16> {
        match self {
            reqwest_middleware::Error::Reqwest(e) => e.http_status(),
            reqwest_middleware::Error::Middleware(_) => None,
        }
    }

    fn retry_after(&self) -> Option<Duration> {
        None
    }

    fn is_transient(&self) -> bool {
        match self {
            reqwest_middleware::Error::Reqwest(e) => e.is_transient(),
            reqwest_middleware::Error::Middleware(e) => e.chain().any(|cause| {
                if let Some(e) = cause.downcast_ref::<reqwest::Error>() {
                    e.is_transient()
                } else if let Some(e) = cause.downcast_ref::<std::io::Error>() {
                    is_transient_io_kind(e.kind())
                } else {
                    false
                }
            }),
        }
    }
}
