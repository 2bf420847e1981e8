//! A blocking wait as an iterator of its polls: [`Waiter::iter`](super::Waiter::iter) gives a
//! [`WaiterIter`] of [`WaitUpdate`]s, the sequence [`Waiter::stream`](crate::Waiter::stream)
//! gives an async caller.

use std::fmt;
use std::iter::FusedIterator;

use super::driver::{Driver, Step, SystemClock};
use crate::timer;
use crate::waiter::{PollObserver, WaitUpdate};

/// A blocking wait, poll by poll: see [`Waiter::iter`](super::Waiter::iter).
///
/// Each `next` sleeps (on the calling thread) until the next poll, makes it and returns its
/// [`WaitUpdate::Polled`], or returns the one [`WaitUpdate::Done`]; then `None`, for ever.
/// Dropping it ends the wait: no other request is sent.
#[must_use = "an iterator does nothing unless iterated"]
pub struct WaiterIter<'a, O, E, Obs = ()> {
    driver: Driver<'a, O, E, Obs, SystemClock>,
    span: tracing::Span,
    done: bool,
}

impl<'a, O, E, Obs: PollObserver> WaiterIter<'a, O, E, Obs> {
    /// The updates of the wait `driver` drives, in `span`.
    pub(crate) fn new(driver: Driver<'a, O, E, Obs, SystemClock>, span: tracing::Span) -> Self {
        WaiterIter {
            driver,
            span,
            done: false,
        }
    }
}

impl<O, E, Obs> fmt::Debug for WaiterIter<'_, O, E, Obs> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WaiterIter")
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl<O, E, Obs: PollObserver> Iterator for WaiterIter<'_, O, E, Obs> {
    type Item = WaitUpdate<O, E>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let _entered = self.span.enter();
        let driver = &mut self.driver;
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
        self.done = !matches!(update, Some(WaitUpdate::Polled { .. }));
        update
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        if self.done { (0, Some(0)) } else { (1, None) }
    }
}

impl<O, E, Obs: PollObserver> FusedIterator for WaiterIter<'_, O, E, Obs> {}
