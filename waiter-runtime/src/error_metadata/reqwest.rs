//! `ProvideErrorMetadata` for `reqwest` types (feature `reqwest`).

use std::error::Error as _;
use std::time::Duration;

use super::ProvideErrorMetadata;
use super::http::{error_type, retry_after_from_header_map};
use super::io::is_transient_io_kind;

/// A reqwest error has no code; its status is the response's (from `error_for_status`); it is
/// transient when the request timed out, could not connect, failed while being sent or while
/// its body was read, or when an IO error of a transient kind caused it.
///
/// So with the default classifiers, a reqwest-based client retries timeouts, connection
/// errors and (after `error_for_status()`) 500, 502, 503 and 504, with no code of its own.
impl ProvideErrorMetadata for reqwest::Error {
    fn code(&self) -> Option<&str> {
        None
    }

    fn http_status(&self) -> Option<u16> {
        self.status().map(|s| s.as_u16())
    }

    fn is_transient(&self) -> bool {
        if self.is_timeout() || self.is_connect() || self.is_body() {
            return true;
        }
        if self.is_request() && self.status().is_none() {
            return true;
        }
        let mut source = self.source();
        while let Some(err) = source {
            if let Some(io) = err.downcast_ref::<std::io::Error>() {
                return is_transient_io_kind(io.kind());
            }
            source = err.source();
        }
        false
    }
}

/// A response as an error (a client that returns `Err(response)` for an unsuccessful
/// status): its status, its retry-after headers, and the code named in `x-amzn-errortype`.
impl ProvideErrorMetadata for reqwest::Response {
    fn code(&self) -> Option<&str> {
        error_type(self.headers())
    }
    fn http_status(&self) -> Option<u16> {
        Some(self.status().as_u16())
    }
    fn retry_after(&self) -> Option<Duration> {
        retry_after_from_header_map(self.headers())
    }
}
