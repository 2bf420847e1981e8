//! The first polls are spread by each waiter's own jitter, within half the max wait, and a set
//! of resources ready at once is done at once.

use super::*;

#[tokio::test(start_paused = true)]
async fn first_polls_are_spread_by_jitter() {
    let n = 1_000;
    let service = Service::new(vec![Resource::ReadyAt(Duration::ZERO); n], Duration::ZERO);
    let results = WaitAll::new(service.waiters())
        .concurrency(0)
        .wait(secs(600))
        .await;
    assert!(results.iter().all(Result::is_ok));
    let log = service.log.lock().unwrap().clone();
    // Uniform below min_delay (2 s; tokio's timer rounds up to the millisecond): no
    // millisecond holds more than a handful of requests, and the 2 s are used.
    let mut per_ms = std::collections::BTreeMap::<u128, usize>::new();
    for (_, at) in log.iter() {
        assert!(*at <= secs(2), "{at:?}");
        *per_ms.entry(at.as_millis()).or_default() += 1;
    }
    assert!(
        per_ms.values().all(|&k| k <= 5),
        "{:?}",
        per_ms.values().max()
    );
    let first = log.iter().map(|(_, at)| *at).min().unwrap();
    let last = log.iter().map(|(_, at)| *at).max().unwrap();
    assert!(first < ms(20) && last > ms(1_980), "{first:?}..{last:?}");
    // Each waiter's spread comes from its own jitter: the same seed gives the same time.
    let again = Service::new(vec![Resource::ReadyAt(Duration::ZERO); n], Duration::ZERO);
    let _ = WaitAll::new(again.waiters())
        .concurrency(0)
        .wait(secs(600))
        .await;
    let mut a = log.clone();
    let mut b = again.log.lock().unwrap().clone();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    // A set of one polls at once, as a waiter alone.
    let one = Service::new(vec![Resource::ReadyAt(Duration::ZERO)], Duration::ZERO);
    let _ = WaitAll::new(one.waiters()).wait(secs(600)).await;
    assert_eq!(*one.log.lock().unwrap(), [(0, Duration::ZERO)]);
}

#[tokio::test(start_paused = true)]
async fn a_set_of_ready_resources_is_done_at_once() {
    // EC2's published InstanceRunning delays (15 s to 120 s): 10 instances running at their
    // first poll. The first polls spread over 10 ms per waiter that can be in flight at once
    // (100 per second), not over `min_delay`.
    let service = Service::new(vec![Resource::ReadyAt(Duration::ZERO); 10], Duration::ZERO);
    let waiters = service
        .waiters()
        .into_iter()
        .map(|w| w.min_delay(secs(15)).max_delay(secs(120)));
    let start = Instant::now();
    let results = WaitAll::new(waiters).wait(secs(600)).await;
    let took = start.elapsed();
    assert!(results.iter().all(Result::is_ok));
    assert!(took < ms(100), "{took:?}");
    assert_eq!(service.requests(), 10);
    // Still spread: not all in one millisecond.
    let mut at: Vec<u128> = service
        .log
        .lock()
        .unwrap()
        .iter()
        .map(|(_, t)| t.as_millis())
        .collect();
    at.dedup();
    assert!(at.len() > 5, "{at:?}");
    // A concurrency below the set's size bounds the spread: 1,000 waiters, 10 at a time.
    let service = Service::new(vec![Resource::ReadyAt(Duration::ZERO); 1_000], ms(50));
    let start = Instant::now();
    let results = WaitAll::new(service.waiters()).wait(secs(600)).await;
    assert!(results.iter().all(Result::is_ok));
    let first: Vec<Duration> = service
        .log
        .lock()
        .unwrap()
        .iter()
        .map(|(_, t)| *t)
        .collect();
    // 10 in flight at a time, 50 ms each: 5 s in all, and never more than 10 requests in
    // one millisecond.
    assert!(start.elapsed() < secs(6), "{:?}", start.elapsed());
    let mut per_ms = std::collections::BTreeMap::<u128, usize>::new();
    for at in &first {
        *per_ms.entry(at.as_millis()).or_default() += 1;
    }
    assert!(
        per_ms.values().all(|&k| k <= 10),
        "{:?}",
        per_ms.values().max()
    );
}

#[tokio::test(start_paused = true)]
async fn the_spread_stays_within_half_the_max_wait() {
    let service = Service::new(vec![Resource::ReadyAt(Duration::ZERO); 200], Duration::ZERO);
    let results = WaitAll::new(service.waiters())
        .concurrency(0)
        .wait(ms(600))
        .await;
    assert!(results.iter().all(Result::is_ok));
    assert!(
        service
            .log
            .lock()
            .unwrap()
            .iter()
            .all(|(_, at)| *at < ms(300))
    );
}
