//! Waiting on many resources under one deadline: [`WaitAll`].

pub(crate) mod checkpoint;
mod member;
mod progress;
mod record;
mod resume;

use std::collections::VecDeque;
use std::fmt;
use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use futures_util::stream::{FuturesUnordered, Stream, StreamExt};
use tokio::time::Instant;

pub use checkpoint::{Ended, MemberCheckpoint, MemberOutcome, WaitAllCheckpoint};
pub(crate) use member::{Interrupt, Member};
pub use progress::{WaitAllChange, WaitAllProgress};
pub use record::WaitAllCheckpoints;
pub use resume::{ResumedResult, ResumedWaitAll};

use member::{Group, OnProgress};
use record::MemberRecord;

use super::checkpoint::Started;

use super::poller::{BoxPoll, BoxPoller};
use super::{FinalPoll, PollEvent, PollObserver, Waiter, WaiterError};

/// A member's own `on_poll` observer, boxed so that one set holds waiters of any observer.
type BoxObserver<'a> = Box<dyn FnMut(&PollEvent) + Send + 'a>;

/// Waits for many waiters at once, under one deadline: one result per waiter, in input order.
///
/// A deploy tool that created 40 instances and 12 tables waits for all of them with one
/// `WaitAll`: every waiter shares the one `max_wait` given to [`wait`](Self::wait), counted
/// from the call; each keeps the rules of [`Waiter::wait`] against that shared deadline (its
/// own delays and jitter, the last poll started early enough to answer, a poll in flight at
/// the deadline cancelled), so nothing ends later than the deadline (the same 1 ms timer
/// resolution as one waiter).
///
/// * [`concurrency(n)`](Self::concurrency): at most `n` polls in flight at any instant across
///   the set (default [`DEFAULT_CONCURRENCY`](Self::DEFAULT_CONCURRENCY), 10, as Terraform's
///   `-parallelism`; `0` means no limit). A waiter beyond it waits for a permit after its
///   delay, which still counts from its own last poll; a waiter still waiting for a permit at
///   the deadline (a permit freed there, by a poll cancelled at the deadline, comes too late),
///   or whose permit comes with less time left than its last poll's head start (so that the
///   poll could not answer in time), ends as [`ExceededMaxWait`](WaiterError::ExceededMaxWait)
///   without sending it.
/// * [`fail_fast(true)`](Self::fail_fast): the first waiter that fails on its own
///   ([`WaiterError::is_failure`]: a failure state, an error no acceptor expects, a poll that
///   panicked) stops the rest at once: their polls in flight are cancelled (dropped), they send
///   no further request, and each ends as [`WaiterError::Stopped`], which names the waiter that
///   stopped it. Default: `false`, every waiter runs to its own end.
/// * [`on_progress(f)`](Self::on_progress): `f` sees every change (a poll starts, a poll
///   completes, a waiter ends) with the counts, the elapsed time and the index of the waiter
///   that changed ([`WaitAllProgress`]). It runs on the set's task (see its rules there: a
///   panic in it loses nothing, a slow one is skipped near the deadline).
/// * **The first polls are spread**, as much as the load needs: over 10 ms per waiter that
///   can be in flight at once (the number of waiters, or the concurrency if smaller: the
///   first polls leave at 100 per second on average), and never over more than the waiter's
///   `min_delay` or half of `max_wait`. Each waiter's first poll waits a random time, uniform
///   in that window (drawn from the waiter's own jitter, so [`Waiter::seed`] reproduces it):
///   10 waiters start within 100 ms whatever their `min_delay`, 1,000 with no concurrency
///   limit and the default 2 s `min_delay` send their first requests over 2 s, not in one
///   millisecond. A set of one polls at once, as a waiter alone does.
/// * **A panic in one poll** is caught there: that waiter ends as
///   [`WaiterError::PollPanicked`] (with the panic's message; the panic hook still prints it),
///   and the others go on (or stop, with `fail_fast(true)`). No result is lost.
/// * **Dropping the future** returned by `wait` drops every waiter's future, so every poll in
///   flight is cancelled and no request is sent after.
/// * [`stream`](Self::stream) gives the same wait as a stream of `(index, result)`, in the
///   order the waiters finish.
/// * [`checkpoints`](Self::checkpoints) records where the set stands as it runs, and
///   [`resume`](Self::resume) takes the whole set up from its checkpoint after a restart:
///   finished members are not polled again, the others go on from their own checkpoints under
///   the first deadline.
///
/// Every poll runs in the waiter's [`PollScope`](crate::poll_scope::PollScope), inside the
/// `WaitAll`'s task: a client's retries, retry quota and adaptive rate limiter work as they do
/// for one waiter, and one client shared by the set paces all its polls.
///
/// The waiters run in the task that awaits the `WaitAll` (no task is spawned, so they may
/// borrow the client). They must have the same output and error types; waiters of different
/// types join one set through [`Waiter::map_output`] and [`Waiter::map_err`].
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::{Searchable, WaitAll, WaiterError, waitable};
///
/// #[derive(Debug, Searchable)]
/// struct Instance { id: String, state: String }
/// struct Client;
///
/// impl Client {
///     #[waitable(InstanceRunning: { acceptors: [
///         { state: "success", matcher: { output: { path: "state", expected: "running", comparator: "stringEquals" } } }
///         { state: "failure", matcher: { output: { path: "state", expected: "terminated", comparator: "stringEquals" } } }
///     ] })]
///     async fn describe_instance(&self, id: &str) -> Result<Instance, std::io::Error> {
///         let state = if id == "i-3" { "terminated" } else { "running" };
///         Ok(Instance { id: id.to_owned(), state: state.to_owned() })
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// let client = Client;
/// let ids = ["i-1", "i-2", "i-3"];
/// let results = WaitAll::new(ids.iter().map(|id| client.wait_until_instance_running(id)))
///     .concurrency(2)
///     .on_progress(|p: &_| println!("{p}"))
///     .wait(Duration::from_secs(600))
///     .await;
/// assert_eq!(results.len(), 3);
/// assert_eq!(results[0].as_ref().unwrap().output().unwrap().id, "i-1");
/// assert!(matches!(results[2], Err(WaiterError::FailureState { .. })));
/// # }
/// ```
#[must_use = "a `WaitAll` does nothing until `.wait(max_wait).await`"]
pub struct WaitAll<'a, O, E> {
    waiters: Vec<Waiter<'a, O, E, BoxObserver<'a>>>,
    concurrency: usize,
    fail_fast: bool,
    on_progress: Option<OnProgress<'a>>,
    checkpoints: Option<WaitAllCheckpoints>,
}

