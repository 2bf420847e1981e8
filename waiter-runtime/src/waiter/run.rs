//! The waiter: options, then the loop that polls until an acceptor decides or time runs out.

use std::time::Duration;

use tokio::time::Instant;
use tracing::Instrument;

use super::acceptor::Polled;
use super::input::InputId;
use super::machine::{Machine, Next};
use super::metadata::WaiterMetadata;
use super::observer::{PollEvent, PollObserver};
use super::options::Options;
use super::outcome::{FinalPoll, WaiterError};
use super::poller::{BoxPoller, box_poller};
use super::stream::{HandedOff, Updates, WaiterStream};
use super::transient::{TransientPollErrors, classify_errors};
use super::wait_all::{Interrupt, Member};
use crate::ProvideErrorMetadata;
use crate::retry::{Retrier, RetryConfig};
use crate::timer::{self, SharedAsyncSleep};

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
/// // These polls take no time, so the last one leaves 1 ms before the deadline, where a
/// // request could not answer (a poll that takes time gets more: see `Waiter::wait`).
/// assert_eq!(polls.last().unwrap().elapsed, Duration::from_millis(9_999));
/// # }
/// ```
#[must_use = "a waiter does nothing until `.wait(max_wait).await`"]
pub struct Waiter<'a, O, E, Obs = ()> {
    options: Options,
    poller: BoxPoller<'a, O, E>,
    observer: Obs,
}

impl<O, E, Obs> std::fmt::Debug for Waiter<'_, O, E, Obs> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.options.fmt(f)
    }
}

impl<'a, O, E> Waiter<'a, O, E> {
    /// A waiter that polls with `poller`, with the delays in `metadata`.
    pub(crate) fn from_poller(metadata: WaiterMetadata, poller: BoxPoller<'a, O, E>) -> Self {
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

    /// Overrides the minimum delay between polls (any duration above zero, sub-second allowed).
    ///
    /// When the maximum delay (the model's, or one you set) is below it, and you did not set
    /// the maximum yourself, the maximum moves up to it. Only a pair you set both halves of can
    /// be contradictory: then [`wait`](Self::wait) returns [`WaiterError::InvalidDelays`].
    pub fn min_delay(mut self, min_delay: Duration) -> Self {
        self.options.set_min_delay(min_delay);
        self
    }

    /// Overrides the maximum delay between polls.
    ///
    /// When the minimum delay (the model's, or one you set) is above it, and you did not set
    /// the minimum yourself, the minimum moves down to it: `.max_delay(5s)` on a model with
    /// `minDelay: 15` polls every 5 s (see [`min_delay`](Self::min_delay)).
    pub fn max_delay(mut self, max_delay: Duration) -> Self {
        self.options.set_max_delay(max_delay);
        self
    }

    /// Seeds the jitter, so that a run's delays can be reproduced.
    pub fn seed(mut self, seed: u64) -> Self {
        self.options.seed = Some(seed);
        self
    }

    /// Succeeds only after `n` polls in a row match a `success` acceptor, for eventually
    /// consistent reads (Terraform's "continuous target occurrence"). Default 1: the first
    /// success ends the wait.
    ///
    /// A poll in between that matches a `retry` acceptor or nothing starts the count again; a
    /// `failure` acceptor or an unexpected error still ends the wait at once. The polls that
    /// confirm a success are spaced as retries are (the spec's backoff continues) and keep
    /// the deadline and last-poll rules of [`wait`](Self::wait): a success still short of `n`
    /// at the deadline ends the wait as [`ExceededMaxWait`](WaiterError::ExceededMaxWait),
    /// with that poll's result. `n = 0` is rejected by `wait` with
    /// [`WaiterError::InvalidConsecutiveSuccesses`], before any poll.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use std::time::Duration;
    /// use waiter_runtime::{Searchable, waitable};
    ///
    /// #[derive(Debug, Searchable)]
    /// struct Record { visible: bool }
    /// /// An eventually consistent read: visible, then not (a stale replica), then visible.
    /// struct Client(AtomicU32);
    ///
    /// impl Client {
    ///     #[waitable(Visible: { acceptors: [{ state: "success", matcher: { output: {
    ///         path: "visible", expected: "true", comparator: "booleanEquals" } } }] })]
    ///     async fn get_record(&self) -> Result<Record, std::io::Error> {
    ///         let n = self.0.fetch_add(1, Ordering::Relaxed);
    ///         Ok(Record { visible: n != 1 })
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let client = Client(AtomicU32::new(0));
    /// let done = client
    ///     .wait_until_visible()
    ///     .consecutive_successes(2)
    ///     .wait(Duration::from_secs(60))
    ///     .await
    ///     .unwrap();
    /// // visible, stale (the count starts again), visible, visible.
    /// assert_eq!(done.polls, 4);
    /// # }
    /// ```
    pub fn consecutive_successes(mut self, n: u32) -> Self {
        self.options.consecutive_successes = n;
        self
    }

    /// Sleeps on `sleep` between polls and for the deadline, instead of the default timer
    /// (tokio's inside a tokio runtime, futures-timer's elsewhere: see
    /// [`timer`](crate::timer)), for a platform with a timer of its own.
    pub fn sleep_impl(mut self, sleep: SharedAsyncSleep) -> Self {
        self.options.sleep = Some(sleep);
        self
    }

    /// Calls `observer` after each poll with the poll number, the elapsed time, the state
    /// reached, the delay before the next poll, and the attempts and waits of the retries
    /// inside the poll (for progress bars and logs).
    pub fn on_poll<F: FnMut(&PollEvent)>(self, observer: F) -> Waiter<'a, O, E, F> {
        self.map_observer(|_| observer)
    }

