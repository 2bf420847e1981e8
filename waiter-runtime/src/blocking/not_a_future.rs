//! `blocking_waiter.await`: a [`Waiter`] of a plain `fn` waits on the calling thread, and
//! `.wait(max_wait)` returns the outcome; awaiting it is a mistake, and rustc's own message
//! ("`Waiter<..>` is not a future", then "remove the `.await`", then, once removed, "no method
//! named `unwrap`") never says `.wait(..)`.
//!
//! As the async waiter's `waiter/forgot_wait.rs` does, this [`Future`] impl exists only for its
//! bound, which no waiter meets
//! ([`BlockingWaitGiven`](crate::__private_v0_1::BlockingWaitGiven), sealed, implemented for
//! no `WithoutMaxWait<blocking::Waiter<..>>`): awaiting a blocking waiter is one error whose
//! message says to write `.wait(Duration::from_secs(300))` and drop the `.await` (rustc's
//! "remove the `.await`" then agrees with it), and the awaited expression has the type
//! `.wait(..)` returns, so the code after it (`.unwrap()`, `?`) reports nothing more. No
//! program can poll a blocking waiter through it.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use super::Waiter;
use crate::__private_v0_1::{BlockingWaitGiven, WithoutMaxWait};
use crate::waiter::{FinalPoll, WaiterError};

impl<'a, O, E, Obs> Future for Waiter<'a, O, E, Obs>
where
    WithoutMaxWait<Self>: BlockingWaitGiven,
{
    type Output = Result<FinalPoll<O, E>, WaiterError<O, E>>;

    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Self::Output> {
        unreachable!("no blocking `Waiter` meets the bound of this impl")
    }
}
