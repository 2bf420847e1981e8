//! The rate limiter shared by all the calls of a client.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use tokio::time::Instant;

use super::{InvalidTuning, RateLimiterState, Sent, Tuning};

/// The adaptive rate limiter: one per client, cloned into every call (cloning shares it).
///
/// Before each attempt a call [`acquire`](Self::acquire)s a token and takes a [`Sent`] mark
/// ([`sent`](Self::sent)); after each response it reports whether the response was a throttle
/// with [`on_response_to`](Self::on_response_to) (or [`on_response`](Self::on_response),
/// without the mark: every throttle then cuts the rate). Until the first throttle, `acquire`
/// returns at once after one atomic load.
///
/// Once on, callers are served in arrival order: the first in line sleeps on one timer (no
/// polling) until its token is there, the others sleep without timers, and a rate change wakes
/// the first in line to recompute its deadline. Taking a token wakes exactly the next caller.
/// A blocking caller ([`Retrier::run_blocking`](crate::retry::Retrier::run_blocking)) waits in
/// the same line, its thread parked; the first of them in line also takes the tokens of the
/// async callers ahead of it for them when each is due, so that the line moves even when their
/// timers need the thread it parks (a current-thread runtime's `block_on` thread).
/// The state sits behind a `std` mutex held only for a few float and queue operations, never
/// across an `.await`.
///
/// A call that retries keeps its place: take a [`Ticket`] when the call starts and acquire
/// every attempt's token with [`acquire_with`](Self::acquire_with), so a retry waits behind the
/// calls that started before it, not behind every call that started since. The
/// [`Retrier`](crate::retry::Retrier) does this for every call.
///
/// Taking a token takes no lock either while nobody is waiting and whole tokens are there: the
/// last critical section publishes how many, and a taker counts one off with a
/// compare-and-swap. A caller that finds none, or finds callers waiting, takes the lock and its
/// place in line, so it never overtakes a caller already waiting.
///
/// Most responses take no lock: a success that cannot change the fill rate (before the first
/// throttle, or once the rate has been measured and CUBIC's rate is above the `2 x measured`
/// cap) is counted with one atomic add; the next update folds the count into the measured rate.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::retry::adaptive::ClientRateLimiter;
///
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// let limiter = ClientRateLimiter::new();
/// limiter.acquire().await; // no throttle yet: no wait
/// limiter.on_response(true); // a throttle before any success: 0.5 tokens/s from now on
/// let start = tokio::time::Instant::now();
/// limiter.acquire().await;
/// assert_eq!(start.elapsed(), Duration::from_secs(2));
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct ClientRateLimiter {
    shared: Arc<Shared>,
}

/// A place in the limiter's line, taken once when a call starts and used for each of its
/// attempts (see [`ClientRateLimiter::acquire_with`]). Older tickets are served first.
///
/// ```
/// use waiter_runtime::retry::adaptive::ClientRateLimiter;
///
/// let limiter = ClientRateLimiter::new();
/// let (first, second) = (limiter.ticket(), limiter.ticket());
/// assert!(first < second);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ticket(u64);

impl Ticket {
    /// The ticket the retrier's hook carries as a number.
    pub(crate) fn from_raw(raw: u64) -> Self {
        Ticket(raw)
    }

    /// The ticket as a number.
    pub(crate) fn raw(self) -> u64 {
        self.0
    }
}