    /// The same waiter with its observer replaced by `map(observer)` (see `WaitAll::new`).
    pub(super) fn map_observer<Obs2>(
        self,
        map: impl FnOnce(Obs) -> Obs2,
    ) -> Waiter<'a, O, E, Obs2> {
        Waiter {
            options: self.options,
            poller: self.poller,
            observer: map(self.observer),
        }
    }

    /// The same waiter with its poller replaced by `map(poller)` (see `waiter::map`).
    pub(super) fn map_poller<'b, O2, E2>(
        self,
        map: impl FnOnce(BoxPoller<'a, O, E>) -> BoxPoller<'b, O2, E2>,
    ) -> Waiter<'b, O2, E2, Obs> {
        Waiter {
            options: self.options,
            poller: map(self.poller),
            observer: self.observer,
        }
    }

    /// Retries inside each poll with a [`Retrier`] of this configuration, for an operation
    /// that has no retry layer of its own: see [`retrier`](Self::retrier).
    pub fn retry(self, config: RetryConfig) -> Self
    where
        O: Send + 'a,
        E: ProvideErrorMetadata + Send + 'static,
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
    /// use waiter_runtime::retry::RetryConfig;
    /// use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};
    ///
    /// #[derive(Debug, ProvideErrorMetadata)]
    /// enum Error {
    ///     #[error_metadata(code = "ThrottlingException", throttling)]
    ///     Throttled,
    /// }
    /// #[derive(Debug, Searchable)]
    /// struct Thing { status: String }
    ///
    /// /// A client without retries: every other request is throttled.
    /// struct Client(AtomicU32);
    ///
    /// impl Client {
    ///     #[waitable(ThingReady: { acceptors: [{ state: "success", matcher: { output: {
    ///         path: "status", expected: "ready", comparator: "stringEquals" } } }] })]
    ///     async fn get_thing(&self) -> Result<Thing, Error> {
    ///         match self.0.fetch_add(1, Ordering::Relaxed) {
    ///             n if n % 2 == 0 => Err(Error::Throttled),
    ///             n if n < 3 => Ok(Thing { status: "creating".into() }),
    ///             _ => Ok(Thing { status: "ready".into() }),
    ///         }
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let client = Client(AtomicU32::new(0));
    /// let mut attempts = Vec::new();
    /// let done = client
    ///     .wait_until_thing_ready()
    ///     .retry(RetryConfig::standard().build())
    ///     .on_poll(|e: &_| attempts.push(e.attempts))
    ///     .wait(Duration::from_secs(60))
    ///     .await
    ///     .unwrap();
    /// assert_eq!(done.polls, 2);
    /// assert_eq!(attempts, [2, 2]);
    /// # }
    /// ```
    pub fn retrier(mut self, retrier: Retrier) -> Self
    where
        O: Send + 'a,
        E: ProvideErrorMetadata + Send + 'static,
    {
        self.options.set_retrier(&retrier);
        // One poll at a time: the lock is never contended, and never held across an await.
        let inner = std::sync::Arc::new(std::sync::Mutex::new(self.poller));
        self.poller = box_poller(move || {
            let (inner, retrier) = (std::sync::Arc::clone(&inner), retrier.clone());
            async move {
                // An error an acceptor matched is the waiter's: it comes back as `Ok`, never
                // retried.
                let report = retrier
                    .run_waiter_poll(|| {
                        let poll = (inner.lock().unwrap_or_else(|e| e.into_inner()))();
                        async move { poll.await.into_retryable() }
                    })
                    .await;
                Polled::from_retried(report.result)
            }
        });
        self
    }

    /// Polls until an acceptor reaches `success` or `failure`, the operation fails with an
    /// error no acceptor matches, or `max_wait` passes.
    ///
    /// The first poll is immediate. Between polls the waiter sleeps the spec's backoff. Where
    /// the spec sleeps until the deadline for one last poll, the waiter starts that poll early
    /// enough to answer: by twice the longest poll so far, at most `min_delay`, at least 1 ms
    /// (polls that take no time make the last poll 1 ms before the deadline). After the last
    /// poll the wait ends. No request leaves at or after the deadline, where it could not
    /// answer (the first poll excepted: `wait(Duration::ZERO)` polls once); with less time
    /// left than the last poll's head start, no other poll is made. A poll still in flight at
    /// the deadline is cancelled (its future is dropped).
    ///
    /// Each poll runs inside a [`PollScope`](crate::poll_scope::PollScope): a retry layer inside the operation returns at
    /// once the errors the waiter's acceptors name and retries the others, never past the
    /// deadline (a retry that would end past it is moved up to leave its attempt time to
    /// answer). When no time is left for a retry, the wait ends as
    /// [`ExceededMaxWait`](WaiterError::ExceededMaxWait) with that error.
    ///
    /// Inside a tokio runtime the deadline is a tokio timer, which has a resolution of 1 ms: the
    /// wait ends at most about 1 ms after `max_wait` (a poll cancelled at a 1 ns deadline ends
    /// at 1 ms). Elsewhere (smol, `futures::executor::block_on`...) it is futures-timer's, or
    /// the timer given with [`sleep_impl`](Self::sleep_impl): see [`timer`](crate::timer).
    pub async fn wait(self, max_wait: Duration) -> Result<FinalPoll<O, E>, WaiterError<O, E>> {
        let span = self.span(max_wait);
        let start = Instant::now();
        self.run(max_wait, start, None, ()).instrument(span).await
    }

    /// The same wait as [`wait`](Self::wait), as a stream: a
    /// [`WaitUpdate::Polled`](super::WaitUpdate::Polled) for every poll that does not end the
    /// wait, with the poll's own result (show "CREATING, 45 %" from the response while you
    /// wait), then one [`WaitUpdate::Done`](super::WaitUpdate::Done) with what `wait` would
    /// have returned, then the end.
    ///
    /// Every rule of `wait` holds (the deadline, the last poll, the retries inside polls, the
    /// successes in a row); the observer of [`on_poll`](Self::on_poll) is still called. The
    /// stream does not wait for its consumer's pace: a poll whose update has not been taken
    /// yet waits (the stream is lazy, as every future is). Dropping the stream drops the poll
    /// in flight and sends nothing more. A result given in a `Polled` is not given again:
    /// when the wait runs out of time while sleeping, `ExceededMaxWait`'s `last` is `None`
    /// (the last result was the last `Polled`'s); no `Clone` bound is needed.
    ///
    /// ```
    /// use std::time::Duration;
    /// use futures_util::StreamExt;
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use waiter_runtime::{Searchable, waitable};
    /// use waiter_runtime::waiter::WaitUpdate;
    ///
    /// #[derive(Debug, Searchable)]
    /// struct Stack { status: String, progress: u32 }
    /// struct Client(AtomicU32);
    ///
    /// impl Client {
    ///     #[waitable(StackReady: { acceptors: [{ state: "success", matcher: { output: {
    ///         path: "status", expected: "READY", comparator: "stringEquals" } } }] })]
    ///     async fn get_stack(&self) -> Result<Stack, std::io::Error> {
    ///         let progress = self.0.fetch_add(45, Ordering::Relaxed).min(100);
    ///         let status = if progress == 100 { "READY" } else { "CREATING" };
    ///         Ok(Stack { status: status.into(), progress })
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let client = Client(AtomicU32::new(0));
    /// let mut updates = client.wait_until_stack_ready().stream(Duration::from_secs(600));
    /// let mut lines = Vec::new();
    /// while let Some(update) = updates.next().await {
    ///     match update {
    ///         WaitUpdate::Polled { event, result: Ok(stack) } => {
    ///             lines.push(format!("poll {}: {}, {} %", event.poll, stack.status, stack.progress))
    ///         }
    ///         WaitUpdate::Polled { result: Err(_), .. } => {}
    ///         WaitUpdate::Done(done) => lines.push(format!("done after {} polls", done.unwrap().polls)),
    ///     }
    /// }
    /// assert_eq!(lines, ["poll 1: CREATING, 0 %", "poll 2: CREATING, 45 %", "poll 3: CREATING, 90 %", "done after 4 polls"]);
    /// # }
    /// ```
    pub fn stream(self, max_wait: Duration) -> WaiterStream<'a, O, E>
    where
        O: Send + 'a,
        E: Send + 'a,
        Obs: Send + 'a,
    {
        let span = self.span(max_wait);
        let start = Instant::now();
        WaiterStream::new(move |updates| self.run(max_wait, start, None, updates).instrument(span))
    }

    /// What a poll's error that no acceptor names does to the wait when the retry
    /// classifiers call it transient or throttling, after the poll's own retries if any. The
    /// classifiers are those of the waiter's retrier ([`retry`](Self::retry),
    /// [`retrier`](Self::retrier), before or after this call), custom ones included; without
    /// one, the defaults ([`RetryClassifiers::defaults`](crate::retry::RetryClassifiers::defaults)).
    /// (A retrier inside the operation is the operation's: give the waiter the same one to
    /// classify with it.)
    ///
    /// * [`TransientPollErrors::Fail`] (the default, the Smithy specification): the wait ends
    ///   with [`WaiterError::OperationFailed`];
    /// * [`TransientPollErrors::Retry`]: the poll counts as a poll that matched nothing, and
    ///   the waiter polls again after its delay ([`PollEvent::transient_error`] says which
    ///   polls ended so); at the deadline, [`WaiterError::ExceededMaxWait`] carries that last
    ///   error in `last`. Any other error still ends the wait.
    ///
    /// For deploy tools, where "Waiter StackCreateComplete failed: Rate exceeded" after an
    /// hour of waiting is worse than one more poll. Server errors (HTTP 5xx) are neither
    /// transient nor throttling here: they still end the wait.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use std::time::Duration;
    /// use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};
    /// use waiter_runtime::waiter::{PollEvent, TransientPollErrors};
    ///
    /// #[derive(Debug, ProvideErrorMetadata)]
    /// enum Error {
    ///     #[error_metadata(code = "Throttling", throttling)]
    ///     RateExceeded,
    /// }
    /// #[derive(Debug, Searchable)]
    /// struct Stack { status: String }
    /// /// Throttled on the first two polls.
    /// struct Client(AtomicU32);
    ///
    /// impl Client {
    ///     #[waitable(StackReady: { acceptors: [{ state: "success", matcher: { output: {
    ///         path: "status", expected: "READY", comparator: "stringEquals" } } }] })]
    ///     async fn get_stack(&self) -> Result<Stack, Error> {
    ///         match self.0.fetch_add(1, Ordering::Relaxed) {
    ///             0 | 1 => Err(Error::RateExceeded),
    ///             _ => Ok(Stack { status: "READY".into() }),
    ///         }
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let client = Client(AtomicU32::new(0));
    /// let mut transient = Vec::new();
    /// let done = client
    ///     .wait_until_stack_ready()
    ///     .transient_poll_errors(TransientPollErrors::Retry)
    ///     .on_poll(|e: &PollEvent| transient.push(e.transient_error))
    ///     .wait(Duration::from_secs(600))
    ///     .await
    ///     .unwrap();
    /// assert_eq!(done.polls, 3);
    /// assert_eq!(transient, [true, true, false]);
    /// // The default (the spec): the first throttle ends the wait.
    /// let client = Client(AtomicU32::new(0));
    /// assert!(client.wait_until_stack_ready().wait(Duration::from_secs(600)).await.is_err());
    /// # }
    /// ```
    pub fn transient_poll_errors(mut self, transient: TransientPollErrors) -> Self
    where
        O: Send + 'a,
        E: ProvideErrorMetadata + Send + 'static,
    {
        // The classification is installed once, the first time `Retry` is asked for; under
        // `Fail` the decision core ignores it.
        if let Some(classifiers) = self.options.transient(transient) {
            self.poller = classify_errors(self.poller, classifiers);
        }
        self
    }

    /// The span a wait of its own runs in.
    fn span(&self, max_wait: Duration) -> tracing::Span {
        tracing::info_span!(
            "waiter",
            waiter = self.options.metadata.name,
            operation = self.options.metadata.operation,
            max_wait = ?max_wait,
        )
    }

    /// The options, for the checkpoint's [`resume`](Self::resume).
    pub(super) fn options_mut(&mut self) -> &mut Options {
        &mut self.options
    }

    /// The identity of the input the wait polls.
    pub(super) fn input(&self) -> InputId {
        self.options.input
    }

    /// The wait of one member of a [`WaitAll`](super::WaitAll): the same loop, under the
    /// set's deadline (counted from `start`), its concurrency limit and its fail-fast stop.
    pub(crate) async fn wait_in_set(
        self,
        max_wait: Duration,
        start: Instant,
        member: Member<'_, 'a>,
    ) -> Result<FinalPoll<O, E>, WaiterError<O, E>> {
        let span = tracing::info_span!(
            "waiter",
            waiter = self.options.metadata.name,
            operation = self.options.metadata.operation,
            max_wait = ?max_wait,
            index = member.index(),
        );
        self.run(max_wait, start, Some(member), ())
            .instrument(span)
            .await
    }

    /// The driver: sleeps and polls as the [`Machine`] decides. `member` is `None` for a wait
    /// of its own; inside a `WaitAll` it adds, around the same rules: the first poll's spread,
    /// a permit per poll, the fail-fast stop (checked before every step) and panics caught per
    /// poll.
    async fn run<U: Updates<O, E>>(
        self,
        max_wait: Duration,
        start: Instant,
        member: Option<Member<'_, 'a>>,
        mut updates: U,
    ) -> Result<FinalPoll<O, E>, WaiterError<O, E>> {
        let Waiter {
            options,
            mut poller,
            mut observer,
        } = self;
        let own_sleep = options.sleep.as_ref();
        // The time now matters to a resumed wait only (a fresh one starts at `start`): no
        // clock read for the others.
        let now = match options.resume {
            Some(_) => Instant::now(),
            None => start,
        };
        let mut machine = Machine::new(&options, max_wait, start, now)?;
        // A member's first poll is spread over the set's window, unless it is a resumed
        // member whose next poll is not due yet (after a restart, members whose polls are
        // overdue are spread as a new set's are: no burst).
        if let Some(member) = member.filter(|_| machine.first_poll_due()) {
            let min_delay = machine.min_delay();
            let left = machine
                .deadline()
                .map_or(max_wait, |d| d.saturating_duration_since(Instant::now()));
            let spread = member.first_poll_delay(&mut machine.spread_rng(), min_delay, left);
            if !spread.is_zero() {
                if let Err(by) = member.unless_stopped(timer::sleep(own_sleep, spread)).await {
                    return Err(machine.stopped(by, member.waiter_name(by), false, Instant::now()));
                }
            }
        }
        let deadline = machine.deadline();
        let mut next = machine.start(if member.is_some() {
            Instant::now()
        } else {
            now
        });
        loop {
            match next {
                Next::Done(outcome) => return outcome,
                Next::Sleep(delay) if delay.is_zero() => {}
                Next::Sleep(delay) => {
                    let sleep = timer::sleep(own_sleep, delay);
                    match member {
                        None => sleep.await,
                        Some(member) => {
                            if let Err(by) = member.unless_stopped(sleep).await {
                                let by_waiter = member.waiter_name(by);
                                return Err(machine.stopped(by, by_waiter, false, Instant::now()));
                            }
                        }
                    }
                }
                Next::Poll => {}
            }
            // Inside a set: wait for a poll permit (the set's concurrency), until the deadline.
            let in_flight = match member {
                None => None,
                Some(member) => match member.unless_stopped(member.permit(deadline)).await {
                    Ok(Some(in_flight)) => Some(in_flight),
                    Ok(None) => return Err(machine.out_of_time(Instant::now())),
                    Err(by) => {
                        let by_waiter = member.waiter_name(by);
                        return Err(machine.stopped(by, by_waiter, false, Instant::now()));
                    }
                },
            };
            // No request at or after the deadline (a timer that fired late, a stream's
            // consumer back after it), nor, in a set, on a permit that came too late for the
            // poll to answer before it: the wait is over.
            let now = Instant::now();
            let too_late = match in_flight {
                None => !machine.may_poll(now),
                Some(_) => machine.too_late_to_poll(now),
            };
            if too_late {
                return Err(machine.out_of_time(now));
            }
            let poll_started = now;
            let scope = machine.poll_scope();
            // `None`: cancelled at the deadline.
            let attempt = async {
                let poll = scope.run(poller());
                match deadline {
                    Some(deadline) => timer::timeout_at(own_sleep, deadline, poll).await,
                    None => Some(poll.await),
                }
            };
            let polled = match member {
                None => attempt.await,
                Some(member) => match member.catching(attempt).await {
                    Ok(polled) => polled,
                    Err(Interrupt::Stopped(by)) => {
                        let by_waiter = member.waiter_name(by);
                        return Err(machine.stopped(by, by_waiter, true, Instant::now()));
                    }
                    Err(Interrupt::Panicked(message)) => {
                        return Err(machine.panicked(message, Instant::now()));
                    }
                },
            };
            let Some(polled) = polled else {
                return Err(machine.cancelled_at_deadline(Instant::now()));
            };
            let (event, step) = machine.polled(polled, &scope, poll_started, Instant::now());
            if let Some(in_flight) = in_flight {
                in_flight.finish(&event);
            }
            observer.on_poll(&event);
            next = step;
            // A stream hands the poll's result off to its consumer (`wait`: nothing). The time
            // the consumer takes counts in the delay; one back after the deadline gets the end
            // (no poll leaves at or after it).
            if let Next::Sleep(delay) = &mut next {
                if updates.polled(&event, &mut machine) {
                    let handed_off = Instant::now();
                    HandedOff::default().await;
                    let now = Instant::now();
                    *delay = delay.saturating_sub(now.saturating_duration_since(handed_off));
                }
            }
        }
    }
}
