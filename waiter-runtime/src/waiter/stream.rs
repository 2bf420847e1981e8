//! A wait as a stream of its polls: [`Waiter::stream`](super::Waiter::stream) gives a
//! [`WaiterStream`] of [`WaitUpdate`]s.
//!
//! The stream is the same driver as [`wait`](super::Waiter::wait), run inside the stream
//! with a hand-off ([`Updates`]) after each poll that does not end the wait: the poll's result
//! is taken from the decision core, put in a slot the stream reads, and the driver pauses
//! once so that the consumer gets it. `wait` hands off to `()`, which does nothing.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use futures_util::Stream;

use super::machine::Machine;
use super::observer::PollEvent;
use super::outcome::{FinalPoll, WaiterError};

/// One step of a wait, as a [`WaiterStream`] yields it.
///
/// `Polled` for each poll that does not end the wait, with its own result; then exactly one
/// `Done`, with what [`wait`](super::Waiter::wait) would have returned; then the stream ends.
#[derive(Debug)]
pub enum WaitUpdate<O, E> {
    /// A poll that did not end the wait: what the observers saw, and what the operation
    /// returned (an error here is one the wait goes on after: an acceptor matched it, or
    /// [`TransientPollErrors::Retry`](super::TransientPollErrors::Retry) counted it as a poll
    /// that matched nothing).
    Polled {
        /// The poll's event (its number, time, state, next delay, checkpoint...).
        event: PollEvent,
        /// The poll's result, owned.
        result: Result<O, E>,
    },
    /// The wait is over. `WaiterError::ExceededMaxWait`'s (and `Stopped`'s) `last` holds a
    /// result only when the poll that ended the wait is the one it carries; a result already
    /// yielded in a `Polled` is not repeated, so `last` is `None` when the wait ran out of
    /// time while sleeping or with a poll in flight.
    Done(Result<FinalPoll<O, E>, WaiterError<O, E>>),
}

/// A wait as a stream: see [`Waiter::stream`](super::Waiter::stream).
///
/// Dropping it drops the poll in flight, if any; nothing more is sent.
#[must_use = "a stream does nothing unless polled"]
pub struct WaiterStream<'a, O, E> {
    driver: Option<Driver<'a, O, E>>,
    slot: Slot<O, E>,
}

type Driver<'a, O, E> =
    Pin<Box<dyn Future<Output = Result<FinalPoll<O, E>, WaiterError<O, E>>> + Send + 'a>>;

/// The update the driver handed off, not yet taken by the stream.
type Slot<O, E> = Arc<Mutex<Option<WaitUpdate<O, E>>>>;

impl<'a, O, E> WaiterStream<'a, O, E> {
    /// A stream of the wait `run(hand_off)` drives.
    pub(crate) fn new<F, Fut>(run: F) -> Self
    where
        F: FnOnce(StreamUpdates<O, E>) -> Fut,
        Fut: Future<Output = Result<FinalPoll<O, E>, WaiterError<O, E>>> + Send + 'a,
    {
        let slot: Slot<O, E> = Arc::new(Mutex::new(None));
        let driver = run(StreamUpdates(Arc::clone(&slot)));
        WaiterStream {
            driver: Some(Box::pin(driver)),
            slot,
        }
    }
}

impl<O, E> fmt::Debug for WaiterStream<'_, O, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WaiterStream")
            .field("done", &self.driver.is_none())
            .finish_non_exhaustive()
    }
}

impl<O, E> Stream for WaiterStream<'_, O, E> {
    type Item = WaitUpdate<O, E>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let Some(driver) = &mut self.driver else {
            return Poll::Ready(None);
        };
        match driver.as_mut().poll(cx) {
            Poll::Ready(outcome) => {
                self.driver = None;
                Poll::Ready(Some(WaitUpdate::Done(outcome)))
            }
            // The driver pauses right after it hands an update off (see `HandedOff`).
            Poll::Pending => match self.slot.lock().unwrap_or_else(|e| e.into_inner()).take() {
                Some(update) => Poll::Ready(Some(update)),
                None => Poll::Pending,
            },
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self.driver {
            Some(_) => (1, None),
            None => (0, Some(0)),
        }
    }
}

/// What the driver does after a poll that does not end the wait, besides telling the
/// observer: nothing for `wait` (`()`), a hand-off for a stream.
pub(crate) trait Updates<O, E> {
    /// Returns whether the driver must pause once ([`HandedOff`]) before it goes on.
    fn polled(&mut self, event: &PollEvent, machine: &mut Machine<O, E>) -> bool;
}

impl<O, E> Updates<O, E> for () {
    #[inline(always)]
    fn polled(&mut self, _: &PollEvent, _: &mut Machine<O, E>) -> bool {
        false
    }
}

/// The stream's side of the driver: the poll's result goes to the stream's slot.
pub(crate) struct StreamUpdates<O, E>(Slot<O, E>);

impl<O, E> Updates<O, E> for StreamUpdates<O, E> {
    fn polled(&mut self, event: &PollEvent, machine: &mut Machine<O, E>) -> bool {
        let Some(result) = machine.take_last() else {
            return false;
        };
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(WaitUpdate::Polled {
            event: *event,
            result,
        });
        true
    }
}

/// Pending once, then ready: the driver stops there so that the stream returns the update it
/// handed off. It registers no waker: the stream's `poll_next` returns the update at once
/// (`Ready`), and the consumer's next `poll_next` polls the driver again.
#[derive(Default)]
pub(crate) struct HandedOff(bool);

impl Future for HandedOff {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        if self.0 {
            Poll::Ready(())
        } else {
            self.0 = true;
            Poll::Pending
        }
    }
}
