//! The deadline, as every form of a wait keeps it (issue 39): a request sent at the deadline
//! cannot answer, so none is sent and `wait` and `stream` end the same way (1); the poll that
//! ends a wait plans nothing after it (2); every delay is clamped to the time left, a resumed
//! wait's too (5). Paused clock.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::time::Instant;
use waiter_runtime::__private_v0_1::{Matched, Polled, waiter as new_waiter};
use waiter_runtime::retry::{Jitter, Retrier, RetryConfig};
use waiter_runtime::waiter::{
    AcceptorState, PollEvent, TransientPollErrors, WaitUpdate, Waiter, WaiterError, WaiterMetadata,
};
use waiter_runtime::{ProvideErrorMetadata, waitable};

const MS: fn(u64) -> Duration = Duration::from_millis;
const fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// Poll `n` answers `script[n]` (the last repeats): `"ready"` matches success, anything else
/// nothing; `requests` counts the polls made.
fn scripted(
    script: &'static [&'static str],
    requests: Arc<AtomicU32>,
) -> Waiter<'static, &'static str, ()> {
    let metadata = WaiterMetadata::new("Ready", "get").with_delays(secs(2), secs(2));
    new_waiter(metadata, move || {
        let n = requests.fetch_add(1, Ordering::Relaxed) as usize;
        let answer = script[n.min(script.len() - 1)];
        async move {
            let matched = (answer == "ready").then(|| Matched::new(0, AcceptorState::Success));
            Polled::new(Ok(answer), matched)
        }
    })
}

/// (outcome, polls, requests) of a wait, alone or as a stream.
fn summary<O: std::fmt::Debug>(
    outcome: &Result<waiter_runtime::FinalPoll<O, ()>, WaiterError<O, ()>>,
) -> (&'static str, u32) {
    match outcome {
        Ok(done) => ("ok", done.polls),
        Err(WaiterError::ExceededMaxWait { polls, .. }) => ("exceeded", *polls),
        Err(other) => panic!("unexpected end: {other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn a_zero_max_wait_sends_one_request_in_every_form() {
    // The case: poll 1 at the deadline says "not yet"; a second request at the
    // deadline could not answer. `wait` sent it (2 requests, `Ok`), `stream` did not.
    let requests = Arc::new(AtomicU32::new(0));
    let waited = scripted(&["creating", "ready"], requests.clone())
        .wait(Duration::ZERO)
        .await;
    assert_eq!(
        (summary(&waited), requests.load(Ordering::Relaxed)),
        (("exceeded", 1), 1)
    );

    let requests = Arc::new(AtomicU32::new(0));
    let mut stream = scripted(&["creating", "ready"], requests.clone()).stream(Duration::ZERO);
    let mut updates = Vec::new();
    while let Some(update) = stream.next().await {
        updates.push(update);
    }
    let [WaitUpdate::Done(streamed)] = &updates[..] else {
        panic!("the poll at the deadline ends the wait: {updates:?}")
    };
    assert_eq!(
        (summary(streamed), requests.load(Ordering::Relaxed)),
        (("exceeded", 1), 1)
    );
}

#[tokio::test(start_paused = true)]
async fn the_last_poll_leaves_before_the_deadline() {
    // Polls that take no time: the spec's last poll, 1 ms (the timer's resolution) before the
    // deadline, never at it.
    let requests = Arc::new(AtomicU32::new(0));
    let start = Instant::now();
    let times = Mutex::new(Vec::new());
    let err = scripted(&["creating"], requests.clone())
        .on_poll(|e: &PollEvent| times.lock().unwrap().push((e.elapsed, e.next_delay)))
        .wait(secs(5))
        .await
        .unwrap_err();
    assert_eq!(summary::<&str>(&Err(err)), ("exceeded", 3));
    assert_eq!(
        times.into_inner().unwrap(),
        [
            (secs(0), Some(secs(2))),
            (secs(2), Some(secs(3) - MS(1))),
            (secs(5) - MS(1), None),
        ]
    );
    assert_eq!(start.elapsed(), secs(5) - MS(1));
}

#[derive(Debug, Clone, PartialEq, ProvideErrorMetadata)]
enum DescribeError {
    #[error_metadata(code = "ThrottlingException", throttling)]
    Throttled,
}

/// Requests take 10 ms and are throttled; the client retries them with a 1 s backoff.
struct Throttled {
    retrier: Retrier,
}

impl Throttled {
    #[waitable(ResourceReady: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    async fn describe(&self) -> Result<(), DescribeError> {
        self.retrier
            .run(|| async {
                tokio::time::sleep(MS(10)).await;
                Err(DescribeError::Throttled)
            })
            .await
    }
}

#[tokio::test(start_paused = true)]
async fn the_poll_whose_retries_give_up_at_the_deadline_plans_nothing_after_it() {
    let client = Throttled {
        retrier: Retrier::new(RetryConfig::standard().jitter(Jitter::None).build()),
    };
    let events = Mutex::new(Vec::new());
    let err = client
        .wait_until_resource_ready()
        .transient_poll_errors(TransientPollErrors::Retry)
        .on_poll(|e: &PollEvent| events.lock().unwrap().push(*e))
        .wait(MS(300))
        .await
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::ExceededMaxWait { polls: 1, .. }),
        "{err:?}"
    );
    let events = events.into_inner().unwrap();
    let [event] = &events[..] else {
        panic!("{events:?}")
    };
    // The docs: `None` for both when the poll ends the wait.
    assert_eq!(event.next_delay, None, "{event:?}");
    assert_eq!(event.checkpoint(), None);
    assert!(event.to_string().contains(", done"), "{event}");
}

#[tokio::test(start_paused = true)]
async fn a_resumed_delay_is_clamped_to_the_time_left() {
    let requests = Arc::new(AtomicU32::new(0));
    let mut stream = scripted(&["creating"], requests.clone()).stream(secs(60));
    let Some(WaitUpdate::Polled { event, .. }) = stream.next().await else {
        panic!("no first poll")
    };
    drop(stream);
    let mut checkpoint = event.checkpoint().unwrap();
    // Edited (or corrupted) to an hour: the wait must still end at its 60 s deadline.
    checkpoint.next_poll_in = secs(3600);
    let start = Instant::now();
    let err = scripted(&["creating"], requests.clone())
        .resume(&checkpoint)
        .unwrap()
        .wait()
        .await
        .unwrap_err();
    let WaiterError::ExceededMaxWait { elapsed, polls, .. } = err else {
        panic!("{err:?}")
    };
    assert!(start.elapsed() <= secs(60), "{:?}", start.elapsed());
    assert!(elapsed <= secs(60) + MS(2), "{elapsed:?}");
    // It polled once more, as the last poll, before the deadline.
    assert_eq!((polls, requests.load(Ordering::Relaxed)), (2, 2));

    // `Duration::MAX`: the same.
    checkpoint.next_poll_in = Duration::MAX;
    let start = Instant::now();
    let _ = scripted(&["creating"], requests)
        .resume(&checkpoint)
        .unwrap()
        .wait()
        .await;
    assert!(start.elapsed() <= secs(60), "{:?}", start.elapsed());
}
