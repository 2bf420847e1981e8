//! A waiter still waiting for a poll permit at the deadline sends nothing: a permit freed
//! there (by a poll cancelled at the deadline) starts no poll that could not answer.

use super::*;

#[tokio::test(start_paused = true)]
async fn a_waiter_waiting_for_a_permit_at_the_deadline_sends_no_request() {
    // One permit; the first poll holds it past the deadline and is cancelled there.
    let service = Service::new(vec![Resource::Never; 3], secs(10));
    let start = Instant::now();
    let results = WaitAll::new(service.waiters())
        .concurrency(1)
        .wait(secs(5))
        .await;
    assert_eq!(start.elapsed(), secs(5));
    let log = service.log.lock().unwrap().clone();
    assert_eq!(log.len(), 1, "requests: {log:?}");
    assert!(log[0].1 < secs(2), "{log:?}");
    let cut: Vec<bool> = results
        .iter()
        .map(|result| match result {
            Err(WaiterError::ExceededMaxWait {
                cancelled_in_flight,
                polls: 0,
                elapsed,
                ..
            }) if *elapsed == secs(5) => *cancelled_in_flight,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(cut.iter().filter(|cut| **cut).count(), 1, "{cut:?}");
    assert_eq!(service.cancelled.load(Ordering::SeqCst), 1);
}

#[tokio::test(start_paused = true)]
async fn two_thousand_waiters_queued_for_five_permits_send_nothing_at_the_deadline() {
    let mut rng = SmallRng::seed_from_u64(30);
    let n = 2_000;
    let service = Service::with_poll_times(
        vec![Resource::Never; n],
        (0..n).map(|_| ms(rng.random_range(0..3_000))).collect(),
    );
    let max_wait = secs(30);
    let results = WaitAll::new(service.waiters())
        .concurrency(5)
        .wait(max_wait)
        .await;
    assert!(
        results
            .iter()
            .all(|r| matches!(r, Err(WaiterError::ExceededMaxWait { .. })))
    );
    let log = service.log.lock().unwrap().clone();
    let at_deadline = log.iter().filter(|(_, at)| *at >= max_wait).count();
    assert_eq!(at_deadline, 0, "of {} requests", log.len());
    // Only the polls in flight at the deadline were cut there.
    assert!(service.cancelled.load(Ordering::SeqCst) <= 5);
    assert_eq!(service.max_in_flight.load(Ordering::SeqCst), 5);
}

#[tokio::test(start_paused = true)]
async fn a_free_permit_near_the_deadline_still_serves_the_last_poll_as_alone() {
    // Polls take no time, so the last poll leaves 1 ms (its least head start) before the
    // deadline: a free permit serves it there, as a waiter alone polls there.
    let service = Service::new(vec![Resource::Never; 2], Duration::ZERO);
    let waiters = service
        .waiters()
        .into_iter()
        .map(|w| w.min_delay(secs(2)).max_delay(secs(2)));
    let results = WaitAll::new(waiters).wait(secs(60)).await;
    let alone = Service::new(vec![Resource::Never], Duration::ZERO);
    let single = alone
        .waiter(0)
        .min_delay(secs(2))
        .max_delay(secs(2))
        .wait(secs(60))
        .await;
    let last_poll = secs(60) - Duration::from_millis(1);
    assert!(alone.log.lock().unwrap().last().unwrap().1 == last_poll);
    let last = service.log.lock().unwrap().iter().map(|(_, at)| *at).max();
    assert_eq!(last, Some(last_poll));
    for result in results.iter().chain([&single]) {
        assert!(
            matches!(
                result,
                Err(WaiterError::ExceededMaxWait {
                    cancelled_in_flight: false,
                    ..
                })
            ),
            "{result:?}"
        );
    }
}
