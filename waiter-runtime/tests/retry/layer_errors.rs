//! How the retry layers see transport errors and responses (features `tower`,
//! `reqwest-middleware`): which are transient, which codes and hints a response names.

#![cfg(all(feature = "tower", feature = "reqwest-middleware"))]

use std::io;
use std::time::Duration;

use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::retry::layer::{HttpFailure, TransportError};

#[derive(Debug)]
struct Wrapped(io::Error);

impl std::fmt::Display for Wrapped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("client error (Connect)")
    }
}

impl std::error::Error for Wrapped {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

#[test]
fn a_transport_error_is_a_std_error_transparent_over_the_error_it_wraps() {
    let error = TransportError::new(Wrapped(io::Error::other("refused")));
    let error: &dyn std::error::Error = &error;
    assert_eq!(error.to_string(), "client error (Connect)");
    assert_eq!(error.source().unwrap().to_string(), "refused");
    // `?` converts it into the usual boxed error.
    fn boxed() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        Err(TransportError::new(io::Error::other("reset")))?
    }
    assert_eq!(boxed().unwrap_err().to_string(), "reset");
}

#[test]
fn transport_errors_are_transient_by_their_cause() {
    for kind in [
        io::ErrorKind::ConnectionRefused,
        io::ErrorKind::ConnectionReset,
        io::ErrorKind::TimedOut,
    ] {
        assert!(
            TransportError::new(io::Error::from(kind)).is_transient(),
            "{kind:?}"
        );
        // As a cause, the way hyper-util's client wraps a connect error.
        assert!(
            TransportError::new(Wrapped(io::Error::from(kind))).is_transient(),
            "{kind:?}"
        );
    }
    assert!(TransportError::new(tower::timeout::error::Elapsed::new()).is_transient());
    assert!(!TransportError::new(io::Error::from(io::ErrorKind::InvalidInput)).is_transient());
    assert!(!TransportError::new("invalid URI").is_transient());
    let error = TransportError::new("boom");
    assert_eq!(error.to_string(), "boom");
    assert_eq!(error.into_inner().to_string(), "boom");
}

#[test]
fn a_failed_response_names_its_code_status_and_hint_from_its_headers() {
    let response = http::Response::builder()
        .status(503)
        .header("x-amz-error-code", "SlowDown")
        .header("retry-after", "3")
        .body(())
        .unwrap();
    let failure = HttpFailure::<_, TransportError>::Response(response);
    assert_eq!(failure.code(), Some("SlowDown"));
    assert_eq!(failure.http_status(), Some(503));
    assert_eq!(failure.retry_after(), Some(Duration::from_secs(3)));
    assert!(!failure.is_transient());

    let failure = HttpFailure::<http::Response<()>, _>::Transport(TransportError::new(
        io::Error::from(io::ErrorKind::ConnectionReset),
    ));
    assert!(failure.is_transient());
    assert_eq!((failure.code(), failure.http_status()), (None, None));
}

#[test]
fn a_middleware_error_is_transient_when_its_cause_is() {
    let transient = reqwest_middleware::Error::Middleware(anyhow::Error::new(io::Error::from(
        io::ErrorKind::ConnectionAborted,
    )));
    assert!(transient.is_transient());
    let not = reqwest_middleware::Error::Middleware(anyhow::anyhow!("rejected by policy"));
    assert!(!not.is_transient());
}
