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
use super::poll_retries::PollRetries;
use super::poller::Poller;
use crate::ProvideErrorMetadata;
use crate::poll_scope::PollScope;
use crate::retry::{Retrier, RetryConfig};

/// A waiter ready to run: set options, then call [`wait`](Self::wait) with the maximum time
/// you are willing to wait (the spec requires the caller to give one).
///
/// `#[waitable]` returns one from every `wait_until_*` function.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::waiter::{AcceptorState, Matched, Polled, Waiter, WaiterError, WaiterMetadata};
///
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// let never = Waiter::new(WaiterMetadata::new("Never", "get"), || async {
///     Polled::new(Ok::<_, std::io::Error>(()), None)
/// });
/// let mut polls = Vec::new();
/// let err = never
///     .min_delay(Duration::from_millis(500))
///     .max_delay(Duration::from_secs(2))
///     .seed(42)
///     .on_poll(|event: &_| polls.push(*event))
///     .wait(Duration::from_secs(10))
///     .await
///     .unwrap_err();
/// assert!(matches!(err, WaiterError::ExceededMaxWait { .. }));
/// // The last poll started `min_delay` before the deadline, with time to answer.
/// assert_eq!(polls.last().unwrap().elapsed, Duration::from_millis(9_500));
/// # }
/// ```
#[must_use = "a waiter does nothing until `.wait(max_wait).await`"]
pub struct Waiter<P, Obs = (), R = ()> {
    metadata: WaiterMetadata,
    poller: P,
    observer: Obs,
    retries: R,
    min_delay: Duration,
    max_delay: Duration,
    /// Which bounds the caller set (`min_delay`, `max_delay`).
    set: (bool, bool),
    seed: Option<u64>,
}

impl<P, Obs, R> std::fmt::Debug for Waiter<P, Obs, R> {
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

impl<P: Poller> Waiter<P> {
    /// A waiter that polls with `poller`, with the delays in `metadata`.
    pub fn new(metadata: WaiterMetadata, poller: P) -> Self {
        Waiter {
            metadata,
            poller,
            observer: (),
            retries: (),
            min_delay: metadata.min_delay,
            max_delay: metadata.max_delay,
            set: (false, false),
            seed: None,
        }
    }
}

impl<P: Poller, Obs: PollObserver, R: PollRetries<P>> Waiter<P, Obs, R> {
    /// The waiter's static description (name, delays from the model, tags...).
    pub fn metadata(&self) -> &WaiterMetadata {
        &self.metadata
    }

    /// Overrides the minimum delay between polls (any duration above zero, sub-second allowed).
    ///
    /// When the maximum delay (the model's, or one you set) is below it, and you did not set
    /// the maximum yourself, the maximum moves up to it. Only a pair you set both halves of can
    /// be contradictory: then [`wait`](Self::wait) returns [`WaiterError::InvalidDelays`].
    ///
    /// ```
    /// use std::time::Duration;
    /// use waiter_runtime::waiter::{Polled, Waiter, WaiterError, WaiterMetadata};
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// // The model says minDelay 15 s (maxDelay 120 s): a 5 s maximum moves the minimum down.
    /// let meta = WaiterMetadata::new("Slow", "get").with_min_delay(Duration::from_secs(15));
    /// let poll = || async { Polled::new(Ok::<_, std::io::Error>(()), None) };
    /// let err = Waiter::new(meta, poll).max_delay(Duration::from_secs(5)).wait(Duration::from_secs(60)).await;
    /// assert!(matches!(err, Err(WaiterError::ExceededMaxWait { polls: 12, .. })));
    /// // Both set and contradictory: an error, no poll.
    /// let err = Waiter::new(meta, poll)
    ///     .min_delay(Duration::from_secs(9))
    ///     .max_delay(Duration::from_secs(5))
    ///     .wait(Duration::from_secs(60))
    ///     .await;
    /// assert!(matches!(err, Err(WaiterError::InvalidDelays { .. })));
    /// # }
    /// ```
    pub fn min_delay(mut self, min_delay: Duration) -> Self {
        self.min_delay = min_delay;
        self.set.0 = true;
        self
    }

