//! The acceptor matchers of the Smithy waiters model, which the code `#[waitable]` emits calls
//! (so that each waiter's expansion stays small):
//! * `success` and `errorType`, which need no JMESPath, and botocore's `status` (the HTTP
//!   status of the answer);
//! * the comparators of `output` and `inputOutput` matchers (`stringEquals`, `booleanEquals`,
//!   `allStringEquals`, `anyStringEquals`), which take the result of the matcher's compiled
//!   path by reference (an evaluation error never matches), and [`failure_message`], the message
//!   of a `failure` acceptor.
//!
//! ```
//! use serde_json::json;
//! use waiter_runtime::jmespath;
//! use waiter_runtime::__private_v0_1::{all_string_equals, any_string_equals, failure_message};
//!
//! let output = json!({"Instances": [{"State": "running"}, {"State": "stopped"}]});
//! let states = jmespath!("Instances[].State").search(&output);
//! assert!(any_string_equals(&states, "stopped"));
//! assert!(!all_string_equals(&states, "running"));
//! assert_eq!(failure_message(&states).as_deref(), Some("running; stopped"));
//! ```

use super::OutputStatus;
use crate::ProvideErrorMetadata;
use crate::jmespath::{Array, Node, SearchError};

/// The `success` matcher: `true` matches a successful response, `false` matches any error.
///
/// ```
/// use waiter_runtime::__private_v0_1::success;
/// assert!(success::<u8, ()>(&Ok(1), true));
/// assert!(success::<u8, ()>(&Err(()), false));
/// assert!(!success::<u8, ()>(&Err(()), true));
/// ```
#[inline]
pub fn success<O, E>(result: &Result<O, E>, expected: bool) -> bool {
    result.is_ok() == expected
}

/// The `errorType` matcher: the error's [`code`](ProvideErrorMetadata::code) equals
/// `expected`.
///
/// Both sides are compared through [`normalize_code`](crate::error_metadata::normalize_code):
/// an absolute shape ID (`com.amazonaws.s3#NotFound`), in the acceptor or in the error's code
/// (awsJson's `__type`), matches on its name part; a code with dots
/// (`InvalidInstanceID.NotFound`) is a plain string.
///
/// ```
/// use waiter_runtime::ProvideErrorMetadata;
/// use waiter_runtime::__private_v0_1::error_type;
///
/// struct NotFound;
/// impl ProvideErrorMetadata for NotFound {
///     fn code(&self) -> Option<&str> { Some("NotFound") }
/// }
/// assert!(error_type::<(), _>(&Err(NotFound), "NotFound"));
/// assert!(error_type::<(), _>(&Err(NotFound), "com.amazonaws.s3#NotFound"));
/// assert!(!error_type::<(), _>(&Err(NotFound), "Throttling"));
/// assert!(!error_type::<(), NotFound>(&Ok(()), "NotFound"));
/// ```
#[inline]
pub fn error_type<O, E: ErrorCode>(result: &Result<O, E>, expected: &str) -> bool {
    match result {
        Ok(_) => false,
        Err(error) => {
            error
                .error_code()
                .map(crate::error_metadata::normalize_code)
                == Some(crate::error_metadata::normalize_code(expected))
        }
    }
}

/// The error code an `errorType` matcher compares: [`ProvideErrorMetadata::code`]. Implemented
/// for every [`ProvideErrorMetadata`]; it exists to say so when an error type lacks it.
#[diagnostic::on_unimplemented(
    message = "an `errorType` matcher reads the error's code, but `{Self}` does not implement `ProvideErrorMetadata`",
    label = "this matcher compares the code of a `{Self}`",
    note = "add `#[derive(waiter_runtime::ProvideErrorMetadata)]` to `{Self}`, or implement `waiter_runtime::ProvideErrorMetadata` for it"
)]
pub trait ErrorCode {
    /// The error's code.
    fn error_code(&self) -> Option<&str>;
}

impl<E: ProvideErrorMetadata + ?Sized> ErrorCode for E {
    #[inline]
    fn error_code(&self) -> Option<&str> {
        self.code()
    }
}

/// botocore's `status` matcher: the HTTP status of the poll's answer is `expected`. An error's
/// is its [`http_status`](ProvideErrorMetadata::http_status) (an error that carries none matches
/// no status); an output's is its [`OutputStatus::http_status`], 200 when it says nothing (a
/// successful answer).
///
/// ```
/// use waiter_runtime::{OutputStatus, ProvideErrorMetadata};
/// use waiter_runtime::__private_v0_1::status;
///
/// struct NotFound;
/// impl ProvideErrorMetadata for NotFound {
///     fn code(&self) -> Option<&str> { Some("NotFound") }
///     fn http_status(&self) -> Option<u16> { Some(404) }
/// }
/// struct Output;
/// impl OutputStatus for Output {}
///
/// assert!(status::<Output, NotFound>(&Err(NotFound), 404));
/// assert!(!status::<Output, NotFound>(&Err(NotFound), 200));
/// assert!(status::<Output, NotFound>(&Ok(Output), 200));
/// assert!(!status::<Output, NotFound>(&Ok(Output), 404));
/// ```
#[inline]
pub fn status<O: OutputStatus, E: ErrorStatus>(result: &Result<O, E>, expected: u16) -> bool {
    match result {
        Ok(output) => output.http_status().unwrap_or(200) == expected,
        Err(error) => error.error_status() == Some(expected),
    }
}

