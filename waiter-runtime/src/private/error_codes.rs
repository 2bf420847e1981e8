//! What `#[waitable]`'s `errorType` check knows of an error type's codes: the codes a
//! `#[derive(ProvideErrorMetadata)]` type publishes ([`DerivedErrorCodes`], read through
//! [`ErrorCodes`], which falls back to "unknown" for other types), the error types the runtime
//! describes itself, which carry no service code (`no_service_codes!`: one line per type),
//! and which warning a matcher's code gets against them ([`error_type_hint`]: none, the list of
//! codes, or "did you mean"; [`first_error_type_hint`]: the same, or once per `#[waitable]`
//! that the codes are not known).

use super::const_str::{bytes_eq, distance};

/// The error codes a `#[derive(ProvideErrorMetadata)]` type models (its variants' written
/// codes and the codes its catch-all and `transparent` variants declare with `codes = [..]`;
/// `None` when they cannot be known: a `transparent` variant forwarding to a type whose codes
/// are not known, or only a catch-all that declares nothing), and the warnings of
/// `#[waitable]`'s `errorType` check, whose notes the derive writes (it alone knows the codes):
/// `Hint<0>` is silent, `Hint<1>` lists the codes, `Hint<{2 + k}>` asks "did you mean" the
/// `k`th code (see [`error_type_hint`]), and `Hint<UNKNOWN_HINT>` (when not 0) says which
/// `transparent` variant hides the codes.
pub trait DerivedErrorCodes {
    const CODES: Option<&'static [&'static str]>;
    /// The hint of the first `errorType` of a `#[waitable]` when `CODES` is `None` because of a
    /// `transparent` variant (0: none).
    const UNKNOWN_HINT: usize = 0;
    type Hint<const I: usize>: Default;
}

/// The error types the runtime describes itself (transports': their errors carry no service
/// code, so behind `#[error_metadata(transparent)]` they add no code and keep `#[waitable]`'s
/// `errorType` check on). One line per type, with the feature that describes it.
macro_rules! no_service_codes {
    ($($feature:literal => $ty:ty,)*) => {$(
        #[cfg(feature = $feature)]
        impl DerivedErrorCodes for $ty {
            const CODES: Option<&'static [&'static str]> = Some(&[]);
            type Hint<const I: usize> = KnownCode;
        }
    )*};
}

no_service_codes! {
    "io" => std::io::Error,
    "http" => http::StatusCode,
    "reqwest" => reqwest::Error,
    "reqwest-0_12" => reqwest_0_12::Error,
    "reqwest-middleware" => reqwest_middleware::Error,
    "tower" => crate::retry::layer::TransportError,
    "ureq" => ureq::Error,
}

/// A pointer to an error carries its codes (`#[error_metadata(transparent)] Io(Box<io::Error>)`).
macro_rules! forward_codes {
    ($($ty:ty),*) => {$(
        impl<T: DerivedErrorCodes + ?Sized> DerivedErrorCodes for $ty {
            const CODES: Option<&'static [&'static str]> = T::CODES;
            const UNKNOWN_HINT: usize = T::UNKNOWN_HINT;
            type Hint<const I: usize> = T::Hint<I>;
        }
    )*};
}

forward_codes!(Box<T>, std::sync::Arc<T>);

/// An attempt cut short at its timeout carries no code.
impl DerivedErrorCodes for crate::retry::AttemptTimedOut {
    const CODES: Option<&'static [&'static str]> = Some(&[]);
    type Hint<const I: usize> = KnownCode;
}

/// The error of a call that cuts attempts short carries the operation's codes (a `#[waitable]`
/// returning `Retrier::run_timed`'s error, or a variant wrapping it).
impl<E: DerivedErrorCodes> DerivedErrorCodes for crate::retry::AttemptError<E> {
    const CODES: Option<&'static [&'static str]> = E::CODES;
    const UNKNOWN_HINT: usize = E::UNKNOWN_HINT;
    type Hint<const I: usize> = E::Hint<I>;
}

/// Whether an error type is known to carry no code (what a `transparent` variant wrapping it
/// adds to the codes of its enum: nothing).
pub const fn codeless(codes: Option<&[&str]>) -> bool {
    matches!(codes, Some([]))
}

/// `ErrorCodes::<E>::CODES`: the codes `E` derives, else `None` (through [`UnknownErrorCodes`],
/// which must be in scope): the inherent items win when their bound holds. `hint::<I>()` is
/// `E`'s hint `I`, else [`KnownCode`].
pub struct ErrorCodes<E: ?Sized>(core::marker::PhantomData<E>);

impl<E: ?Sized> ErrorCodes<E> {
    pub const fn new() -> Self {
        ErrorCodes(core::marker::PhantomData)
    }
}