    /// Overrides the maximum delay between polls.
    ///
    /// When the minimum delay (the model's, or one you set) is above it, and you did not set
    /// the minimum yourself, the minimum moves down to it (see [`min_delay`](Self::min_delay)).
    pub fn max_delay(mut self, max_delay: Duration) -> Self {
        self.max_delay = max_delay;
        self.set.1 = true;
        self
    }

    /// Seeds the jitter, so that a run's delays can be reproduced.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// Calls `observer` after each poll with the poll number, the elapsed time, the state
    /// reached, the delay before the next poll, and the attempts and waits of the retries
    /// inside the poll (for progress bars and logs).
    pub fn on_poll<F: FnMut(&PollEvent)>(self, observer: F) -> Waiter<P, F, R> {
        Waiter {
            metadata: self.metadata,
            poller: self.poller,
            observer,
            retries: self.retries,
            min_delay: self.min_delay,
            max_delay: self.max_delay,
            set: self.set,
            seed: self.seed,
        }
    }

    /// Retries inside each poll with a [`Retrier`] of this configuration, for an operation
    /// that has no retry layer of its own: see [`retrier`](Self::retrier).
    pub fn retry(self, config: RetryConfig) -> Waiter<P, Obs, Retrier>
    where
        P::Error: ProvideErrorMetadata + 'static,
    {
        self.retrier(Retrier::new(config))
    }

    /// Retries inside each poll with `retrier` (share your client's to share its quota and
    /// rate limiter), as the AWS SDKs keep the client's retries inside each poll.
    ///
    /// An error that an acceptor matched is never retried: it is the waiter's to decide. Any
    /// other error is classified and retried as the retrier would outside a waiter
    /// (throttling, transient errors, retry-after hints), with its quota and rate limiting,
    /// never past the waiter's deadline. When the operation already retries through a retry
    /// layer of its own (a [`Retrier`] inside it), these retries stand down: no double
    /// retries.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use std::time::Duration;
    /// use waiter_runtime::ProvideErrorMetadata;
    /// use waiter_runtime::retry::RetryConfig;
    /// use waiter_runtime::waiter::{AcceptorState, Matched, Polled, Waiter, WaiterMetadata};
    ///
    /// #[derive(Debug, ProvideErrorMetadata)]
    /// enum Error {
    ///     #[error_metadata(code = "ThrottlingException", throttling)]
    ///     Throttled,
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let calls = AtomicU32::new(0);
    /// let mut attempts = Vec::new();
    /// let done = Waiter::new(WaiterMetadata::new("Ready", "get"), || {
    ///     let n = calls.fetch_add(1, Ordering::Relaxed);
    ///     async move {
    ///         // Every other request is throttled; the third answer is "ready".
    ///         let result = if n % 2 == 0 { Err(Error::Throttled) } else { Ok(n) };
    ///         let ready = matches!(result, Ok(n) if n >= 3);
    ///         Polled::new(result, ready.then(|| Matched::new(0, AcceptorState::Success)))
    ///     }
    /// })
    /// .retry(RetryConfig::standard().build())
    /// .on_poll(|e: &_| attempts.push(e.attempts))
    /// .wait(Duration::from_secs(60))
    /// .await
    /// .unwrap();
    /// assert_eq!(done.polls, 2);
    /// assert_eq!(attempts, [2, 2]);
    /// # }
    /// ```
    pub fn retrier(self, retrier: Retrier) -> Waiter<P, Obs, Retrier>
    where
        P::Error: ProvideErrorMetadata + 'static,
    {
        Waiter {
            metadata: self.metadata,
            poller: self.poller,
            observer: self.observer,
            retries: retrier,
            min_delay: self.min_delay,
            max_delay: self.max_delay,
            set: self.set,
            seed: self.seed,
        }
    }

    /// The delays the wait uses: a bound the caller did not set moves to meet the other.
    fn delays(&self) -> Result<(Duration, Duration), WaiterError<P::Output, P::Error>> {
        let (mut min_delay, mut max_delay) = (self.min_delay, self.max_delay);
        if min_delay > max_delay {
            match self.set {
                (true, false) => max_delay = min_delay,
                (false, true) => min_delay = max_delay,
                _ => {}
            }
        }
        if min_delay.is_zero() || min_delay > max_delay {
            return Err(WaiterError::InvalidDelays {
                waiter: self.metadata.name,
                min_delay,
                max_delay,
            });
        }
        Ok((min_delay, max_delay))
    }

