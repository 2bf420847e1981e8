//! The rate limiter shared by all the calls of a client.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::Notify;
use tokio::time::Instant;

use super::{InvalidTuning, RateLimiterState, Tuning};

/// The adaptive rate limiter: one per client, cloned into every call (cloning shares it).
///
/// Before each attempt a call [`acquire`](Self::acquire)s a token; after each response it
/// reports whether the response was a throttle with [`on_response`](Self::on_response). Until
/// the first throttle, `acquire` returns at once after one atomic load.
///
/// Once on, callers are served in arrival order: the first in line sleeps (one timer, no
/// polling) until its token is there, the others wait behind it on a fair queue, and a rate
/// change wakes the first in line to recompute its deadline. The state sits behind a `std`
/// mutex held only for a few float operations, never across an `.await`.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::retry::adaptive::ClientRateLimiter;
///
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// let limiter = ClientRateLimiter::new();
/// limiter.acquire().await; // no throttle yet: no wait
/// limiter.on_response(true); // a throttle at a measured rate of 0: 0.5 tokens/s from now on
/// let start = tokio::time::Instant::now();
/// limiter.acquire().await;
/// assert_eq!(start.elapsed(), Duration::from_secs(2));
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct ClientRateLimiter {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    /// Mirrors `state.is_enabled()`, so the path before the first throttle takes no lock.
    enabled: AtomicBool,
    state: Mutex<Inner>,
    /// Who may take the next token: tokio's mutex queues waiters in arrival order.
    turnstile: tokio::sync::Mutex<()>,
    /// Wakes the first caller in line when the fill rate changes while it sleeps.
    rate_changed: Notify,
    /// Time zero of `state`'s timestamps.
    origin: Instant,
}

#[derive(Debug)]
struct Inner {
    state: RateLimiterState,
    /// The first caller in line is sleeping for a token.
    head_sleeping: bool,
}

impl Default for ClientRateLimiter {
    fn default() -> Self {
        Self::new()
    }
}

impl ClientRateLimiter {
    /// A limiter with the AWS SDKs' constants, off until the first throttle.
    pub fn new() -> Self {
        Self::with_state(RateLimiterState::new(0.0))
    }

    /// A limiter with other constants (see [`Tuning`]).
    ///
    /// ```
    /// use waiter_runtime::retry::adaptive::{ClientRateLimiter, Tuning};
    ///
    /// assert!(ClientRateLimiter::with_tuning(Tuning { beta: 0.8, ..Tuning::AWS }).is_ok());
    /// assert!(ClientRateLimiter::with_tuning(Tuning { beta: 0.0, ..Tuning::AWS }).is_err());
    /// ```
    pub fn with_tuning(tuning: Tuning) -> Result<Self, InvalidTuning> {
        tuning.validate()?;
        Ok(Self::with_state(RateLimiterState::with_tuning(tuning, 0.0)))
    }

    /// A limiter starting from `state`, whose time zero is now.
    ///
    /// ```
    /// use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState};
    ///
    /// let limiter = ClientRateLimiter::with_state(RateLimiterState::steady_at(50.0, 0.0));
    /// assert_eq!(limiter.state().fill_rate(), 50.0);
    /// ```
    pub fn with_state(state: RateLimiterState) -> Self {
        Self {
            shared: Arc::new(Shared {
                enabled: AtomicBool::new(state.is_enabled()),
                state: Mutex::new(Inner {
                    state,
                    head_sleeping: false,
                }),
                turnstile: tokio::sync::Mutex::new(()),
                rate_changed: Notify::new(),
                origin: Instant::now(),
            }),
        }
    }

    /// Waits for a token, in arrival order with the other callers. Returns at once while the
    /// limiter is off. Cancel-safe: dropping the future takes no token and lets the next
    /// caller go.
    pub async fn acquire(&self) {
        let shared = &*self.shared;
        if !shared.enabled.load(Ordering::Acquire) {
            return;
        }
        let _turn = shared.turnstile.lock().await;
        loop {
            // Registered before reading the state, so a rate change after the read wakes us.
            let rate_changed = shared.rate_changed.notified();
            tokio::pin!(rate_changed);
            rate_changed.as_mut().enable();
            let wait = {
                let mut inner = shared.lock();
                match inner.state.try_acquire(shared.now()) {
                    Ok(()) => {
                        inner.head_sleeping = false;
                        return;
                    }
                    Err(wait) => {
                        inner.head_sleeping = true;
                        wait
                    }
                }
            };
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = &mut rate_changed => {}
            }
        }
    }

    /// Reports a response: `throttled` is whether the retry classifiers called it a throttling
    /// error. Transient errors and successes alike are `false`.
    pub fn on_response(&self, throttled: bool) {
        let shared = &*self.shared;
        let (wake, first_throttle) = {
            let mut inner = shared.lock();
            let was_enabled = inner.state.is_enabled();
            let before = inner.state.fill_rate();
            let after = inner.state.on_response(shared.now(), throttled);
            if !was_enabled && throttled {
                shared.enabled.store(true, Ordering::Release);
            }
            (
                inner.head_sleeping && after != before,
                !was_enabled && throttled,
            )
        };
        if first_throttle {
            tracing::debug!("adaptive retry: first throttling response, client rate limiting on");
        }
        if wake {
            shared.rate_changed.notify_waiters();
        }
    }

    /// A copy of the state now, for metrics and tests.
    pub fn state(&self) -> RateLimiterState {
        self.shared.lock().state
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // The critical sections only do float arithmetic; a poisoned lock still holds a
        // consistent state.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn now(&self) -> f64 {
        self.origin.elapsed().as_secs_f64()
    }
}
