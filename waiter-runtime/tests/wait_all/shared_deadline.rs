//! One deadline for the whole set: the last result comes by it, and each waiter keeps the
//! single waiter's last-poll and zero-wait rules under it.

use super::*;

#[tokio::test(start_paused = true)]
async fn the_deadline_holds_for_the_last_result() {
    let mut rng = SmallRng::seed_from_u64(5);
    let n = 40;
    // Slow polls and a small concurrency: waiters queue for permits up to the deadline.
    let service = Service::with_poll_times(
        vec![Resource::Never; n],
        (0..n).map(|_| ms(rng.random_range(0..5_000))).collect(),
    );
    let max_wait = secs(60);
    let start = Instant::now();
    let results = WaitAll::new(service.waiters())
        .concurrency(3)
        .wait(max_wait)
        .await;
    let took = start.elapsed();
    assert!(took <= max_wait + ms(1), "{took:?}");
    for result in &results {
        let Err(WaiterError::ExceededMaxWait { elapsed, .. }) = result else {
            panic!("{result:?}")
        };
        assert!(*elapsed <= max_wait + ms(1), "{elapsed:?}");
    }
    // The last results did end at the deadline: some poll was cut there, or some waiter
    // was still waiting for a permit.
    assert!(took >= max_wait - secs(5), "{took:?}");
    assert_eq!(service.in_flight.load(Ordering::SeqCst), 0);
    // At most 3 polls were in flight at the deadline (cancelled there); the others were
    // sleeping or waiting for a permit, and ended as `ExceededMaxWait` all the same: a
    // permit freed at the deadline starts no poll that could not answer.
    let cut = results
        .iter()
        .filter(|r| {
            matches!(
                r,
                Err(WaiterError::ExceededMaxWait {
                    cancelled_in_flight: true,
                    ..
                })
            )
        })
        .count();
    assert!(cut <= 3, "{cut}");
    assert_eq!(service.cancelled.load(Ordering::SeqCst), cut);
}

#[tokio::test(start_paused = true)]
async fn each_waiter_keeps_the_last_poll_rule_under_the_shared_deadline() {
    // Polls take 50 ms; each resource is ready 60 ms before the deadline. A last poll started
    // at the deadline would be cancelled; the single waiter's rule starts it 100 ms early
    // (twice the longest poll), so it answers `ready` 50 ms before the deadline.
    let max_wait = secs(60);
    let service = Service::new(vec![Resource::ReadyAt(max_wait - ms(60)); 5], ms(50));
    let waiters = service
        .waiters()
        .into_iter()
        .map(|w| w.min_delay(secs(2)).max_delay(secs(2)));
    let results = WaitAll::new(waiters).wait(max_wait).await;
    for result in &results {
        let done = result.as_ref().unwrap();
        assert_eq!(done.elapsed, max_wait - ms(50), "{done:?}");
    }
}

#[tokio::test(start_paused = true)]
async fn a_zero_max_wait_behaves_as_for_one_waiter() {
    let resources = vec![Resource::ReadyAt(Duration::ZERO), Resource::Never];
    let service = Service::new(resources.clone(), Duration::ZERO);
    let results = WaitAll::new(service.waiters()).wait(Duration::ZERO).await;
    let alone = Service::new(resources, Duration::ZERO);
    for (i, in_set) in results.iter().enumerate() {
        let single = alone.waiter(i).wait(Duration::ZERO).await;
        match (in_set, &single) {
            (Ok(a), Ok(b)) => assert_eq!((a.polls, a.elapsed), (b.polls, b.elapsed)),
            (
                Err(WaiterError::ExceededMaxWait { polls: a, .. }),
                Err(WaiterError::ExceededMaxWait { polls: b, .. }),
            ) => assert_eq!(a, b),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(service.requests(), alone.requests());
}
