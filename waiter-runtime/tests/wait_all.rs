//! `WaitAll`: many waiters under one deadline, rule by rule, on tokio's paused clock. Each
//! test's service counts what it received (requests, polls in flight, cancelled polls), so the
//! rules are checked from the service's side, not from the library's own reports.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tokio::time::Instant;
use waiter_runtime::__private_v0_1::{Matched, Polled, waiter as new_waiter};
use waiter_runtime::waiter::{
    AcceptorState, PollEvent, WaitAllChange, WaitAllProgress, Waiter, WaiterError, WaiterMetadata,
};
use waiter_runtime::{FinalPoll, WaitAll};

#[path = "wait_all/checkpoints.rs"]
mod checkpoints;
#[path = "wait_all/concurrency.rs"]
mod concurrency;
#[path = "wait_all/consecutive_successes.rs"]
mod consecutive_successes;
#[path = "wait_all/failures_and_cancellation.rs"]
mod failures_and_cancellation;
#[path = "wait_all/first_poll_spread.rs"]
mod first_poll_spread;
#[path = "wait_all/limiter.rs"]
mod limiter;
#[path = "wait_all/observers.rs"]
mod observers;
#[path = "wait_all/permits_at_the_deadline.rs"]
mod permits_at_the_deadline;
#[path = "wait_all/progress_callback.rs"]
mod progress_callback;
#[path = "wait_all/quota.rs"]
mod quota;
#[path = "wait_all/results.rs"]
mod results;
#[path = "wait_all/shared_deadline.rs"]
mod shared_deadline;
#[path = "wait_all/stream.rs"]
mod stream;

const fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

const fn ms(m: u64) -> Duration {
    Duration::from_millis(m)
}

#[derive(Debug, Clone, PartialEq)]
struct Error(&'static str);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "service said {}", self.0)
    }
}

impl std::error::Error for Error {}

/// What a resource does over time.
#[derive(Debug, Clone)]
enum Resource {
    /// `pending`, then `ready` from this time on.
    ReadyAt(Duration),
    /// `pending`, then `failed` (a failure acceptor) from this time on.
    FailsAt(Duration),
    /// `pending`, then the poll panics from this time on.
    PanicsAt(Duration),
    /// Never ready.
    Never,
    /// Poll `n` (from 0) reads `script[n]` (the last one repeats): `true` is `ready`.
    Flapping(Vec<bool>),
}

/// A service holding resources; every counter is the service's own.
struct Service {
    start: Instant,
    resources: Vec<Resource>,
    /// How long each poll takes, per resource.
    poll_time: Vec<Duration>,
    requests: AtomicUsize,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    /// Polls dropped before they answered.
    cancelled: AtomicUsize,
    /// When each request arrived: (resource, time).
    log: Mutex<Vec<(usize, Duration)>>,
    polls_of: Vec<AtomicUsize>,
}

/// Counts a poll in flight; a poll dropped before it answered counts as cancelled.
struct InFlight<'s> {
    service: &'s Service,
    answered: bool,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.service.in_flight.fetch_sub(1, Ordering::SeqCst);
        if !self.answered {
            self.service.cancelled.fetch_add(1, Ordering::SeqCst);
        }
    }
}

impl Service {
    fn new(resources: Vec<Resource>, poll_time: Duration) -> Self {
        let n = resources.len();
        Self::with_poll_times(resources, vec![poll_time; n])
    }

    fn with_poll_times(resources: Vec<Resource>, poll_time: Vec<Duration>) -> Self {
        Service {
            start: Instant::now(),
            polls_of: resources.iter().map(|_| AtomicUsize::new(0)).collect(),
            resources,
            poll_time,
            requests: AtomicUsize::new(0),
            in_flight: AtomicUsize::new(0),
            max_in_flight: AtomicUsize::new(0),
            cancelled: AtomicUsize::new(0),
            log: Mutex::new(Vec::new()),
        }
    }

    fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }

    /// One request about resource `i`: answers after its poll time, with the state then.
    async fn describe(&self, i: usize) -> Polled<usize, Error> {
        let n = self.polls_of[i].fetch_add(1, Ordering::SeqCst);
        self.requests.fetch_add(1, Ordering::SeqCst);
        self.log.lock().unwrap().push((i, self.start.elapsed()));
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.max_in_flight.fetch_max(now, Ordering::SeqCst);
        let mut guard = InFlight {
            service: self,
            answered: false,
        };
        tokio::time::sleep(self.poll_time[i]).await;
        guard.answered = true;
        let at = self.start.elapsed();
        let state = match &self.resources[i] {
            Resource::ReadyAt(t) if at >= *t => "ready",
            Resource::FailsAt(t) if at >= *t => "failed",
            Resource::PanicsAt(t) if at >= *t => panic!("resource {i} broke the client"),
            Resource::Flapping(script) if script[n.min(script.len() - 1)] => "ready",
            _ => "pending",
        };
        let matched = match state {
            "ready" => Some(Matched::new(0, AcceptorState::Success)),
            "failed" => Some(Matched::failure(1, Some(format!("resource {i} failed")))),
            _ => None,
        };
        Polled::new(Ok(i), matched)
    }

    /// The waiter for resource `i` (delays 2 s to 120 s, the spec's defaults).
    fn waiter(&self, i: usize) -> Waiter<'_, usize, Error> {
        let name = match &self.resources[i] {
            Resource::FailsAt(_) => "Doomed",
            _ => "Ready",
        };
        new_waiter(WaiterMetadata::new(name, "describe"), move || {
            self.describe(i)
        })
        .seed(i as u64)
    }

    fn waiters(&self) -> Vec<Waiter<'_, usize, Error>> {
        (0..self.resources.len()).map(|i| self.waiter(i)).collect()
    }
}

fn is_stopped_by(
    result: &Result<FinalPoll<usize, Error>, WaiterError<usize, Error>>,
    by: usize,
) -> bool {
    matches!(result, Err(WaiterError::Stopped { by: b, .. }) if *b == by)
}
