//! What the `on_poll` observer sees after each poll.

use std::time::Duration;

use super::AcceptorState;

/// One completed poll, as given to [`Waiter::on_poll`](super::Waiter::on_poll).
///
/// ```
/// use std::sync::atomic::{AtomicU32, Ordering};
/// use std::time::Duration;
/// use waiter_runtime::waitable;
/// use waiter_runtime::waiter::{AcceptorState, PollEvent};
///
/// struct Client { calls: AtomicU32 }
/// impl Client {
///     #[waitable(Ready: { acceptors: [{ state: "success", matcher: { inputOutput: {
///         path: "output", expected: "true", comparator: "booleanEquals" } } }] })]
///     async fn is_ready(&self) -> Result<bool, std::io::Error> {
///         Ok(self.calls.fetch_add(1, Ordering::Relaxed) == 1)
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// let client = Client { calls: AtomicU32::new(0) };
/// let waiter = client.wait_until_ready();
/// let mut log = Vec::new();
/// waiter
///     .min_delay(Duration::from_secs(3))
///     .max_delay(Duration::from_secs(3))
///     .on_poll(|e: &PollEvent| log.push((e.poll, e.state, e.next_delay)))
///     .wait(Duration::from_secs(60))
///     .await
///     .unwrap();
/// assert_eq!(log, [
///     (1, AcceptorState::Retry, Some(Duration::from_secs(3))),
///     (2, AcceptorState::Success, None),
/// ]);
/// # }
/// ```
#[non_exhaustive]
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
    /// Index of the acceptor that matched, if one did: 0 for the model's first acceptor (the
    /// one convention everywhere: `WaiterError::FailureState` and its `Display`, which writes
    /// `acceptors[0]`).
    pub acceptor: Option<usize>,
    /// The delay before the next poll; `None` when this poll ends the wait.
    pub next_delay: Option<Duration>,
    /// Attempts made inside this poll: 1, plus one per retry of a retry layer inside it
    /// (the operation's [`Retrier`](crate::retry::Retrier) or [`Waiter::retry`](super::Waiter::retry)).
    pub attempts: u32,
    /// Time this poll spent waiting for those retries (backoff or retry-after hints).
    pub retry_wait: Duration,
    /// Time this poll spent waiting for client-side rate-limiter tokens (adaptive retries).
    pub rate_limit_wait: Duration,
}

/// Called after each poll. Implemented for every `FnMut(&PollEvent)`; `()` observes nothing.
///
/// ```
/// use waiter_runtime::waiter::{PollEvent, PollObserver};
///
/// struct Progress(u32);
/// impl PollObserver for Progress {
///     fn on_poll(&mut self, event: &PollEvent) {
///         self.0 = event.poll;
///     }
/// }
/// ```
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
