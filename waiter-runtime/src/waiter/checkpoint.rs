//! Checkpoints: a wait another process can take up with the same deadline, poll count,
//! successes in a row and backoff position ([`WaitCheckpoint`], [`CheckpointError`]).

use std::borrow::Cow;
use std::fmt;
use std::time::{Duration, SystemTime};

use tokio::time::Instant;

/// Where a wait stood after one of its polls, as plain data: taken with
/// [`PollEvent::checkpoint`](super::PollEvent::checkpoint), saved anywhere (with the `serde`
/// feature it is `Serialize` and `Deserialize`), and taken up with
/// [`Waiter::resume`](super::Waiter::resume), in this process or another.
///
/// The wait's start is wall-clock time (`started_at`, a [`SystemTime`]): the resumed wait
/// keeps the deadline `started_at + max_wait`, counting the time the wait was not running
/// (a restart) by the wall clock. The polls, the successes in a row and the backoff position
/// go on where they were; the poll after the checkpoint comes when it was planned
/// (`elapsed + next_poll_in`), or at once if that time has passed. The jitter's generator
/// starts anew (its seed, if you set one, is the resumed waiter's).
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::{Searchable, waitable};
/// use waiter_runtime::waiter::{PollEvent, WaitCheckpoint};
///
/// #[derive(Debug, Searchable)]
/// struct Stack { status: String }
///
/// #[waitable(Ready: { acceptors: [{ state: "success", matcher: { output: {
///     path: "status", expected: "READY", comparator: "stringEquals" } } }] })]
/// async fn get_stack() -> Result<Stack, std::io::Error> {
///     Ok(Stack { status: "CREATING".into() })
/// }
///
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// // Save the latest checkpoint after every poll (to a file, a database...).
/// let mut saved: Option<WaitCheckpoint> = None;
/// let _ = wait_until_ready()
///     .on_poll(|e: &PollEvent| if let Some(c) = e.checkpoint() { saved = Some(c) })
///     .wait(Duration::from_secs(30))
///     .await;
/// let saved = saved.unwrap();
/// assert_eq!((saved.waiter.as_ref(), saved.max_wait), ("Ready", Duration::from_secs(30)));
/// assert!(saved.polls > 1);
/// # }
/// ```
///
/// [`Waiter::resume`](super::Waiter::resume) shows a wait dropped and taken up.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WaitCheckpoint {
    /// The waiter's name: [`Waiter::resume`](super::Waiter::resume) takes up only a
    /// checkpoint of the same waiter.
    pub waiter: Cow<'static, str>,
    /// When the wait started, by the wall clock.
    pub started_at: SystemTime,
    /// The wait's maximum: the deadline is `started_at + max_wait`.
    pub max_wait: Duration,
    /// Time from the start of the wait to the end of the checkpoint's poll, by the waiter's
    /// clock.
    pub elapsed: Duration,
    /// The delay the wait had planned before its next poll.
    pub next_poll_in: Duration,
    /// Polls made so far.
    pub polls: u32,
    /// Polls in a row that matched `success` so far.
    pub consecutive_successes: u32,
    /// The backoff position: the retries so far (the spec's attempt number).
    pub retries: u32,
    /// The longest poll so far (it sets the last poll's head start).
    pub longest_poll: Duration,
    /// Whether the wait had planned its last poll (the next one ends the wait).
    pub last_poll_planned: bool,
}

/// Why a checkpoint cannot be taken up.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckpointError {
    /// The checkpoint is another waiter's.
    OtherWaiter {
        /// The waiter asked to resume.
        waiter: &'static str,
        /// The waiter the checkpoint is of.
        checkpoint: String,
    },
    /// The checkpoint's deadline has passed: there is nothing left to wait for.
    DeadlinePassed {
        /// The waiter's name.
        waiter: &'static str,
        /// The checkpoint's maximum wait.
        max_wait: Duration,
        /// Time since the wait started (wall clock, or the checkpoint's own count if more).
        elapsed: Duration,
    },
    /// The wait started further back than this machine's monotonic clock reaches (a
    /// checkpoint older than the machine's uptime, or a wall clock far off).
    OutOfClockRange {
        /// The waiter's name.
        waiter: &'static str,
        /// Time since the wait started.
        elapsed: Duration,
    },
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::OtherWaiter { waiter, checkpoint } => write!(
                f,
                "cannot resume waiter `{waiter}` from a checkpoint of waiter `{checkpoint}`"
            ),
            CheckpointError::DeadlinePassed {
                waiter,
                max_wait,
                elapsed,
            } => write!(
                f,
                "cannot resume waiter `{waiter}`: its deadline has passed ({elapsed:?} since it started, maximum wait {max_wait:?})"
            ),
            CheckpointError::OutOfClockRange { waiter, elapsed } => write!(
                f,
                "cannot resume waiter `{waiter}`: it started {elapsed:?} ago, further back than this machine's monotonic clock reaches"
            ),
        }
    }
}

