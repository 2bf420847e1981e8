//! The deadline of a blocking wait (issue 39): no request leaves at or after it, and a
//! resumed wait's delay is clamped to the time left, as in the async forms.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use waiter_runtime::WaiterError;
use waiter_runtime::waiter::{PollEvent, WaitCheckpoint};

use super::waiter::Client;

const MS: Duration = Duration::from_millis(1);

#[test]
fn a_zero_max_wait_sends_one_request() {
    // The first poll says "not yet" at the deadline: a second request there could not answer.
    let client = Client::new(vec![Ok("creating"), Ok("ready")]);
    let err = client
        .wait_until_thing_ready("t")
        .wait(Duration::ZERO)
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::ExceededMaxWait { polls: 1, .. }),
        "{err:?}"
    );
    assert_eq!(client.requests(), 1);
}

#[test]
fn a_resumed_delay_is_clamped_to_the_time_left() {
    // A checkpoint whose next poll was edited to `Duration::MAX` slept for ever; the wait
    // ends by its deadline (1 s) instead. On a thread, so that a hang fails the test.
    let (done, ended) = mpsc::channel();
    let started = Instant::now();
    std::thread::spawn(move || {
        // The first process: one poll ("creating", checkpointed), then a failure ends it.
        let client = Client::new(vec![Ok("creating"), Ok("broken")]);
        let mut saved: Option<WaitCheckpoint> = None;
        let _ = client
            .wait_until_thing_ready("t")
            .min_delay(10 * MS)
            .on_poll(|e: &PollEvent| {
                if saved.is_none() {
                    saved = e.checkpoint();
                }
            })
            .wait(Duration::from_secs(1));
        let mut checkpoint = saved.unwrap();
        checkpoint.next_poll_in = Duration::MAX;
        let client = Client::new(vec![Ok("creating")]);
        let outcome = client
            .wait_until_thing_ready("t")
            .min_delay(10 * MS)
            .resume(&checkpoint)
            .unwrap()
            .wait();
        let _ = done.send(matches!(
            outcome,
            Err(WaiterError::ExceededMaxWait { polls: 2, .. })
        ));
    });
    let exceeded_after_a_last_poll = ended
        .recv_timeout(Duration::from_secs(10))
        .expect("the resumed wait ended");
    assert!(exceeded_after_a_last_poll);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
}
