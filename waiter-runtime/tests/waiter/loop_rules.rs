//! The waiter workflow and its delays, rule by rule, on tokio's paused clock.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;
use waiter_runtime::poll_scope::in_poll as in_waiter_poll;
// The loop is driven by hand-made pollers through the runtime's hidden constructor (what the
// code of `#[waitable]` calls), so every branch of the workflow can be forced.
use waiter_runtime::__private_v0_1::{Matched, Polled, waiter as new_waiter};
use waiter_runtime::waiter::{AcceptorState, PollEvent, Waiter, WaiterError, WaiterMetadata};

const fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

#[derive(Debug, Clone, PartialEq)]
struct Error(&'static str);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "service said {}", self.0)
    }
}

impl std::error::Error for Error {}

/// A scripted service: poll `n` (from 0) returns `script[n]` (the last entry repeats) and is
/// classified by `classify`; records when each poll started.
fn scripted(
    name: &'static str,
    script: Vec<Result<&'static str, Error>>,
    classify: fn(&Result<&'static str, Error>) -> Option<Matched>,
) -> (
    Waiter<'static, &'static str, Error>,
    Arc<Mutex<Vec<Duration>>>,
) {
    let start = Instant::now();
    let times = Arc::new(Mutex::new(Vec::new()));
    let seen = times.clone();
    let mut n = 0;
    let waiter = new_waiter(WaiterMetadata::new(name, "get"), move || {
        let result = script[n.min(script.len() - 1)].clone();
        n += 1;
        seen.lock().unwrap().push(start.elapsed());
        async move {
            let matched = classify(&result);
            Polled::new(result, matched)
        }
    });
    (waiter, times)
}

fn ready_when_running(r: &Result<&'static str, Error>) -> Option<Matched> {
    match r {
        Ok("running") => Some(Matched::new(0, AcceptorState::Success)),
        Ok("stopped") => Some(Matched::failure(1, Some("it stopped".into()))),
        Err(Error("NotFound")) => Some(Matched::new(2, AcceptorState::Retry)),
        _ => None,
    }
}

#[tokio::test(start_paused = true)]
async fn first_poll_is_immediate_and_success_ends_the_wait() {
    let (waiter, times) = scripted("Running", vec![Ok("running")], ready_when_running);
    let done = waiter.wait(secs(300)).await.unwrap();
    assert_eq!(*times.lock().unwrap(), [secs(0)]);
    assert_eq!(
        (done.polls, done.elapsed, done.output()),
        (1, secs(0), Some(&"running"))
    );
}

#[tokio::test(start_paused = true)]
async fn unmatched_success_retries_and_matched_error_retries() {
    let script = vec![
        Ok("pending"),
        Err(Error("NotFound")),
        Ok("pending"),
        Ok("running"),
    ];
    let (waiter, times) = scripted("Running", script, ready_when_running);
    let done = waiter
        .min_delay(secs(1))
        .max_delay(secs(1))
        .wait(secs(300))
        .await
        .unwrap();
    assert_eq!(done.polls, 4);
    assert_eq!(*times.lock().unwrap(), [0, 1, 2, 3].map(secs));
}

#[tokio::test(start_paused = true)]
async fn an_error_no_acceptor_matches_is_a_failure() {
    let (waiter, _) = scripted(
        "Running",
        vec![Ok("pending"), Err(Error("AccessDenied"))],
        ready_when_running,
    );
    let err = waiter.wait(secs(300)).await.unwrap_err();
    let WaiterError::OperationFailed { error, polls, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!((error, *polls), (&Error("AccessDenied"), 2));
    assert_eq!(
        err.to_string(),
        "waiter `Running` stopped: the operation returned an error that no acceptor expects (2 polls in 2s): service said AccessDenied"
    );
    assert_eq!(
        std::error::Error::source(&err).unwrap().to_string(),
        "service said AccessDenied"
    );
}

#[tokio::test(start_paused = true)]
async fn a_failure_acceptor_stops_with_its_message() {
    let (waiter, _) = scripted(
        "Running",
        vec![Ok("pending"), Ok("stopped")],
        ready_when_running,
    );
    let err = waiter.seed(1).wait(secs(300)).await.unwrap_err();
    let WaiterError::FailureState {
        acceptor,
        message,
        final_poll,
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(
        (*acceptor, message.as_deref(), final_poll.polls),
        (1, Some("it stopped"), 2)
    );
    assert_eq!(final_poll.output(), Some(&"stopped"));
    assert!(
        err.to_string()
            .starts_with("waiter `Running` failed: the resource reached a state"),
        "{err}"
    );
    assert!(err.to_string().ends_with(": it stopped"), "{err}");
}

#[tokio::test(start_paused = true)]
async fn a_waiter_can_succeed_on_an_error() {
    let (waiter, _) = scripted(
        "ObjectNotExists",
        vec![Ok("here"), Err(Error("NotFound"))],
        |r| matches!(r, Err(Error("NotFound"))).then(|| Matched::new(0, AcceptorState::Success)),
    );
    let done = waiter.wait(secs(300)).await.unwrap();
    assert_eq!((done.polls, done.error()), (2, Some(&Error("NotFound"))));
}

#[tokio::test(start_paused = true)]
async fn delays_are_jittered_exponential_backoff_within_the_spec_bounds() {
    let (waiter, times) = scripted("Never", vec![Ok("pending")], ready_when_running);
    let events = Arc::new(Mutex::new(Vec::<PollEvent>::new()));
    let sink = events.clone();
    let err = waiter
        .seed(7)
        .on_poll(move |e: &PollEvent| sink.lock().unwrap().push(*e))
        .wait(secs(300))
        .await
        .unwrap_err();
    let events = events.lock().unwrap();
    let times = times.lock().unwrap();
    assert!(matches!(
        err,
        WaiterError::ExceededMaxWait {
            cancelled_in_flight: false,
            ..
        }
    ));
    // Each poll starts exactly when the previous delay ends.
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e.poll as usize, i + 1);
        assert_eq!(e.elapsed, times[i]);
        if let Some(next) = e.next_delay {
            assert_eq!(times[i + 1], times[i] + next);
            let remaining = secs(300) - e.elapsed;
            let ceiling = std::cmp::min(secs(120), secs(2) * 2u32.pow(e.poll.min(20) - 1));
            // The last poll leaves 1 ms (the least head start) before the deadline.
            let last_poll =
                next == remaining - MS_1 && remaining.saturating_sub(ceiling) <= secs(2);
            assert!(
                last_poll || (secs(2) <= next && next <= ceiling),
                "poll {}: {next:?} > {ceiling:?}",
                e.poll
            );
            assert_eq!(
                (next + if last_poll { MS_1 } else { Duration::ZERO }).subsec_nanos(),
                0,
                "whole seconds, like the spec's random"
            );
        }
    }
    // Polls that take no time: the last poll leaves 1 ms before the deadline (a request at
    // the deadline could not answer), and nothing after it.
    let last = events.last().unwrap();
    assert_eq!((last.elapsed, last.next_delay), (secs(300) - MS_1, None));
}

#[tokio::test(start_paused = true)]
async fn close_to_the_deadline_the_waiter_sleeps_until_it_for_one_last_poll() {
    let (waiter, times) = scripted("Never", vec![Ok("pending")], ready_when_running);
    let err = waiter
        .min_delay(secs(2))
        .max_delay(secs(2))
        .wait(secs(5))
        .await
        .unwrap_err();
    // 0; remaining 5 - 2 > 2 -> 2; remaining 3 - 2 <= 2 -> sleep 3 less the last poll's head
    // start (1 ms for polls that take no time), poll at 4.999; then the wait ends.
    assert_eq!(*times.lock().unwrap(), [secs(0), secs(2), secs(5) - MS_1]);
    let WaiterError::ExceededMaxWait {
        polls,
        elapsed,
        last,
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(
        (*polls, *elapsed, last.as_ref().unwrap().as_ref().ok()),
        (3, secs(5) - MS_1, Some(&"pending"))
    );
    assert_eq!(
        err.to_string(),
        "waiter `Never` gave up: the resource did not reach the desired state within the maximum wait of 5s (3 polls)"
    );
}

#[tokio::test(start_paused = true)]
async fn the_same_seed_gives_the_same_delays() {
    async fn delays(seed: u64) -> Vec<Option<Duration>> {
        let (waiter, _) = scripted("Never", vec![Ok("pending")], ready_when_running);
        let mut seen = Vec::new();
        let _ = waiter
            .seed(seed)
            .on_poll(|e: &PollEvent| seen.push(e.next_delay))
            .wait(secs(3600))
            .await;
        seen
    }
    assert_eq!(delays(11).await, delays(11).await);
    assert_ne!(delays(11).await, delays(12).await);
}

#[tokio::test(start_paused = true)]
async fn sub_second_delays_are_allowed() {
    let (waiter, times) = scripted(
        "Never",
        vec![Ok("pending"), Ok("pending"), Ok("running")],
        ready_when_running,
    );
    let done = waiter
        .min_delay(Duration::from_millis(100))
        .max_delay(Duration::from_millis(100))
        .wait(secs(5))
        .await
        .unwrap();
    assert_eq!(done.elapsed, Duration::from_millis(200));
    assert_eq!(
        *times.lock().unwrap(),
        [0, 100, 200].map(Duration::from_millis)
    );
}

#[tokio::test(start_paused = true)]
async fn unusable_delays_are_an_error_before_any_poll() {
    for (min, max) in [(secs(0), secs(1)), (secs(3), secs(2))] {
        let (waiter, times) = scripted("Running", vec![Ok("running")], ready_when_running);
        let err = waiter
            .min_delay(min)
            .max_delay(max)
            .wait(secs(60))
            .await
            .unwrap_err();
        assert!(matches!(err, WaiterError::InvalidDelays { .. }), "{err:?}");
        assert!(
            err.to_string().contains("0 < min_delay <= max_delay"),
            "{err}"
        );
        assert!(times.lock().unwrap().is_empty());
    }
    // Equal is linear backoff, and fine.
    let (waiter, _) = scripted("Running", vec![Ok("running")], ready_when_running);
    assert!(
        waiter
            .min_delay(secs(3))
            .max_delay(secs(3))
            .wait(secs(60))
            .await
            .is_ok()
    );
}

struct DropFlag(Arc<AtomicU32>);
impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[tokio::test(start_paused = true)]
async fn the_deadline_cancels_the_poll_in_flight() {
    let dropped = Arc::new(AtomicU32::new(0));
    let flag = dropped.clone();
    let mut n = 0u32;
    let start = Instant::now();
    let waiter = new_waiter(WaiterMetadata::new("Slow", "get"), move || {
        n += 1;
        let (n, guard) = (n, DropFlag(flag.clone()));
        async move {
            let _guard = guard;
            // The first poll is quick; the second hangs for an hour.
            let took = if n == 1 { secs(1) } else { secs(3600) };
            tokio::time::sleep(took).await;
            Polled::new(Ok::<_, Error>("pending"), None)
        }
    });
    let err = waiter
        .min_delay(secs(2))
        .max_delay(secs(2))
        .wait(secs(10))
        .await
        .unwrap_err();
    let WaiterError::ExceededMaxWait {
        elapsed,
        polls,
        cancelled_in_flight,
        last,
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(
        (*elapsed, *polls, *cancelled_in_flight),
        (secs(10), 1, true)
    );
    assert_eq!(start.elapsed(), secs(10), "never past the deadline");
    assert!(last.is_some());
    assert_eq!(
        dropped.load(Ordering::SeqCst),
        2,
        "the hung poll's future was dropped"
    );
    assert!(
        err.to_string()
            .contains("the poll in flight at the deadline was cancelled"),
        "{err}"
    );
}

#[tokio::test(start_paused = true)]
async fn polls_run_inside_the_waiter_poll_scope() {
    let inside = Arc::new(Mutex::new(Vec::new()));
    let seen = inside.clone();
    let waiter = new_waiter(WaiterMetadata::new("Scoped", "get"), move || {
        let seen = seen.clone();
        async move {
            seen.lock().unwrap().push(in_waiter_poll());
            Polled::new(
                Ok::<_, Error>(()),
                Some(Matched::new(0, AcceptorState::Success)),
            )
        }
    });
    waiter.wait(secs(1)).await.unwrap();
    assert_eq!(*inside.lock().unwrap(), [true]);
    assert!(!in_waiter_poll());
}

#[tokio::test(start_paused = true)]
async fn the_observer_sees_every_poll_and_the_final_state() {
    let script = vec![Ok("pending"), Err(Error("NotFound")), Ok("running")];
    let (waiter, _) = scripted("Running", script, ready_when_running);
    let mut events = Vec::new();
    waiter
        .seed(3)
        .on_poll(|e: &PollEvent| events.push(*e))
        .wait(secs(300))
        .await
        .unwrap();
    let states: Vec<_> = events
        .iter()
        .map(|e| (e.poll, e.state, e.acceptor, e.next_delay.is_some()))
        .collect();
    assert_eq!(
        states,
        [
            (1, AcceptorState::Retry, None, true),
            (2, AcceptorState::Retry, Some(2), true),
            (3, AcceptorState::Success, Some(0), false)
        ]
    );
    assert!(events.iter().all(|e| e.waiter == "Running"));
}

#[tokio::test(start_paused = true)]
async fn a_max_wait_too_large_for_the_clock_means_no_deadline() {
    let (waiter, _) = scripted(
        "Running",
        vec![Ok("pending"), Ok("running")],
        ready_when_running,
    );
    let done = waiter
        .min_delay(secs(1))
        .max_delay(secs(1))
        .wait(Duration::MAX)
        .await
        .unwrap();
    assert_eq!(done.polls, 2);
}

#[tokio::test(start_paused = true)]
async fn max_delay_caps_long_waits_without_overflow() {
    let (waiter, _) = scripted("Never", vec![Ok("pending")], ready_when_running);
    let mut max_seen = Duration::ZERO;
    let mut polls = 0;
    let _ = waiter
        .min_delay(secs(1))
        .max_delay(secs(4))
        .on_poll(|e: &PollEvent| {
            polls += 1;
            max_seen = max_seen.max(e.next_delay.unwrap_or_default());
        })
        .wait(secs(4 * 200))
        .await;
    assert!(polls > 150, "{polls}");
    assert!(max_seen <= secs(5), "{max_seen:?}"); // 4 s, or up to 4 + 1 s for the last one
}

#[test]
fn a_waiter_debug_prints_its_settings() {
    let (waiter, _) = scripted("Running", vec![Ok("running")], ready_when_running);
    let printed = format!("{:?}", waiter.min_delay(secs(1)).seed(9));
    assert_eq!(
        printed,
        "Waiter { waiter: \"Running\", operation: \"get\", min_delay: 1s, max_delay: 120s, seed: Some(9), consecutive_successes: 1, transient_poll_errors: Fail, .. }"
    );
}

/// The least head start of the last poll: the timer's resolution.
const MS_1: Duration = Duration::from_millis(1);
