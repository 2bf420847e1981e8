//! Matchers that need no JMESPath: `success` and `errorType`. The code `#[waitable]` emits
//! calls these, so each waiter's expansion stays small.

use crate::ProvideErrorMetadata;

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