/// Keeps what it holds on a cache line of its own, so that the counters every call writes do
/// not slow down the reads of the flags every call reads (false sharing between threads).
#[derive(Debug, Default)]
#[repr(align(128))]
struct Padded<T>(T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

#[derive(Debug)]
struct Shared {
    /// Mirrors `state.is_enabled()`, so the path before the first throttle takes no lock.
    enabled: AtomicBool,
    /// Mirrors `state.send_mark()`, read by [`ClientRateLimiter::sent`] without the lock.
    mark: AtomicU64,
    /// The next [`Ticket`]; `0` is the place of the calls started while the limiter was off.
    next_ticket: Padded<AtomicU64>,
    /// The end, in nanoseconds since `origin`, of the transmit-rate bucket in which a
    /// successful response cannot change the fill rate, or `0`. A success before it is only
    /// counted, in `uncounted`, without the lock (see [`ClientRateLimiter::on_response`]).
    /// Integer nanoseconds keep float conversions and divisions off that path.
    steady_until: AtomicU64,
    /// Successes counted without the lock, not yet added to `state`'s transmit rate.
    uncounted: Padded<AtomicU64>,
    /// Whole tokens that may be taken without the lock: the bucket's tokens, rounded down, as
    /// the last critical section left them (see [`Locked`]), less those taken since. `0`
    /// while anybody waits in line, while the limiter is off, and whenever taking a token
    /// under the lock would first refill the bucket; every critical section starts by
    /// setting it to `0` and taking the tokens counted off it from the bucket.
    /// Split in stripes on cache lines of their own, each thread taking from its stripe, so
    /// that threads taking tokens at the same time do not write the same cache line.
    free: [Padded<AtomicU64>; STRIPES],
    /// The state's `rate_bucket_width`, to find where a bucket ends.
    bucket_width: f64,
    inner: Padded<Mutex<Inner>>,
    /// Time zero of `state`'s timestamps.
    origin: Instant,
}

/// A waiter's key in the line: its ticket, then a unique number for equal tickets.
type Key = (u64, u64);

/// A caller in the line.
#[derive(Debug)]
struct Waiting {
    waker: Waker,
    /// A blocking caller (`Retrier::run_blocking`), whose thread is parked until its turn.
    /// The first of them in line keeps the line moving for the async callers ahead of it: it
    /// sleeps until the head's token is due and takes it for the head ([`Inner::granted`]).
    /// An async head's timer may need the very thread the blocking caller parks (a
    /// current-thread runtime's `block_on` thread): without this, neither would ever move.
    blocking: bool,
}

#[derive(Debug)]
struct Inner {
    state: RateLimiterState,
    /// Callers waiting for a token, first in line first, with how to wake them.
    line: BTreeMap<Key, Waiting>,
    /// Callers taken out of the line with their token already taken for them by a blocking
    /// caller behind them (see [`Waiting::blocking`]); their next poll returns at once.
    granted: Vec<Key>,
    next_key: u64,
    /// The latest clock reading, in `state`'s seconds (readings taken on several threads may
    /// arrive out of order). A token taken under the lock is taken at a fresh reading, never at
    /// this one: a token taken at a past instant and a refill to now after it can count tokens
    /// the bucket's cap dropped in between (a full bucket idle for a while would then give
    /// twice its capacity at once).
    last_now: f64,
    /// What the last critical section stored in each stripe of `Shared::free`.
    published: [u64; STRIPES],
    /// Whether `last_now` was read when this critical section started (and not yet used).
    fresh: bool,
}

impl Inner {
    /// Remembers a clock reading (readings taken on several threads may arrive out of order);
    /// returns the latest one.
    fn remember(&mut self, reading: f64) -> f64 {
        self.last_now = self.last_now.max(reading);
        self.last_now
    }

    /// How many whole tokens a caller may take without the lock after this critical section:
    /// as many as the bucket holds when nobody waits, provided the bucket was refilled at the
    /// latest clock reading (`last_now`). The next critical section counts them as taken at
    /// its own clock reading (see [`Shared::lock`]).
    fn free_tokens(&self) -> u64 {
        /// Above this a float minus one is not exact.
        const EXACT: f64 = (1u64 << 53) as f64;
        let bucket = self.state.bucket();
        let refilled = bucket.last_refill().is_some_and(|at| at >= self.last_now);
        let capacity = bucket.capacity();
        if self.state.is_enabled() && self.line.is_empty() && refilled && capacity < EXACT {
            // `capacity` is never negative; `as` rounds it down.
            capacity as u64
        } else {
            0
        }
    }

    /// The waker of the first in line, to wake after the lock is released.
    fn head_waker(&self) -> Option<Waker> {
        self.line
            .first_key_value()
            .map(|(_, waiting)| waiting.waker.clone())
    }

    /// The waker of the first blocking caller in line if it is not the head: the caller that
    /// keeps the line moving (see [`Waiting::blocking`]), to wake when it may have become it.
    fn keeper_waker(&self) -> Option<Waker> {
        self.line
            .values()
            .skip(1)
            .find(|waiting| waiting.blocking)
            .map(|waiting| waiting.waker.clone())
    }

    /// Whether the caller at `key` is the first blocking caller in line.
    fn keeps_the_line(&self, key: Key) -> bool {
        !self.line.range(..key).any(|(_, waiting)| waiting.blocking)
    }

    /// Takes the head out of the line with its token (taken for it): returns its waker.
    fn grant_head(&mut self) -> Option<Waker> {
        let (key, waiting) = self.line.pop_first()?;
        self.granted.push(key);
        Some(waiting.waker)
    }

    /// Whether a token was taken for the caller at `key`; forgets it.
    fn take_grant(&mut self, key: Key) -> bool {
        match self.granted.iter().position(|granted| *granted == key) {
            Some(at) => {
                self.granted.swap_remove(at);
                true
            }
            None => false,
        }
    }
}

impl Default for ClientRateLimiter {
    fn default() -> Self {
        Self::new()
    }
}

impl ClientRateLimiter {
    /// A limiter with the default constants ([`Tuning::DEFAULT`]: the AWS SDKs' constants
    /// and our controller's mechanisms), off until the first throttle.
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
        Ok(Self::with_state(RateLimiterState::with_tuning(
            tuning, 0.0,
        )?))
    }

    /// A limiter starting from `state`, whose time zero is now. A state whose times are ahead
    /// of that (taken from a limiter whose clock ran for an hour, or built at a later `now`)
    /// carries on from its latest instant (its last refill, bucket or throttle), which becomes
    /// now: it refills from now on as it would have then, rather than not at all until the
    /// new clock catches up.
    /// (A state's constants were checked when it was built: see
    /// [`RateLimiterState::with_tuning`].)
    ///
    /// ```
    /// use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState};
    ///
    /// let limiter = ClientRateLimiter::with_state(RateLimiterState::steady_at(50.0, 0.0).unwrap());
    /// assert_eq!(limiter.state().fill_rate(), 50.0);
    /// ```
    pub fn with_state(state: RateLimiterState) -> Self {
        Self {
            shared: Arc::new(Shared {
                enabled: AtomicBool::new(state.is_enabled()),
                mark: AtomicU64::new(state.send_mark()),
                next_ticket: Padded(AtomicU64::new(1)),
                steady_until: AtomicU64::new(0),
                uncounted: Padded(AtomicU64::new(0)),
                free: Default::default(),
                bucket_width: state.tuning().rate_bucket_width,
                inner: Padded(Mutex::new(Inner {
                    state: state.rebased(),
                    line: BTreeMap::new(),
                    granted: Vec::new(),
                    next_key: 0,
                    last_now: 0.0,
                    published: [0; STRIPES],
                    fresh: false,
                })),
                origin: crate::timer::now(),
            }),
        }
    }

    /// Whether the limiter is on (a throttle has been seen): one atomic load.
    pub(crate) fn is_on(&self) -> bool {
        self.shared.enabled.load(Ordering::Acquire)
    }

    /// A place in line for a call that starts now.
    pub fn ticket(&self) -> Ticket {
        Ticket(self.shared.next_ticket.fetch_add(1, Ordering::Relaxed))
    }

    /// Waits for a token, in arrival order with the other callers. Returns at once while the
    /// limiter is off. Cancel-safe: dropping the future takes no token and lets the next
    /// caller go.
    pub fn acquire(&self) -> Acquire<'_> {
        // The ticket is taken on the first poll that finds the limiter on: while it is off,
        // acquiring costs one atomic load.
        Acquire {
            shared: &self.shared,
            ticket: None,
            key: None,
            sleep: None,
        }
    }

    /// Waits for a token with the place in line `ticket` gives: behind the callers with older
    /// tickets, before those with newer ones.
    ///
    /// ```
    /// use waiter_runtime::retry::adaptive::ClientRateLimiter;
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let limiter = ClientRateLimiter::new();
    /// let ticket = limiter.ticket(); // when the call starts
    /// for _attempt in 0..3 {
    ///     limiter.acquire_with(ticket).await;
    ///     // send the request, then:
    ///     limiter.on_response(false);
    /// }
    /// # }
    /// ```
    pub fn acquire_with(&self, ticket: Ticket) -> Acquire<'_> {
        Acquire {
            shared: &self.shared,
            ticket: Some(ticket.0),
            key: None,
            sleep: None,
        }
    }

    /// Takes a token if one is there now and nobody is waiting for one; never waits.
    ///
    /// ```
    /// use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState};
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let limiter = ClientRateLimiter::with_state(RateLimiterState::steady_at(40.0, 0.0).unwrap());
    /// assert!(limiter.try_acquire());
    /// assert!(limiter.try_acquire()); // a full bucket: 50 ms of tokens at 40/s
    /// assert!(!limiter.try_acquire()); // empty: the next token is 25 ms away
    /// # }
    /// ```
    pub fn try_acquire(&self) -> bool {
        let shared = &*self.shared;
        if !shared.enabled.load(Ordering::Acquire) || shared.take_free() {
            return true;
        }
        let mut inner = shared.lock();
        inner.line.is_empty() && shared.take_token(&mut inner).is_ok()
    }

    /// A request goes out now: the mark to give back with its response to
    /// [`on_response_to`](Self::on_response_to). One atomic load.
    pub fn sent(&self) -> Sent {
        Sent::from_raw(self.shared.mark.load(Ordering::Acquire))
    }

    /// Reports the response to the request sent at `sent` (see [`Sent`]): as
    /// [`on_response`](Self::on_response), except that with [`Tuning::one_cut_per_event`] a
    /// throttle cuts the rate only if its request was sent after the last cut.
    pub fn on_response_to(&self, sent: Sent, throttled: bool) {
        self.respond(throttled, Some(sent.raw()));
    }

    /// Reports a response: `throttled` is whether the retry classifiers called it a throttling
    /// error. Transient errors and successes alike are `false`. The limiter does not know when
    /// the request was sent, so every throttle cuts the rate, as in the SDKs: prefer
    /// [`on_response_to`](Self::on_response_to).
    ///
    /// Most successes take no lock. Before the first throttle the bucket is not used, and once
    /// the rate has been measured (before, the cap follows every response) and CUBIC's rate
    /// is above the `2 x measured` cap a success can only change the fill rate
    /// by closing a transmit-rate bucket: in both cases a success inside the current bucket
    /// is counted with one atomic add and folded into the state by the next update, which
    /// leaves the state [`RateLimiterState::on_response`] would have.
    pub fn on_response(&self, throttled: bool) {
        self.respond(throttled, None);
    }

    /// A response to a request sent with the mark `mark`, if known.
    fn respond(&self, throttled: bool, mark: Option<u64>) {
        let shared = &*self.shared;
        // The clock is read before taking the lock, to keep the critical section short.
        let elapsed = shared.since_origin();
        if !throttled && nanos(elapsed) < shared.steady_until.load(Ordering::Acquire) {
            shared.uncounted.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let reading = elapsed.as_secs_f64();
        let (wake, throttle) = {
            let mut inner = shared.lock_at(Some(reading));
            shared.fold_uncounted(&mut inner);
            let was_enabled = inner.state.is_enabled();
            let before = inner.state.fill_rate();
            let now = inner.remember(reading);
            let after = match mark {
                Some(mark) => inner.state.on_response_to_mark(now, mark, throttled),
                None => inner.state.on_response(now, throttled),
            };
            if !was_enabled && throttled {
                shared.enabled.store(true, Ordering::Release);
            }
            // A cut or the end of a recovery period changes the mark.
            let mark = inner.state.send_mark();
            if shared.mark.load(Ordering::Relaxed) != mark {
                shared.mark.store(mark, Ordering::Release);
            }
            let steady_until =
                if !throttled && (!inner.state.is_enabled() || inner.state.success_keeps_rate()) {
                    shared.bucket_end(now)
                } else {
                    0
                };
            // Stored only when it changes: every response reads it, on every thread.
            if shared.steady_until.load(Ordering::Relaxed) != steady_until {
                shared.steady_until.store(steady_until, Ordering::Release);
            }
            let wake = if after != before {
                inner.head_waker()
            } else {
                None
            };
            // What to log, after the lock is released: throttles are rare, successes are not.
            let throttle = throttled.then(|| {
                let state = &inner.state;
                (
                    !was_enabled,
                    state.cubic().max_rate(),
                    after,
                    inner.line.len(),
                )
            });
            (wake, throttle)
        };
        if let Some((first, w_max, fill_rate, waiting)) = throttle {
            tracing::debug!(
                first,
                w_max,
                fill_rate,
                waiting,
                "adaptive retry: throttling response, client send rate cut"
            );
        }
        if let Some(waker) = wake {
            waker.wake();
        }
    }

    /// Pins the rate (see [`RateLimiterState::pin`]): a [`FleetRateLimiter`] member's share,
    /// `None` for no limit; a bucket turned on starts with `phase` tokens. Wakes the first in
    /// line, whose token may now come sooner or later.
    ///
    /// [`FleetRateLimiter`]: super::FleetRateLimiter
    #[cfg(feature = "redis")]
    pub(crate) fn pin(&self, rate: Option<f64>, phase: f64) {
        let shared = &*self.shared;
        let head = {
            let mut inner = shared.lock();
            let now = shared.read_clock(&mut inner);
            inner.state.pin(now, rate, phase);
            shared
                .enabled
                .store(inner.state.is_enabled(), Ordering::Release);
            // The next success takes the lock and sees the pinned state.
            shared.steady_until.store(0, Ordering::Release);
            inner.head_waker()
        };
        if let Some(head) = head {
            head.wake();
        }
    }

    /// Hands the pinned rate back to the algorithm (see [`RateLimiterState::release`]).
    #[cfg(feature = "redis")]
    pub(crate) fn release(&self, phase: f64) {
        let shared = &*self.shared;
        let head = {
            let mut inner = shared.lock();
            let now = shared.read_clock(&mut inner);
            inner.state.release(now, phase);
            shared.steady_until.store(0, Ordering::Release);
            inner.head_waker()
        };
        if let Some(head) = head {
            head.wake();
        }
    }

    /// A copy of the state now, for metrics and tests.
    pub fn state(&self) -> RateLimiterState {
        let mut inner = self.shared.lock();
        self.shared.fold_uncounted(&mut inner);
        inner.state
    }

    /// How many callers are waiting for a token.
    pub fn waiting(&self) -> usize {
        self.shared.lock().line.len()
    }
}

