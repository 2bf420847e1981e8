//! The waiter: options, then the loop that polls until an acceptor decides or time runs out.

use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use tokio::time::Instant;
use tracing::Instrument;

use super::acceptor::{AcceptorState, Polled};
use super::delay::{compute_delay, random_between};
use super::metadata::WaiterMetadata;
use super::observer::{PollEvent, PollObserver};
use super::outcome::{FinalPoll, WaiterError};
use super::poller::BoxPoller;
use crate::poll_scope::{NamedErrors, PollScope};

/// A waiter ready to run: set options, then call [`wait`](Self::wait) with the maximum time
/// you are willing to wait (the spec requires the caller to give one).
///
/// Every `wait_until_*` function of [`#[waitable]`](crate::waitable) returns one: a
/// `Waiter<'a, O, E>` polls an operation returning `Result<O, E>` and borrows what the
/// operation borrows (`&self`, borrowed parameters) for `'a`. It is `Send`, so it can be
/// spawned, and it does nothing until awaited.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::{ProvideErrorMetadata, Searchable, Waiter, WaiterError, waitable};
///
/// #[derive(Debug, ProvideErrorMetadata)]
/// enum Error { NotFound }
/// #[derive(Debug, Searchable)]
/// struct Thing { status: String }
/// struct Client;
///
/// impl Client {
///     #[waitable(ThingReady: { acceptors: [{ state: "success", matcher: { output: {
///         path: "status", expected: "ready", comparator: "stringEquals" } } }] })]
///     async fn get_thing(&self, name: &str) -> Result<Thing, Error> {
///         let _ = name;
///         Ok(Thing { status: "creating".into() })
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// let client = Client;
/// let waiter: Waiter<'_, Thing, Error> = client.wait_until_thing_ready("t1");
/// let mut polls = Vec::new();
/// let err = waiter
///     .min_delay(Duration::from_millis(500))
///     .max_delay(Duration::from_secs(2))
///     .seed(42)
///     .on_poll(|event: &_| polls.push(*event))
///     .wait(Duration::from_secs(10))
///     .await
///     .unwrap_err();
/// assert!(matches!(err, WaiterError::ExceededMaxWait { .. }));
/// assert_eq!(polls.last().unwrap().elapsed, Duration::from_secs(10));
/// # }
/// ```
#[must_use = "a waiter does nothing until `.wait(max_wait).await`"]
pub struct Waiter<'a, O, E, Obs = ()> {
    metadata: WaiterMetadata,
    poller: BoxPoller<'a, O, E>,
    observer: Obs,
    min_delay: Duration,
    max_delay: Duration,
    seed: Option<u64>,
}

impl<O, E, Obs> std::fmt::Debug for Waiter<'_, O, E, Obs> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Waiter")
            .field("waiter", &self.metadata.name)
            .field("operation", &self.metadata.operation)
            .field("min_delay", &self.min_delay)
            .field("max_delay", &self.max_delay)
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}

impl<'a, O, E> Waiter<'a, O, E> {
    /// A waiter that polls with `poller`, with the delays in `metadata`.
    pub(crate) fn from_poller(metadata: WaiterMetadata, poller: BoxPoller<'a, O, E>) -> Self {
        Waiter {
            metadata,
            poller,
            observer: (),
            min_delay: metadata.min_delay,
            max_delay: metadata.max_delay,
            seed: None,
        }
    }
}

impl<'a, O, E, Obs: PollObserver> Waiter<'a, O, E, Obs> {
    /// The waiter's static description (name, delays from the model, tags...).
    pub fn metadata(&self) -> &WaiterMetadata {
        &self.metadata
    }

    /// Overrides the minimum delay between polls (any duration above zero, sub-second allowed).
    pub fn min_delay(mut self, min_delay: Duration) -> Self {
        self.min_delay = min_delay;
        self
    }

    /// Overrides the maximum delay between polls (at least the minimum delay).
    pub fn max_delay(mut self, max_delay: Duration) -> Self {
        self.max_delay = max_delay;
        self
    }

