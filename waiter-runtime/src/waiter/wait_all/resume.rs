//! A set taken up whole from its checkpoint: [`WaitAll::resume`] gives a [`ResumedWaitAll`].

use std::fmt;

use super::checkpoint::{MemberCheckpoint, MemberOutcome, WaitAllCheckpoint};
use super::record::MemberRecord;
use super::{Plan, WaitAll, WaitResult};
use crate::waiter::checkpoint::{Started, check_binding};
use crate::waiter::{CheckpointError, WaitCheckpoint};

impl<'a, O, E> WaitAll<'a, O, E> {
    /// This set, taking up the whole wait `checkpoint` describes: these waiters are the set's
    /// built again, in the same order (a controller restarted mid-way builds them from its
    /// resources, as the first process did). The set keeps the checkpoint's deadline
    /// (`started_at + max_wait`, by the wall clock) and fail-fast state; a member that had
    /// finished is not polled again (its [`ResumedResult::Earlier`] says how it ended), a
    /// member that was waiting goes on from its own checkpoint (its polls, backoff and jitter,
    /// its next poll when it was due), and one not polled yet starts as in a new set. The
    /// set's other options (concurrency, progress, transient errors, checkpoints) are this
    /// `WaitAll`'s.
    ///
    /// Every member is checked against its waiter, as [`Waiter::resume`](crate::Waiter::resume)
    /// checks one: a checkpoint of another number of members is
    /// [`CheckpointError::SetSize`], a member of another waiter, definition or input
    /// [`CheckpointError::Member`] naming its index and the difference; a set whose deadline
    /// passed is [`CheckpointError::DeadlinePassed`] (`waiter: "WaitAll"`).
    ///
    /// ```
    /// use std::time::Duration;
    /// use waiter_runtime::waiter::{ResumedResult, WaitAllCheckpoint, WaitAllCheckpoints};
    /// use waiter_runtime::{WaitAll, waitable};
    ///
    /// /// A cloud whose resource `id` is ready after `id` minutes.
    /// struct Cloud { started: tokio::time::Instant }
    ///
    /// impl Cloud {
    ///     #[waitable(Ready: { acceptors: [{ state: "success", matcher: { inputOutput: {
    ///         path: "output", expected: "true", comparator: "booleanEquals" } } }] })]
    ///     async fn is_ready(&self, id: u64) -> Result<bool, std::io::Error> {
    ///         Ok(self.started.elapsed() >= Duration::from_secs(60 * id))
    ///     }
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let cloud = Cloud { started: tokio::time::Instant::now() };
    /// let waiters = || (0..3).map(|id| cloud.wait_until_ready(id));
    /// let checkpoints = WaitAllCheckpoints::new();
    /// let set = WaitAll::new(waiters()).checkpoints(&checkpoints).wait(Duration::from_secs(600));
    /// // The controller stops after 90 s: resource 0 and 1 are ready, 2 is not.
    /// let _ = tokio::time::timeout(Duration::from_secs(90), set).await;
    /// let saved = checkpoints.checkpoint().unwrap().to_json();
    ///
    /// // It starts again, reads its checkpoint and takes the set up.
    /// let checkpoint = WaitAllCheckpoint::from_json(&saved).unwrap();
    /// let results = WaitAll::new(waiters()).resume(&checkpoint).unwrap().wait().await;
    /// assert!(matches!(results[0], ResumedResult::Earlier(_)));
    /// assert!(matches!(results[1], ResumedResult::Earlier(_)));
    /// assert!(matches!(&results[2], ResumedResult::Waited(Ok(done)) if done.polls > 1));
    /// # }
    /// ```
    pub fn resume(
        mut self,
        checkpoint: &WaitAllCheckpoint,
    ) -> Result<ResumedWaitAll<'a, O, E>, CheckpointError> {
        if checkpoint.format != WaitCheckpoint::FORMAT {
            return Err(CheckpointError::Format {
                found: checkpoint.format,
                supported: WaitCheckpoint::FORMAT,
            });
        }
        if checkpoint.members.len() != self.waiters.len() {
            return Err(CheckpointError::SetSize {
                checkpoint: checkpoint.members.len(),
                waiters: self.waiters.len(),
            });
        }
        let elapsed = crate::timer::wall_now()
            .duration_since(checkpoint.started_at)
            .unwrap_or_default();
        if elapsed >= checkpoint.max_wait {
            return Err(CheckpointError::DeadlinePassed {
                waiter: "WaitAll",
                max_wait: checkpoint.max_wait,
                elapsed,
            });
        }
        let start =
            crate::timer::now()
                .checked_sub(elapsed)
                .ok_or(CheckpointError::OutOfClockRange {
                    waiter: "WaitAll",
                    elapsed,
                })?;
        if let Some(by) = checkpoint.stopped_by.filter(|by| *by >= self.waiters.len()) {
            return Err(CheckpointError::Corrupt {
                reason: format!("stopped by member {by} of a set of {}", self.waiters.len()),
            });
        }
        let mut earlier = Vec::with_capacity(self.waiters.len());
        let mut carried = Vec::with_capacity(self.waiters.len());
        for (index, (waiter, member)) in
            self.waiters.iter_mut().zip(&checkpoint.members).enumerate()
        {
            let in_member = |error| CheckpointError::Member {
                index,
                error: Box::new(error),
            };
            check_binding(waiter.metadata(), waiter.input(), member.identity())
                .map_err(in_member)?;
            match member {
                MemberCheckpoint::Pending { .. } => {
                    earlier.push(None);
                    carried.push(None);
                }
                MemberCheckpoint::Waiting(own) => {
                    waiter.resume_from(own).map_err(in_member)?;
                    earlier.push(None);
                    carried.push(Some(MemberRecord::Carried(member.clone())));
                }
                MemberCheckpoint::Finished(outcome) => {
                    earlier.push(Some(outcome.clone()));
                    carried.push(Some(MemberRecord::Finished(outcome.clone())));
                }
            }
        }
        let plan = Plan {
            start,
            started: Started::At(checkpoint.started_at),
            max_wait: checkpoint.max_wait,
            fail_fast: checkpoint.fail_fast,
            stopped_by: checkpoint.stopped_by,
            earlier,
            carried,
        };
        Ok(ResumedWaitAll { set: self, plan })
    }
}

