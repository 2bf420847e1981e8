//! What the `on_poll` observer sees after each poll.

use std::fmt;
use std::time::Duration;

use super::AcceptorState;
use super::checkpoint::{Progress, WaitCheckpoint};

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
///
/// Two events are equal when their public fields are (what a checkpoint adds, such as the
/// wall-clock start, is not compared).
#[non_exhaustive]
#[derive(Debug, Clone, Copy)]
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
    /// Polls in a row, this one included, that matched `success` (0 when this one did not).
    pub consecutive_successes: u32,
    /// The polls in a row that must match `success` to end the wait
    /// ([`Waiter::consecutive_successes`](super::Waiter::consecutive_successes), default 1).
    pub consecutive_successes_needed: u32,
    /// Whether this poll failed with an error no acceptor names that the retry classifiers
    /// call transient or throttling, and the wait went on as after a poll that matched nothing
    /// ([`TransientPollErrors::Retry`](super::TransientPollErrors::Retry); `state` is then
    /// `retry`).
    pub transient_error: bool,
    /// Where the wait stands, for [`checkpoint`](Self::checkpoint).
    pub(crate) progress: Progress,
}

impl PartialEq for PollEvent {
    fn eq(&self, other: &Self) -> bool {
        self.public_fields() == other.public_fields()
    }
}

impl Eq for PollEvent {}

impl PollEvent {
    /// Every public field (destructured: a field added later must be listed here), for
    /// `PartialEq`.
    #[allow(clippy::type_complexity)]
    fn public_fields(
        &self,
    ) -> (
        (&'static str, u32, Duration, AcceptorState, Option<usize>),
        (Option<Duration>, u32, Duration, Duration),
        (u32, u32, bool),
    ) {
        let PollEvent {
            waiter,
            poll,
            elapsed,
            state,
            acceptor,
            next_delay,
            attempts,
            retry_wait,
            rate_limit_wait,
            consecutive_successes,
            consecutive_successes_needed,
            transient_error,
            progress: _,
        } = *self;
        (
            (waiter, poll, elapsed, state, acceptor),
            (next_delay, attempts, retry_wait, rate_limit_wait),
            (
                consecutive_successes,
                consecutive_successes_needed,
                transient_error,
            ),
        )
    }

    /// A checkpoint of the wait after this poll, to take it up later with
    /// [`Waiter::resume`](super::Waiter::resume) (see [`WaitCheckpoint`]); `None` when this
    /// poll ended the wait.
    pub fn checkpoint(&self) -> Option<WaitCheckpoint> {
        let next_poll_in = self.next_delay?;
        Some(self.progress.checkpoint(
            self.waiter,
            self.poll,
            self.consecutive_successes,
            self.elapsed,
            next_poll_in,
        ))
    }
}

/// One line a person reads in a log or under a progress bar:
///
/// ```text
/// ResourceActive poll 3 at 1.25s: retry, next poll in 2s (2 attempts, 200ms waiting for retries)
/// Visible poll 4 at 6s: success (2 of 3 in a row), next poll in 2s
/// ResourceActive poll 4 at 3.20s: success, done
/// ```
///
/// Durations are rounded to the millisecond (`850ms`, `1.25s`, `2m05s`); the parenthesis
/// appears when a retry layer retried inside the poll or the poll waited for the rate limiter.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::waitable;
/// use waiter_runtime::waiter::PollEvent;
///
/// #[waitable(Ready: { acceptors: [{ state: "success", matcher: { success: true } }] })]
/// async fn ping() -> Result<(), std::io::Error> {
///     Ok(())
/// }
///
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// let mut lines = Vec::new();
/// wait_until_ready()
///     .on_poll(|e: &PollEvent| lines.push(e.to_string()))
///     .wait(Duration::from_secs(10))
///     .await
///     .unwrap();
/// assert_eq!(lines, ["Ready poll 1 at 0ms: success, done"]);
/// # }
/// ```
impl fmt::Display for PollEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} poll {} at {}: {}",
            self.waiter,
            self.poll,
            Human(self.elapsed),
            self.state
        )?;
        if self.transient_error {
            f.write_str(" (transient error)")?;
        }
        if self.consecutive_successes_needed > 1 && self.consecutive_successes > 0 {
            write!(
                f,
                " ({} of {} in a row)",
                self.consecutive_successes, self.consecutive_successes_needed
            )?;
        }
        match self.next_delay {
            Some(delay) => write!(f, ", next poll in {}", Human(delay))?,
            None => f.write_str(", done")?,
        }
        let retried = self.attempts > 1;
        let limited = !self.rate_limit_wait.is_zero();
        if retried {
            write!(
                f,
                " ({} attempts, {} waiting for retries",
                self.attempts,
                Human(self.retry_wait)
            )?;
        }
        match (retried, limited) {
            (true, true) => write!(f, ", {} for the rate limiter)", Human(self.rate_limit_wait)),
            (false, true) => write!(
                f,
                " ({} waiting for the rate limiter)",
                Human(self.rate_limit_wait)
            ),
            (true, false) => f.write_str(")"),
            (false, false) => Ok(()),
        }
    }
}

