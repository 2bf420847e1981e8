//! A failure, a panic or a dropped future: fail-fast stops the rest with no further request,
//! without it every waiter runs to its end; a panic in one poll loses no other result; dropping
//! the future cancels every poll in flight.

use super::*;

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
