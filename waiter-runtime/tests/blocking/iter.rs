//! `blocking::Waiter::iter`: the sequence of `Waiter::stream` on the calling thread (every
//! poll that does not end the wait, then one `Done`, then `None`), with the rules of `wait`.

use std::time::{Duration, Instant};

use waiter_runtime::WaiterError;
use waiter_runtime::waiter::{AcceptorState, PollEvent, WaitUpdate};

use super::waiter::{Client, Error};

const MS: Duration = Duration::from_millis(1);

#[test]
fn each_poll_then_one_done_then_none() {
    let script = || vec![Err(Error::NotFound), Ok("pending"), Ok("ready")];
    let client = Client::new(script());
    let mut seen = Vec::new();
    let mut iter = client
        .wait_until_thing_ready("t")
        .min_delay(MS)
        .max_delay(MS)
        .on_poll(|e: &PollEvent| seen.push((e.poll, e.state)))
        .iter(Duration::from_secs(10));
    let mut updates = Vec::new();
    for update in iter.by_ref() {
        updates.push(match update {
            WaitUpdate::Polled { event, result } => {
                format!("{} {:?}", event.poll, result.map(|t| t.status))
            }
            WaitUpdate::Done(done) => format!("done {}", done.unwrap().polls),
        });
    }
    // Fused: the end is for ever.
    assert!(iter.next().is_none() && iter.next().is_none());
    drop(iter);
    assert_eq!(updates, ["1 Err(NotFound)", "2 Ok(\"pending\")", "done 3"]);
    assert_eq!(
        seen,
        [
            (1, AcceptorState::Retry),
            (2, AcceptorState::Retry),
            (3, AcceptorState::Success)
        ]
    );
    // `wait` makes the same polls.
    let client = Client::new(script());
    let done = client
        .wait_until_thing_ready("t")
        .min_delay(MS)
        .max_delay(MS)
        .wait(Duration::from_secs(10))
        .unwrap();
    assert_eq!((done.polls, client.requests()), (3, 3));
}

#[test]
fn the_callers_time_between_updates_counts_in_the_delay() {
    // Polls 100 ms apart; the caller takes 60 ms with each update: the next poll still comes
    // 100 ms after the last one, not 160 ms.
    let client = Client::new(vec![Ok("pending")]);
    let start = Instant::now();
    let mut times = Vec::new();
    for update in client
        .wait_until_thing_ready("t")
        .min_delay(100 * MS)
        .max_delay(100 * MS)
        .iter(Duration::from_millis(350))
    {
        times.push(start.elapsed());
        if let WaitUpdate::Polled { .. } = update {
            std::thread::sleep(60 * MS);
        }
    }
    // Polls at about 0, 100 and 200 ms, then the last poll 1 ms before 350 ms, then the end.
    assert!(times.len() >= 4, "{times:?}");
    assert!(times[1] < 150 * MS && times[2] < 250 * MS, "{times:?}");
}

#[test]
fn dropping_the_iterator_ends_the_wait() {
    let client = Client::new(vec![Ok("pending")]);
    let mut iter = client
        .wait_until_thing_ready("t")
        .min_delay(MS)
        .iter(Duration::from_secs(10));
    assert!(matches!(iter.next(), Some(WaitUpdate::Polled { .. })));
    drop(iter);
    std::thread::sleep(20 * MS);
    assert_eq!(client.requests(), 1);
}

#[test]
fn an_unexpected_error_and_invalid_options_end_it_as_wait_would() {
    let client = Client::new(vec![Ok("pending"), Err(Error::Denied)]);
    let updates: Vec<_> = client
        .wait_until_thing_ready("t")
        .min_delay(MS)
        .iter(Duration::from_secs(10))
        .collect();
    assert_eq!(updates.len(), 2);
    assert!(matches!(
        &updates[1],
        WaitUpdate::Done(Err(WaiterError::OperationFailed {
            error: Error::Denied,
            polls: 2,
            ..
        }))
    ));
    // Refused options: one `Done`, no request.
    let client = Client::new(vec![Ok("pending")]);
    let updates: Vec<_> = client
        .wait_until_thing_ready("t")
        .min_delay(Duration::ZERO)
        .max_delay(MS)
        .iter(Duration::from_secs(10))
        .collect();
    assert!(matches!(
        &updates[..],
        [WaitUpdate::Done(Err(WaiterError::InvalidDelays { .. }))]
    ));
    assert_eq!(client.requests(), 0);
}
