//! What a [`WaitAll`](super::WaitAll)'s progress callback sees.

use std::fmt;
use std::time::Duration;

use crate::waiter::PollEvent;
use crate::waiter::observer::Human;

/// What changed, in a [`WaitAllProgress`].
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
// The poll's event is what `Polled` is for (its checkpoint included); boxing it would cost an
// allocation per poll and the `Copy` of `WaitAllProgress`.
#[allow(clippy::large_enum_variant)]
pub enum WaitAllChange {
    /// The waiter got its poll permit and starts a poll.
    PollStarted,
    /// The waiter's poll completed (the same event [`Waiter::on_poll`](crate::Waiter::on_poll)
    /// gives; its `Display` is a log line).
    Polled(PollEvent),
    /// The waiter succeeded.
    Succeeded,
    /// The waiter ended without success: a failure state, an unexpected error, the deadline,
    /// a panicking poll, or invalid options (its result says which).
    Failed,
    /// The waiter was stopped by another one's failure ([`WaitAll::fail_fast`](super::WaitAll::fail_fast)).
    Stopped,
}

/// The state of a [`WaitAll`](super::WaitAll) after one change, given to its
/// [`on_progress`](super::WaitAll::on_progress) callback.
///
/// `Display` is a progress line for logs: `3 of 5 done (2 succeeded, 1 failed), 1 poll in
/// flight, 1.5s` (a `stopped` count is written when there is one).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaitAllProgress {
    /// Index, in the set's input order, of the waiter that changed.
    pub index: usize,
    /// That waiter's name.
    pub waiter: &'static str,
    /// What changed.
    pub change: WaitAllChange,
    /// Waiters in the set.
    pub total: usize,
    /// Waiters that succeeded.
    pub succeeded: usize,
    /// Waiters that ended without success (see [`WaitAllChange::Failed`]).
    pub failed: usize,
    /// Waiters stopped by another's failure (fail-fast).
    pub stopped: usize,
    /// Waiters not finished yet.
    pub pending: usize,
    /// Polls in flight now (at most the set's concurrency).
    pub in_flight: usize,
    /// Time since the set's wait started.
    pub elapsed: Duration,
}

impl WaitAllProgress {
    /// Waiters finished, whatever their ending.
    pub fn done(&self) -> usize {
        self.total - self.pending
    }
}

impl fmt::Display for WaitAllProgress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} of {} done ({} succeeded, {} failed",
            self.done(),
            self.total,
            self.succeeded,
            self.failed
        )?;
        if self.stopped > 0 {
            write!(f, ", {} stopped", self.stopped)?;
        }
        let polls = if self.in_flight == 1 { "poll" } else { "polls" };
        write!(
            f,
            "), {} {polls} in flight, {}",
            self.in_flight,
            Human(self.elapsed)
        )
    }
}

/// The running counts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Counts {
    total: usize,
    succeeded: usize,
    failed: usize,
    stopped: usize,
    pub(crate) in_flight: usize,
}

impl Counts {
    pub(crate) fn new(total: usize) -> Self {
        Counts {
            total,
            succeeded: 0,
            failed: 0,
            stopped: 0,
            in_flight: 0,
        }
    }

    /// Counts a finished waiter.
    pub(crate) fn finish(&mut self, change: WaitAllChange) {
        match change {
            WaitAllChange::Succeeded => self.succeeded += 1,
            WaitAllChange::Stopped => self.stopped += 1,
            _ => self.failed += 1,
        }
    }

    pub(crate) fn report(
        &self,
        index: usize,
        waiter: &'static str,
        change: WaitAllChange,
        elapsed: Duration,
    ) -> WaitAllProgress {
        WaitAllProgress {
            index,
            waiter,
            change,
            total: self.total,
            succeeded: self.succeeded,
            failed: self.failed,
            stopped: self.stopped,
            pending: self.total - self.succeeded - self.failed - self.stopped,
            in_flight: self.in_flight,
            elapsed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_counts_every_ending() {
        let mut counts = Counts::new(5);
        counts.finish(WaitAllChange::Succeeded);
        counts.finish(WaitAllChange::Succeeded);
        counts.finish(WaitAllChange::Failed);
        counts.in_flight = 1;
        let line = counts.report(
            2,
            "Ready",
            WaitAllChange::Failed,
            Duration::from_millis(1_500),
        );
        assert_eq!(line.done(), 3);
        assert_eq!(
            line.to_string(),
            "3 of 5 done (2 succeeded, 1 failed), 1 poll in flight, 1.5s"
        );
        counts.finish(WaitAllChange::Stopped);
        counts.in_flight = 0;
        let line = counts.report(3, "Ready", WaitAllChange::Stopped, Duration::from_secs(2));
        assert_eq!(
            line.to_string(),
            "4 of 5 done (2 succeeded, 1 failed, 1 stopped), 0 polls in flight, 2s"
        );
    }
}
