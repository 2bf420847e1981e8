//! Where a running set stands, kept as its members poll and end, for its checkpoint:
//! [`WaitAllCheckpoints`]. Nothing is kept for a set that is not given one.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::checkpoint::{MemberCheckpoint, MemberOutcome, WaitAllCheckpoint};
use crate::waiter::PollEvent;
use crate::waiter::WaitCheckpoint;
use crate::waiter::checkpoint::Started;

/// The checkpoints of a [`WaitAll`](super::WaitAll): give it to a set with
/// [`WaitAll::checkpoints`](super::WaitAll::checkpoints), then call
/// [`checkpoint`](Self::checkpoint) whenever you save (every few seconds, from another task or
/// thread, or from the set's `on_progress`). A clone is the same handle.
///
/// The set records each member's latest poll and ending as they happen (a copy of the poll's
/// event: no allocation per poll); [`checkpoint`](Self::checkpoint) builds the whole
/// [`WaitAllCheckpoint`] from them. A member whose poll is in flight keeps its previous
/// checkpoint: resumed, it makes that poll again.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::waiter::{MemberCheckpoint, WaitAllCheckpoints};
/// use waiter_runtime::{WaitAll, waitable};
///
/// #[waitable(Ready: { acceptors: [{ state: "success", matcher: { inputOutput: {
///     path: "output", expected: "true", comparator: "booleanEquals" } } }] })]
/// async fn is_ready(id: u32) -> Result<bool, std::io::Error> {
///     Ok(id == 0)
/// }
///
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// let checkpoints = WaitAllCheckpoints::new();
/// let set = WaitAll::new((0..3).map(wait_until_ready)).checkpoints(&checkpoints);
/// // The process stops 30 s into the wait (here: the wait is dropped).
/// let _ = tokio::time::timeout(Duration::from_secs(30), set.wait(Duration::from_secs(600))).await;
/// let checkpoint = checkpoints.checkpoint().unwrap();
/// assert!(matches!(checkpoint.members[0], MemberCheckpoint::Finished(_)));
/// assert!(matches!(checkpoint.members[1], MemberCheckpoint::Waiting(_)));
/// # }
/// ```
#[derive(Clone, Default)]
pub struct WaitAllCheckpoints(Arc<Mutex<Option<SetRecord>>>);

impl std::fmt::Debug for WaitAllCheckpoints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let record = self.lock();
        f.debug_struct("WaitAllCheckpoints")
            .field("started", &record.is_some())
            .field("members", &record.as_ref().map_or(0, |r| r.members.len()))
            .finish()
    }
}

/// What the handle holds once its set started.
struct SetRecord {
    started: Started,
    max_wait: Duration,
    fail_fast: bool,
    stopped_by: Option<usize>,
    members: Vec<MemberRecord>,
}

/// One member, as recorded.
pub(crate) enum MemberRecord {
    /// Not polled yet (its identity).
    Pending {
        waiter: &'static str,
        definition: u64,
        input: Option<u64>,
    },
    /// Its latest poll that left it going on.
    Polled(PollEvent),
    /// What a resumed set's checkpoint said of it, until it polls or ends.
    Carried(MemberCheckpoint),
    /// How it ended.
    Finished(MemberOutcome),
}

impl WaitAllCheckpoints {
    /// A handle no set records into yet.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<SetRecord>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The set's checkpoint now; `None` before its wait started.
    pub fn checkpoint(&self) -> Option<WaitAllCheckpoint> {
        let record = self.lock();
        let record = record.as_ref()?;
        let members = record
            .members
            .iter()
            .map(|member| match member {
                MemberRecord::Pending {
                    waiter,
                    definition,
                    input,
                } => MemberCheckpoint::Pending {
                    waiter: Cow::Borrowed(waiter),
                    definition: *definition,
                    input: *input,
                },
                MemberRecord::Polled(event) => match event.checkpoint() {
                    Some(checkpoint) => MemberCheckpoint::Waiting(checkpoint),
                    // Only polls that leave the wait going on are recorded.
                    None => MemberCheckpoint::Pending {
                        waiter: Cow::Borrowed(event.waiter),
                        definition: event.progress.binding.definition,
                        input: event.progress.binding.input.digest(),
                    },
                },
                MemberRecord::Carried(member) => member.clone(),
                MemberRecord::Finished(outcome) => MemberCheckpoint::Finished(outcome.clone()),
            })
            .collect();
        Some(WaitAllCheckpoint {
            format: WaitCheckpoint::FORMAT,
            started_at: record.started.wall(),
            max_wait: record.max_wait,
            fail_fast: record.fail_fast,
            stopped_by: record.stopped_by,
            members,
        })
    }

    /// A set starts recording here: its start, maximum wait, fail-fast state and members.
    pub(crate) fn start(
        &self,
        started: Started,
        max_wait: Duration,
        fail_fast: bool,
        stopped_by: Option<usize>,
        members: Vec<MemberRecord>,
    ) {
        *self.lock() = Some(SetRecord {
            started,
            max_wait,
            fail_fast,
            stopped_by,
            members,
        });
    }

    fn update(&self, index: usize, record: MemberRecord) {
        if let Some(set) = self.lock().as_mut() {
            if let Some(member) = set.members.get_mut(index) {
                *member = record;
            }
        }
    }

    /// Member `index` polled and goes on.
    pub(crate) fn polled(&self, index: usize, event: &PollEvent) {
        if event.next_delay.is_some() {
            self.update(index, MemberRecord::Polled(*event));
        }
    }

    /// Member `index` ended.
    pub(crate) fn finished(&self, index: usize, outcome: MemberOutcome) {
        self.update(index, MemberRecord::Finished(outcome));
    }

    /// The set was stopped by member `by`'s failure.
    pub(crate) fn stopped(&self, by: usize) {
        if let Some(set) = self.lock().as_mut() {
            set.stopped_by.get_or_insert(by);
        }
    }
}
