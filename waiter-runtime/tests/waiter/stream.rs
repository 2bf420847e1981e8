//! `Waiter::stream`: every poll that does not end the wait as `Polled`, with its own result,
//! then one `Done`, then the end; the rules of `wait` unchanged (paused clock).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use waiter_runtime::__private_v0_1::{Matched, Polled, waiter as new_waiter};
use waiter_runtime::waiter::{
    AcceptorState, PollEvent, WaitUpdate, Waiter, WaiterError, WaiterMetadata,
};

const fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// Poll `n` returns `script[n]` (the last repeats): `Ok("running")` matches success, `Err(_)` a
/// retry acceptor, anything else nothing.
fn scripted(
    script: Vec<Result<&'static str, &'static str>>,
) -> Waiter<'static, &'static str, &'static str> {
    let mut n = 0;
    let metadata = WaiterMetadata::new("Running", "get").with_delays(secs(2), secs(2));
    new_waiter(metadata, move || {
        let result = script[n.min(script.len() - 1)];
        n += 1;
        async move {
            let matched = match result {
                Ok("running") => Some(Matched::new(0, AcceptorState::Success)),
                Err(_) => Some(Matched::new(1, AcceptorState::Retry)),
                Ok(_) => None,
            };
            Polled::new(result, matched)
        }
    })
}

async fn collect<O, E>(
    mut stream: waiter_runtime::waiter::WaiterStream<'_, O, E>,
) -> Vec<WaitUpdate<O, E>> {
    let mut all = Vec::new();
    while let Some(update) = stream.next().await {
        all.push(update);
    }
    // The end is for ever.
    assert!(stream.next().await.is_none());
    assert!(stream.next().await.is_none());
    all
}

#[tokio::test(start_paused = true)]
async fn each_poll_then_one_done_then_the_end() {
    let script = vec![
        Ok("creating"),
        Err("NotFound"),
        Ok("creating"),
        Ok("running"),
    ];
    let updates = collect(scripted(script.clone()).stream(secs(60))).await;
    assert_eq!(updates.len(), 4);
    let polled: Vec<(u32, Result<&str, &str>, Duration)> = updates[..3]
        .iter()
        .map(|u| match u {
            WaitUpdate::Polled { event, result } => (event.poll, *result, event.elapsed),
            WaitUpdate::Done(_) => panic!("Done before the end"),
        })
        .collect();
    assert_eq!(
        polled,
        [
            (1, Ok("creating"), secs(0)),
            (2, Err("NotFound"), secs(2)),
            (3, Ok("creating"), secs(4))
        ]
    );
    let WaitUpdate::Done(Ok(done)) = &updates[3] else {
        panic!("{:?}", updates[3])
    };
    assert_eq!(
        (done.polls, done.elapsed, done.result),
        (4, secs(6), Ok("running"))
    );

    // The same events as `wait`'s observer sees, at the same times.
    let mut seen = Vec::new();
    let waited = scripted(script)
        .on_poll(|e: &PollEvent| seen.push(*e))
        .wait(secs(60))
        .await
        .unwrap();
    assert_eq!((waited.polls, waited.elapsed), (4, secs(6)));
    let streamed: Vec<PollEvent> = updates[..3]
        .iter()
        .map(|u| match u {
            WaitUpdate::Polled { event, .. } => *event,
            WaitUpdate::Done(_) => unreachable!(),
        })
        .collect();
    assert_eq!(streamed, seen[..3]);
}

#[tokio::test(start_paused = true)]
async fn the_deadline_and_the_last_poll_hold() {
    let updates = collect(scripted(vec![Ok("creating")]).stream(secs(7))).await;
    // Polls at 0, 2, 4 and the last one 1 ms before the deadline (4 + 2 would leave less than
    // the minimum delay): that one ends the wait and carries its result in `last`.
    assert_eq!(updates.len(), 4, "{updates:?}");
    assert!(updates[..3].iter().all(|u| matches!(
        u,
        WaitUpdate::Polled {
            result: Ok("creating"),
            ..
        }
    )));
    assert!(matches!(
        &updates[3],
        WaitUpdate::Done(Err(WaiterError::ExceededMaxWait { polls: 4, last: Some(Ok("creating")), elapsed, .. })) if *elapsed == secs(7) - Duration::from_millis(1)
    ));
}