impl<O, E> fmt::Debug for WaitAll<'_, O, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WaitAll")
            .field("waiters", &self.waiters)
            .field("concurrency", &self.concurrency)
            .field("fail_fast", &self.fail_fast)
            .field("on_progress", &self.on_progress.is_some())
            .field("checkpoints", &self.checkpoints.is_some())
            .finish()
    }
}

/// The result of one waiter of a [`WaitAll`].
pub type WaitResult<O, E> = Result<FinalPoll<O, E>, WaiterError<O, E>>;

impl<'a, O, E> WaitAll<'a, O, E> {
    /// Polls in flight at once across the set, unless [`concurrency`](Self::concurrency) says
    /// otherwise: 10, Terraform's default `-parallelism`.
    pub const DEFAULT_CONCURRENCY: usize = 10;

    /// A set of waiters, in the order their results will come back.
    ///
    /// The waiters may have an [`on_poll`](Waiter::on_poll) observer, which sees each of its
    /// waiter's polls as it would alone (the set's [`on_progress`](Self::on_progress) sees
    /// them all). The iterator gives waiters of one type, so with one observer type: the
    /// closure of one `map`, or no observer at all. To mix them, box the observers
    /// (`.on_poll(Box::new(f) as Box<dyn FnMut(&PollEvent) + Send>)`). Observers must be
    /// `Send`, as the set's future is; they may borrow for less than the waiters do.
    ///
    /// ```
    /// use std::sync::Mutex;
    /// use std::time::Duration;
    /// use waiter_runtime::waiter::PollEvent;
    /// use waiter_runtime::{WaitAll, waitable};
    ///
    /// #[waitable(Ready: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    /// async fn ping(id: u32) -> Result<(), std::io::Error> {
    ///     let _ = id;
    ///     Ok(())
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let log = Mutex::new(Vec::new());
    /// let results = WaitAll::new((0..3).map(|id| {
    ///     let log = &log;
    ///     wait_until_ready(id).on_poll(move |e: &PollEvent| log.lock().unwrap().push((id, e.poll)))
    /// }))
    /// .wait(Duration::from_secs(60))
    /// .await;
    /// assert!(results.iter().all(Result::is_ok));
    /// assert_eq!(log.into_inner().unwrap().len(), 3);
    /// # }
    /// ```
    pub fn new<'w, I, Obs>(waiters: I) -> Self
    where
        'w: 'a,
        O: 'a,
        E: 'a,
        I: IntoIterator<Item = Waiter<'w, O, E, Obs>>,
        Obs: PollObserver + Send + 'a,
    {
        WaitAll {
            waiters: waiters
                .into_iter()
                .map(|waiter| {
                    // The set may borrow for less than its waiters do (its observers and
                    // progress callback may borrow locals of a `'static` waiter's caller).
                    waiter
                        .map_poller(|mut poller| -> BoxPoller<'a, O, E> {
                            Box::new(move || -> BoxPoll<'a, O, E> { poller() })
                        })
                        .map_observer(|mut observer| -> BoxObserver<'a> {
                            Box::new(move |event: &PollEvent| observer.on_poll(event))
                        })
                })
                .collect(),
            concurrency: Self::DEFAULT_CONCURRENCY,
            fail_fast: false,
            on_progress: None,
            checkpoints: None,
        }
    }

    /// At most `n` polls in flight at any instant across the set; `0` means no limit.
    pub fn concurrency(mut self, n: usize) -> Self {
        self.concurrency = n;
        self
    }

    /// With `true`, the first waiter that fails on its own stops the others, which end as
    /// [`WaiterError::Stopped`]. Default `false`: every waiter runs to its own end.
    pub fn fail_fast(mut self, fail_fast: bool) -> Self {
        self.fail_fast = fail_fast;
        self
    }

    /// [`Waiter::transient_poll_errors`] for every waiter of the set: with
    /// [`TransientPollErrors::Retry`](super::TransientPollErrors::Retry), a transient or
    /// throttling error no acceptor names is a poll that matched nothing, for each of them.
    pub fn transient_poll_errors(mut self, transient: super::TransientPollErrors) -> Self
    where
        O: Send + 'a,
        E: crate::ProvideErrorMetadata + Send + 'static,
    {
        self.waiters = (self.waiters.into_iter())
            .map(|waiter| waiter.transient_poll_errors(transient))
            .collect();
        self
    }

    /// Calls `f` on every change: a poll starts, a poll completes, a waiter ends.
    ///
    /// `f` runs on the set's task, between the polls of its waiters: keep it short (hand slow
    /// work to a channel or a thread).
    ///
    /// * **A panic in `f`** is caught: `f` is not called again, the wait goes on and every
    ///   result comes back; a `tracing` error event (`panic` field: its message) says so.
    /// * **Near the deadline, a slow `f` is skipped**: it is not called when, judged by its
    ///   longest call so far, its calls would run past the deadline by more than 1 ms in all
    ///   (the timer's resolution), so that its own time does not make the results late (a
    ///   10 ms callback misses the changes of its last 10 ms, the waiters ending at the
    ///   deadline among them; their results say how they ended). Its time before that still
    ///   slows the set: a poll due while it runs leaves when it returns.
    pub fn on_progress<F>(mut self, f: F) -> Self
    where
        F: FnMut(&WaitAllProgress) + Send + 'a,
    {
        self.on_progress = Some(Box::new(f));
        self
    }

    /// Records where the set stands into `checkpoints` as it runs, so that
    /// [`WaitAllCheckpoints::checkpoint`] gives the set's checkpoint at any time, for
    /// [`resume`](Self::resume) after a restart (see [`WaitAllCheckpoints`]). A set without it
    /// records nothing.
    pub fn checkpoints(mut self, checkpoints: &WaitAllCheckpoints) -> Self {
        self.checkpoints = Some(checkpoints.clone());
        self
    }

    /// The waiters of the set, in input order (their observers boxed).
    pub fn waiters(&self) -> &[Waiter<'a, O, E, BoxObserver<'a>>] {
        &self.waiters
    }

    /// Waits for every waiter, all under one deadline `max_wait` from now; returns one result
    /// per waiter, in input order. An empty set returns an empty `Vec` at once.
    pub async fn wait(self, max_wait: Duration) -> Vec<WaitResult<O, E>> {
        let mut results: Vec<Option<WaitResult<O, E>>> = std::iter::repeat_with(|| None)
            .take(self.waiters.len())
            .collect();
        let plan = Plan::fresh(max_wait, self.fail_fast, self.waiters.len());
        self.drive(plan, |index, result| results[index] = Some(result))
            .await;
        // `drive` delivers exactly one result per index.
        results.into_iter().flatten().collect()
    }

    /// The same wait, as a stream of `(index, result)` in the order the waiters finish (for
    /// UIs and servers that show each result as it comes); it ends after the last one.
    /// Dropping the stream cancels every poll in flight, as dropping [`wait`](Self::wait)'s
    /// future does. `wait` does not go through it: the plain path pays nothing for it.
    ///
    /// ```
    /// use std::time::Duration;
    /// use futures_util::StreamExt;
    /// use waiter_runtime::{WaitAll, waitable};
    ///
    /// #[waitable(Ready: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    /// async fn ping(after: u64) -> Result<(), std::io::Error> {
    ///     tokio::time::sleep(Duration::from_secs(after)).await;
    ///     Ok(())
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let mut done = WaitAll::new([wait_until_ready(30), wait_until_ready(10)]).stream(Duration::from_secs(60));
    /// let (first, result) = done.next().await.unwrap();
    /// assert_eq!(first, 1);
    /// assert!(result.is_ok());
    /// assert_eq!(done.next().await.unwrap().0, 0);
    /// assert!(done.next().await.is_none());
    /// # }
    /// ```
    pub fn stream(self, max_wait: Duration) -> WaitAllStream<'a, O, E>
    where
        O: Send + 'a,
        E: Send + 'a,
    {
        let ready: Ready<O, E> = Arc::new(Mutex::new(VecDeque::new()));
        let queue = Arc::clone(&ready);
        let plan = Plan::fresh(max_wait, self.fail_fast, self.waiters.len());
        let driver = self.drive(plan, move |index, result| {
            queue
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push_back((index, result));
        });
        WaitAllStream {
            driver: Some(Box::pin(driver)),
            ready,
        }
    }

    /// Runs the set as `plan` says, giving each waiter's result to `deliver` as it finishes,
    /// exactly once per waiter that runs (a member the plan says finished before does not).
    async fn drive(self, plan: Plan, mut deliver: impl FnMut(usize, WaitResult<O, E>)) {
        let WaitAll {
            waiters,
            concurrency,
            on_progress,
            checkpoints,
            ..
        } = self;
        let Plan {
            start,
            started,
            max_wait,
            fail_fast,
            stopped_by,
            earlier,
            carried,
        } = plan;
        if waiters.is_empty() {
            return;
        }
        let names = waiters.iter().map(|w| w.metadata().name).collect();
        let identities: Vec<_> = waiters.iter().map(Waiter::identity).collect();
        if let Some(checkpoints) = &checkpoints {
            let members = identities
                .iter()
                .zip(carried)
                .map(|(&(waiter, definition, input), carried)| {
                    carried.unwrap_or(MemberRecord::Pending {
                        waiter,
                        definition,
                        input,
                    })
                })
                .collect();
            checkpoints.start(started, max_wait, fail_fast, stopped_by, members);
        }
        let group = Group::new(
            names,
            start,
            start.checked_add(max_wait),
            concurrency,
            on_progress,
            checkpoints,
        );
        for outcome in earlier.iter().flatten() {
            group.finished_before(change_of_ended(outcome.ended));
        }
        if let Some(by) = stopped_by {
            // A set stopped before the checkpoint: its members that had not finished end at
            // their first step, as stopped by the same member.
            group.stop(by);
        }
        let mut delivered: Vec<bool> = earlier.iter().map(Option::is_some).collect();
        let mut finish = |delivered: &mut [bool], index: usize, result: WaitResult<O, E>| {
            let (waiter, definition, input) = identities[index];
            group.finished(index, change_of(&result), || {
                MemberOutcome::of(waiter, definition, input, &result)
            });
            delivered[index] = true;
            deliver(index, result);
        };
        let mut running: FuturesUnordered<_> = waiters
            .into_iter()
            .enumerate()
            .filter(|(index, _)| earlier[*index].is_none())
            .map(|(index, waiter)| {
                let member = group.member(index);
                async move { (index, waiter.wait_in_set(max_wait, start, member).await) }
            })
            .collect();
        poll_fn(|cx| {
            while let Poll::Ready(Some((index, result))) = running.poll_next_unpin(cx) {
                let failed = matches!(&result, Err(e) if e.is_failure());
                finish(&mut delivered, index, result);
                if fail_fast && failed && group.stop(index) {
                    // Every other member checks the stop before any step: polled once now,
                    // each ends at once, its poll in flight dropped with it.
                    for member in Pin::new(&mut running).iter_pin_mut() {
                        if let Poll::Ready((index, result)) = member.poll(cx) {
                            finish(&mut delivered, index, result);
                        }
                    }
                    running.clear();
                }
            }
            if running.is_empty() {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
        .await;
        // Every member returned (each step of the loop checks the stop first); were one not
        // to, its result would still be there, as stopped.
        let missing: Vec<usize> = (0..delivered.len()).filter(|i| !delivered[*i]).collect();
        for index in missing {
            let member = group.member(index);
            let by = group.stopped_by().unwrap_or(index);
            finish(
                &mut delivered,
                index,
                Err(WaiterError::Stopped {
                    waiter: member.waiter_name(index),
                    by,
                    by_waiter: member.waiter_name(by),
                    polls: 0,
                    elapsed: start.elapsed(),
                    cancelled_in_flight: true,
                    last: None,
                }),
            );
        }
    }
}

/// How a set's wait starts: afresh ([`Plan::fresh`]), or from its checkpoint (`resume.rs`).
pub(crate) struct Plan {
    /// The set's start on the waiters' clock, and by the wall clock.
    start: Instant,
    started: Started,
    max_wait: Duration,
    fail_fast: bool,
    stopped_by: Option<usize>,
    /// Per member: how it ended before the checkpoint, if it did (it does not run).
    earlier: Vec<Option<MemberOutcome>>,
    /// Per member: what the checkpoint said of it, kept until it polls or ends.
    carried: Vec<Option<MemberRecord>>,
}

impl Plan {
    /// A set of `members` starting now.
    fn fresh(max_wait: Duration, fail_fast: bool, members: usize) -> Self {
        let start = Instant::now();
        Plan {
            start,
            started: Started::Clock(start),
            max_wait,
            fail_fast,
            stopped_by: None,
            earlier: vec![None; members],
            carried: std::iter::repeat_with(|| None).take(members).collect(),
        }
    }
}

/// The results of a [`WaitAll`] as they come: see [`WaitAll::stream`].
#[must_use = "a stream does nothing unless polled"]
pub struct WaitAllStream<'a, O, E> {
    driver: Option<Pin<Box<dyn Future<Output = ()> + Send + 'a>>>,
    ready: Ready<O, E>,
}

/// The results the driver delivered, not yet taken from the stream.
type Ready<O, E> = Arc<Mutex<VecDeque<(usize, WaitResult<O, E>)>>>;

impl<O, E> fmt::Debug for WaitAllStream<'_, O, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WaitAllStream")
            .field("running", &self.driver.is_some())
            .finish_non_exhaustive()
    }
}

impl<O, E> Stream for WaitAllStream<'_, O, E> {
    type Item = (usize, WaitResult<O, E>);

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if let Some(driver) = &mut self.driver {
            if driver.as_mut().poll(cx).is_ready() {
                self.driver = None;
            }
        }
        let next = self
            .ready
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop_front();
        match (next, &self.driver) {
            (Some(item), _) => Poll::Ready(Some(item)),
            (None, None) => Poll::Ready(None),
            (None, Some(_)) => Poll::Pending,
        }
    }
}

fn change_of<O, E>(result: &WaitResult<O, E>) -> WaitAllChange {
    match result {
        Ok(_) => WaitAllChange::Succeeded,
        Err(WaiterError::Stopped { .. }) => WaitAllChange::Stopped,
        Err(_) => WaitAllChange::Failed,
    }
}

/// The progress change of a member that ended before the set was resumed.
fn change_of_ended(ended: Ended) -> WaitAllChange {
    match ended {
        Ended::Succeeded => WaitAllChange::Succeeded,
        Ended::Stopped { .. } => WaitAllChange::Stopped,
        _ => WaitAllChange::Failed,
    }
}
