//! `#[derive(ProvideErrorMetadata)]`: what each attribute makes the trait methods return.

use std::borrow::Cow;
use std::fmt::Debug;
use std::time::Duration;

use waiter_runtime::ProvideErrorMetadata;

#[derive(Debug, ProvideErrorMetadata)]
enum OpError {
    Plain,
    #[error_metadata(code = "InvalidInstanceID.NotFound", status = 404)]
    Renamed,
    #[error_metadata(retryable)]
    Busy {
        #[error_metadata(message)]
        message: String,
    },
    #[error_metadata(retryable(throttling))]
    Throttled(
        #[error_metadata(retry_after)] Duration,
        #[error_metadata(message)] &'static str,
    ),
    #[error_metadata(throttling, code = "SlowDown")]
    SlowDown,
    #[error_metadata(transient)]
    TimedOut,
    Unhandled {
        #[error_metadata(code)]
        code: Option<String>,
        #[error_metadata(message)]
        message: Option<Cow<'static, str>>,
        #[error_metadata(status)]
        status: Option<u16>,
        #[error_metadata(retry_after)]
        retry_after: Option<Duration>,
        _unrelated: Vec<u8>,
    },
    #[error_metadata(transparent)]
    Inner(InnerError),
    #[error_metadata(transparent)]
    Boxed {
        source: Box<InnerError>,
    },
}

#[derive(Debug, ProvideErrorMetadata)]
#[error_metadata(code = "InnerCode", transient, status = 503)]
struct InnerError {
    #[error_metadata(message)]
    message: Box<str>,
}

fn inner() -> InnerError {
    InnerError {
        message: "inner says".into(),
    }
}

#[test]
fn code_defaults_to_the_variant_name() {
    assert_eq!(OpError::Plain.code(), Some("Plain"));
    assert_eq!(OpError::Plain.message(), None);
    assert_eq!(OpError::Plain.http_status(), None);
    assert_eq!(OpError::Plain.retry_after(), None);
    assert!(!OpError::Plain.is_retryable());
    assert!(!OpError::Plain.is_throttling());
    assert!(!OpError::Plain.is_transient());
}

#[test]
fn code_and_status_can_be_given_on_the_variant() {
    assert_eq!(OpError::Renamed.code(), Some("InvalidInstanceID.NotFound"));
    assert_eq!(OpError::Renamed.http_status(), Some(404));
}

#[test]
fn retryable_is_not_throttling() {
    let e = OpError::Busy {
        message: "busy".into(),
    };
    assert!(e.is_retryable());
    assert!(!e.is_throttling());
    assert_eq!(e.message(), Some("busy"));
}

#[test]
fn throttling_implies_retryable_in_both_spellings() {
    let e = OpError::Throttled(Duration::from_millis(1500), "slow");
    assert!(e.is_retryable() && e.is_throttling());
    assert_eq!(e.retry_after(), Some(Duration::from_millis(1500)));
    assert_eq!(e.message(), Some("slow"));
    assert!(OpError::SlowDown.is_retryable() && OpError::SlowDown.is_throttling());
    assert_eq!(OpError::SlowDown.code(), Some("SlowDown"));
}

#[test]
fn transient_flag() {
    assert!(OpError::TimedOut.is_transient());
    assert!(!OpError::TimedOut.is_retryable());
}

#[test]
fn fields_carry_runtime_metadata() {
    let e = OpError::Unhandled {
        code: Some("Teapot".into()),
        message: Some(Cow::Borrowed("short and stout")),
        status: Some(418),
        retry_after: Some(Duration::from_secs(3)),
        _unrelated: vec![],
    };
    assert_eq!(e.code(), Some("Teapot"));
    assert_eq!(e.message(), Some("short and stout"));
    assert_eq!(e.http_status(), Some(418));
    assert_eq!(e.retry_after(), Some(Duration::from_secs(3)));

    let e = OpError::Unhandled {
        code: None,
        message: None,
        status: None,
        retry_after: None,
        _unrelated: vec![1],
    };
    assert_eq!(
        (e.code(), e.message(), e.http_status(), e.retry_after()),
        (None, None, None, None)
    );
}

#[test]
fn transparent_forwards_every_method() {
    for e in [
        OpError::Inner(inner()),
        OpError::Boxed {
            source: Box::new(inner()),
        },
    ] {
        assert_eq!(e.code(), Some("InnerCode"));
        assert_eq!(e.message(), Some("inner says"));
        assert_eq!(e.http_status(), Some(503));
        assert!(e.is_transient());
        assert!(!e.is_retryable());
    }
}

#[test]
fn structs_default_to_their_name() {
    #[derive(Debug, ProvideErrorMetadata)]
    struct ThrottlingException;
    assert_eq!(ThrottlingException.code(), Some("ThrottlingException"));
}

#[test]
fn generics_and_transparent_bounds_are_forwarded() {
    #[derive(Debug, ProvideErrorMetadata)]
    enum Wrapper<'a, E: Debug, M = String> {
        #[error_metadata(transparent)]
        Service(E),
        Local {
            #[error_metadata(message)]
            message: M,
            _borrowed: &'a str,
        },
    }
    let e: Wrapper<'_, InnerError> = Wrapper::Service(inner());
    assert_eq!(e.code(), Some("InnerCode"));
    let e: Wrapper<'_, InnerError, &str> = Wrapper::Local {
        message: "local",
        _borrowed: "x",
    };
    assert_eq!((e.code(), e.message()), (Some("Local"), Some("local")));
}

#[test]
fn empty_enums_derive() {
    #[derive(Debug, ProvideErrorMetadata)]
    enum Never {}
    fn takes<E: ProvideErrorMetadata>(_: Option<E>) {}
    takes::<Never>(None);
}

#[test]
fn crate_path_can_be_renamed() {
    mod reexport {
        pub use waiter_runtime as rt;
    }
    #[derive(Debug, ProvideErrorMetadata)]
    #[error_metadata(crate = "reexport::rt")]
    enum E {
        A,
    }
    assert_eq!(E::A.code(), Some("A"));
}

#[test]
fn references_boxes_and_arcs_forward() {
    let e = OpError::SlowDown;
    fn through_ref<E: ProvideErrorMetadata>(e: E) -> bool {
        e.is_throttling()
    }
    assert!(through_ref(&e));
    let boxed: Box<dyn ProvideErrorMetadata> = Box::new(OpError::SlowDown);
    assert!(boxed.is_throttling());
    let arc = std::sync::Arc::new(OpError::SlowDown);
    assert_eq!(arc.code(), Some("SlowDown"));
}