    /// Polls until an acceptor reaches `success` or `failure`, the operation fails with an
    /// error no acceptor matches, or `max_wait` passes.
    ///
    /// The first poll is immediate. Between polls the waiter sleeps the spec's backoff, except
    /// that the last poll starts `min_delay` before the deadline so that it can answer (as
    /// aws-sdk-go-v2 does; the spec's text would start it at the deadline); a poll that ends
    /// with `min_delay` or less left ends the wait. A poll still in flight at the deadline
    /// is cancelled (its future is dropped).
    ///
    /// Each poll runs inside a [`PollScope`]: a retry layer inside the operation returns at
    /// once the errors the waiter's acceptors name and retries the others, never past the
    /// deadline. When such a retry gives up at the deadline, the wait ends as
    /// [`ExceededMaxWait`](WaiterError::ExceededMaxWait) with that error.
    ///
    /// The deadline is a tokio timer, which has a resolution of 1 ms: the wait ends at most
    /// about 1 ms after `max_wait` (a poll cancelled at a 1 ns deadline ends at 1 ms).
    pub async fn wait(
        self,
        max_wait: Duration,
    ) -> Result<FinalPoll<P::Output, P::Error>, WaiterError<P::Output, P::Error>> {
        let span = tracing::info_span!(
            "waiter",
            waiter = self.metadata.name,
            operation = self.metadata.operation,
            max_wait = ?max_wait,
        );
        self.run(max_wait).instrument(span).await
    }

    async fn run(
        mut self,
        max_wait: Duration,
    ) -> Result<FinalPoll<P::Output, P::Error>, WaiterError<P::Output, P::Error>> {
        let waiter = self.metadata.name;
        let (min_delay, max_delay) = self.delays()?;
        let named = self.metadata.named_errors();
        let mut rng = match self.seed {
            Some(seed) => SmallRng::seed_from_u64(seed),
            None => SmallRng::from_entropy(),
        };
        let start = Instant::now();
        // A max wait too large to represent is no deadline at all.
        let deadline = start.checked_add(max_wait);
        let mut polls: u32 = 0;
        let mut retries: u32 = 0;
        let mut last = None;
        loop {
            let scope = PollScope::new(named.clone(), deadline);
            let poll = scope.run(self.retries.poll(&mut self.poller));
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
            let stats = scope.stats();
            let state = polled.state();
            let Polled { result, matched } = polled;
            let acceptor = matched.as_ref().map(|m| m.acceptor);
            let next_delay = match state {
                AcceptorState::Retry => {
                    let remaining = deadline.map_or(Duration::MAX, |d| {
                        d.saturating_duration_since(Instant::now())
                    });
                    // No more than `min_delay` left: the last poll, started `min_delay` before
                    // the deadline, has been made (aws-sdk-go-v2 gives up likewise).
                    (remaining > min_delay).then(|| {
                        retries = retries.saturating_add(1);
                        compute_delay(retries, min_delay, max_delay, remaining, |low, high| {
                            random_between(&mut rng, low, high)
                        })
                    })
                }
                AcceptorState::Success | AcceptorState::Failure => None,
            };
            tracing::debug!(
                poll = polls,
                ?elapsed,
                %state,
                ?acceptor,
                ?next_delay,
                attempts = stats.attempts,
                retry_wait = ?stats.retry_wait,
                rate_limit_wait = ?stats.rate_limit_wait,
                "waiter poll"
            );
            self.observer.on_poll(&PollEvent {
                waiter,
                poll: polls,
                elapsed,
                state,
                acceptor,
                next_delay,
                attempts: stats.attempts,
                retry_wait: stats.retry_wait,
                rate_limit_wait: stats.rate_limit_wait,
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
                        description: self.metadata.acceptors.get(matched.acceptor).copied(),
                        message: matched.message,
                        final_poll: FinalPoll {
                            result,
                            polls,
                            elapsed,
                        },
                    });
                }
                // A retry inside the poll gave up at the deadline: the wait ran out of time.
                (None, Err(error)) if scope.stopped_at_deadline() => {
                    return Err(WaiterError::ExceededMaxWait {
                        waiter,
                        max_wait,
                        elapsed,
                        polls,
                        cancelled_in_flight: false,
                        last: Some(Err(error)),
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