/// How many stripes the tokens that may be taken without the lock are split in.
const STRIPES: usize = 4;

/// The stripe of `Shared::free` the current thread takes from: threads are numbered as they
/// first take a token, round robin over the stripes.
fn stripe() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static STRIPE: usize = NEXT.fetch_add(1, Ordering::Relaxed) % STRIPES;
    }
    // A thread whose thread-locals are being destroyed takes from the first stripe.
    STRIPE.try_with(|stripe| *stripe).unwrap_or(0)
}

/// Nanoseconds in `duration`, saturating (584 years).
fn nanos(duration: Duration) -> u64 {
    duration
        .as_secs()
        .saturating_mul(1_000_000_000)
        .saturating_add(u64::from(duration.subsec_nanos()))
}

impl Shared {
    /// Where the transmit-rate bucket `now` falls in ends, in nanoseconds since `origin`
    /// (the state's buckets are `floor(t / width)`). Rounded down: a reading in the last
    /// nanosecond of a bucket takes the lock, which is always exact.
    fn bucket_end(&self, now: f64) -> u64 {
        let next = (now / self.bucket_width).floor() + 1.0;
        // Saturating: a bucket ending past `u64::MAX` ns (584 years) never ends.
        (next * self.bucket_width * 1e9) as u64
    }

