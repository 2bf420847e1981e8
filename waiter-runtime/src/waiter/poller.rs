//! The glue between an operation and the [`Waiter`](super::Waiter): one poll at a time.
//!
//! A waiter holds its operation as a boxed closure returning a boxed future, so that its type
//! can be named (`Waiter<'a, O, E>`) in the signatures `#[waitable]` writes and in your rustdoc.
//! The box costs one allocation per poll, next to a network call and a sleep of seconds (see
//! `BENCHMARKS.md`, "waiter poll").

use std::future::Future;
use std::pin::Pin;

use super::acceptor::Polled;

/// One poll's future.
pub(crate) type BoxPoll<'a, O, E> = Pin<Box<dyn Future<Output = Polled<O, E>> + Send + 'a>>;

/// Starts one poll.
pub(crate) type BoxPoller<'a, O, E> = Box<dyn FnMut() -> BoxPoll<'a, O, E> + Send + 'a>;

/// Boxes a closure returning poll futures.
pub(crate) fn box_poller<'a, O, E, F, Fut>(mut poll: F) -> BoxPoller<'a, O, E>
where
    F: FnMut() -> Fut + Send + 'a,
    Fut: Future<Output = Polled<O, E>> + Send + 'a,
{
    Box::new(move || Box::pin(poll()))
}

/// The `O` and `E` of a `Result<O, E>`, whatever alias spells it (`io::Result<T>`).
pub trait ResultParts {
    /// The success type.
    type Ok;
    /// The error type.
    type Err;
}

impl<O, E> ResultParts for Result<O, E> {
    type Ok = O;
    type Err = E;
}

/// A parameter of a waitable operation: it is cloned for each poll.
#[diagnostic::on_unimplemented(
    message = "a parameter of a `#[waitable]` operation must be `Clone`: each poll gets its own copy",
    label = "`{Self}` is not `Clone`",
    note = "take the parameter by reference (`&{Self}`), or derive `Clone` for it"
)]
pub trait PollParam {
    /// A copy for one poll.
    fn for_poll(&self) -> Self;
}

impl<T: Clone> PollParam for T {
    #[inline]
    fn for_poll(&self) -> Self {
        self.clone()
    }
}
