//! The `on_progress` callback: it reports every change with its counts; it runs on the set's
//! task, where a panic in it loses no result, and its own time does not push the results past
//! the deadline.

use super::*;

type WaitResult = Result<FinalPoll<usize, Error>, WaiterError<usize, Error>>;

/// A set of 4 waiters ready at 10 s whose callback panics at the first change `panics_at`
/// accepts: the results, and the changes the callback saw.
async fn with_panicking_callback(
    panics_at: fn(&WaitAllProgress) -> bool,
) -> (Vec<WaitResult>, Vec<WaitAllChange>) {
    let service = Service::new(vec![Resource::ReadyAt(secs(10)); 4], ms(100));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let results = WaitAll::new(service.waiters())
        .concurrency(2)
        .on_progress(move |p: &WaitAllProgress| {
            sink.lock().unwrap().push(p.change);
            if panics_at(p) {
                panic!("the progress bar broke");
            }
        })
        .wait(secs(600))
        .await;
    let seen = seen.lock().unwrap().clone();
    (results, seen)
}

#[tokio::test(start_paused = true)]
async fn a_panicking_progress_callback_loses_no_result_and_is_not_called_again() {
    // At a poll's start (called inside a member's loop)...
    let (results, seen) = with_panicking_callback(|_| true).await;
    assert_eq!(seen, [WaitAllChange::PollStarted]);
    // ...and at a waiter's end (called by the set's driver).
    let (results_2, seen_2) =
        with_panicking_callback(|p| p.change == WaitAllChange::Succeeded).await;
    assert!(seen_2.len() > 1);
    assert_eq!(seen_2.last(), Some(&WaitAllChange::Succeeded));
    let successes = seen_2
        .iter()
        .filter(|c| **c == WaitAllChange::Succeeded)
        .count();
    assert_eq!(successes, 1, "{seen_2:?}");
    for results in [results, results_2] {
        assert_eq!(results.len(), 4);
        for (i, result) in results.iter().enumerate() {
            assert_eq!(result.as_ref().unwrap().output(), Some(&i));
        }
    }
}

/// The calls of a callback taking 10 ms (on the system's clock) over a set of 8 waiters
/// never ready, polling every 50 ms for 300 ms: the time (on the set's clock) of each call.
async fn slow_callback_calls(max_wait: Duration) -> (Vec<WaitResult>, Vec<Duration>, Duration) {
    let service = Service::new(vec![Resource::Never; 8], Duration::ZERO);
    let waiters = service
        .waiters()
        .into_iter()
        .map(|w| w.min_delay(ms(50)).max_delay(ms(50)));
    let calls = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&calls);
    let start = Instant::now();
    let results = WaitAll::new(waiters)
        .concurrency(0)
        .on_progress(move |_: &WaitAllProgress| {
            seen.lock().unwrap().push(start.elapsed());
            std::thread::sleep(ms(10));
        })
        .wait(max_wait)
        .await;
    let took = start.elapsed();
    let calls = calls.lock().unwrap().clone();
    (results, calls, took)
}

#[tokio::test(start_paused = true)]
async fn a_slow_progress_callback_is_not_started_when_it_would_end_past_the_deadline() {
    let max_wait = ms(300);
    let (results, calls, took) = slow_callback_calls(max_wait).await;
    // The waiters' last polls leave 1 ms before the deadline, and end the set.
    assert_eq!(took, max_wait - ms(1));
    assert!(
        results
            .iter()
            .all(|r| matches!(r, Err(WaiterError::ExceededMaxWait { .. })))
    );
    assert!(calls.len() > 20, "{calls:?}");
    // A call takes 10 ms or more: none started within 10 ms of the deadline (1 ms, the
    // timer's resolution, allowed past it), so none at the deadline, where every waiter ends.
    let late: Vec<&Duration> = calls.iter().filter(|at| **at > ms(291)).collect();
    assert!(late.is_empty(), "{late:?}");
}

#[tokio::test(flavor = "current_thread")]
async fn a_slow_progress_callback_does_not_push_the_results_past_the_deadline() {
    // On the system's clock: the callback's own time is what is measured. Before, 8 waiters
    // ending at the deadline called it 8 times more there: 80 ms late at least.
    let max_wait = ms(300);
    let (results, calls, took) = slow_callback_calls(max_wait).await;
    assert_eq!(results.len(), 8);
    assert!(!calls.is_empty());
    assert!(took < max_wait + ms(60), "{took:?}");
}

#[tokio::test(start_paused = true)]
async fn a_fast_progress_callback_still_sees_the_waiters_ending_with_their_last_polls() {
    let service = Service::new(vec![Resource::Never; 8], Duration::ZERO);
    let ended = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&ended);
    let start = Instant::now();
    let results = WaitAll::new(service.waiters())
        .on_progress(move |p: &WaitAllProgress| {
            if p.change == WaitAllChange::Failed {
                seen.lock().unwrap().push(start.elapsed());
            }
        })
        .wait(secs(30))
        .await;
    assert_eq!(results.len(), 8);
    // The last polls, 1 ms before the deadline (polls that take no time), end the waiters.
    assert_eq!(
        *ended.lock().unwrap(),
        vec![secs(30) - Duration::from_millis(1); 8]
    );
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
