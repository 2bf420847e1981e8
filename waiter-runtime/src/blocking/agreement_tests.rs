//! The four forms of one wait agree, poll by poll, over random scripts (issue 39, 1): the
//! async `wait` and `stream` on tokio's paused clock, the blocking `wait` and `iter` on a
//! virtual clock (the blocking driver's clock is a parameter, so these run exactly, with no
//! real sleep). They make the same requests at the same times, their observers see the same
//! events, and they end the same way.
//!
//! Polls that take no time agree in all four. Polls that take time agree in all four while no
//! poll is in flight at the deadline (an async poll is cancelled there, a blocking one
//! finishes: the documented difference), and always within each pair (`wait` and `stream`,
//! blocking `wait` and `iter`).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use proptest::prelude::*;
use tokio::time::Instant;

use super::driver::Clock;
use crate::__private_v0_1::{blocking_waiter, waiter as async_waiter};
use crate::ProvideErrorMetadata;
use crate::waiter::acceptor::{Matched, Polled};
use crate::waiter::{
    AcceptorState, FinalPoll, PollEvent, TransientPollErrors, WaitUpdate, WaiterError,
    WaiterMetadata,
};

/// A clock that moves only when slept on or advanced (by a poll that takes time).
#[derive(Clone)]
struct VirtualClock(Arc<Mutex<Instant>>);

impl VirtualClock {
    fn advance(&self, by: Duration) {
        let mut now = self.0.lock().unwrap();
        *now = now.checked_add(by).unwrap_or(*now);
    }
}

impl Clock for VirtualClock {
    fn now(&self) -> Instant {
        *self.0.lock().unwrap()
    }

    fn sleep(&self, duration: Duration) {
        self.advance(duration);
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    /// `Ok`, matches nothing.
    Pending,
    /// `Ok`, matches `success`.
    Ready,
    /// `Ok`, matches `failure`.
    Broken,
    /// An error a `retry` acceptor names.
    NotFound,
    /// A throttling error no acceptor names.
    Throttled,
    /// An error no acceptor names, not transient.
    Unexpected,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TestError {
    NotFound,
    Throttled,
    Unexpected,
}

impl ProvideErrorMetadata for TestError {
    fn code(&self) -> Option<&str> {
        Some(match self {
            TestError::NotFound => "NotFound",
            TestError::Throttled => "Throttling",
            TestError::Unexpected => "AccessDenied",
        })
    }

    fn is_throttling(&self) -> bool {
        *self == TestError::Throttled
    }
}

fn polled(answer: Answer) -> Polled<&'static str, TestError> {
    match answer {
        Answer::Pending => Polled::new(Ok("pending"), None),
        Answer::Ready => Polled::new(Ok("ready"), Some(Matched::new(0, AcceptorState::Success))),
        Answer::Broken => Polled::new(Ok("broken"), Some(Matched::failure(1, None))),
        Answer::NotFound => Polled::new(
            Err(TestError::NotFound),
            Some(Matched::new(2, AcceptorState::Retry)),
        ),
        Answer::Throttled => Polled::new(Err(TestError::Throttled), None),
        Answer::Unexpected => Polled::new(Err(TestError::Unexpected), None),
    }
}

/// One random wait: the answers of its requests in turn (the last repeats), each taking its
/// time, and the waiter's options.
#[derive(Debug, Clone)]
struct Script {
    answers: Vec<(Answer, Duration)>,
    min_delay: Duration,
    max_delay: Duration,
    max_wait: Duration,
    successes: u32,
    transient_retry: bool,
    seed: u64,
}

impl Script {
    fn answer(&self, request: usize) -> (Answer, Duration) {
        self.answers[request.min(self.answers.len() - 1)]
    }

    fn metadata(&self) -> WaiterMetadata {
        WaiterMetadata::new("Ready", "get").with_delays(self.min_delay, self.max_delay)
    }

    fn transient(&self) -> TransientPollErrors {
        if self.transient_retry {
            TransientPollErrors::Retry
        } else {
            TransientPollErrors::Fail
        }
    }
}

/// What one form of the wait did: the requests' times, the events its observer saw, how it
/// ended, and what its updates were (a stream's or an iterator's; none for `wait`).
#[derive(Debug, Clone, PartialEq)]
struct Run {
    requests: Vec<Duration>,
    events: Vec<PollEvent>,
    end: End,
    updates: Vec<u32>,
}

/// How a wait ended, without its values: the kind, the polls, the elapsed time, whether a
/// poll was cancelled in flight, whether `last` held a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct End {
    kind: &'static str,
    polls: u32,
    elapsed: Duration,
    cancelled_in_flight: bool,
    last: bool,
}

