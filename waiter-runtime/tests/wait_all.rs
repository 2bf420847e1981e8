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

#[path = "wait_all/observers.rs"]
mod observers;
#[path = "wait_all/permits_at_the_deadline.rs"]
mod permits_at_the_deadline;
#[path = "wait_all/progress_callback.rs"]
mod progress_callback;

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

#[tokio::test(start_paused = true)]
async fn an_empty_set_returns_an_empty_vec_at_once() {
    let start = Instant::now();
    let results = WaitAll::new(Vec::<Waiter<'_, usize, Error>>::new())
        .wait(secs(60))
        .await;
    assert!(results.is_empty());
    assert_eq!(start.elapsed(), Duration::ZERO);
}

#[tokio::test(start_paused = true)]
async fn a_thousand_waiters_ready_at_random_times_all_succeed_in_input_order() {
    let mut rng = SmallRng::seed_from_u64(19);
    let max_wait = secs(600);
    let ready: Vec<Duration> = (0..1_000)
        .map(|_| ms(rng.random_range(0..590_000)))
        .collect();
    let service = Service::new(
        ready.iter().map(|t| Resource::ReadyAt(*t)).collect(),
        Duration::ZERO,
    );
    let start = Instant::now();
    let results = WaitAll::new(service.waiters()).wait(max_wait).await;
    assert!(start.elapsed() <= max_wait);
    assert_eq!(results.len(), 1_000);
    for (i, result) in results.iter().enumerate() {
        let done = result
            .as_ref()
            .unwrap_or_else(|e| panic!("waiter {i}: {e}"));
        // In input order: result `i` is resource `i`'s, and it was ready when it succeeded.
        assert_eq!(done.output(), Some(&i));
        assert!(
            done.elapsed >= ready[i] && done.elapsed <= max_wait,
            "{i}: {done:?}"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn never_more_than_n_polls_in_flight() {
    let mut rng = SmallRng::seed_from_u64(3);
    let n = 60;
    let service = Service::with_poll_times(
        (0..n)
            .map(|_| Resource::ReadyAt(secs(rng.random_range(0..60))))
            .collect(),
        (0..n).map(|_| ms(rng.random_range(100..3_000))).collect(),
    );
    let reported = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&reported);
    let results = WaitAll::new(service.waiters())
        .concurrency(4)
        .on_progress(move |p: &WaitAllProgress| {
            seen.fetch_max(p.in_flight, Ordering::SeqCst);
        })
        .wait(secs(300))
        .await;
    assert!(results.iter().all(Result::is_ok));
    // Counted by the service: the limit was reached, never passed.
    assert_eq!(service.max_in_flight.load(Ordering::SeqCst), 4);
    assert_eq!(reported.load(Ordering::SeqCst), 4);
}

#[tokio::test(start_paused = true)]
async fn a_waiter_beyond_the_limit_waits_its_turn_with_its_delay_counted_from_its_last_poll() {
    // One permit; resource 0's polls take 5 s, resource 1's none; both poll every 2 s.
    let service = Service::with_poll_times(vec![Resource::Never; 2], vec![secs(5), Duration::ZERO]);
    let waiters = service
        .waiters()
        .into_iter()
        .map(|w| w.min_delay(secs(2)).max_delay(secs(2)));
    let _ = WaitAll::new(waiters).concurrency(1).wait(secs(60)).await;
    let log = service.log.lock().unwrap().clone();
    let slow: Vec<Duration> = log
        .iter()
        .filter(|(i, _)| *i == 0)
        .map(|(_, t)| *t)
        .collect();
    let fast: Vec<Duration> = log
        .iter()
        .filter(|(i, _)| *i == 1)
        .map(|(_, t)| *t)
        .collect();
    assert!(fast.len() > 5 && slow.len() > 3, "{log:?}");
    // Never two polls at once (a slow poll still in flight at the deadline is cancelled there).
    let end_of = |start: Duration| (start + secs(5)).min(secs(60));
    for pair in log.windows(2) {
        if pair[0].0 == 0 {
            assert!(pair[1].1 >= end_of(pair[0].1), "{pair:?}");
        }
    }
    // Each poll of resource 1 starts 2 s after its previous one, or, if resource 0 holds the
    // permit then, as soon as that poll ends: its turn, with no delay added.
    let mut waited_its_turn = 0;
    // (Within 4 s of the deadline the spec's last-poll rule sets the delay instead.)
    for pair in fast.windows(2).filter(|pair| pair[0] < secs(56)) {
        let due = pair[0] + secs(2);
        // The slow poll holding the permit at `due`, if any (one starting at `due` too may
        // have gone first or second).
        let holder = slow
            .iter()
            .find(|start| **start <= due && due < end_of(**start));
        match holder {
            Some(start) if !(*start == due && pair[1] == due) => {
                waited_its_turn += 1;
                assert_eq!(pair[1], end_of(*start), "{pair:?}");
            }
            _ => assert_eq!(pair[1], due, "{pair:?}"),
        }
    }
    assert!(waited_its_turn > 0);
}

#[tokio::test(start_paused = true)]
async fn the_default_concurrency_is_ten_and_zero_means_no_limit() {
    let slow = |n| Service::new(vec![Resource::ReadyAt(secs(30)); n], secs(10));
    let service = slow(30);
    let results = WaitAll::new(service.waiters()).wait(secs(300)).await;
    assert!(results.iter().all(Result::is_ok));
    assert_eq!(service.max_in_flight.load(Ordering::SeqCst), 10);
    assert_eq!(WaitAll::<usize, Error>::DEFAULT_CONCURRENCY, 10);

    let service = slow(30);
    let results = WaitAll::new(service.waiters())
        .concurrency(0)
        .wait(secs(300))
        .await;
    assert!(results.iter().all(Result::is_ok));
    // The first polls spread over 2 s, each takes 10 s: all 30 were in flight at once.
    assert_eq!(service.max_in_flight.load(Ordering::SeqCst), 30);
}

#[tokio::test(start_paused = true)]
async fn fail_fast_stops_the_rest_with_no_further_request() {
    let mut resources = vec![Resource::Never; 20];
    resources[7] = Resource::FailsAt(secs(30));
    let service = Service::new(resources, ms(500));
    let start = Instant::now();
    let results = WaitAll::new(service.waiters())
        .fail_fast(true)
        .concurrency(0)
        .wait(secs(600))
        .await;
    // It ended at the failure, not at the deadline.
    let stopped_at = start.elapsed();
    let requests = service.requests();
    let Err(WaiterError::FailureState {
        waiter, final_poll, ..
    }) = &results[7]
    else {
        panic!("{:?}", results[7])
    };
    assert_eq!(*waiter, "Doomed");
    assert!(
        stopped_at >= secs(30) && stopped_at == final_poll.elapsed,
        "{stopped_at:?}"
    );
    for (i, result) in results.iter().enumerate().filter(|(i, _)| *i != 7) {
        assert!(is_stopped_by(result, 7), "{i}: {result:?}");
        let error = result.as_ref().unwrap_err();
        assert!(!error.is_failure());
        assert!(
            error.last_result().is_some(),
            "the last poll's result is kept"
        );
        assert!(
            error.to_string().starts_with(
                "waiter `Ready` was stopped: waiter #7 of the set (`Doomed`) failed first"
            ),
            "{error}"
        );
        let WaiterError::Stopped {
            by_waiter, elapsed, ..
        } = error
        else {
            unreachable!()
        };
        assert_eq!((*by_waiter, *elapsed), ("Doomed", stopped_at));
    }
    // The polls in flight at the failure were cancelled, and no request followed.
    assert_eq!(service.in_flight.load(Ordering::SeqCst), 0);
    let cancelled_in_flight = results
        .iter()
        .filter(|r| {
            matches!(
                r,
                Err(WaiterError::Stopped {
                    cancelled_in_flight: true,
                    ..
                })
            )
        })
        .count();
    assert_eq!(
        service.cancelled.load(Ordering::SeqCst),
        cancelled_in_flight
    );
    tokio::time::advance(secs(600)).await;
    assert_eq!(service.requests(), requests);
}

#[tokio::test(start_paused = true)]
async fn without_fail_fast_every_waiter_runs_to_its_end() {
    let mut resources = vec![Resource::ReadyAt(secs(100)); 5];
    resources[1] = Resource::FailsAt(secs(10));
    resources[3] = Resource::Never;
    let service = Service::new(resources, Duration::ZERO);
    let results = WaitAll::new(service.waiters()).wait(secs(300)).await;
    assert!(matches!(results[1], Err(WaiterError::FailureState { .. })));
    assert!(matches!(
        results[3],
        Err(WaiterError::ExceededMaxWait { .. })
    ));
    for i in [0, 2, 4] {
        assert_eq!(results[i].as_ref().unwrap().output(), Some(&i));
    }
}

#[tokio::test(start_paused = true)]
async fn the_deadline_holds_for_the_last_result() {
    let mut rng = SmallRng::seed_from_u64(5);
    let n = 40;
    // Slow polls and a small concurrency: waiters queue for permits up to the deadline.
    let service = Service::with_poll_times(
        vec![Resource::Never; n],
        (0..n).map(|_| ms(rng.random_range(0..5_000))).collect(),
    );
    let max_wait = secs(60);
    let start = Instant::now();
    let results = WaitAll::new(service.waiters())
        .concurrency(3)
        .wait(max_wait)
        .await;
    let took = start.elapsed();
    assert!(took <= max_wait + ms(1), "{took:?}");
    for result in &results {
        let Err(WaiterError::ExceededMaxWait { elapsed, .. }) = result else {
            panic!("{result:?}")
        };
        assert!(*elapsed <= max_wait + ms(1), "{elapsed:?}");
    }
    // The last results did end at the deadline: some poll was cut there, or some waiter
    // was still waiting for a permit.
    assert!(took >= max_wait - secs(5), "{took:?}");
    assert_eq!(service.in_flight.load(Ordering::SeqCst), 0);
    // At most 3 polls were in flight at the deadline (cancelled there); the others were
    // sleeping or waiting for a permit, and ended as `ExceededMaxWait` all the same: a
    // permit freed at the deadline starts no poll that could not answer.
    let cut = results
        .iter()
        .filter(|r| {
            matches!(
                r,
                Err(WaiterError::ExceededMaxWait {
                    cancelled_in_flight: true,
                    ..
                })
            )
        })
        .count();
    assert!(cut <= 3, "{cut}");
    assert_eq!(service.cancelled.load(Ordering::SeqCst), cut);
}

#[tokio::test(start_paused = true)]
async fn each_waiter_keeps_the_last_poll_rule_under_the_shared_deadline() {
    // Polls take 50 ms; each resource is ready 60 ms before the deadline. A last poll started
    // at the deadline would be cancelled; the single waiter's rule starts it 100 ms early
    // (twice the longest poll), so it answers `ready` 50 ms before the deadline.
    let max_wait = secs(60);
    let service = Service::new(vec![Resource::ReadyAt(max_wait - ms(60)); 5], ms(50));
    let waiters = service
        .waiters()
        .into_iter()
        .map(|w| w.min_delay(secs(2)).max_delay(secs(2)));
    let results = WaitAll::new(waiters).wait(max_wait).await;
    for result in &results {
        let done = result.as_ref().unwrap();
        assert_eq!(done.elapsed, max_wait - ms(50), "{done:?}");
    }
}

#[tokio::test(start_paused = true)]
async fn a_zero_max_wait_behaves_as_for_one_waiter() {
    let resources = vec![Resource::ReadyAt(Duration::ZERO), Resource::Never];
    let service = Service::new(resources.clone(), Duration::ZERO);
    let results = WaitAll::new(service.waiters()).wait(Duration::ZERO).await;
    let alone = Service::new(resources, Duration::ZERO);
    for (i, in_set) in results.iter().enumerate() {
        let single = alone.waiter(i).wait(Duration::ZERO).await;
        match (in_set, &single) {
            (Ok(a), Ok(b)) => assert_eq!((a.polls, a.elapsed), (b.polls, b.elapsed)),
            (
                Err(WaiterError::ExceededMaxWait { polls: a, .. }),
                Err(WaiterError::ExceededMaxWait { polls: b, .. }),
            ) => assert_eq!(a, b),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(service.requests(), alone.requests());
}

#[tokio::test(start_paused = true)]
async fn first_polls_are_spread_by_jitter() {
    let n = 1_000;
    let service = Service::new(vec![Resource::ReadyAt(Duration::ZERO); n], Duration::ZERO);
    let results = WaitAll::new(service.waiters())
        .concurrency(0)
        .wait(secs(600))
        .await;
    assert!(results.iter().all(Result::is_ok));
    let log = service.log.lock().unwrap().clone();
    // Uniform below min_delay (2 s; tokio's timer rounds up to the millisecond): no
    // millisecond holds more than a handful of requests, and the 2 s are used.
    let mut per_ms = std::collections::BTreeMap::<u128, usize>::new();
    for (_, at) in log.iter() {
        assert!(*at <= secs(2), "{at:?}");
        *per_ms.entry(at.as_millis()).or_default() += 1;
    }
    assert!(
        per_ms.values().all(|&k| k <= 5),
        "{:?}",
        per_ms.values().max()
    );
    let first = log.iter().map(|(_, at)| *at).min().unwrap();
    let last = log.iter().map(|(_, at)| *at).max().unwrap();
    assert!(first < ms(20) && last > ms(1_980), "{first:?}..{last:?}");
    // Each waiter's spread comes from its own jitter: the same seed gives the same time.
    let again = Service::new(vec![Resource::ReadyAt(Duration::ZERO); n], Duration::ZERO);
    let _ = WaitAll::new(again.waiters())
        .concurrency(0)
        .wait(secs(600))
        .await;
    let mut a = log.clone();
    let mut b = again.log.lock().unwrap().clone();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    // A set of one polls at once, as a waiter alone.
    let one = Service::new(vec![Resource::ReadyAt(Duration::ZERO)], Duration::ZERO);
    let _ = WaitAll::new(one.waiters()).wait(secs(600)).await;
    assert_eq!(*one.log.lock().unwrap(), [(0, Duration::ZERO)]);
}

#[tokio::test(start_paused = true)]
async fn a_set_of_ready_resources_is_done_at_once() {
    // EC2's published InstanceRunning delays (15 s to 120 s): 10 instances running at their
    // first poll. The first polls spread over 10 ms per waiter that can be in flight at once
    // (100 per second), not over `min_delay`.
    let service = Service::new(vec![Resource::ReadyAt(Duration::ZERO); 10], Duration::ZERO);
    let waiters = service
        .waiters()
        .into_iter()
        .map(|w| w.min_delay(secs(15)).max_delay(secs(120)));
    let start = Instant::now();
    let results = WaitAll::new(waiters).wait(secs(600)).await;
    let took = start.elapsed();
    assert!(results.iter().all(Result::is_ok));
    assert!(took < ms(100), "{took:?}");
    assert_eq!(service.requests(), 10);
    // Still spread: not all in one millisecond.
    let mut at: Vec<u128> = service
        .log
        .lock()
        .unwrap()
        .iter()
        .map(|(_, t)| t.as_millis())
        .collect();
    at.dedup();
    assert!(at.len() > 5, "{at:?}");
    // A concurrency below the set's size bounds the spread: 1,000 waiters, 10 at a time.
    let service = Service::new(vec![Resource::ReadyAt(Duration::ZERO); 1_000], ms(50));
    let start = Instant::now();
    let results = WaitAll::new(service.waiters()).wait(secs(600)).await;
    assert!(results.iter().all(Result::is_ok));
    let first: Vec<Duration> = service
        .log
        .lock()
        .unwrap()
        .iter()
        .map(|(_, t)| *t)
        .collect();
    // 10 in flight at a time, 50 ms each: 5 s in all, and never more than 10 requests in
    // one millisecond.
    assert!(start.elapsed() < secs(6), "{:?}", start.elapsed());
    let mut per_ms = std::collections::BTreeMap::<u128, usize>::new();
    for at in &first {
        *per_ms.entry(at.as_millis()).or_default() += 1;
    }
    assert!(
        per_ms.values().all(|&k| k <= 10),
        "{:?}",
        per_ms.values().max()
    );
}

#[tokio::test(start_paused = true)]
async fn the_spread_stays_within_half_the_max_wait() {
    let service = Service::new(vec![Resource::ReadyAt(Duration::ZERO); 200], Duration::ZERO);
    let results = WaitAll::new(service.waiters())
        .concurrency(0)
        .wait(ms(600))
        .await;
    assert!(results.iter().all(Result::is_ok));
    assert!(
        service
            .log
            .lock()
            .unwrap()
            .iter()
            .all(|(_, at)| *at < ms(300))
    );
}

#[tokio::test(start_paused = true)]
async fn consecutive_successes_3_over_a_flapping_resource() {
    //             poll: 1     2     3      4     5     6      7     8     9
    let script = vec![
        true, true, false, true, true, false, true, true, true, false,
    ];
    let service = Service::new(vec![Resource::Flapping(script)], Duration::ZERO);
    let mut events = Vec::new();
    let done = service
        .waiter(0)
        .consecutive_successes(3)
        .on_poll(|e: &PollEvent| {
            events.push((e.state, e.consecutive_successes, e.next_delay.is_some()))
        })
        .wait(secs(600))
        .await
        .unwrap();
    assert_eq!(done.polls, 9);
    use AcceptorState::{Retry, Success};
    assert_eq!(
        events,
        [
            (Success, 1, true),
            (Success, 2, true),
            (Retry, 0, true),
            (Success, 1, true),
            (Success, 2, true),
            (Retry, 0, true),
            (Success, 1, true),
            (Success, 2, true),
            (Success, 3, false),
        ]
    );
    // Inside a WaitAll too.
    let script = vec![true, false, true, true, false, true, true, true];
    let service = Service::new(vec![Resource::Flapping(script); 3], Duration::ZERO);
    let waiters = service
        .waiters()
        .into_iter()
        .map(|w| w.consecutive_successes(3));
    for result in WaitAll::new(waiters).wait(secs(600)).await {
        assert_eq!(result.unwrap().polls, 8);
    }
}

#[tokio::test(start_paused = true)]
async fn consecutive_successes_keep_the_failure_and_deadline_rules() {
    // A failure ends the wait at once, whatever the count.
    let service = Service::new(vec![Resource::FailsAt(secs(1))], Duration::ZERO);
    let waiter = new_waiter(WaiterMetadata::new("Flaky", "describe"), {
        let service = &service;
        let mut n = 0;
        move || {
            n += 1;
            let first = n == 1;
            async move {
                let polled = service.describe(0).await;
                // The first poll reads `ready`, then the resource fails.
                if first {
                    Polled::new(polled.result, Some(Matched::new(0, AcceptorState::Success)))
                } else {
                    polled
                }
            }
        }
    });
    let err = waiter
        .consecutive_successes(3)
        .wait(secs(600))
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            WaiterError::FailureState {
                final_poll: FinalPoll { polls: 2, .. },
                ..
            }
        ),
        "{err}"
    );
    // A success still short of the count at the deadline: the wait ran out of time, with it.
    let service = Service::new(
        vec![Resource::Flapping(vec![false, false, true])],
        Duration::ZERO,
    );
    let err = service
        .waiter(0)
        .min_delay(secs(2))
        .max_delay(secs(2))
        .consecutive_successes(3)
        .wait(secs(6))
        .await
        .unwrap_err();
    let WaiterError::ExceededMaxWait {
        polls,
        last,
        elapsed,
        ..
    } = err
    else {
        panic!("{err}")
    };
    // Polls at 0 s, 2 s and, the spec's last poll, 6 s: the only success there is the first.
    assert_eq!((polls, last.unwrap().unwrap(), elapsed), (3, 0, secs(6)));
}

#[tokio::test(start_paused = true)]
async fn consecutive_successes_zero_is_rejected_before_any_poll() {
    let service = Service::new(vec![Resource::ReadyAt(Duration::ZERO)], Duration::ZERO);
    let err = service
        .waiter(0)
        .consecutive_successes(0)
        .wait(secs(60))
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        WaiterError::InvalidConsecutiveSuccesses { waiter: "Ready" }
    ));
    assert!(
        err.to_string()
            .contains("consecutive_successes must be at least 1"),
        "{err}"
    );
    assert_eq!(service.requests(), 0);
    // In a set, that waiter alone is rejected.
    let waiters = vec![
        service.waiter(0).consecutive_successes(0),
        service.waiter(0),
    ];
    let results = WaitAll::new(waiters).wait(secs(60)).await;
    assert!(matches!(
        results[0],
        Err(WaiterError::InvalidConsecutiveSuccesses { .. })
    ));
    assert!(results[1].is_ok());
}

#[tokio::test(start_paused = true)]
async fn dropping_the_future_cancels_every_poll_in_flight() {
    let service = Service::new(vec![Resource::Never; 8], secs(10));
    let waiting = WaitAll::new(service.waiters())
        .concurrency(0)
        .wait(secs(600));
    assert!(tokio::time::timeout(secs(5), waiting).await.is_err());
    // All 8 polls had started (spread below 2 s), none had answered: all dropped.
    assert_eq!(service.requests(), 8);
    assert_eq!(service.cancelled.load(Ordering::SeqCst), 8);
    assert_eq!(service.in_flight.load(Ordering::SeqCst), 0);
    tokio::time::advance(secs(600)).await;
    assert_eq!(service.requests(), 8);
}

#[tokio::test(start_paused = true)]
async fn a_panic_in_one_poll_loses_no_other_result() {
    let mut resources = vec![Resource::ReadyAt(secs(20)); 4];
    resources[2] = Resource::PanicsAt(secs(5));
    let service = Service::new(resources.clone(), Duration::ZERO);
    let results = WaitAll::new(service.waiters()).wait(secs(600)).await;
    let Err(WaiterError::PollPanicked {
        message,
        polls,
        last,
        ..
    }) = &results[2]
    else {
        panic!("{:?}", results[2])
    };
    assert_eq!(message, "resource 2 broke the client");
    assert!(*polls >= 1 && last.is_some());
    let error = results[2].as_ref().unwrap_err();
    assert!(error.is_failure());
    assert!(
        error
            .to_string()
            .starts_with("waiter `Ready` stopped: its poll panicked after ")
            && error.to_string().ends_with(": resource 2 broke the client"),
        "{error}"
    );
    for i in [0, 1, 3] {
        assert_eq!(results[i].as_ref().unwrap().output(), Some(&i));
    }
    // With fail-fast, the panic stops the others like a failure does.
    let service = Service::new(resources, Duration::ZERO);
    let results = WaitAll::new(service.waiters())
        .fail_fast(true)
        .wait(secs(600))
        .await;
    assert!(matches!(results[2], Err(WaiterError::PollPanicked { .. })));
    for i in [0, 1, 3] {
        assert!(is_stopped_by(&results[i], 2), "{:?}", results[i]);
    }
}

#[tokio::test(start_paused = true)]
async fn progress_reports_every_change_with_its_counts() {
    let mut resources = vec![Resource::ReadyAt(secs(10)); 6];
    resources[4] = Resource::FailsAt(secs(3));
    let service = Service::new(resources, ms(100));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let results = WaitAll::new(service.waiters())
        .concurrency(2)
        .on_progress(move |p: &WaitAllProgress| sink.lock().unwrap().push(*p))
        .wait(secs(600))
        .await;
    let seen = seen.lock().unwrap();
    let polls: u32 = results
        .iter()
        .map(|r| match r {
            Ok(done) => done.polls,
            Err(WaiterError::FailureState { final_poll, .. }) => final_poll.polls,
            Err(e) => panic!("{e}"),
        })
        .sum();
    let started = seen
        .iter()
        .filter(|p| p.change == WaitAllChange::PollStarted)
        .count();
    let polled: Vec<&PollEvent> = seen
        .iter()
        .filter_map(|p| match &p.change {
            WaitAllChange::Polled(event) => Some(event),
            _ => None,
        })
        .collect();
    assert_eq!((started, polled.len()), (polls as usize, polls as usize));
    assert_eq!(polls as usize, service.requests());
    let finished: Vec<(usize, WaitAllChange)> = seen
        .iter()
        .filter(|p| matches!(p.change, WaitAllChange::Succeeded | WaitAllChange::Failed))
        .map(|p| (p.index, p.change))
        .collect();
    assert_eq!(finished.len(), 6);
    assert_eq!(finished[0], (4, WaitAllChange::Failed));
    for p in seen.iter() {
        assert_eq!(p.total, 6);
        assert_eq!(p.succeeded + p.failed + p.stopped + p.pending, 6);
        assert!(p.in_flight <= 2);
        assert_eq!(p.waiter, if p.index == 4 { "Doomed" } else { "Ready" });
    }
    let last = seen.last().unwrap();
    assert_eq!(
        (last.succeeded, last.failed, last.pending, last.in_flight),
        (5, 1, 0, 0)
    );
    assert!(
        last.to_string()
            .starts_with("6 of 6 done (5 succeeded, 1 failed), 0 polls in flight")
    );
}

mod limiter {
    //! A client that retries through one adaptive `Retrier`: inside `WaitAll`, its limiter
    //! paces the polls of every waiter of the set.

    use super::*;
    use waiter_runtime::retry::adaptive::ClientRateLimiter;
    use waiter_runtime::retry::{Retrier, RetryConfig};
    use waiter_runtime::{ProvideErrorMetadata, waitable};

    #[derive(Debug, Clone, PartialEq, ProvideErrorMetadata)]
    pub enum ApiError {
        #[error_metadata(code = "ThrottlingException", throttling)]
        Throttled,
    }

    pub struct Client {
        pub retrier: Retrier,
        pub sent: Mutex<Vec<Duration>>,
        pub start: Instant,
    }

    impl Client {
        #[waitable(Ready: { acceptors: [{ state: "success", matcher: { output: {
            path: "@", expected: "true", comparator: "booleanEquals" } } }] })]
        pub async fn is_ready(&self, id: usize) -> Result<bool, ApiError> {
            self.retrier
                .run(|| async {
                    let at = {
                        let mut sent = self.sent.lock().unwrap();
                        sent.push(self.start.elapsed());
                        sent.len()
                    };
                    // Every third request of the whole client is throttled.
                    if at % 3 == 0 {
                        Err(ApiError::Throttled)
                    } else {
                        Ok(self.start.elapsed() >= Duration::from_secs(id as u64 % 20))
                    }
                })
                .await
        }
    }

    #[tokio::test(start_paused = true)]
    async fn one_clients_limiter_paces_all_polls_of_the_set() {
        let limiter = ClientRateLimiter::new();
        let client = Client {
            retrier: Retrier::new(RetryConfig::adaptive().max_attempts(10).build())
                .with_rate_limiter(Arc::new(limiter.clone())),
            sent: Mutex::new(Vec::new()),
            start: Instant::now(),
        };
        let events = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&events);
        let results = WaitAll::new((0..40).map(|id| client.wait_until_ready(id)))
            .concurrency(0)
            .on_progress(move |p: &WaitAllProgress| {
                if let WaitAllChange::Polled(e) = p.change {
                    sink.lock().unwrap().push((p.index, e));
                }
            })
            .wait(secs(600))
            .await;
        assert!(results.iter().all(Result::is_ok), "{results:?}");
        let events = events.lock().unwrap();
        // Throttles were retried inside the polls...
        assert!(events.iter().any(|(_, e)| e.attempts > 1));
        // ...the limiter engaged, and polls of many different waiters waited for it.
        assert!(limiter.state().is_enabled());
        let paced: std::collections::BTreeSet<usize> = events
            .iter()
            .filter(|(_, e)| !e.rate_limit_wait.is_zero())
            .map(|(i, _)| *i)
            .collect();
        assert!(paced.len() >= 10, "{paced:?}");
    }
}

