//! What the waiter loop sees of the set it runs in: the set's stop, its poll permits, the
//! first poll's spread, panics caught per poll, and the progress counts.

use std::any::Any;
use std::future::{Future, poll_fn};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::pin;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::Poll;
use std::time::Duration;

use rand::Rng;
use tokio::sync::{Semaphore, SemaphorePermit};
use tokio::time::Instant;

use super::checkpoint::MemberOutcome;
use super::progress::{Counts, WaitAllChange, WaitAllProgress};
use super::record::WaitAllCheckpoints;
use crate::waiter::PollEvent;

/// The progress callback a `WaitAll` was given.
pub(crate) type OnProgress<'a> = Box<dyn FnMut(&WaitAllProgress) + Send + 'a>;

/// Not stopped.
const RUNNING: usize = usize::MAX;

/// The set's first polls leave at this rate at most, on average: the spread of a set whose
/// polls can all be in flight at once is 10 ms per waiter (see [`Group::new`]).
pub(crate) const FIRST_POLLS_PER_SECOND: u32 = 100;

/// How long past the deadline the progress callback may run in all: the timer's resolution,
/// which a wait may overrun anyway (see [`Progress::call`]).
const PROGRESS_GRACE: Duration = Duration::from_millis(1);

/// The state every member of one `WaitAll` shares. The members run in the `WaitAll`'s task,
/// one at a time, so nothing here is ever contended.
pub(crate) struct Group<'a> {
    names: Vec<&'static str>,
    start: Instant,
    /// Index of the waiter whose failure stopped the set, or `RUNNING`.
    stopped_by: AtomicUsize,
    permits: Option<Semaphore>,
    /// The window the first polls are spread over (before each waiter's own bounds).
    first_spread: Duration,
    /// `None` when nobody watches: then the members skip the counting.
    progress: Option<Mutex<Progress<'a>>>,
    /// Where the set's checkpoints are recorded, if it takes any.
    checkpoints: Option<WaitAllCheckpoints>,
}

struct Progress<'a> {
    counts: Counts,
    /// `None` once it panicked: it is not called again.
    on_progress: Option<OnProgress<'a>>,
    /// The set's deadline, `None` for a `max_wait` too large to represent.
    deadline: Option<Instant>,
    /// The longest call of the callback so far.
    longest_call: Duration,
    /// The callback's time past the deadline so far.
    past_deadline: Duration,
}

impl<'a> Group<'a> {
    /// The shared state of a set of waiters named `names`, started at `start`, with its
    /// deadline (`None`: none), concurrency (`0`: no limit) and progress callback.
    ///
    /// The first polls are spread over 10 ms per waiter that can be in flight at once (the
    /// number of waiters, or the concurrency if it is smaller): `FIRST_POLLS_PER_SECOND` on
    /// average, so that a small set starts at once and a large one sends no burst. A set of
    /// one is not spread.
    pub(crate) fn new(
        names: Vec<&'static str>,
        start: Instant,
        deadline: Option<Instant>,
        concurrency: usize,
        on_progress: Option<OnProgress<'a>>,
        checkpoints: Option<WaitAllCheckpoints>,
    ) -> Self {
        let total = names.len();
        let together = match concurrency {
            0 => total,
            limit => total.min(limit),
        };
        let first_spread = if total > 1 {
            let per_waiter = Duration::from_secs(1) / FIRST_POLLS_PER_SECOND;
            per_waiter.saturating_mul(u32::try_from(together).unwrap_or(u32::MAX))
        } else {
            Duration::ZERO
        };
        Group {
            first_spread,
            names,
            start,
            stopped_by: AtomicUsize::new(RUNNING),
            // Above the semaphore's maximum is as good as no limit.
            permits: (concurrency != 0 && concurrency < Semaphore::MAX_PERMITS)
                .then(|| Semaphore::new(concurrency)),
            progress: on_progress.map(|on_progress| {
                Mutex::new(Progress {
                    counts: Counts::new(total),
                    on_progress: Some(on_progress),
                    deadline,
                    longest_call: Duration::ZERO,
                    past_deadline: Duration::ZERO,
                })
            }),
            checkpoints,
        }
    }

    /// The member at `index`.
    pub(crate) fn member(&self, index: usize) -> Member<'_, 'a> {
        Member { group: self, index }
    }