fn end_of(
    outcome: &Result<FinalPoll<&'static str, TestError>, WaiterError<&'static str, TestError>>,
) -> End {
    let end = |kind, polls, elapsed, cancelled_in_flight, last| End {
        kind,
        polls,
        elapsed,
        cancelled_in_flight,
        last,
    };
    match outcome {
        Ok(done) => end("success", done.polls, done.elapsed, false, true),
        Err(WaiterError::ExceededMaxWait {
            polls,
            elapsed,
            cancelled_in_flight,
            last,
            ..
        }) => end(
            "exceeded",
            *polls,
            *elapsed,
            *cancelled_in_flight,
            last.is_some(),
        ),
        Err(WaiterError::FailureState { final_poll, .. }) => {
            end("failure", final_poll.polls, final_poll.elapsed, false, true)
        }
        Err(WaiterError::OperationFailed { polls, elapsed, .. }) => {
            end("operation_failed", *polls, *elapsed, false, true)
        }
        Err(other) => panic!("not in these scripts: {other:?}"),
    }
}

/// The async forms, on a paused clock of their own: `stream` if `streamed`, else `wait`.
fn run_async(script: &Script, streamed: bool) -> Run {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap();
    runtime.block_on(async {
        let start = Instant::now();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let sent = Arc::clone(&requests);
        let answers = script.clone();
        let events = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&events);
        let waiter = async_waiter(script.metadata(), move || {
            let mut sent = sent.lock().unwrap();
            let (answer, takes) = answers.answer(sent.len());
            sent.push(start.elapsed());
            async move {
                if !takes.is_zero() {
                    tokio::time::sleep(takes).await;
                }
                polled(answer)
            }
        })
        .min_delay(script.min_delay)
        .max_delay(script.max_delay)
        .seed(script.seed)
        .consecutive_successes(script.successes)
        .transient_poll_errors(script.transient())
        .on_poll(move |e: &PollEvent| seen.lock().unwrap().push(*e));
        let (outcome, updates) = if streamed {
            let mut stream = waiter.stream(script.max_wait);
            let mut updates = Vec::new();
            let mut outcome = None;
            while let Some(update) = stream.next().await {
                match update {
                    WaitUpdate::Polled { event, .. } => updates.push(event.poll),
                    WaitUpdate::Done(done) => outcome = Some(done),
                }
            }
            (outcome.expect("one Done"), updates)
        } else {
            (waiter.wait(script.max_wait).await, Vec::new())
        };
        let requests = requests.lock().unwrap().clone();
        let events = events.lock().unwrap().clone();
        Run {
            requests,
            events,
            end: end_of(&outcome),
            updates,
        }
    })
}

/// The blocking forms, on a virtual clock: `iter` if `iterated`, else `wait`.
fn run_blocking(script: &Script, iterated: bool) -> Run {
    let clock = VirtualClock(Arc::new(Mutex::new(Instant::now())));
    let start = clock.now();
    let requests = Arc::new(Mutex::new(Vec::new()));
    let sent = Arc::clone(&requests);
    let answers = script.clone();
    let poll_clock = clock.clone();
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&events);
    let waiter = blocking_waiter(script.metadata(), move || {
        let mut sent = sent.lock().unwrap();
        let (answer, takes) = answers.answer(sent.len());
        sent.push(poll_clock.now().saturating_duration_since(start));
        poll_clock.advance(takes);
        polled(answer)
    })
    .min_delay(script.min_delay)
    .max_delay(script.max_delay)
    .seed(script.seed)
    .consecutive_successes(script.successes)
    .transient_poll_errors(script.transient())
    .on_poll(move |e: &PollEvent| seen.lock().unwrap().push(*e));
    let mut updates = Vec::new();
    let outcome = if iterated {
        let mut driver = waiter
            .driver_on(clock, script.max_wait)
            .expect("valid options");
        loop {
            match driver.step() {
                Some(super::driver::Step::Polled(event)) => {
                    // What `WaiterIter::next` does with the poll's result.
                    assert!(driver.take_last().is_some());
                    updates.push(event.poll);
                }
                Some(super::driver::Step::Done(outcome)) => break outcome,
                None => panic!("the end was not given"),
            }
        }
    } else {
        waiter.wait_on(clock, script.max_wait)
    };
    let end = end_of(&outcome);
    let requests = requests.lock().unwrap().clone();
    let events = events.lock().unwrap().clone();
    Run {
        requests,
        events,
        end,
        updates,
    }
}

