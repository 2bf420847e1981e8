//! `ProvideErrorMetadata` for `std::io::Error` (feature `io`, on by default).

use std::io;

use super::ProvideErrorMetadata;

/// Whether an IO error of this kind is transient: worth retrying the request that failed.
///
/// Timeouts, resets, aborts, refused or lost connections, broken pipes, unexpected ends of
/// stream and interruptions are; everything else (not found, permission denied, invalid
/// data...) is not.
///
/// ```
/// use std::io::ErrorKind;
/// use waiter_runtime::error_metadata::is_transient_io_kind;
///
/// assert!(is_transient_io_kind(ErrorKind::ConnectionReset));
/// assert!(!is_transient_io_kind(ErrorKind::PermissionDenied));
/// ```
pub fn is_transient_io_kind(kind: io::ErrorKind) -> bool {
    use io::ErrorKind::*;
    matches!(
        kind,
        TimedOut
            | ConnectionReset
            | ConnectionAborted
            | ConnectionRefused
            | NotConnected
            | BrokenPipe
            | UnexpectedEof
            | Interrupted
            | WouldBlock
            | AddrNotAvailable
            | HostUnreachable
            | NetworkUnreachable
            | NetworkDown
    )
}

/// An IO error has no code; it is [transient](ProvideErrorMetadata::is_transient) when its kind
/// is (see [`is_transient_io_kind`]).
///
/// ```
/// use std::io;
/// use waiter_runtime::ProvideErrorMetadata;
///
/// assert!(io::Error::from(io::ErrorKind::TimedOut).is_transient());
/// assert!(!io::Error::from(io::ErrorKind::NotFound).is_transient());
/// ```
impl ProvideErrorMetadata for io::Error {
    fn code(&self) -> Option<&str> {
        None
    }

    fn is_transient(&self) -> bool {
        is_transient_io_kind(self.kind())
    }
}