    /// Stops every member not finished yet (fail-fast): `by` failed. `false` if the set was
    /// already stopped.
    pub(crate) fn stop(&self, by: usize) -> bool {
        let stopped = self
            .stopped_by
            .compare_exchange(RUNNING, by, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok();
        if let (true, Some(checkpoints)) = (stopped, &self.checkpoints) {
            checkpoints.stopped(by);
        }
        stopped
    }

    /// The index of the waiter whose failure stopped the set, if it was stopped.
    pub(crate) fn stopped_by(&self) -> Option<usize> {
        match self.stopped_by.load(Ordering::Relaxed) {
            RUNNING => None,
            by => Some(by),
        }
    }

    /// Reports a change of waiter `index` to the progress callback, after `update`.
    fn report(&self, index: usize, change: WaitAllChange, update: impl FnOnce(&mut Counts)) {
        let Some(progress) = &self.progress else {
            return;
        };
        let mut progress = progress.lock().unwrap_or_else(|e| e.into_inner());
        update(&mut progress.counts);
        let report = progress
            .counts
            .report(index, self.names[index], change, self.start.elapsed());
        progress.call(&report);
    }

    /// Waiter `index` finished with `change` (`Succeeded`, `Failed` or `Stopped`); `outcome`
    /// is how, for the checkpoints (made only when the set takes them).
    pub(crate) fn finished(
        &self,
        index: usize,
        change: WaitAllChange,
        outcome: impl FnOnce() -> MemberOutcome,
    ) {
        if let Some(checkpoints) = &self.checkpoints {
            checkpoints.finished(index, outcome());
        }
        self.report(index, change, |counts| counts.finish(change));
    }

    /// A waiter of a resumed set had finished before the checkpoint: counted, not
    /// reported (the progress callback saw it in the process that ran it).
    pub(crate) fn finished_before(&self, change: WaitAllChange) {
        if let Some(progress) = &self.progress {
            let mut progress = progress.lock().unwrap_or_else(|e| e.into_inner());
            progress.counts.finish(change);
        }
    }
}

impl Progress<'_> {
    /// Calls the callback with `report`, unless it panicked before, or its calls would run
    /// past the deadline for more than `PROGRESS_GRACE` in all (this one judged by its
    /// longest call so far): the callback runs on the set's task, so its own time must not
    /// push the results past the deadline. A panic is caught: the callback is not called
    /// again, and the wait goes on.
    fn call(&mut self, report: &WaitAllProgress) {
        let Some(on_progress) = &mut self.on_progress else {
            return;
        };
        let now = Instant::now();
        // The part of a call from `now` lasting `took` that runs past the deadline: its own
        // time, not the set's lateness (a timer fires up to 1 ms after the deadline).
        let own_past = |took: Duration| match self.deadline {
            Some(deadline) => (now + took).saturating_duration_since(now.max(deadline)),
            None => Duration::ZERO,
        };
        if self.past_deadline + own_past(self.longest_call) > PROGRESS_GRACE {
            return;
        }
        // Its own time, on the system's clock (a paused tokio clock does not move in it).
        let called = std::time::Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| on_progress(report)));
        let took = called.elapsed();
        self.longest_call = self.longest_call.max(took);
        self.past_deadline += own_past(took);
        if let Err(payload) = outcome {
            self.on_progress = None;
            tracing::error!(
                panic = %panic_message(payload),
                "the WaitAll's on_progress callback panicked: it is not called again, the wait goes on"
            );
        }
    }
}

/// The message of a caught panic (its `String` or `&str` payload).
fn panic_message(payload: Box<dyn Any + Send>) -> String {
    match payload.downcast::<String>() {
        Ok(message) => *message,
        Err(payload) => match payload.downcast::<&'static str>() {
            Ok(message) => (*message).to_owned(),
            Err(_) => "Box<dyn Any>".to_owned(),
        },
    }
}

/// One member of the set, as its waiter loop sees it.
#[derive(Clone, Copy)]
pub(crate) struct Member<'g, 'a> {
    group: &'g Group<'a>,
    index: usize,
}

/// Why a member's step did not complete.
pub(crate) enum Interrupt {
    /// The set was stopped by the failure of the waiter at this index.
    Stopped(usize),
    /// The poll panicked, with this message.
    Panicked(String),
}

impl<'g, 'a> Member<'g, 'a> {
    /// The member's index in the set's input order.
    pub(crate) fn index(self) -> usize {
        self.index
    }

