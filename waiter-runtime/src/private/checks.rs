//! Traits that exist only to turn a missing implementation into a message that says what to
//! write (`#[diagnostic::on_unimplemented]`), at the span of what needs it (a matcher, a waiter
//! awaited without its maximum wait).

use crate::error_metadata::ProvideErrorMetadata;
use crate::jmespath::Searchable;

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

/// The bound of `Waiter`'s `Future` impl (`waiter/forgot_wait.rs`), which no waiter meets: it
/// turns `waiter.await` without `.wait(max_wait)` into one error saying what to write.
#[diagnostic::on_unimplemented(
    message = "a waiter needs its maximum wait: write `.wait(Duration::from_secs(300)).await`",
    label = "`.wait(max_wait)` returns the future to await",
    note = "a `Waiter` is not a future until `.wait(max_wait)` gives it the longest wait (the Smithy waiters specification makes the caller choose it): keep the `.await`, after `.wait(..)`"
)]
pub trait MaxWaitGiven: sealed::Sealed {}

/// The same for a [`WaitAll`](crate::WaitAll) awaited without `.wait(max_wait)`.
#[diagnostic::on_unimplemented(
    message = "a `WaitAll` needs its maximum wait: write `.wait(Duration::from_secs(600)).await`",
    label = "`.wait(max_wait)` returns the future to await",
    note = "a `WaitAll` is not a future until `.wait(max_wait)` gives the set its one deadline, shared by every waiter in it: keep the `.await`, after `.wait(..)` (or use `.stream(max_wait)` for each result as it comes)"
)]
pub trait SetMaxWaitGiven: sealed::Sealed {}

/// The bound of the blocking `Waiter`'s `Future` impl (`blocking/not_a_future.rs`), which no
/// waiter meets: it turns `blocking_waiter.await` into one error saying to call `.wait(..)`.
#[diagnostic::on_unimplemented(
    message = "a blocking waiter is not awaited: write `.wait(Duration::from_secs(300))`, which waits on this thread and returns the outcome",
    label = "a `blocking::Waiter`: `#[waitable]` is on a plain `fn`",
    note = "`#[waitable]` on a plain `fn` makes blocking waiters: call `.wait(max_wait)` without `.await` (in async code, inside `tokio::task::spawn_blocking`), or put `#[waitable]` on an `async fn` for a waiter to await"
)]
pub trait BlockingWaitGiven: sealed::Sealed {}

/// What [`MaxWaitGiven`] and [`SetMaxWaitGiven`] are asked of: a waiter (or a set) awaited as
/// it is.
pub struct WithoutMaxWait<W>(core::marker::PhantomData<W>);

// The one implementation of each, for no waiter (without one, rustc would advise adding one).
impl sealed::Sealed for WithoutMaxWait<()> {}
#[diagnostic::do_not_recommend]
impl MaxWaitGiven for WithoutMaxWait<()> {}
#[diagnostic::do_not_recommend]
impl SetMaxWaitGiven for WithoutMaxWait<()> {}
#[diagnostic::do_not_recommend]
impl BlockingWaitGiven for WithoutMaxWait<()> {}

mod sealed {
    /// Nameable by no other crate: [`super::MaxWaitGiven`], [`super::SetMaxWaitGiven`] and
    /// [`super::BlockingWaitGiven`] have the implementations above only.
    pub trait Sealed {}
}