/// The HTTP status a `status` matcher compares on an error: [`ProvideErrorMetadata::http_status`].
/// Implemented for every [`ProvideErrorMetadata`]; it exists to say so when an error type lacks
/// it.
#[diagnostic::on_unimplemented(
    message = "a `status` matcher reads the HTTP status of the error, but `{Self}` does not implement `ProvideErrorMetadata`",
    label = "this waiter has a `status` acceptor",
    note = "add `#[derive(waiter_runtime::ProvideErrorMetadata)]` to `{Self}` (with `#[error_metadata(status)]` on the field holding the status), or implement `waiter_runtime::ProvideErrorMetadata` for it with its `http_status`"
)]
pub trait ErrorStatus {
    /// The error's HTTP status.
    fn error_status(&self) -> Option<u16>;
}

impl<E: ProvideErrorMetadata + ?Sized> ErrorStatus for E {
    #[inline]
    fn error_status(&self) -> Option<u16> {
        self.http_status()
    }
}

/// The name part of a shape ID: `com.amazonaws.s3#NotFound` -> `NotFound`; anything without
/// `#` is returned unchanged.
///
/// ```
/// use waiter_runtime::__private_v0_1::shape_name;
/// assert_eq!(shape_name("com.amazonaws.s3#NotFound"), "NotFound");
/// assert_eq!(shape_name("InvalidInstanceID.NotFound"), "InvalidInstanceID.NotFound");
/// ```
pub fn shape_name(shape_id: &str) -> &str {
    match shape_id.rsplit_once('#') {
        Some((_, name)) => name,
        None => shape_id,
    }
}

// ---------------------------------------------------------------------------------------------
// comparators of `output` and `inputOutput` matchers

/// `stringEquals`: the result is a string equal to `expected`.
pub fn string_equals(result: &Result<Node<'_>, SearchError>, expected: &str) -> bool {
    matches!(result, Ok(Node::String(s)) if s == expected)
}

/// `booleanEquals`: the result is a boolean equal to `expected`.
pub fn boolean_equals(result: &Result<Node<'_>, SearchError>, expected: bool) -> bool {
    matches!(result, Ok(Node::Bool(b)) if *b == expected)
}

/// `allStringEquals`: the result is a non-empty array whose every element is a string equal to
/// `expected`.
pub fn all_string_equals(result: &Result<Node<'_>, SearchError>, expected: &str) -> bool {
    match result {
        Ok(Node::Array(a)) if !a.is_empty() => !any_element(a, |s| s != Some(expected)),
        _ => false,
    }
}

/// `anyStringEquals`: the result is an array with at least one string equal to `expected`.
pub fn any_string_equals(result: &Result<Node<'_>, SearchError>, expected: &str) -> bool {
    match result {
        Ok(Node::Array(a)) => any_element(a, |s| s == Some(expected)),
        _ => false,
    }
}

/// A failure message taken from the result: a string as is, an array's string elements joined
/// with `"; "`, `None` for anything else (including an evaluation error or an array without
/// strings).
pub fn failure_message(result: &Result<Node<'_>, SearchError>) -> Option<String> {
    match result {
        Ok(Node::String(s)) => Some(s.to_string()),
        Ok(Node::Array(a)) => {
            let mut parts: Vec<String> = Vec::new();
            any_element(a, |s| {
                parts.extend(s.map(str::to_owned));
                false
            });
            (!parts.is_empty()).then(|| parts.join("; "))
        }
        _ => None,
    }
}

/// Whether `pred` holds for an element (given as its string, if it is one), in order, without
/// copying the array (projections of strings are compared in place).
fn any_element(a: &Array<'_>, mut pred: impl FnMut(Option<&str>) -> bool) -> bool {
    match a {
        Array::Strs(v) => v.iter().any(|s| pred(Some(s))),
        Array::Owned(v) => v.iter().any(|n| pred(n.as_str())),
        Array::View(v) => {
            let mut hit = false;
            v.for_each(&mut |n| hit = hit || pred(n.as_str()));
            hit
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok(v: serde_json::Value) -> Result<Node<'static>, SearchError> {
        Ok(Node::from_value(v))
    }

    #[test]
    fn comparators_follow_the_waiter_spec() {
        let err = Err(SearchError::InvalidValue { reason: "x" });
        assert!(string_equals(&ok(json!("a")), "a"));
        assert!(!string_equals(&ok(json!(["a"])), "a"));
        assert!(!string_equals(&err, "a"));
        assert!(boolean_equals(&ok(json!(false)), false));
        assert!(!boolean_equals(&ok(json!(null)), false));
        assert!(!boolean_equals(&err, true));
        assert!(all_string_equals(&ok(json!(["a", "a"])), "a"));
        assert!(!all_string_equals(&ok(json!([])), "a"));
        assert!(!all_string_equals(&ok(json!(["a", 1])), "a"));
        assert!(!all_string_equals(&err, "a"));
        assert!(any_string_equals(&ok(json!([1, "a"])), "a"));
        assert!(!any_string_equals(&ok(json!([])), "a"));
        assert!(!any_string_equals(&ok(json!("a")), "a"));
        assert_eq!(failure_message(&ok(json!("boom"))).as_deref(), Some("boom"));
        assert_eq!(
            failure_message(&ok(json!(["a", 1, "b"]))).as_deref(),
            Some("a; b")
        );
        assert_eq!(failure_message(&ok(json!([1]))), None);
        assert_eq!(failure_message(&ok(json!({"a": "b"}))), None);
        assert_eq!(failure_message(&err), None);
    }
}