/// A set taken up from its checkpoint ([`WaitAll::resume`]): run it with
/// [`wait`](Self::wait).
#[must_use = "a resumed set does nothing until `.wait().await`"]
pub struct ResumedWaitAll<'a, O, E> {
    set: WaitAll<'a, O, E>,
    plan: Plan,
}

impl<O, E> fmt::Debug for ResumedWaitAll<'_, O, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResumedWaitAll")
            .field("set", &self.set)
            .field("finished", &self.plan.earlier.iter().flatten().count())
            .finish_non_exhaustive()
    }
}

/// One member's result in a resumed set: its wait in this process, or how it ended before
/// the checkpoint.
#[derive(Debug)]
pub enum ResumedResult<O, E> {
    /// The member ran in this process: its result, as [`WaitAll::wait`] gives it.
    Waited(WaitResult<O, E>),
    /// The member had finished before the checkpoint: it was not polled again.
    Earlier(MemberOutcome),
}

impl<O, E> ResumedResult<O, E> {
    /// Whether the member succeeded, here or before.
    pub fn succeeded(&self) -> bool {
        match self {
            ResumedResult::Waited(result) => result.is_ok(),
            ResumedResult::Earlier(outcome) => outcome.ended == super::Ended::Succeeded,
        }
    }
}

impl<O, E> ResumedWaitAll<'_, O, E> {
    /// The rest of the set's wait, under its deadline; one result per member, in the set's
    /// order.
    pub async fn wait(self) -> Vec<ResumedResult<O, E>> {
        let ResumedWaitAll { set, plan } = self;
        let mut results: Vec<Option<ResumedResult<O, E>>> = plan
            .earlier
            .iter()
            .map(|earlier| earlier.clone().map(ResumedResult::Earlier))
            .collect();
        set.drive(plan, |index, result| {
            results[index] = Some(ResumedResult::Waited(result));
        })
        .await;
        // `drive` delivers exactly one result per member that runs.
        results.into_iter().flatten().collect()
    }
}
