//! [`Waiter`]'s options, `wait` and `iter`: the decision core driven on the calling thread
//! (`blocking/driver.rs`). (The struct is defined in the module above, so that its path is its
//! public one.)

use std::time::Duration;

use super::driver::{self, Clock, Driver, SystemClock};
use super::iter::WaiterIter;
use super::{BlockingPoller, Waiter};
use crate::ProvideErrorMetadata;
use crate::retry::{Retrier, RetryConfig};
use crate::timer;
use crate::waiter::acceptor::Polled;
use crate::waiter::options::Options;
use crate::waiter::{FinalPoll, PollEvent, PollObserver, WaiterError, WaiterMetadata};

impl<O, E, Obs> std::fmt::Debug for Waiter<'_, O, E, Obs> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.options.fmt(f)
    }
}

impl<'a, O, E> Waiter<'a, O, E> {
    /// A waiter that polls with `poller`, with the delays in `metadata`.
    pub(crate) fn from_poller(metadata: WaiterMetadata, poller: BlockingPoller<'a, O, E>) -> Self {
        Waiter {
            options: Options::new(metadata),
            poller,
            observer: (),
        }
    }
}

impl<'a, O, E, Obs: PollObserver> Waiter<'a, O, E, Obs> {
    /// The waiter's static description (name, delays from the model, tags...).
    pub fn metadata(&self) -> &WaiterMetadata {
        &self.options.metadata
    }

    /// Overrides the minimum delay between polls: see [`Waiter::min_delay`](crate::Waiter::min_delay).
    pub fn min_delay(mut self, min_delay: Duration) -> Self {
        self.options.set_min_delay(min_delay);
        self
    }

    /// Overrides the maximum delay between polls: see [`Waiter::max_delay`](crate::Waiter::max_delay).
    pub fn max_delay(mut self, max_delay: Duration) -> Self {
        self.options.set_max_delay(max_delay);
        self
    }

    /// Seeds the jitter, so that a run's delays can be reproduced.
    pub fn seed(mut self, seed: u64) -> Self {
        self.options.seed = Some(seed);
        self
    }

    /// Succeeds only after `n` polls in a row match a `success` acceptor: see
    /// [`Waiter::consecutive_successes`](crate::Waiter::consecutive_successes).
    pub fn consecutive_successes(mut self, n: u32) -> Self {
        self.options.consecutive_successes = n;
        self
    }