    /// The name of the set's waiter at `index`.
    pub(crate) fn waiter_name(self, index: usize) -> &'static str {
        self.group.names.get(index).copied().unwrap_or_default()
    }

    /// How long the member waits before its first poll: in a set of more than one waiter, a
    /// random time, uniform below the set's spread (see [`Group::new`]), and below the
    /// member's `min_delay` and half of the time `left` (`max_wait` in a new set), so that the
    /// set's first polls do not all leave at once.
    pub(crate) fn first_poll_delay<R: Rng + ?Sized>(
        self,
        rng: &mut R,
        min_delay: Duration,
        left: Duration,
    ) -> Duration {
        let window = self.group.first_spread.min(min_delay).min(left / 2);
        uniform_below(rng, window)
    }

    /// Runs `fut` unless the set is stopped first: checked before every poll of `fut`, so a
    /// stopped member ends at its next poll and `fut` is dropped without being polled again.
    pub(crate) async fn unless_stopped<F: Future>(self, fut: F) -> Result<F::Output, usize> {
        let mut fut = pin!(fut);
        poll_fn(|cx| match self.group.stopped_by() {
            Some(by) => Poll::Ready(Err(by)),
            None => fut.as_mut().poll(cx).map(Ok),
        })
        .await
    }

    /// [`unless_stopped`](Self::unless_stopped), catching a panic of `fut` (a poll).
    pub(crate) async fn catching<F: Future>(self, fut: F) -> Result<F::Output, Interrupt> {
        let mut fut = pin!(fut);
        poll_fn(|cx| {
            if let Some(by) = self.group.stopped_by() {
                return Poll::Ready(Err(Interrupt::Stopped(by)));
            }
            match catch_unwind(AssertUnwindSafe(|| fut.as_mut().poll(cx))) {
                Ok(poll) => poll.map(Ok),
                Err(payload) => Poll::Ready(Err(Interrupt::Panicked(panic_message(payload)))),
            }
        })
        .await
    }

    /// A permit for one poll (the set's concurrency), waiting for it until `deadline`; `None`
    /// if the deadline came first, or with it: a permit that is free takes no time, one
    /// waited for must come before the deadline (a poll cancelled at the deadline frees its
    /// permit there, and the poll it would start could not answer).
    pub(crate) async fn permit(self, deadline: Option<Instant>) -> Option<InFlight<'g, 'a>> {
        let permit = match &self.group.permits {
            None => None,
            Some(permits) => match permits.try_acquire() {
                Ok(permit) => Some(permit),
                Err(_) => {
                    // The semaphore is never closed.
                    let acquire = async { permits.acquire().await.ok() };
                    let permit = match deadline {
                        Some(deadline) => crate::timer::timeout_at(None, deadline, acquire).await?,
                        None => acquire.await,
                    };
                    // `timeout_at` polls the acquire before its timer: at the deadline, a
                    // permit freed there is too late.
                    if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                        return None;
                    }
                    permit
                }
            },
        };
        self.group
            .report(self.index, WaitAllChange::PollStarted, |counts| {
                counts.in_flight += 1;
            });
        Some(InFlight {
            member: self,
            permit,
            finished: false,
        })
    }
}

/// A random time, uniform in `[0, window)`, to the nanosecond.
fn uniform_below<R: Rng + ?Sized>(rng: &mut R, window: Duration) -> Duration {
    let nanos = u64::try_from(window.as_nanos()).unwrap_or(u64::MAX);
    if nanos == 0 {
        return Duration::ZERO;
    }
    Duration::from_nanos(rng.random_range(0..nanos))
}

/// A poll in flight: holds its permit; dropped unfinished (cancelled), it only gives the
/// permit back and counts the poll out.
pub(crate) struct InFlight<'g, 'a> {
    member: Member<'g, 'a>,
    permit: Option<SemaphorePermit<'g>>,
    finished: bool,
}

impl InFlight<'_, '_> {
    /// The poll completed with `event`: the permit goes back, then the progress callback sees it.
    pub(crate) fn finish(mut self, event: &PollEvent) {
        drop(self.permit.take());
        self.finished = true;
        if let Some(checkpoints) = &self.member.group.checkpoints {
            checkpoints.polled(self.member.index, event);
        }
        self.member
            .group
            .report(self.member.index, WaitAllChange::Polled(*event), |counts| {
                counts.in_flight -= 1;
            });
    }
}

impl Drop for InFlight<'_, '_> {
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        if let Some(progress) = &self.member.group.progress {
            let mut progress = progress.lock().unwrap_or_else(|e| e.into_inner());
            progress.counts.in_flight -= 1;
        }
    }
}