mod quota {
    //! A client whose every request is throttled, retrying through one `Retrier` with a
    //! quota of two retries: the quota is the client's, shared by every waiter of the set.

    use super::*;
    use waiter_runtime::retry::{Retrier, RetryConfig, RetryQuota};
    use waiter_runtime::{ProvideErrorMetadata, waitable};

    #[derive(Debug, ProvideErrorMetadata)]
    pub enum ApiError {
        #[error_metadata(code = "ThrottlingException", throttling)]
        Throttled,
    }

    impl std::fmt::Display for ApiError {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("throttled")
        }
    }

    pub struct Client {
        pub retrier: Retrier,
        pub sent: AtomicUsize,
    }

    impl Client {
        #[waitable(Ready: { acceptors: [{ state: "success", matcher: { success: true } }] })]
        pub async fn get(&self, id: usize) -> Result<usize, ApiError> {
            self.retrier
                .run(|| async {
                    self.sent.fetch_add(1, Ordering::SeqCst);
                    Err::<(), _>(ApiError::Throttled)
                })
                .await
                .map(|()| id)
        }
    }

    #[tokio::test(start_paused = true)]
    async fn one_clients_retry_quota_is_shared_by_the_set() {
        let quota = RetryQuota::builder().capacity(10).retry_cost(5).build();
        let client = Client {
            retrier: Retrier::new(RetryConfig::standard().max_attempts(10).build())
                .with_quota(quota.clone()),
            sent: AtomicUsize::new(0),
        };
        let results = WaitAll::new((0..3).map(|id| client.wait_until_ready(id)))
            .wait(secs(600))
            .await;
        // Two retries in all, for the whole set: 3 first attempts + 2 retries; then the
        // throttle, which no acceptor names, ends each wait.
        assert_eq!(client.sent.load(Ordering::SeqCst), 5);
        assert_eq!(quota.available(), 0);
        for result in &results {
            assert!(
                matches!(result, Err(WaiterError::OperationFailed { .. })),
                "{result:?}"
            );
        }
    }
}