    /// Adds the successes counted without the lock to the state's transmit rate.
    fn fold_uncounted(&self, inner: &mut Inner) {
        let uncounted = self.uncounted.swap(0, Ordering::Relaxed);
        if uncounted != 0 {
            inner.state.count_responses(uncounted);
        }
    }

    /// Takes the lock, and the tokens taken without it from the bucket.
    fn lock(&self) -> Locked<'_> {
        self.lock_at(None)
    }

    /// Same as [`lock`](Self::lock), with a clock reading the caller took just before (a
    /// response's), used if the tokens taken without the lock need one.
    fn lock_at(&self, reading: Option<f64>) -> Locked<'_> {
        // The critical sections only do float arithmetic and map updates; a poisoned lock
        // still holds a consistent state.
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        // From here on no token is taken without the lock until it is released.
        let mut taken = 0;
        for (free, published) in self.free.iter().zip(&mut inner.published) {
            // A stripe nothing was published in holds nothing: no write needed.
            if *published != 0 {
                taken += *published - free.swap(0, Ordering::AcqRel);
                *published = 0;
            }
        }
        if taken != 0 {
            // Taken at some instant between the last critical section and now: counted as
            // taken now, after refilling to now. Counting them at the last critical section's
            // instant and refilling after would give back the tokens the bucket's cap dropped
            // while it was full (a burst after an idle period twice the bucket's size); counted
            // now, a burst never gets more than the state machine grants at that instant. The
            // price: tokens taken without the lock just before an idle period are counted
            // after it, where the cap may drop some of the refill (never more than those taken
            // since the last critical section).
            let now = inner.remember(reading.unwrap_or_else(|| self.elapsed()));
            inner.state.take_whole_tokens_at(now, taken);
            // A token taken in this critical section needs no other reading.
            inner.fresh = reading.is_none();
        }
        Locked {
            shared: self,
            inner,
        }
    }

    /// Takes a token without the lock if the last critical section left whole tokens and
    /// nobody in line.
    fn take_free(&self) -> bool {
        self.free[stripe()]
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |free| {
                free.checked_sub(1)
            })
            .is_ok()
    }

    /// Reads the clock, in `state`'s seconds, and remembers the reading.
    fn read_clock(&self, inner: &mut Inner) -> f64 {
        inner.remember(self.elapsed())
    }

    /// Seconds since `origin`.
    fn elapsed(&self) -> f64 {
        self.since_origin().as_secs_f64()
    }

    /// The time since `origin` on the caller's clock ([`crate::timer::now`]): tokio's (its
    /// paused clock in tests) for async callers, the system's for blocking ones, whose thread
    /// would never see a paused clock move. Readings of both kinds go into one state, which
    /// keeps the latest ([`Inner::remember`]).
    fn since_origin(&self) -> Duration {
        crate::timer::now().saturating_duration_since(self.origin)
    }

    /// Takes a token at a fresh clock reading if one is there (see [`Inner::last_now`]): the
    /// one this critical section started with, if it read the clock, else a new one.
    fn take_token(&self, inner: &mut Inner) -> Result<(), Duration> {
        let now = if std::mem::take(&mut inner.fresh) {
            inner.last_now
        } else {
            self.read_clock(inner)
        };
        inner.state.try_acquire(now)
    }
}

