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

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use super::{FinalPoll, Waiter, WaiterError};
use crate::__private_v0_1::{MaxWaitGiven, WithoutMaxWait};

impl<'a, O, E, Obs> Future for Waiter<'a, O, E, Obs>
where
    WithoutMaxWait<Self>: MaxWaitGiven,
{
    type Output = Result<FinalPoll<O, E>, WaiterError<O, E>>;

    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Self::Output> {
        unreachable!("no `Waiter` meets the bound of this impl")
    }
}