/// A duration rounded to the millisecond, for people: `850ms`, `2s`, `1.25s`, `2m05s`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Human(pub(crate) Duration);

impl fmt::Display for Human {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0.as_millis();
        if ms < 1_000 {
            write!(f, "{ms}ms")
        } else if ms < 60_000 {
            let (s, rest) = (ms / 1_000, ms % 1_000);
            if rest == 0 {
                write!(f, "{s}s")
            } else {
                let decimals = format!("{rest:03}");
                write!(f, "{s}.{}s", decimals.trim_end_matches('0'))
            }
        } else {
            write!(f, "{}m{:02}s", ms / 60_000, (ms / 1_000) % 60)
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_write_them() {
        let ms = Duration::from_millis;
        let cases = [
            (ms(0), "0ms"),
            (ms(850), "850ms"),
            (ms(2_000), "2s"),
            (ms(1_250), "1.25s"),
            (ms(1_500), "1.5s"),
            (ms(1_205), "1.205s"),
            (ms(1_050), "1.05s"),
            (ms(125_000), "2m05s"),
        ];
        for (d, text) in cases {
            assert_eq!(Human(d).to_string(), text);
        }
    }

    #[test]
    fn a_poll_line_says_what_happened_inside_it() {
        let event = PollEvent {
            waiter: "ResourceActive",
            poll: 3,
            elapsed: Duration::from_millis(1_250),
            state: AcceptorState::Retry,
            acceptor: None,
            next_delay: Some(Duration::from_secs(2)),
            attempts: 2,
            retry_wait: Duration::from_millis(200),
            rate_limit_wait: Duration::ZERO,
            consecutive_successes: 0,
            consecutive_successes_needed: 1,
            transient_error: false,
            progress: Progress {
                started: crate::waiter::checkpoint::Started::At(std::time::SystemTime::UNIX_EPOCH),
                max_wait: Duration::from_secs(60),
                retries: 2,
                longest_poll: Duration::ZERO,
                last_poll_planned: false,
                jitter: 0,
                binding: crate::waiter::checkpoint::Binding {
                    definition: 0,
                    input: crate::waiter::input::InputId::none(),
                },
            },
        };
        assert_eq!(
            event.to_string(),
            "ResourceActive poll 3 at 1.25s: retry, next poll in 2s (2 attempts, 200ms waiting for retries)"
        );
        let limited = PollEvent {
            rate_limit_wait: Duration::from_millis(50),
            ..event
        };
        assert!(
            limited
                .to_string()
                .ends_with("(2 attempts, 200ms waiting for retries, 50ms for the rate limiter)")
        );
        let only_limited = PollEvent {
            attempts: 1,
            ..limited
        };
        assert!(
            only_limited
                .to_string()
                .ends_with("next poll in 2s (50ms waiting for the rate limiter)")
        );
        let confirming = PollEvent {
            state: AcceptorState::Success,
            acceptor: Some(0),
            attempts: 1,
            rate_limit_wait: Duration::ZERO,
            consecutive_successes: 2,
            consecutive_successes_needed: 3,
            ..event
        };
        assert_eq!(
            confirming.to_string(),
            "ResourceActive poll 3 at 1.25s: success (2 of 3 in a row), next poll in 2s"
        );
        let done = PollEvent {
            next_delay: None,
            consecutive_successes_needed: 1,
            ..confirming
        };
        assert_eq!(
            done.to_string(),
            "ResourceActive poll 3 at 1.25s: success, done"
        );
    }
}