    /// Calls `observer` after each poll: see [`Waiter::on_poll`](crate::Waiter::on_poll).
    pub fn on_poll<F: FnMut(&PollEvent)>(self, observer: F) -> Waiter<'a, O, E, F> {
        Waiter {
            options: self.options,
            poller: self.poller,
            observer,
        }
    }

    /// Retries inside each poll with a [`Retrier`] of this configuration: see
    /// [`retrier`](Self::retrier).
    pub fn retry(self, config: RetryConfig) -> Self
    where
        O: 'a,
        E: ProvideErrorMetadata + 'static,
    {
        self.retrier(Retrier::new(config))
    }

    /// Retries inside each poll with `retrier` (share your client's to share its quota and
    /// rate limiter with its blocking and async calls), by the rule of the async waiter's
    /// [`Waiter::retrier`](crate::Waiter::retrier): an error an acceptor matched is never
    /// retried, no retry waits past the deadline, and these retries stand down when the
    /// operation retries itself ([`Retrier::run_blocking`] inside it).
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use std::time::Duration;
    /// use waiter_runtime::retry::RetryConfig;
    /// use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};
    ///
    /// #[derive(Debug, ProvideErrorMetadata)]
    /// enum Error {
    ///     #[error_metadata(status = 503)]
    ///     Unavailable,
    /// }
    /// #[derive(Debug, Searchable)]
    /// struct Thing { status: String }
    ///
    /// /// Every other request fails with a 503.
    /// struct Client(AtomicU32);
    ///
    /// impl Client {
    ///     #[waitable(ThingReady: { acceptors: [{ state: "success", matcher: { output: {
    ///         path: "status", expected: "ready", comparator: "stringEquals" } } }] })]
    ///     fn get_thing(&self) -> Result<Thing, Error> {
    ///         match self.0.fetch_add(1, Ordering::Relaxed) {
    ///             n if n % 2 == 0 => Err(Error::Unavailable),
    ///             _ => Ok(Thing { status: "ready".into() }),
    ///         }
    ///     }
    /// }
    ///
    /// let client = Client(AtomicU32::new(0));
    /// let mut attempts = Vec::new();
    /// let done = client
    ///     .wait_until_thing_ready()
    ///     .retry(RetryConfig::standard().transient_backoff(Duration::from_millis(1)).build())
    ///     .on_poll(|e: &_| attempts.push(e.attempts))
    ///     .wait(Duration::from_secs(60))
    ///     .unwrap();
    /// assert_eq!((done.polls, attempts), (1, vec![2]));
    /// ```
    pub fn retrier(mut self, retrier: Retrier) -> Self
    where
        O: 'a,
        E: ProvideErrorMetadata + 'static,
    {
        self.options.set_retrier(&retrier);
        let mut inner = self.poller;
        self.poller = Box::new(move || {
            let report = retrier.run_waiter_poll_blocking(|| inner().into_retryable());
            Polled::from_retried(report.result)
        });
        self
    }

    /// Maps the output of every poll: see [`Waiter::map_output`](crate::Waiter::map_output).
    pub fn map_output<O2, F>(self, f: F) -> Waiter<'a, O2, E, Obs>
    where
        O: 'a,
        E: 'a,
        F: FnMut(O) -> O2 + Send + 'a,
    {
        let mut f = f;
        self.map_result(move |result| result.map(&mut f))
    }

    /// Maps the error of every poll: see [`Waiter::map_err`](crate::Waiter::map_err).
    pub fn map_err<E2, F>(self, f: F) -> Waiter<'a, O, E2, Obs>
    where
        O: 'a,
        E: 'a,
        F: FnMut(E) -> E2 + Send + 'a,
    {
        let mut f = f;
        self.map_result(move |result| result.map_err(&mut f))
    }

    fn map_result<O2, E2>(
        self,
        mut f: impl FnMut(Result<O, E>) -> Result<O2, E2> + Send + 'a,
    ) -> Waiter<'a, O2, E2, Obs>
    where
        O: 'a,
        E: 'a,
    {
        let mut poller = self.poller;
        Waiter {
            options: self.options,
            poller: Box::new(move || {
                let Polled { result, matched } = poller();
                Polled::new(f(result), matched)
            }),
            observer: self.observer,
        }
    }

    /// Polls until an acceptor reaches `success` or `failure`, the operation fails with an
    /// error no acceptor matches, or `max_wait` passes, sleeping on the calling thread between
    /// polls: the rules of the async [`Waiter::wait`](crate::Waiter::wait), except at the
    /// deadline, where a poll in flight finishes (see [`Waiter`]).
    pub fn wait(self, max_wait: Duration) -> Result<FinalPoll<O, E>, WaiterError<O, E>> {
        let span = self.span(max_wait);
        let _entered = span.enter();
        super::warn_if_blocking_a_runtime("blocking::Waiter::wait");
        timer::as_blocking(|| self.wait_on(SystemClock, max_wait))
    }

    /// The same wait as [`wait`](Self::wait), poll by poll: an [`Iterator`] of a
    /// [`WaitUpdate::Polled`](crate::waiter::WaitUpdate::Polled) for every poll that does not end the wait, with the poll's own
    /// result (show "CREATING, 45 %" in a CLI while you wait), then one [`WaitUpdate::Done`](crate::waiter::WaitUpdate::Done)
    /// with what `wait` would have returned, then `None`: the sequence
    /// [`Waiter::stream`](crate::Waiter::stream) gives an async caller.
    ///
    /// Every rule of `wait` holds (the deadline, counted from this call, the last poll, the
    /// retries inside polls, the successes in a row, a poll in flight at the deadline that
    /// finishes); the observer of [`on_poll`](Self::on_poll) is still called. Each `next`
    /// sleeps on the calling thread until the next poll; the time the caller spends between
    /// two `next`s counts in the delay. Dropping the iterator ends the wait. A result given in
    /// a `Polled` is not given again: when the wait ends without a poll that decides,
    /// `ExceededMaxWait`'s `last` is `None` (the last result was the last `Polled`'s).
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use std::time::Duration;
    /// use waiter_runtime::waiter::WaitUpdate;
    /// use waiter_runtime::{Searchable, waitable};
    ///
    /// #[derive(Debug, Searchable)]
    /// struct Stack { status: String, progress: u32 }
    /// /// A blocking client: 45 % more done at every call.
    /// struct Client(AtomicU32);
    ///
    /// impl Client {
    ///     #[waitable(StackReady: { acceptors: [{ state: "success", matcher: { output: {
    ///         path: "status", expected: "READY", comparator: "stringEquals" } } }] })]
    ///     fn get_stack(&self) -> Result<Stack, std::io::Error> {
    ///         let progress = self.0.fetch_add(45, Ordering::Relaxed).min(100);
    ///         let status = if progress == 100 { "READY" } else { "CREATING" };
    ///         Ok(Stack { status: status.into(), progress })
    ///     }
    /// }
    ///
    /// let client = Client(AtomicU32::new(0));
    /// let mut lines = Vec::new();
    /// for update in client
    ///     .wait_until_stack_ready()
    ///     .min_delay(Duration::from_millis(1))
    ///     .iter(Duration::from_secs(60))
    /// {
    ///     match update {
    ///         WaitUpdate::Polled { event, result: Ok(stack) } => {
    ///             lines.push(format!("poll {}: {}, {} %", event.poll, stack.status, stack.progress))
    ///         }
    ///         WaitUpdate::Polled { result: Err(_), .. } => {}
    ///         WaitUpdate::Done(done) => lines.push(format!("done after {} polls", done.unwrap().polls)),
    ///     }
    /// }
    /// assert_eq!(lines, ["poll 1: CREATING, 0 %", "poll 2: CREATING, 45 %", "poll 3: CREATING, 90 %", "done after 4 polls"]);
    /// ```
    pub fn iter(self, max_wait: Duration) -> WaiterIter<'a, O, E, Obs> {
        let span = self.span(max_wait);
        super::warn_if_blocking_a_runtime("blocking::Waiter::iter");
        // The wait starts now, on the system's clock.
        let driver = timer::as_blocking(|| span.in_scope(|| self.driver_on(SystemClock, max_wait)));
        WaiterIter::new(driver, span)
    }

    /// The span a blocking wait runs in.
    fn span(&self, max_wait: Duration) -> tracing::Span {
        tracing::info_span!(
            "waiter",
            waiter = self.options.metadata.name,
            operation = self.options.metadata.operation,
            max_wait = ?max_wait,
            blocking = true,
        )
    }

    /// The wait on `clock`, to its end.
    pub(super) fn wait_on<C: Clock>(
        self,
        clock: C,
        max_wait: Duration,
    ) -> Result<FinalPoll<O, E>, WaiterError<O, E>> {
        let Waiter {
            options,
            poller,
            observer,
        } = self;
        driver::wait(&options, poller, observer, clock, max_wait)
    }

    /// The driver of this wait on `clock`, started now (refused options: the end).
    pub(super) fn driver_on<C: Clock>(
        self,
        clock: C,
        max_wait: Duration,
    ) -> Result<Driver<'a, O, E, Obs, C>, WaiterError<O, E>> {
        let Waiter {
            options,
            poller,
            observer,
        } = self;
        Driver::new(&options, poller, observer, clock, max_wait)
    }
}
