//! At most `concurrency` polls in flight (10 by default, 0 for no limit): a waiter beyond
//! the limit waits its turn for a permit.

use super::*;

#[tokio::test(start_paused = true)]
async fn never_more_than_n_polls_in_flight() {
    let mut rng = SmallRng::seed_from_u64(3);
    let n = 60;
    let service = Service::with_poll_times(
        (0..n)
            .map(|_| Resource::ReadyAt(secs(rng.random_range(0..60))))
            .collect(),
        (0..n).map(|_| ms(rng.random_range(100..3_000))).collect(),
    );
    let reported = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&reported);
    let results = WaitAll::new(service.waiters())
        .concurrency(4)
        .on_progress(move |p: &WaitAllProgress| {
            seen.fetch_max(p.in_flight, Ordering::SeqCst);
        })
        .wait(secs(300))
        .await;
    assert!(results.iter().all(Result::is_ok));
    // Counted by the service: the limit was reached, never passed.
    assert_eq!(service.max_in_flight.load(Ordering::SeqCst), 4);
    assert_eq!(reported.load(Ordering::SeqCst), 4);
}

#[tokio::test(start_paused = true)]
async fn a_waiter_beyond_the_limit_waits_its_turn_with_its_delay_counted_from_its_last_poll() {
    // One permit; resource 0's polls take 5 s, resource 1's none; both poll every 2 s.
    let service = Service::with_poll_times(vec![Resource::Never; 2], vec![secs(5), Duration::ZERO]);
    let waiters = service
        .waiters()
        .into_iter()
        .map(|w| w.min_delay(secs(2)).max_delay(secs(2)));
    let _ = WaitAll::new(waiters).concurrency(1).wait(secs(60)).await;
    let log = service.log.lock().unwrap().clone();
    let slow: Vec<Duration> = log
        .iter()
        .filter(|(i, _)| *i == 0)
        .map(|(_, t)| *t)
        .collect();
    let fast: Vec<Duration> = log
        .iter()
        .filter(|(i, _)| *i == 1)
        .map(|(_, t)| *t)
        .collect();
    assert!(fast.len() > 5 && slow.len() > 3, "{log:?}");
    // Never two polls at once (a slow poll still in flight at the deadline is cancelled there).
    let end_of = |start: Duration| (start + secs(5)).min(secs(60));
    for pair in log.windows(2) {
        if pair[0].0 == 0 {
            assert!(pair[1].1 >= end_of(pair[0].1), "{pair:?}");
        }
    }
    // Each poll of resource 1 starts 2 s after its previous one, or, if resource 0 holds the
    // permit then, as soon as that poll ends: its turn, with no delay added.
    let mut waited_its_turn = 0;
    // (Within 4 s of the deadline the spec's last-poll rule sets the delay instead.)
    for pair in fast.windows(2).filter(|pair| pair[0] < secs(56)) {
        let due = pair[0] + secs(2);
        // The slow poll holding the permit at `due`, if any (one starting at `due` too may
        // have gone first or second).
        let holder = slow
            .iter()
            .find(|start| **start <= due && due < end_of(**start));
        match holder {
            Some(start) if !(*start == due && pair[1] == due) => {
                waited_its_turn += 1;
                assert_eq!(pair[1], end_of(*start), "{pair:?}");
            }
            _ => assert_eq!(pair[1], due, "{pair:?}"),
        }
    }
    assert!(waited_its_turn > 0);
}

#[tokio::test(start_paused = true)]
async fn the_default_concurrency_is_ten_and_zero_means_no_limit() {
    let slow = |n| Service::new(vec![Resource::ReadyAt(secs(30)); n], secs(10));
    let service = slow(30);
    let results = WaitAll::new(service.waiters()).wait(secs(300)).await;
    assert!(results.iter().all(Result::is_ok));
    assert_eq!(service.max_in_flight.load(Ordering::SeqCst), 10);
    assert_eq!(WaitAll::<usize, Error>::DEFAULT_CONCURRENCY, 10);

    let service = slow(30);
    let results = WaitAll::new(service.waiters())
        .concurrency(0)
        .wait(secs(300))
        .await;
    assert!(results.iter().all(Result::is_ok));
    // The first polls spread over 2 s, each takes 10 s: all 30 were in flight at once.
    assert_eq!(service.max_in_flight.load(Ordering::SeqCst), 30);
}
