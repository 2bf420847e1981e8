//! The codes `#[derive(ProvideErrorMetadata)]` publishes for `#[waitable]`'s `errorType`
//! warning: a catch-all variant no longer hides the variants' codes, it adds the
//! `codes = [..]` it declares; and which warning an `errorType` gets (none, the list of codes,
//! or "did you mean" the closest). The warnings themselves are
//! `ui-tests/cases/waitable/error_type_catch_all.rs`.

use waiter_runtime::__private_v0_1::{
    ErrorCodes, UnknownErrorCodes, error_type_hint, first_error_type_hint,
};
use waiter_runtime::ProvideErrorMetadata;

#[derive(Debug, ProvideErrorMetadata)]
#[allow(dead_code)]
enum Dynamo {
    ResourceNotFoundException,
    #[error_metadata(code = "aws.protocols#ResourceInUseException")]
    InUse,
    #[error_metadata(codes = ["ProvisionedThroughputExceededException"])]
    Other {
        #[error_metadata(code)]
        code: String,
    },
}

#[derive(Debug, ProvideErrorMetadata)]
#[allow(dead_code)]
enum Undeclared {
    NotFound,
    Other {
        #[error_metadata(code)]
        code: String,
    },
}

/// Only a catch-all that declares nothing: its codes cannot be known.
#[derive(Debug, ProvideErrorMetadata)]
#[allow(dead_code)]
struct Wire {
    #[error_metadata(code)]
    code: String,
}

/// Only a catch-all that declares its codes.
#[derive(Debug, ProvideErrorMetadata)]
#[error_metadata(codes = ["NoSuchKey", "NoSuchBucket"])]
#[allow(dead_code)]
struct S3 {
    #[error_metadata(code)]
    code: String,
}

/// A transport error the runtime describes adds no code: the codes stay known.
#[derive(Debug, ProvideErrorMetadata)]
#[allow(dead_code)]
enum Forwarding {
    NotFound,
    #[error_metadata(transparent)]
    Io(std::io::Error),
}

#[derive(Debug, ProvideErrorMetadata)]
#[allow(dead_code)]
enum Boxed {
    NotFound,
    #[error_metadata(transparent)]
    Io(Box<std::io::Error>),
}

/// reqwest's errors carry no service code either.
#[cfg(feature = "reqwest")]
#[derive(Debug, ProvideErrorMetadata)]
#[allow(dead_code)]
enum OverReqwest {
    #[error_metadata(code = "InvalidInstanceID.NotFound")]
    NotFound,
    #[error_metadata(transparent)]
    Transport(reqwest::Error),
}

/// ureq's errors carry no service code either.
#[cfg(feature = "ureq")]
#[derive(Debug, ProvideErrorMetadata)]
#[allow(dead_code)]
enum OverUreq {
    #[error_metadata(code = "InvalidInstanceID.NotFound")]
    NotFound,
    #[error_metadata(transparent)]
    Http(ureq::Error),
}

/// A wrapped type whose codes are not known hides the enum's, unless the variant declares them.
#[derive(Debug, ProvideErrorMetadata)]
#[allow(dead_code)]
enum Hiding {
    NotFound,
    #[error_metadata(transparent)]
    Io(std::io::Error),
    #[error_metadata(transparent)]
    Service(Manual),
}

#[derive(Debug, ProvideErrorMetadata)]
#[allow(dead_code)]
enum Declaring {
    NotFound,
    #[error_metadata(transparent, codes = ["Throttling"])]
    Service(Manual),
}

/// A hand-written `ProvideErrorMetadata`: not derived, nothing known.
#[derive(Debug)]
struct Manual;

impl ProvideErrorMetadata for Manual {
    fn code(&self) -> Option<&str> {
        Some("Anything")
    }
}

