//! What a member's callers and its background thread share: the send mark, the counts of the
//! round in progress, and the status shown to users.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Set in the send marks of requests sent under a lease (the fleet's epoch below it); marks
/// without it are the local controller's.
pub(super) const FLEET_MARK: u64 = 1 << 63;

/// On a cache line of its own: the counter every response writes must not slow down the
/// mark every request reads.
#[derive(Debug, Default)]
#[repr(align(128))]
pub(super) struct Line(pub(super) AtomicU64);

/// A member's state shared by its clones and its background thread.
#[derive(Debug)]
pub(super) struct Shared {
    /// The fleet's name.
    pub(super) fleet: String,
    /// This member's id in the fleet's keys (the process id and a random number).
    pub(super) id: String,
    /// The Redis URL without its password.
    pub(super) server: String,
    /// `FLEET_MARK | epoch` while a lease is held, `0` otherwise (the local controller's
    /// marks are used then).
    pub(super) mark: Line,
    /// Responses since the last round took the counts.
    pub(super) responses: Line,
    /// Throttles among them, and those of requests sent with the current `mark`.
    pub(super) throttles: AtomicU64,
    pub(super) fresh: AtomicU64,
    /// Attempts that had to wait for a token.
    pub(super) waited: AtomicU64,
    /// What users see (`FleetRateLimiter::status`).
    pub(super) status: Mutex<FleetStatus>,
}

/// The counts of one round, taken from [`Shared`] (and kept while Redis does not answer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Counts {
    pub(super) responses: u64,
    pub(super) throttles: u64,
    pub(super) waited: u64,
}

impl Shared {
    pub(super) fn new(fleet: &str, id: String, server: String) -> Self {
        Shared {
            fleet: fleet.to_owned(),
            id,
            server,
            mark: Line::default(),
            responses: Line::default(),
            throttles: AtomicU64::new(0),
            fresh: AtomicU64::new(0),
            waited: AtomicU64::new(0),
            status: Mutex::new(FleetStatus::starting()),
        }
    }

    /// The lease's mark, or `None` while the local controller runs.
    pub(super) fn lease_mark(&self) -> Option<u64> {
        let mark = self.mark.0.load(Ordering::Acquire);
        (mark != 0).then_some(mark)
    }

    /// Takes the counts since the last call.
    pub(super) fn take_counts(&self) -> Counts {
        Counts {
            responses: self.responses.0.swap(0, Ordering::Relaxed),
            throttles: self.throttles.swap(0, Ordering::Relaxed),
            waited: self.waited.swap(0, Ordering::Relaxed),
        }
    }

    /// Takes the fresh throttles (of requests sent with the current mark).
    pub(super) fn take_fresh(&self) -> u64 {
        self.fresh.swap(0, Ordering::Relaxed)
    }

    /// A copy of the status.
    pub(super) fn status(&self) -> FleetStatus {
        *self
            .status
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Changes the status.
    pub(super) fn set_status(&self, f: impl FnOnce(&mut FleetStatus)) {
        f(&mut self
            .status
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner));
    }
}

impl Counts {
    /// Adds `other` (saturating).
    pub(super) fn add(&mut self, other: Counts) {
        self.responses = self.responses.saturating_add(other.responses);
        self.throttles = self.throttles.saturating_add(other.throttles);
        self.waited = self.waited.saturating_add(other.waited);
    }
}

/// Where a member stands, for dashboards and tests ([`FleetRateLimiter::status`](super::FleetRateLimiter::status)).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct FleetStatus {
    /// Whether the member holds a lease (it paces at its share of the fleet's rate); `false`
    /// before its first answer from Redis and once a lease ended without one (it runs its
    /// local controller then).
    pub leased: bool,
    /// Its share of the fleet's rate at the last answer, requests per second; `None` while
    /// the fleet has no limit (no fleet congestion event yet) or before any answer.
    pub share: Option<f64>,
    /// The fleet's rate at the last answer, requests per second (`None`: no limit).
    pub fleet_rate: Option<f64>,
    /// Members with a live heartbeat at the last answer, this one included.
    pub members: u64,
    /// How many times the member fell back to its local controller.
    pub fallbacks: u64,
}

impl FleetStatus {
    /// Before the first answer.
    pub(super) fn starting() -> Self {
        FleetStatus {
            leased: false,
            share: None,
            fleet_rate: None,
            members: 0,
            fallbacks: 0,
        }
    }
}
