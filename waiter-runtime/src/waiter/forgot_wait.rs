//! `waiter.await` without `.wait(max_wait)`: a [`Waiter`] is not a future (the Smithy waiters
//! specification makes the caller choose the longest wait), and rustc's own message for
//! awaiting it ("`Waiter<..>` is not a future") says nothing of `.wait(..)`.
//!
//! This [`Future`] impl exists only for its bound, which no waiter meets
//! ([`MaxWaitGiven`](crate::__private_v0_1::MaxWaitGiven), sealed, implemented for no
//! `WithoutMaxWait<Waiter<..>>`): awaiting a waiter is one error whose message says to write
//! `.wait(Duration::from_secs(300)).await`, and the awaited expression keeps the type
//! `.wait(..)` gives, so the code after it reports nothing more. No program can poll a `Waiter`
//! through it, nor use it as an `IntoFuture`. It costs correct code nothing: another crate could
//! never rely on `Waiter` not being a future (rustc's coherence already assumes this crate may
//! add the impl).
//!
//! The bound is on `WithoutMaxWait<Self>` rather than on `Self`: for a bound on the awaited type
//! itself, rustc reports its own "is not a future" instead.
//!
//! A [`WaitAll`] awaited without `.wait(max_wait)` gets the same treatment, with its own
//! message ([`SetMaxWaitGiven`](crate::__private_v0_1::SetMaxWaitGiven)), and so does a
//! blocking waiter awaited at all (`blocking/not_a_future.rs`: call `.wait(max_wait)`, no
//! `.await`).
//!
//! rustc still adds "help: remove the `.await`" (and "consider making `fn ..` asynchronous")
//! after our message, which the note contradicts ("keep the `.await`, after `.wait(..)`"):
//! rustc's `suggest_remove_await` adds it to every unmet obligation caused by an `.await`,
//! whatever the trait. Tried, with rustc 1.95: `#[diagnostic::do_not_recommend]` on this
//! `Future` impl (rustc then reports its own "`Waiter` is not a future", our message lost, the
//! suggestion kept); the bound on an `IntoFuture` impl instead, whose `IntoFuture` type is a
//! future under the same bound (the same "is not a future", suggestion kept); the bound on
//! `Self` (rustc's "is not a future"). An `IntoFuture` that always holds, with an output no
//! code can use, would compile `waiter.await;` as a statement silently. So the bound stays on
//! `WithoutMaxWait<Self>` here, and the suggestion stays.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use super::wait_all::{WaitAll, WaitResult};
use super::{FinalPoll, Waiter, WaiterError};
use crate::__private_v0_1::{MaxWaitGiven, SetMaxWaitGiven, WithoutMaxWait};

impl<'a, O, E, Obs> Future for Waiter<'a, O, E, Obs>
where
    WithoutMaxWait<Self>: MaxWaitGiven,
{
    type Output = Result<FinalPoll<O, E>, WaiterError<O, E>>;

    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Self::Output> {
        unreachable!("no `Waiter` meets the bound of this impl")
    }
}

impl<'a, O, E> Future for WaitAll<'a, O, E>
where
    WithoutMaxWait<Self>: SetMaxWaitGiven,
{
    type Output = Vec<WaitResult<O, E>>;

    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Self::Output> {
        unreachable!("no `WaitAll` meets the bound of this impl")
    }
}
