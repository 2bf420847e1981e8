//! `ProvideErrorMetadata` for reqwest's types: reqwest 0.13 (feature `reqwest`) and reqwest
//! 0.12 (feature `reqwest-0_12`), described alike.

/// Implements `ProvideErrorMetadata` for `$reqwest::Error` and `$reqwest::Response`, where
/// `$reqwest` is the name under which one reqwest release is a dependency.
macro_rules! provide_for_reqwest {
    ($reqwest:ident, $version:literal) => {
        #[doc = concat!("A reqwest ", $version, " error has no code; its status is the response's")]
        /// (from `error_for_status`); it is transient when the request timed out or could not
        /// connect, when hyper says the connection was lost before the response was complete
        /// (or before the request went out), when an IO error of a transient kind caused it, or
        /// when it failed while being sent or while its body was read for another reason. A
        /// malformed response (a bad status line, status `000`, headers too large or too many)
        /// is not transient: the server answered, and would answer the same again (the tower
        /// layer's `TransportError` judges hyper's errors the same way).
        ///
        /// So with the default classifiers, a reqwest-based client retries timeouts, connection
        /// errors and (after `error_for_status()`) 500, 502, 503 and 504, with no code of its own.
        impl $crate::error_metadata::ProvideErrorMetadata for ::$reqwest::Error {
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
                let mut source = ::std::error::Error::source(self);
                while let Some(err) = source {
                    if let Some(verdict) = err
                        .downcast_ref::<::hyper::Error>()
                        .and_then($crate::error_metadata::hyper_verdict)
                    {
                        return verdict;
                    }
                    if let Some(io) = err.downcast_ref::<::std::io::Error>() {
                        return $crate::error_metadata::is_transient_io_kind(io.kind());
                    }
                    source = err.source();
                }
                self.is_body() || (self.is_request() && self.status().is_none())
            }
        }

        #[doc = concat!("A reqwest ", $version, " response as an error (a client that returns")]
        /// `Err(response)` for an unsuccessful status): its status, its retry-after headers,
        /// and the code named in `x-amzn-errortype`.
        impl $crate::error_metadata::ProvideErrorMetadata for ::$reqwest::Response {
            fn code(&self) -> Option<&str> {
                $crate::error_metadata::error_code_from_header_map(self.headers())
            }
            fn http_status(&self) -> Option<u16> {
                Some(self.status().as_u16())
            }
            fn retry_after(&self) -> Option<::std::time::Duration> {
                $crate::error_metadata::retry_after_from_header_map(self.headers())
            }
            fn retry_forbidden(&self) -> bool {
                $crate::error_metadata::retry_forbidden_by(self.headers())
            }
        }
    };
}

#[cfg(feature = "reqwest")]
provide_for_reqwest!(reqwest, "0.13");
#[cfg(feature = "reqwest-0_12")]
provide_for_reqwest!(reqwest_0_12, "0.12");