#[tokio::test(start_paused = true)]
async fn a_wait_out_of_time_while_sleeping_has_no_last_it_already_gave() {
    // The first poll takes 3 s, then a 2 s sleep, then a poll in flight at the deadline (6 s).
    let metadata = WaiterMetadata::new("Slow", "get").with_delays(secs(2), secs(2));
    let waiter: Waiter<'static, u32, ()> = new_waiter(metadata, || async {
        tokio::time::sleep(secs(3)).await;
        Polled::new(Ok(1), None)
    });
    let updates = collect(waiter.stream(secs(6))).await;
    assert_eq!(updates.len(), 2, "{updates:?}");
    assert!(matches!(
        updates[0],
        WaitUpdate::Polled { result: Ok(1), .. }
    ));
    assert!(matches!(
        updates[1],
        WaitUpdate::Done(Err(WaiterError::ExceededMaxWait {
            polls: 1,
            cancelled_in_flight: true,
            last: None,
            ..
        }))
    ));
}

#[tokio::test(start_paused = true)]
async fn successes_in_a_row_are_polled_updates_until_the_last() {
    let updates = collect(
        scripted(vec![Ok("running")])
            .consecutive_successes(3)
            .stream(secs(60)),
    )
    .await;
    let states: Vec<_> = updates
        .iter()
        .filter_map(|u| match u {
            WaitUpdate::Polled { event, .. } => Some((event.state, event.consecutive_successes)),
            WaitUpdate::Done(_) => None,
        })
        .collect();
    assert_eq!(
        states,
        [(AcceptorState::Success, 1), (AcceptorState::Success, 2)]
    );
    assert!(matches!(&updates[2], WaitUpdate::Done(Ok(done)) if done.polls == 3));
}

/// Sets its flag when dropped.
struct DropFlag(Arc<AtomicBool>);
impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[tokio::test(start_paused = true)]
async fn dropping_the_stream_drops_the_poll_in_flight_and_sends_nothing() {
    let dropped = Arc::new(AtomicBool::new(false));
    let started = Arc::new(Mutex::new(0));
    let (flag, count) = (dropped.clone(), started.clone());
    let metadata = WaiterMetadata::new("Slow", "get").with_delays(secs(2), secs(2));
    let waiter: Waiter<'static, u32, ()> = new_waiter(metadata, move || {
        let guard = DropFlag(flag.clone());
        *count.lock().unwrap() += 1;
        async move {
            tokio::time::sleep(secs(10)).await;
            drop(guard);
            Polled::new(Ok(1), None)
        }
    });
    let mut stream = waiter.stream(secs(600));
    // The first poll is in flight when the consumer stops waiting for it.
    assert!(tokio::time::timeout(secs(5), stream.next()).await.is_err());
    assert!(!dropped.load(Ordering::SeqCst));
    drop(stream);
    assert!(
        dropped.load(Ordering::SeqCst),
        "the poll in flight was dropped"
    );
    tokio::time::sleep(secs(60)).await;
    assert_eq!(*started.lock().unwrap(), 1, "no poll after the drop");
}

#[tokio::test(start_paused = true)]
async fn a_slow_consumer_delays_the_next_poll_not_the_deadline() {
    let mut stream = scripted(vec![Ok("creating")]).stream(secs(5));
    assert!(matches!(
        stream.next().await,
        Some(WaitUpdate::Polled { .. })
    ));
    // The consumer comes back after the deadline: the wait is over, without another poll.
    tokio::time::sleep(secs(30)).await;
    let rest = collect(stream).await;
    assert!(
        matches!(
            rest[..],
            [WaitUpdate::Done(Err(WaiterError::ExceededMaxWait {
                polls: 1,
                last: None,
                ..
            }))]
        ),
        "{rest:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn the_consumers_time_counts_in_the_delay() {
    let mut stream = scripted(vec![Ok("creating")]).stream(secs(60));
    assert!(matches!(
        stream.next().await,
        Some(WaitUpdate::Polled { .. })
    ));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // The second poll comes 2 s after the first, not 2 s after the consumer came back.
    let Some(WaitUpdate::Polled { event, .. }) = stream.next().await else {
        panic!("no second poll")
    };
    assert_eq!(event.elapsed, secs(2));
}