    /// Seeds the jitter, so that a run's delays can be reproduced.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// Calls `observer` after each poll with the poll number, the elapsed time, the state
    /// reached and the delay before the next poll (for progress bars and logs).
    pub fn on_poll<F: FnMut(&PollEvent)>(self, observer: F) -> Waiter<'a, O, E, F> {
        Waiter {
            metadata: self.metadata,
            poller: self.poller,
            observer,
            min_delay: self.min_delay,
            max_delay: self.max_delay,
            seed: self.seed,
        }
    }

    /// Polls until an acceptor reaches `success` or `failure`, the operation fails with an
    /// error no acceptor matches, or `max_wait` passes.
    ///
    /// The first poll is immediate. A poll still in flight at the deadline is cancelled (its
    /// future is dropped). Each poll runs inside a [`PollScope`]: a retry layer inside the
    /// operation returns at once the errors the waiter's acceptors name and retries the others.
    pub async fn wait(self, max_wait: Duration) -> Result<FinalPoll<O, E>, WaiterError<O, E>> {
        let span = tracing::info_span!(
            "waiter",
            waiter = self.metadata.name,
            operation = self.metadata.operation,
            max_wait = ?max_wait,
        );
        self.run(max_wait).instrument(span).await
    }

    async fn run(mut self, max_wait: Duration) -> Result<FinalPoll<O, E>, WaiterError<O, E>> {
        let waiter = self.metadata.name;
        let (min_delay, max_delay) = (self.min_delay, self.max_delay);
        if min_delay.is_zero() || min_delay > max_delay {
            return Err(WaiterError::InvalidDelays {
                waiter,
                min_delay,
                max_delay,
            });
        }
        let mut rng = match self.seed {
            Some(seed) => SmallRng::seed_from_u64(seed),
            None => SmallRng::from_os_rng(),
        };
        let start = Instant::now();
        // A max wait too large to represent is no deadline at all.
        let deadline = start.checked_add(max_wait);
        let mut polls: u32 = 0;
        let mut retries: u32 = 0;
        let mut last = None;
        loop {
            let scope = PollScope::new(NamedErrors::every(), deadline);
            let poll = scope.run((self.poller)());
            let polled = match deadline {
                Some(deadline) => match tokio::time::timeout_at(deadline, poll).await {
                    Ok(polled) => polled,
                    Err(_) => {
                        tracing::debug!(poll = polls + 1, "poll cancelled at the deadline");
                        return Err(WaiterError::ExceededMaxWait {
                            waiter,
                            max_wait,
                            elapsed: start.elapsed(),
                            polls,
                            cancelled_in_flight: true,
                            last,
                        });
                    }
                },
                None => poll.await,
            };
            polls = polls.saturating_add(1);
            let elapsed = start.elapsed();
            let state = polled.state();
            let Polled { result, matched } = polled;
            let acceptor = matched.as_ref().map(|m| m.acceptor);
            let next_delay = match state {
                AcceptorState::Retry => {
                    let remaining = deadline.map_or(Duration::MAX, |d| {
                        d.saturating_duration_since(Instant::now())
                    });
                    (!remaining.is_zero()).then(|| {
                        retries = retries.saturating_add(1);
                        compute_delay(retries, min_delay, max_delay, remaining, |low, high| {
                            random_between(&mut rng, low, high)
                        })
                    })
                }
                AcceptorState::Success | AcceptorState::Failure => None,
            };
            tracing::debug!(poll = polls, ?elapsed, %state, ?acceptor, ?next_delay, "waiter poll");
            self.observer.on_poll(&PollEvent {
                waiter,
                poll: polls,
                elapsed,
                state,
                acceptor,
                next_delay,
            });
            match (matched, result) {
                (Some(matched), result) if matched.state == AcceptorState::Success => {
                    return Ok(FinalPoll {
                        result,
                        polls,
                        elapsed,
                    });
                }
                (Some(matched), result) if matched.state == AcceptorState::Failure => {
                    return Err(WaiterError::FailureState {
                        waiter,
                        acceptor: matched.acceptor,
                        message: matched.message,
                        final_poll: FinalPoll {
                            result,
                            polls,
                            elapsed,
                        },
                    });
                }
                (None, Err(error)) => {
                    return Err(WaiterError::OperationFailed {
                        waiter,
                        error,
                        polls,
                        elapsed,
                    });
                }
                (_, result) => match next_delay {
                    Some(delay) => {
                        last = Some(result);
                        tokio::time::sleep(delay).await;
                    }
                    None => {
                        return Err(WaiterError::ExceededMaxWait {
                            waiter,
                            max_wait,
                            elapsed,
                            polls,
                            cancelled_in_flight: false,
                            last: Some(result),
                        });
                    }
                },
            }
        }
    }
}