fn answer() -> impl Strategy<Value = Answer> {
    prop_oneof![
        6 => Just(Answer::Pending),
        2 => Just(Answer::Ready),
        1 => Just(Answer::Broken),
        2 => Just(Answer::NotFound),
        2 => Just(Answer::Throttled),
        1 => Just(Answer::Unexpected),
    ]
}

/// Random waits whose polls take `takes` (milliseconds: zero, or up to 3 s). Delays in whole
/// seconds and maximum waits in whole milliseconds keep tokio's timer (1 ms ticks) exact;
/// many maximum waits fall on the polls' own times, the case the issue found.
fn script(takes: impl Strategy<Value = u64> + Clone) -> impl Strategy<Value = Script> {
    (
        prop::collection::vec((answer(), takes), 1..8),
        1u64..=4,
        0u64..=6,
        prop_oneof![
            Just(0u64),
            (0u64..=20).prop_map(|s| s * 1_000),
            (0u64..=20, 0u64..=3).prop_map(|(s, ms)| s * 1_000 + ms),
            0u64..=20_000,
        ],
        1u32..=3,
        any::<bool>(),
        any::<u64>(),
    )
        .prop_map(
            |(answers, min, extra, max_wait, successes, transient_retry, seed)| Script {
                answers: answers
                    .into_iter()
                    .map(|(a, ms)| (a, Duration::from_millis(ms)))
                    .collect(),
                min_delay: Duration::from_secs(min),
                max_delay: Duration::from_secs(min + extra),
                max_wait: Duration::from_millis(max_wait),
                successes,
                transient_retry,
                seed,
            },
        )
}

/// The updates a stream or an iterator gives: every poll that did not end the wait.
fn polls_going_on(run: &Run) -> Vec<u32> {
    run.events
        .iter()
        .filter(|e| e.next_delay.is_some())
        .map(|e| e.poll)
        .collect()
}

/// `wait` and its stream (or iterator): the same requests, events and end, but a result
/// given in an update is not given again in `last`.
fn assert_pair(waited: &Run, watched: &Run) -> Result<(), TestCaseError> {
    prop_assert_eq!(&waited.requests, &watched.requests);
    prop_assert_eq!(&waited.events, &watched.events);
    prop_assert_eq!(&watched.updates, &polls_going_on(watched));
    let (w, s) = (waited.end, watched.end);
    prop_assert_eq!(
        (w.kind, w.polls, w.elapsed, w.cancelled_in_flight),
        (s.kind, s.polls, s.elapsed, s.cancelled_in_flight)
    );
    // The stream keeps `last` only when the poll that ended the wait is its own.
    let last_poll_ended_it = waited.events.last().is_some_and(|e| e.next_delay.is_none())
        && waited.events.len() as u32 == w.polls;
    prop_assert_eq!(s.last, w.last && last_poll_ended_it);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Polls that take no time: all four forms agree, to the nanosecond.
    #[test]
    fn the_four_forms_agree_on_polls_that_take_no_time(script in script(Just(0u64))) {
        let waited = run_async(&script, false);
        let streamed = run_async(&script, true);
        let blocking = run_blocking(&script, false);
        let iterated = run_blocking(&script, true);
        assert_pair(&waited, &streamed)?;
        assert_pair(&blocking, &iterated)?;
        prop_assert_eq!(&waited.requests, &blocking.requests);
        prop_assert_eq!(&waited.events, &blocking.events);
        prop_assert_eq!(waited.end, blocking.end);
        // No request leaves at or after the deadline, the first excepted.
        for at in waited.requests.iter().skip(1) {
            prop_assert!(*at < script.max_wait, "a request at {:?} of {:?}", at, script.max_wait);
        }
    }

    /// Polls that take time: each pair agrees; all four do while no poll is in flight at the
    /// deadline.
    #[test]
    fn the_forms_agree_on_polls_that_take_time(
        script in script(prop_oneof![Just(0u64), 1u64..=3_000])
    ) {
        let waited = run_async(&script, false);
        let streamed = run_async(&script, true);
        let blocking = run_blocking(&script, false);
        let iterated = run_blocking(&script, true);
        assert_pair(&waited, &streamed)?;
        assert_pair(&blocking, &iterated)?;
        let crossed = waited.end.cancelled_in_flight
            || blocking.end.elapsed > script.max_wait;
        if !crossed {
            prop_assert_eq!(&waited.requests, &blocking.requests);
            prop_assert_eq!(&waited.events, &blocking.events);
            prop_assert_eq!(waited.end, blocking.end);
        }
    }
}