/// The limiter's state, locked; on release, publishes the tokens that may be taken without the
/// lock (see [`Inner::free_tokens`]).
struct Locked<'a> {
    shared: &'a Shared,
    inner: MutexGuard<'a, Inner>,
}

impl std::ops::Deref for Locked<'_> {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.inner
    }
}

impl std::ops::DerefMut for Locked<'_> {
    fn deref_mut(&mut self) -> &mut Inner {
        &mut self.inner
    }
}

impl Drop for Locked<'_> {
    fn drop(&mut self) {
        // Before the mutex is released (fields drop after this body).
        self.inner.fresh = false;
        let free = self.inner.free_tokens();
        // Shared out evenly; the first stripes get one more if it does not divide.
        let (each, rest) = (free / STRIPES as u64, free % STRIPES as u64);
        for (i, (stripe, published)) in self
            .shared
            .free
            .iter()
            .zip(&mut self.inner.published)
            .enumerate()
        {
            let share = each + u64::from((i as u64) < rest);
            *published = share;
            if share != 0 {
                stripe.store(share, Ordering::Release);
            }
        }
    }
}

/// The future [`ClientRateLimiter::acquire`] and [`acquire_with`](ClientRateLimiter::acquire_with)
/// return: ready once the caller holds a token.
#[must_use = "a token is only taken when the future is awaited"]
pub struct Acquire<'a> {
    shared: &'a Shared,
    /// The place in line asked for, if any; otherwise a fresh ticket is taken.
    ticket: Option<u64>,
    /// Our place in `Inner::line` while we wait.
    key: Option<Key>,
    /// The timer of the first in line, and its deadline.
    sleep: Option<(Instant, Timer)>,
}

