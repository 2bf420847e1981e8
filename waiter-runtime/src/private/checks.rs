//! Traits that exist only to turn a missing implementation into a message that says what to
//! write (`#[diagnostic::on_unimplemented]`), at the span of the matcher that needs it.

use crate::error_metadata::ProvideErrorMetadata;
use crate::jmespath::Searchable;

use super::const_str::{bytes_eq, distance};

/// What an `output` or `inputOutput` matcher searches: the operation's output. The search
/// function the macro emits is generic over it, so a missing `Searchable` is reported once,
/// where the function is called (the path), with this message.
#[diagnostic::on_unimplemented(
    message = "a path matcher searches the operation's output, but `{Self}` does not implement `Searchable`",
    label = "this path is searched in a `{Self}`",
    note = "add `#[derive(waiter_runtime::Searchable)]` to `{Self}` (it reads serde's renames), or implement `waiter_runtime::Searchable` for it"
)]
pub trait OutputSearchable: Searchable {}

impl<T: Searchable> OutputSearchable for T {}

/// What an `inputOutput` matcher searches under `input`: a parameter of the operation.
#[diagnostic::on_unimplemented(
    message = "an `inputOutput` path searches the operation's parameters, but `{Self}` does not implement `Searchable`",
    label = "`input` holds a `{Self}`",
    note = "add `#[derive(waiter_runtime::Searchable)]` to `{Self}`, or implement `waiter_runtime::Searchable` for it"
)]
pub trait InputSearchable {
    fn as_searchable(&self) -> &dyn Searchable;
}

impl<T: Searchable> InputSearchable for T {
    #[inline(always)]
    fn as_searchable(&self) -> &dyn Searchable {
        self
    }
}

/// Checks, at the matcher's span, that a parameter can be searched.
#[inline(always)]
pub fn searchable_input<T: InputSearchable>(input: &T) -> &dyn Searchable {
    input.as_searchable()
}

/// The bound an `errorType` matcher puts on an error type from the standard library (which
/// cannot derive anything): its message says to return an error type of your own.
#[diagnostic::on_unimplemented(
    message = "an `errorType` matcher reads the error's code, but `{Self}` carries no error code",
    label = "this matcher compares the code of a `{Self}`",
    note = "return an error type of your own from the operation, with `#[derive(waiter_runtime::ProvideErrorMetadata)]` (a variant per error code), and convert the `{Self}` into it"
)]
pub trait ForeignErrorCode {
    fn error_code(&self) -> Option<&str>;
}

impl<E: ProvideErrorMetadata + ?Sized> ForeignErrorCode for E {
    #[inline]
    fn error_code(&self) -> Option<&str> {
        self.code()
    }
}

/// The `errorType` matcher on an error type from the standard library.
#[inline]
pub fn foreign_error_type<O, E: ForeignErrorCode>(result: &Result<O, E>, expected: &str) -> bool {
    match result {
        Ok(_) => false,
        Err(error) => error.error_code() == Some(crate::waiter::matchers::shape_name(expected)),
    }
}

/// The error codes a `#[derive(ProvideErrorMetadata)]` type models (its variants' written
/// codes and the codes its catch-all variants declare with `codes = [..]`; `None` when they
/// cannot be known: a `transparent` variant, or only a catch-all that declares nothing), and
/// the warnings of `#[waitable]`'s `errorType` check, whose notes the derive writes (it alone
/// knows the codes): `Hint<0>` is silent, `Hint<1>` lists the codes, `Hint<{2 + k}>` asks
/// "did you mean" the `k`th code (see [`error_type_hint`]).
pub trait DerivedErrorCodes {
    const CODES: Option<&'static [&'static str]>;
    type Hint<const I: usize>: Default;
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

    pub fn hint<const I: usize>(&self) -> E::Hint<I> {
        Default::default()
    }
}

/// The fallback of [`ErrorCodes`]: codes not known at compile time, nothing to warn about.
pub trait UnknownErrorCodes {
    const CODES: Option<&'static [&'static str]> = None;

    fn hint<const I: usize>(&self) -> KnownCode {
        KnownCode
    }
}

impl<E: ?Sized> UnknownErrorCodes for ErrorCodes<E> {}

/// The hint of an `errorType` that can match (or whose codes are not known): no warning.
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

/// The bound of `Waiter`'s `Future` impl (`waiter/forgot_wait.rs`), which no waiter meets: it
/// turns `waiter.await` without `.wait(max_wait)` into one error saying what to write.
#[diagnostic::on_unimplemented(
    message = "a waiter needs its maximum wait: write `.wait(Duration::from_secs(300)).await`",
    label = "`.wait(max_wait)` returns the future to await",
    note = "a `Waiter` is not a future until `.wait(max_wait)` gives it the longest wait (the Smithy waiters specification makes the caller choose it): keep the `.await`, after `.wait(..)`"
)]
pub trait MaxWaitGiven: sealed::Sealed {}

/// What [`MaxWaitGiven`] is asked of: a waiter awaited as it is.
pub struct WithoutMaxWait<W>(core::marker::PhantomData<W>);

// The one implementation, for no waiter (without one, rustc would advise adding one).
impl sealed::Sealed for WithoutMaxWait<()> {}
#[diagnostic::do_not_recommend]
impl MaxWaitGiven for WithoutMaxWait<()> {}

mod sealed {
    /// Nameable by no other crate: [`super::MaxWaitGiven`] has the implementations above only.
    pub trait Sealed {}
}
