//! A blocking wait as an iterator of its polls: [`Waiter::iter`](super::Waiter::iter) gives a
//! [`WaiterIter`] of [`WaitUpdate`]s, the sequence [`Waiter::stream`](crate::Waiter::stream)
//! gives an async caller.

use std::fmt;
use std::iter::FusedIterator;

use super::driver::{Driver, Step, SystemClock};
use crate::timer;
use crate::waiter::{PollObserver, WaitUpdate, WaiterError};

/// A blocking wait, poll by poll: see [`Waiter::iter`](super::Waiter::iter).
///
/// Each `next` sleeps (on the calling thread) until the next poll, makes it and returns its
/// [`WaitUpdate::Polled`], or returns the one [`WaitUpdate::Done`]; then `None`, for ever.
/// Dropping it ends the wait: no other request is sent.
#[must_use = "an iterator does nothing unless iterated"]
pub struct WaiterIter<'a, O, E, Obs = ()> {
    state: State<'a, O, E, Obs>,
    span: tracing::Span,
}

enum State<'a, O, E, Obs> {
    /// Boxed: one allocation per wait, and each `next` moves a pointer.
    Running(Box<Driver<'a, O, E, Obs, SystemClock>>),
    /// The options were refused: the one `Done`, before any poll.
    Refused(WaiterError<O, E>),
    Done,
}

impl<'a, O, E, Obs: PollObserver> WaiterIter<'a, O, E, Obs> {
    /// The updates of the wait `driver` drives (or the end, for refused options), in `span`.
    pub(crate) fn new(
        driver: Result<Driver<'a, O, E, Obs, SystemClock>, WaiterError<O, E>>,
        span: tracing::Span,
    ) -> Self {
        let state = match driver {
            Ok(driver) => State::Running(Box::new(driver)),
            Err(refused) => State::Refused(refused),
        };
        WaiterIter { state, span }
    }
}

impl<O, E, Obs> fmt::Debug for WaiterIter<'_, O, E, Obs> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WaiterIter")
            .field("done", &matches!(self.state, State::Done))
            .finish_non_exhaustive()
    }
}

impl<O, E, Obs: PollObserver> Iterator for WaiterIter<'_, O, E, Obs> {
    type Item = WaitUpdate<O, E>;

    fn next(&mut self) -> Option<Self::Item> {
        let driver = match std::mem::replace(&mut self.state, State::Done) {
            State::Done => return None,
            State::Refused(refused) => return Some(WaitUpdate::Done(Err(refused))),
            State::Running(driver) => driver,
        };
        let _entered = self.span.enter();
        let mut driver = driver;
        let update = timer::as_blocking(|| {
            loop {
                match driver.step()? {
                    Step::Done(outcome) => return Some(WaitUpdate::Done(outcome)),
                    // The poll's result goes to the consumer (a poll that goes on always
                    // leaves one).
                    Step::Polled(event) => {
                        if let Some(result) = driver.take_last() {
                            return Some(WaitUpdate::Polled { event, result });
                        }
                    }
                }
            }
        });
        if let Some(WaitUpdate::Polled { .. }) = update {
            self.state = State::Running(driver);
        }
        update
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self.state {
            State::Done => (0, Some(0)),
            _ => (1, None),
        }
    }
}

impl<O, E, Obs: PollObserver> FusedIterator for WaiterIter<'_, O, E, Obs> {}