impl std::error::Error for CheckpointError {}

/// When a wait started: by the wall clock (a resumed wait, from its checkpoint), or on the
/// waiter's clock, turned into wall-clock time only when a checkpoint is taken (so that a wait
/// that takes none never reads the wall clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Started {
    At(SystemTime),
    Clock(Instant),
}

impl Started {
    /// The start by the wall clock.
    pub(crate) fn wall(self) -> SystemTime {
        match self {
            Started::At(at) => at,
            Started::Clock(start) => {
                let elapsed = crate::timer::now().saturating_duration_since(start);
                let now = SystemTime::now();
                now.checked_sub(elapsed).unwrap_or(now)
            }
        }
    }
}

/// What the decision core needs to know of a wait to take it up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Progress {
    pub(crate) started: Started,
    pub(crate) max_wait: Duration,
    pub(crate) retries: u32,
    pub(crate) longest_poll: Duration,
    pub(crate) last_poll_planned: bool,
}

/// A checkpoint checked against a waiter, ready for its decision core.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Resume {
    pub(crate) progress: Progress,
    /// The checkpoint's own `elapsed` and `next_poll_in`.
    pub(crate) elapsed: Duration,
    pub(crate) next_poll_in: Duration,
    pub(crate) polls: u32,
    pub(crate) consecutive_successes: u32,
}

impl Resume {
    /// Checks `checkpoint` against the waiter named `waiter`.
    pub(crate) fn check(
        waiter: &'static str,
        checkpoint: &WaitCheckpoint,
    ) -> Result<Self, CheckpointError> {
        if checkpoint.waiter != waiter {
            return Err(CheckpointError::OtherWaiter {
                waiter,
                checkpoint: checkpoint.waiter.clone().into_owned(),
            });
        }
        let resume = Resume {
            progress: Progress {
                started: Started::At(checkpoint.started_at),
                max_wait: checkpoint.max_wait,
                retries: checkpoint.retries,
                longest_poll: checkpoint.longest_poll,
                last_poll_planned: checkpoint.last_poll_planned,
            },
            elapsed: checkpoint.elapsed,
            next_poll_in: checkpoint.next_poll_in,
            polls: checkpoint.polls,
            consecutive_successes: checkpoint.consecutive_successes,
        };
        resume.start(waiter, Instant::now()).map(|_| resume)
    }

    /// Time since the wait started: the wall clock's count, or the checkpoint's own if more
    /// (a wall clock set back, or a clock that does not follow the wall clock, such as
    /// tokio's paused one).
    pub(crate) fn elapsed_now(&self) -> Duration {
        let wall = SystemTime::now()
            .duration_since(self.progress.started.wall())
            .unwrap_or_default();
        wall.max(self.elapsed)
    }

    /// The resumed wait's start on the monotonic clock whose time is `now`, and the time
    /// since it.
    pub(crate) fn start(
        &self,
        waiter: &'static str,
        now: Instant,
    ) -> Result<(Instant, Duration), CheckpointError> {
        let elapsed = self.elapsed_now();
        if elapsed >= self.progress.max_wait {
            return Err(CheckpointError::DeadlinePassed {
                waiter,
                max_wait: self.progress.max_wait,
                elapsed,
            });
        }
        match now.checked_sub(elapsed) {
            Some(start) => Ok((start, elapsed)),
            None => Err(CheckpointError::OutOfClockRange { waiter, elapsed }),
        }
    }

    /// The delay left, at `elapsed` into the wait, before the poll the checkpoint planned.
    pub(crate) fn first_delay(&self, elapsed: Duration) -> Duration {
        self.elapsed
            .saturating_add(self.next_poll_in)
            .saturating_sub(elapsed)
    }
}

impl Progress {
    /// The checkpoint after a poll that leaves the wait going on.
    pub(crate) fn checkpoint(
        &self,
        waiter: &'static str,
        polls: u32,
        consecutive_successes: u32,
        elapsed: Duration,
        next_poll_in: Duration,
    ) -> WaitCheckpoint {
        WaitCheckpoint {
            waiter: Cow::Borrowed(waiter),
            started_at: self.started.wall(),
            max_wait: self.max_wait,
            elapsed,
            next_poll_in,
            polls,
            consecutive_successes,
            retries: self.retries,
            longest_poll: self.longest_poll,
            last_poll_planned: self.last_poll_planned,
        }
    }
}
