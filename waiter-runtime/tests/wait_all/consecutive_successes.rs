//! `consecutive_successes(n)`: n successes in a row end a wait, alone or in a set; a failure
//! and the deadline still end it, and 0 is rejected before any poll.

use super::*;

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
    // Polls at 0 s, 2 s and, the spec's last poll, 1 ms before 6 s: the only success there is
    // the first.
    assert_eq!(
        (polls, last.unwrap().unwrap(), elapsed),
        (3, 0, secs(6) - Duration::from_millis(1))
    );
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
