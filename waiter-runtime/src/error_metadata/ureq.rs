//! `ProvideErrorMetadata` for ureq 3's `ureq::Error` (feature `ureq`).

use super::{ProvideErrorMetadata, is_transient_io_kind};

/// A ureq error has no code. Its status is the response's: ureq turns a 4xx or 5xx answer into
/// `Error::StatusCode(status)` (unless `http_status_as_error(false)`), and the retry
/// classifiers read that status as they read a reqwest error's from `error_for_status()`, so
/// 500, 502, 503 and 504 are retried by default, and 429 as throttling where a classifier
/// adds it.
///
/// It is transient when no complete answer came back and sending the request again may get
/// one: a timeout of any kind (connect, read, write, the whole call), a failed or refused
/// connection, an IO error of a transient kind ([`is_transient_io_kind`]: a reset, an
/// unexpected end of stream...), a host name that did not resolve, a CONNECT proxy that did
/// not open the tunnel (reqwest counts both as connection errors too), or a bespoke
/// transport's `Error::Other` caused by a transient IO error. A malformed response
/// (`Error::Protocol`, a header too large) is not transient: the server answered, and would
/// answer the same again; nor are TLS, URI, redirect or body-size errors.
///
/// A status error carries no headers, so no retry-after hint: a client that wants the
/// server's `Retry-After` followed turns `http_status_as_error` off and returns the
/// `http::Response` as its error (feature `http`, which this feature turns on).
///
/// ```
/// use waiter_runtime::ProvideErrorMetadata;
///
/// assert_eq!(ureq::Error::StatusCode(503).http_status(), Some(503));
/// assert!(ureq::Error::Timeout(ureq::Timeout::Connect).is_transient());
/// assert!(ureq::Error::from(std::io::Error::from(std::io::ErrorKind::ConnectionReset)).is_transient());
/// assert!(!ureq::Error::StatusCode(404).is_transient());
/// assert_eq!(ureq::Error::HostNotFound.code(), None);
/// ```
impl ProvideErrorMetadata for ureq::Error {
    fn code(&self) -> Option<&str> {
        None
    }

    fn http_status(&self) -> Option<u16> {
        match self {
            ureq::Error::StatusCode(status) => Some(*status),
            _ => None,
        }
    }

    fn is_transient(&self) -> bool {
        match self {
            ureq::Error::Timeout(_)
            | ureq::Error::ConnectionFailed
            | ureq::Error::HostNotFound
            | ureq::Error::ConnectProxyFailed(_) => true,
            ureq::Error::Io(io) => is_transient_io_kind(io.kind()),
            ureq::Error::Other(other) => caused_by_transient_io(other.as_ref()),
            _ => false,
        }
    }
}

/// Whether the first `std::io::Error` in `error`'s chain (itself included) is of a transient
/// kind; `false` when there is none.
fn caused_by_transient_io(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(error);
    while let Some(err) = next {
        if let Some(io) = err.downcast_ref::<std::io::Error>() {
            return is_transient_io_kind(io.kind());
        }
        next = err.source();
    }
    false
}