/// A timer (see [`sleep_until`]).
type Timer = Pin<Box<crate::timer::Timer>>;

/// The one way the adaptive limiter sleeps: every timer of `retry/adaptive/` is made here.
fn sleep_until(deadline: Instant) -> Timer {
    Box::pin(crate::timer::Timer::at(deadline))
}

impl std::fmt::Debug for Acquire<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Acquire")
            .field("ticket", &self.ticket)
            .field("key", &self.key)
            .field(
                "deadline",
                &self.sleep.as_ref().map(|(deadline, _)| deadline),
            )
            .finish_non_exhaustive()
    }
}

impl Future for Acquire<'_> {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = self.get_mut();
        let shared = this.shared;
        if this.key.is_none() && (!shared.enabled.load(Ordering::Acquire) || shared.take_free()) {
            return Poll::Ready(());
        }
        loop {
            let mut inner = shared.lock();
            if let Some(key) = this.key {
                if inner.take_grant(key) {
                    // A blocking caller behind took our token for us (see `Waiting::blocking`).
                    this.key = None;
                    this.sleep = None;
                    return Poll::Ready(());
                }
            }
            let head = inner.line.first_key_value().map(|(head, _)| *head);
            let first = match (this.key, this.ticket) {
                (Some(key), _) => head.is_none_or(|head| key <= head),
                // A new key sorts after every key with the same ticket.
                (None, Some(ticket)) => head.is_none_or(|head| ticket < head.0),
                (None, None) => head.is_none(),
            };
            // `None`: not first in line; `Some(wait)`: first, the token is `wait` away.
            let wait = if first {
                match shared.take_token(&mut inner) {
                    Ok(()) => {
                        if let Some(key) = this.key.take() {
                            inner.line.remove(&key);
                        }
                        this.sleep = None;
                        let next = inner.head_waker();
                        drop(inner);
                        if let Some(next) = next {
                            next.wake();
                        }
                        return Poll::Ready(());
                    }
                    Err(wait) => Some(wait),
                }
            } else {
                None
            };
            let key = *this.key.get_or_insert_with(|| {
                inner.next_key += 1;
                let ticket = this
                    .ticket
                    .unwrap_or_else(|| shared.next_ticket.fetch_add(1, Ordering::Relaxed));
                (ticket, inner.next_key)
            });
            let blocking = crate::timer::is_blocking();
            match inner.line.get_mut(&key) {
                Some(waiting) => waiting.waker.clone_from(cx.waker()),
                None => drop(inner.line.insert(
                    key,
                    Waiting {
                        waker: cx.waker().clone(),
                        blocking,
                    },
                )),
            }
            let wait = match wait {
                Some(wait) => wait,
                // Not first: the first blocking caller in line hands the head its token when it
                // is due (see `Waiting::blocking`), then looks again.
                None if blocking && inner.keeps_the_line(key) => {
                    match shared.take_token(&mut inner) {
                        Ok(()) => {
                            let head = inner.grant_head();
                            drop(inner);
                            if let Some(head) = head {
                                head.wake();
                            }
                            continue;
                        }
                        Err(wait) => wait,
                    }
                }
                None => {
                    drop(inner);
                    this.sleep = None;
                    return Poll::Pending;
                }
            };
            drop(inner);
            // A wait past what `Instant` holds (a fill rate near zero) is a wait of 30 years,
            // as tokio's own timers do.
            let now = crate::timer::now();
            let deadline = now
                .checked_add(wait)
                .unwrap_or_else(|| now + Duration::from_secs(30 * 365 * 86_400));
            let sleep = match &mut this.sleep {
                Some((at, sleep)) => {
                    if *at != deadline {
                        // The same timer, moved: no new allocation when the rate changes.
                        sleep.as_mut().reset(deadline);
                        *at = deadline;
                    }
                    sleep
                }
                None => &mut this.sleep.insert((deadline, sleep_until(deadline))).1,
            };
            if sleep.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
        }
    }
}

impl Drop for Acquire<'_> {
    fn drop(&mut self) {
        let Some(key) = self.key else { return };
        let (next, keeper) = {
            let mut inner = self.shared.lock();
            if inner.take_grant(key) {
                // Dropped after a blocking caller took its token for it: that token is spent.
                return;
            }
            let was_first = inner
                .line
                .first_key_value()
                .is_some_and(|(head, _)| *head == key);
            let removed = inner.line.remove(&key);
            let next = if was_first { inner.head_waker() } else { None };
            // A blocking caller leaving may leave the line's keeping to the next one.
            let keeper = removed
                .filter(|waiting| waiting.blocking)
                .and_then(|_| inner.keeper_waker());
            (next, keeper)
        };
        if let Some(keeper) = keeper {
            keeper.wake();
        }
        if let Some(next) = next {
            next.wake();
        }
    }
}