#[tokio::test(start_paused = true)]
async fn waiters_of_different_types_join_through_map_output_and_map_err() {
    #[derive(Debug, PartialEq)]
    enum Ready {
        Count(usize),
        Name(&'static str),
    }
    type BoxError = Box<dyn std::error::Error + Send + Sync>;
    let service = Service::new(vec![Resource::ReadyAt(secs(3)); 2], Duration::ZERO);
    let named: Waiter<'_, &'static str, std::io::Error> =
        new_waiter(WaiterMetadata::new("Named", "get"), || async {
            Polled::new(
                Err(std::io::Error::other("gone")),
                Some(Matched::failure(0, None)),
            )
        });
    let results = WaitAll::new([
        service
            .waiter(0)
            .map_output(Ready::Count)
            .map_err(BoxError::from),
        named.map_output(Ready::Name).map_err(BoxError::from),
        service
            .waiter(1)
            .map_output(Ready::Count)
            .map_err(BoxError::from),
    ])
    .wait(secs(60))
    .await;
    assert_eq!(
        results[0].as_ref().unwrap().output(),
        Some(&Ready::Count(0))
    );
    let Err(WaiterError::FailureState { final_poll, .. }) = &results[1] else {
        panic!()
    };
    assert_eq!(final_poll.error().unwrap().to_string(), "gone");
    assert_eq!(
        results[2].as_ref().unwrap().output(),
        Some(&Ready::Count(1))
    );
}

#[test]
fn the_wait_all_future_is_send() {
    fn assert_send<T: Send>(_: T) {}
    let service = Service::new(vec![Resource::Never], Duration::ZERO);
    assert_send(
        WaitAll::new(service.waiters())
            .on_progress(|_: &_| {})
            .wait(secs(1)),
    );
}

mod stream {
    use super::*;
    use futures_util::StreamExt;

    #[tokio::test(start_paused = true)]
    async fn the_stream_gives_each_result_as_it_comes_and_ends() {
        let ready = [40, 5, 20, 60];
        let mut resources: Vec<Resource> =
            ready.iter().map(|t| Resource::ReadyAt(secs(*t))).collect();
        resources[3] = Resource::FailsAt(secs(60));
        let service = Service::new(resources, Duration::ZERO);
        let mut stream = WaitAll::new(service.waiters()).stream(secs(600));
        let mut order = Vec::new();
        let mut last_elapsed = Duration::ZERO;
        while let Some((index, result)) = stream.next().await {
            let elapsed = match &result {
                Ok(done) => done.elapsed,
                Err(WaiterError::FailureState { final_poll, .. }) => final_poll.elapsed,
                Err(e) => panic!("{e}"),
            };
            // In the order they finished.
            assert!(elapsed >= last_elapsed);
            last_elapsed = elapsed;
            order.push(index);
        }
        order.sort_unstable();
        assert_eq!(order, [0, 1, 2, 3]);
    }

    #[tokio::test(start_paused = true)]
    async fn fail_fast_and_drop_work_through_the_stream() {
        let mut resources = vec![Resource::Never; 5];
        resources[2] = Resource::FailsAt(secs(10));
        let service = Service::new(resources, ms(500));
        let results: Vec<_> = WaitAll::new(service.waiters())
            .fail_fast(true)
            .stream(secs(600))
            .collect()
            .await;
        assert_eq!(results.len(), 5);
        assert_eq!(results[0].0, 2, "the failure comes first");
        for (index, result) in &results[1..] {
            assert!(is_stopped_by(result, 2), "{index}: {result:?}");
        }
        // Dropped after the first result: every poll in flight is cancelled.
        let service = Service::new(vec![Resource::Never; 4], secs(10));
        let mut stream = WaitAll::new(service.waiters())
            .concurrency(0)
            .stream(secs(600));
        assert!(tokio::time::timeout(secs(5), stream.next()).await.is_err());
        drop(stream);
        assert_eq!(service.cancelled.load(Ordering::SeqCst), 4);
        tokio::time::advance(secs(600)).await;
        assert_eq!(service.requests(), 4);
    }

    #[test]
    fn the_stream_is_send() {
        fn assert_send<T: Send>(_: T) {}
        let service = Service::new(vec![Resource::Never], Duration::ZERO);
        assert_send(WaitAll::new(service.waiters()).stream(secs(1)));
    }
}
