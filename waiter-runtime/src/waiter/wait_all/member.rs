//! What the waiter loop sees of the set it runs in: the set's stop, its poll permits, the
//! first poll's spread, panics caught per poll, and the progress counts.

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

use super::progress::{Counts, WaitAllChange, WaitAllProgress};
use crate::waiter::PollEvent;

/// The progress callback a `WaitAll` was given.
pub(crate) type OnProgress<'a> = Box<dyn FnMut(&WaitAllProgress) + Send + 'a>;

/// Not stopped.
const RUNNING: usize = usize::MAX;

/// The state every member of one `WaitAll` shares. The members run in the `WaitAll`'s task,
/// one at a time, so nothing here is ever contended.
pub(crate) struct Group<'a> {
    names: Vec<&'static str>,
    start: Instant,
    /// Index of the waiter whose failure stopped the set, or `RUNNING`.
    stopped_by: AtomicUsize,
    permits: Option<Semaphore>,
    spread_first: bool,
    /// `None` when nobody watches: then the members skip the counting.
    progress: Option<Mutex<Progress<'a>>>,
}

struct Progress<'a> {
    counts: Counts,
    on_progress: OnProgress<'a>,
}

impl<'a> Group<'a> {
    pub(crate) fn new(
        names: Vec<&'static str>,
        start: Instant,
        concurrency: usize,
        on_progress: Option<OnProgress<'a>>,
    ) -> Self {
        let total = names.len();
        Group {
            spread_first: total > 1,
            names,
            start,
            stopped_by: AtomicUsize::new(RUNNING),
            // Above the semaphore's maximum is as good as no limit.
            permits: (concurrency != 0 && concurrency < Semaphore::MAX_PERMITS)
                .then(|| Semaphore::new(concurrency)),
            progress: on_progress.map(|on_progress| {
                Mutex::new(Progress {
                    counts: Counts::new(total),
                    on_progress,
                })
            }),
        }
    }

    /// The member at `index`.
    pub(crate) fn member(&self, index: usize) -> Member<'_, 'a> {
        Member { group: self, index }
    }

    /// Stops every member not finished yet (fail-fast): `by` failed. `false` if the set was
    /// already stopped.
    pub(crate) fn stop(&self, by: usize) -> bool {
        self.stopped_by
            .compare_exchange(RUNNING, by, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
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
        (progress.on_progress)(&report);
    }

    /// Waiter `index` finished with `change` (`Succeeded`, `Failed` or `Stopped`).
    pub(crate) fn finished(&self, index: usize, change: WaitAllChange) {
        self.report(index, change, |counts| counts.finish(change));
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
    /// random time, uniform below the smaller of `min_delay` and half of `max_wait`, so that
    /// the set's first polls do not all leave at once.
    pub(crate) fn first_poll_delay<R: Rng + ?Sized>(
        self,
        rng: &mut R,
        min_delay: Duration,
        max_wait: Duration,
    ) -> Duration {
        if !self.group.spread_first {
            return Duration::ZERO;
        }
        first_poll_spread(rng, min_delay, max_wait)
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
                Err(payload) => {
                    let message = match payload.downcast::<String>() {
                        Ok(message) => *message,
                        Err(payload) => match payload.downcast::<&'static str>() {
                            Ok(message) => (*message).to_owned(),
                            Err(_) => "Box<dyn Any>".to_owned(),
                        },
                    };
                    Poll::Ready(Err(Interrupt::Panicked(message)))
                }
            }
        })
        .await
    }

    /// A permit for one poll (the set's concurrency), waiting for it until `deadline`; `None`
    /// if the deadline passed first.
    pub(crate) async fn permit(self, deadline: Option<Instant>) -> Option<InFlight<'g, 'a>> {
        let permit = match &self.group.permits {
            None => None,
            Some(permits) => {
                // The semaphore is never closed.
                let acquire = async { permits.acquire().await.ok() };
                match deadline {
                    Some(deadline) => crate::timer::timeout_at(None, deadline, acquire).await?,
                    None => acquire.await,
                }
            }
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

/// The spread of a set's first polls: uniform in `[0, min(min_delay, max_wait / 2))`, to the
/// nanosecond.
pub(crate) fn first_poll_spread<R: Rng + ?Sized>(
    rng: &mut R,
    min_delay: Duration,
    max_wait: Duration,
) -> Duration {
    let window = min_delay.min(max_wait / 2);
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