impl<E: ?Sized> Default for ErrorCodes<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: ?Sized + DerivedErrorCodes> ErrorCodes<E> {
    pub const CODES: Option<&'static [&'static str]> = E::CODES;
    pub const UNKNOWN_HINT: usize = E::UNKNOWN_HINT;

    pub fn hint<const I: usize>(&self) -> E::Hint<I> {
        Default::default()
    }
}

/// The fallback of [`ErrorCodes`]: codes not known at compile time, nothing to warn about.
pub trait UnknownErrorCodes {
    const CODES: Option<&'static [&'static str]> = None;
    const UNKNOWN_HINT: usize = 0;

    fn hint<const I: usize>(&self) -> KnownCode {
        KnownCode
    }
}

impl<E: ?Sized> UnknownErrorCodes for ErrorCodes<E> {}

/// The hint of an `errorType` that can match (or whose codes are not known): no warning.
#[derive(Default)]
pub struct KnownCode;

#[allow(non_snake_case)]
impl KnownCode {
    pub fn errorType(&self) {}
}

/// Which hint an `errorType` matcher's code (normalized, as the derive's codes are) gets
/// against the codes its error type models: 0 when it is one of them (or they are not
/// known), `2 + k` when `codes[k]` is a near miss (the closest: a typo, another case, or the
/// same name with or without `Exception`, `Error`, `Fault`), 1 otherwise.
pub const fn error_type_hint(codes: Option<&[&str]>, code: &str) -> usize {
    let Some(codes) = codes else {
        return 0;
    };
    let mut i = 0;
    while i < codes.len() {
        if bytes_eq(codes[i].as_bytes(), code.as_bytes()) {
            return 0;
        }
        i += 1;
    }
    let (mut best, mut best_k) = (usize::MAX, 0);
    let mut k = 0;
    while k < codes.len() {
        let d = code_distance(codes[k].as_bytes(), code.as_bytes());
        if d < best {
            best = d;
            best_k = k;
        }
        k += 1;
    }
    if best != usize::MAX { 2 + best_k } else { 1 }
}

/// [`error_type_hint`] for the first `errorType` matcher of a `#[waitable]`: when the codes
/// are not known because of a `transparent` variant, `unknown_hint` (the derive's warning that
/// says so, once per `#[waitable]`).
pub const fn first_error_type_hint(
    codes: Option<&[&str]>,
    unknown_hint: usize,
    code: &str,
) -> usize {
    match codes {
        None => unknown_hint,
        Some(_) => error_type_hint(codes, code),
    }
}

/// How far apart two codes are when one is a near miss of the other, else `usize::MAX`: the
/// case-insensitive edit distance when small (at most 2, or a third of the code), and 0 for
/// the same name with or without a conventional suffix (`ResourceNotFound`,
/// `ResourceNotFoundException`).
const fn code_distance(a: &[u8], b: &[u8]) -> usize {
    let (sa, sb) = (strip_suffix(a), strip_suffix(b));
    if !sa.is_empty() && distance(sa, sb) == 0 {
        return 0;
    }
    let d = distance(a, b);
    let shorter = if a.len() < b.len() { a.len() } else { b.len() };
    if d <= 2 || d <= shorter / 3 {
        d
    } else {
        usize::MAX
    }
}

/// `code` without a trailing `Exception`, `Error` or `Fault` (ASCII case-insensitive).
const fn strip_suffix(code: &[u8]) -> &[u8] {
    let suffixes: [&[u8]; 3] = [b"exception", b"error", b"fault"];
    let mut i = 0;
    while i < suffixes.len() {
        let s = suffixes[i];
        if code.len() > s.len() {
            let (head, tail) = code.split_at(code.len() - s.len());
            if distance(tail, s) == 0 {
                return head;
            }
        }
        i += 1;
    }
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, crate::ProvideErrorMetadata)]
    enum Modeled {
        NotFound,
        #[error_metadata(transparent)]
        TimedOut(crate::retry::AttemptTimedOut),
    }

    #[test]
    fn an_attempt_timeout_adds_no_code_and_keeps_the_check_on() {
        assert!(codeless(
            <crate::retry::AttemptTimedOut as DerivedErrorCodes>::CODES
        ));
        assert_eq!(
            <Modeled as DerivedErrorCodes>::CODES,
            Some(&["NotFound"][..])
        );
        assert_eq!(
            <crate::retry::AttemptError<Modeled> as DerivedErrorCodes>::CODES,
            Some(&["NotFound"][..])
        );
        let timed_out = crate::retry::AttemptTimedOut::new(1, std::time::Duration::ZERO);
        for e in [Modeled::NotFound, Modeled::TimedOut(timed_out)] {
            assert_eq!(
                crate::ProvideErrorMetadata::code(&e).is_some(),
                matches!(e, Modeled::NotFound)
            );
        }
    }
}
