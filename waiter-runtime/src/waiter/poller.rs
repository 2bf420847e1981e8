//! The glue between an operation and the [`Waiter`](super::Waiter): one poll at a time.

use std::future::Future;

use super::acceptor::Polled;

/// Something that can poll an operation once and classify the result: a closure returning a
/// future of [`Polled`]. `#[waitable]` builds one per waiter; you can write one by hand too.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::waiter::{AcceptorState, Matched, Polled, Waiter, WaiterMetadata};
///
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// let mut calls = 0;
/// let waiter = Waiter::new(WaiterMetadata::new("CounterReachesThree", "count"), move || {
///     calls += 1;
///     let n = calls;
///     async move {
///         let result: Result<u32, std::io::Error> = Ok(n);
///         let matched = (n == 3).then(|| Matched::new(0, AcceptorState::Success));
///         Polled::new(result, matched)
///     }
/// });
/// let done = waiter.wait(Duration::from_secs(60)).await.unwrap();
/// assert_eq!((done.polls, done.output()), (3, Some(&3)));
/// # }
/// ```
pub trait Poller {
    /// The operation's output.
    type Output;
    /// The operation's error.
    type Error;
    /// The future of one poll.
    type Future: Future<Output = Polled<Self::Output, Self::Error>>;

    /// Starts one poll.
    fn poll_once(&mut self) -> Self::Future;
}

impl<F, Fut, O, E> Poller for F
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Polled<O, E>>,
{
    type Output = O;
    type Error = E;
    type Future = Fut;

    fn poll_once(&mut self) -> Fut {
        self()
    }
}

/// The `O` and `E` of a `Result<O, E>`, whatever alias spells it (`io::Result<T>`).
///
/// ```
/// use waiter_runtime::waiter::ResultParts;
/// let _: <std::io::Result<u8> as ResultParts>::Ok = 1u8;
/// ```
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
///
/// ```
/// use waiter_runtime::waiter::PollParam;
/// let name = String::from("bucket");
/// assert_eq!(name.for_poll(), "bucket");
/// ```
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

/// Names lifetimes an `impl Trait` return type captures, for callers on edition 2021 (where a
/// return-position `impl Trait` does not capture lifetimes implicitly). Implemented for all
/// types; it adds no bound.
///
/// ```
/// use waiter_runtime::waiter::Captures;
/// fn chars<'a>(s: &'a str) -> impl Iterator<Item = char> + Captures<&'a ()> {
///     s.chars()
/// }
/// assert_eq!(chars("ab").count(), 2);
/// ```
pub trait Captures<T: ?Sized> {}

impl<T: ?Sized, U: ?Sized> Captures<T> for U {}
