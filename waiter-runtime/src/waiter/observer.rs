//! What the `on_poll` observer sees after each poll.

use std::time::Duration;

use super::AcceptorState;

/// One completed poll, as given to [`Waiter::on_poll`](super::Waiter::on_poll).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PollEvent {
    /// The waiter's name.
    pub waiter: &'static str,
    /// The poll's number, from 1.
    pub poll: u32,
    /// Time from the start of the wait to the end of this poll.
    pub elapsed: Duration,
    /// The state this poll reached (`retry` if no acceptor matched a success).
    pub state: AcceptorState,
    /// Index of the acceptor that matched, if one did.
    pub acceptor: Option<usize>,
    /// The delay before the next poll; `None` when this poll ends the wait.
    pub next_delay: Option<Duration>,
}

/// Called after each poll. Implemented for every `FnMut(&PollEvent)`; `()` observes nothing.
pub trait PollObserver {
    /// Receives one poll's event.
    fn on_poll(&mut self, event: &PollEvent);
}

impl PollObserver for () {
    #[inline]
    fn on_poll(&mut self, _: &PollEvent) {}
}

impl<F: FnMut(&PollEvent)> PollObserver for F {
    #[inline]
    fn on_poll(&mut self, event: &PollEvent) {
        self(event)
    }
}
