//! Error codes read off the wire in their absolute form (awsJson's `__type`,
//! `x-amzn-ErrorType` with a URI): waiters' `errorType` matchers and the retry classifiers
//! compare them by name, through `error_metadata::normalize_code`.
//!
//! Regression: `com.amazonaws.dynamodb.v20120810#ResourceNotFoundException` matched no
//! `errorType` acceptor and no classifier's code list.

use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::error_metadata::normalize_code;
use waiter_runtime::retry::{
    ClassifyContext, ErrorKind, RetryAction, RetryClassifiers, RetryReason,
};
// The matcher `#[waitable]` expansions call for `errorType` acceptors.
use waiter_runtime::__private_v0_1::error_type;

/// An error whose code is whatever the service sent, as a hand-written awsJson client reads it
/// from `__type`.
#[derive(Debug, ProvideErrorMetadata)]
struct WireError {
    #[error_metadata(code)]
    code: String,
}

fn wire(code: &str) -> Result<(), WireError> {
    Err(WireError {
        code: code.to_owned(),
    })
}

#[test]
fn an_absolute_code_matches_error_type_acceptors_by_name() {
    let dynamodb = wire("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException");
    assert!(error_type(&dynamodb, "ResourceNotFoundException"));
    // The acceptor may name the shape absolutely too, in the same or another namespace form.
    assert!(error_type(
        &dynamodb,
        "com.amazonaws.dynamodb#ResourceNotFoundException"
    ));
    assert!(!error_type(&dynamodb, "TableNotFoundException"));
    // A URI suffix (restJson's `x-amzn-ErrorType`) is not part of the code.
    assert!(error_type(
        &wire("NotFound:http://internal.amazon.com/"),
        "NotFound"
    ));
    // Dots are part of a plain code.
    assert!(error_type(
        &wire("InvalidInstanceID.NotFound"),
        "InvalidInstanceID.NotFound"
    ));
    assert!(!error_type(&wire("InvalidInstanceID.NotFound"), "NotFound"));
}

fn classify(code: &str) -> RetryAction {
    let result = wire(code);
    RetryClassifiers::defaults().classify(&ClassifyContext::new(&result, 1))
}

#[test]
fn an_absolute_code_is_in_the_classifiers_code_lists() {
    for code in [
        "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException",
        "com.amazonaws.sqs#ThrottlingException:http://internal.amazon.com/",
        "ThrottlingException",
    ] {
        let action = classify(code);
        assert_eq!(
            action.reason().map(RetryReason::kind),
            Some(ErrorKind::ThrottlingError),
            "{code}"
        );
    }
    let action = classify("com.amazonaws.s3#RequestTimeout");
    assert_eq!(
        action.reason().map(RetryReason::kind),
        Some(ErrorKind::TransientError)
    );
    assert_eq!(
        classify("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException"),
        RetryAction::NoActionIndicated
    );
}

#[test]
fn normalizing_is_idempotent_and_keeps_plain_codes() {
    for code in [
        "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
        "ThrottlingException:http://internal.amazon.com/",
        "InvalidInstanceID.NotFound",
        " SlowDown ",
        "",
    ] {
        let once = normalize_code(code);
        assert_eq!(normalize_code(once), once, "{code:?}");
        assert!(!once.contains(['#', ':']));
    }
    assert_eq!(normalize_code("SlowDown"), "SlowDown");
}