#[test]
fn the_derive_publishes_the_codes_a_catch_all_does_not_hide() {
    assert_eq!(
        ErrorCodes::<Dynamo>::CODES,
        Some(
            &[
                "ResourceNotFoundException",
                "ResourceInUseException",
                "ProvisionedThroughputExceededException"
            ][..]
        )
    );
    assert_eq!(ErrorCodes::<Undeclared>::CODES, Some(&["NotFound"][..]));
    assert_eq!(
        ErrorCodes::<S3>::CODES,
        Some(&["NoSuchKey", "NoSuchBucket"][..])
    );
    assert_eq!(ErrorCodes::<Wire>::CODES, None);
    assert_eq!(<ErrorCodes<Manual> as UnknownErrorCodes>::CODES, None);
}

#[test]
fn transport_errors_behind_transparent_keep_the_codes_known() {
    assert_eq!(ErrorCodes::<std::io::Error>::CODES, Some(&[][..]));
    assert_eq!(ErrorCodes::<Forwarding>::CODES, Some(&["NotFound"][..]));
    assert_eq!(ErrorCodes::<Forwarding>::UNKNOWN_HINT, 0);
    // Through a pointer too.
    assert_eq!(ErrorCodes::<Boxed>::CODES, Some(&["NotFound"][..]));
    assert_eq!(
        ErrorCodes::<std::sync::Arc<Forwarding>>::CODES,
        Some(&["NotFound"][..])
    );
    #[cfg(feature = "reqwest")]
    assert_eq!(
        ErrorCodes::<OverReqwest>::CODES,
        Some(&["InvalidInstanceID.NotFound"][..])
    );
    // The misspelled code of the newcomer's EC2 waiter: "did you mean" the modeled one.
    #[cfg(feature = "reqwest")]
    assert_eq!(
        error_type_hint(
            ErrorCodes::<OverReqwest>::CODES,
            "InvalidInstanceId.NotFound"
        ),
        2
    );
    #[cfg(feature = "ureq")]
    assert_eq!(
        ErrorCodes::<OverUreq>::CODES,
        Some(&["InvalidInstanceID.NotFound"][..])
    );
}

#[test]
fn an_unknown_wrapped_type_hides_the_codes_and_says_so_once() {
    assert_eq!(ErrorCodes::<Hiding>::CODES, None);
    // Hints: 1 the list, 2 "did you mean NotFound", 3 `Io`'s (never), 4 `Service`'s.
    assert_eq!(ErrorCodes::<Hiding>::UNKNOWN_HINT, 4);
    let (codes, unknown) = (
        ErrorCodes::<Hiding>::CODES,
        ErrorCodes::<Hiding>::UNKNOWN_HINT,
    );
    assert_eq!(first_error_type_hint(codes, unknown, "Anything"), 4);
    assert_eq!(error_type_hint(codes, "Anything"), 0);
    // Declared codes are known again.
    let codes = ErrorCodes::<Declaring>::CODES;
    assert_eq!(codes, Some(&["NotFound", "Throttling"][..]));
    assert_eq!(first_error_type_hint(codes, 0, "Throttling"), 0);
    assert_eq!(first_error_type_hint(codes, 0, "Throtling"), 3);
}

#[test]
fn a_known_code_gets_no_warning_a_near_miss_the_closest_code() {
    let codes = ErrorCodes::<Dynamo>::CODES;
    assert_eq!(error_type_hint(codes, "ResourceNotFoundException"), 0);
    assert_eq!(
        error_type_hint(codes, "ProvisionedThroughputExceededException"),
        0
    );
    // A missing suffix, a typo, another case: "did you mean" codes[k] is 2 + k.
    assert_eq!(error_type_hint(codes, "ResourceNotFound"), 2);
    assert_eq!(error_type_hint(codes, "ResourceInUse"), 3);
    assert_eq!(error_type_hint(codes, "ResourceNotFondException"), 2);
    assert_eq!(error_type_hint(codes, "resourcenotfoundexception"), 2);
    assert_eq!(error_type_hint(codes, "ProvisionedThroughputExceeded"), 4);
    // Far from every code: the list.
    assert_eq!(error_type_hint(codes, "ThrottlingException"), 1);
    assert_eq!(error_type_hint(codes, "Exception"), 1);
    assert_eq!(error_type_hint(Some(&[]), "NotFound"), 1);
    // Codes not known: nothing to say.
    assert_eq!(error_type_hint(None, "Anything"), 0);
}
