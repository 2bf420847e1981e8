//! The codes `#[derive(ProvideErrorMetadata)]` publishes for `#[waitable]`'s `errorType`
//! warning: a catch-all variant no longer hides the variants' codes, it adds the
//! `codes = [..]` it declares; and which warning an `errorType` gets (none, the list of codes,
//! or "did you mean" the closest). The warnings themselves are
//! `ui-tests/cases/waitable/error_type_catch_all.rs`.

use waiter_runtime::__private_v0_1::{ErrorCodes, UnknownErrorCodes, error_type_hint};
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

#[derive(Debug, ProvideErrorMetadata)]
#[allow(dead_code)]
enum Forwarding {
    NotFound,
    #[error_metadata(transparent)]
    Io(std::io::Error),
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
    assert_eq!(ErrorCodes::<Forwarding>::CODES, None);
    assert_eq!(<ErrorCodes<Manual> as UnknownErrorCodes>::CODES, None);
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
