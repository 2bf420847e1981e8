//! `ProvideErrorMetadata` for `reqwest` types (feature `reqwest`).

use std::error::Error as _;
use std::time::Duration;

use super::ProvideErrorMetadata;
use super::http::{error_type, retry_after_from_header_map};
use super::hyper_verdict;
use super::io::is_transient_io_kind;

/// A reqwest error has no code; its status is the response's (from `error_for_status`); it is
/// transient when the request timed out or could not connect, when hyper says the connection
/// was lost before the response was complete (or before the request went out), when an IO
/// error of a transient kind caused it, or when it failed while being sent or while its body
/// was read for another reason. A malformed response (a bad status line, status `000`,
/// headers too large or too many) is not transient: the server answered, and would answer the
/// same again (the tower layer's `TransportError` judges hyper's errors the same way).
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
        if self.is_timeout() || self.is_connect() {
            return true;
        }
        let mut source = self.source();
        while let Some(err) = source {
            if let Some(verdict) = err.downcast_ref::<hyper::Error>().and_then(hyper_verdict) {
                return verdict;
            }
            if let Some(io) = err.downcast_ref::<std::io::Error>() {
                return is_transient_io_kind(io.kind());
            }
            source = err.source();
        }
        self.is_body() || (self.is_request() && self.status().is_none())
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
