//! `WaitAll` against the example service over loopback TCP: a set of resources, some failing,
//! with throttling injected; the client's adaptive retries inside every poll.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use waiter_runtime::retry::adaptive::ClientRateLimiter;
use waiter_runtime::retry::{Retrier, RetryConfig};
use waiter_runtime::waiter::{WaitAllChange, WaitAllProgress};
use waiter_runtime::{WaitAll, WaiterError};
use waiter_tests::client::{ListResourcesOutput, Resource, ResourceClient};
use waiter_tests::service::{ExampleService, FaultConfig, RunningService, Settle};

const NAMES: [&str; 12] = [
    "web-1", "web-2", "web-3", "fail-db", "cache-1", "cache-2", "queue", "fail-cdn", "api-1",
    "api-2", "search", "batch",
];

async fn setup(throttle: f64) -> (RunningService, ResourceClient, ClientRateLimiter) {
    let service = ExampleService::builder()
        .seed(19)
        .settle(Settle::After {
            min: Duration::from_millis(50),
            max: Duration::from_millis(400),
        })
        .faults(FaultConfig {
            throttle,
            retry_after: Some(Duration::from_millis(10)),
            ..FaultConfig::none()
        })
        .start()
        .await
        .unwrap();
    let limiter = ClientRateLimiter::new();
    let retrier = Retrier::new(
        RetryConfig::adaptive()
            .max_attempts(10)
            .transient_backoff(Duration::from_millis(5))
            .throttling_backoff(Duration::from_millis(5))
            .max_backoff(Duration::from_millis(50))
            .build(),
    )
    .with_rate_limiter(Arc::new(limiter.clone()));
    let client = ResourceClient::builder(service.url())
        .retrier(retrier)
        .build();
    for name in NAMES {
        client.create_resource(name, &[]).await.unwrap();
    }
    (service, client, limiter)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_set_with_failures_and_throttling_gives_every_result_in_input_order() {
    let (service, client, limiter) = setup(0.25).await;
    let max_in_flight = Arc::new(AtomicUsize::new(0));
    let events = Arc::new(Mutex::new(Vec::new()));
    let (seen, log) = (Arc::clone(&max_in_flight), Arc::clone(&events));
    let started = std::time::Instant::now();
    let results = WaitAll::new(NAMES.iter().map(|name| {
        client
            .wait_until_resource_active(name)
            .min_delay(Duration::from_millis(20))
            .max_delay(Duration::from_millis(100))
    }))
    .concurrency(3)
    .on_progress(move |p: &WaitAllProgress| {
        seen.fetch_max(p.in_flight, Ordering::Relaxed);
        if let WaitAllChange::Polled(e) = p.change {
            log.lock().unwrap().push(e);
        }
    })
    .wait(Duration::from_secs(30))
    .await;
    assert!(started.elapsed() < Duration::from_secs(30));
    assert_eq!(results.len(), NAMES.len());
    for (name, result) in NAMES.iter().zip(&results) {
        if name.starts_with("fail-") {
            let Err(WaiterError::FailureState { message, .. }) = result else {
                panic!("{name}: {result:?}")
            };
            assert!(
                message
                    .as_deref()
                    .unwrap()
                    .starts_with("provisioning failed")
            );
        } else {
            let done = result.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
            // In input order: each result is its own resource's.
            assert_eq!(done.output().unwrap().name, *name);
            assert_eq!(done.output().unwrap().status, "ACTIVE");
        }
    }
    assert!(max_in_flight.load(Ordering::Relaxed) <= 3);
    // The service throttled; the client retried inside the polls, under one limiter.
    let stats = service.stats();
    assert!(stats.throttled > 0, "{stats:?}");
    let events = events.lock().unwrap();
    assert!(events.iter().any(|e| e.attempts > 1));
    assert!(limiter.state().is_enabled());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fail_fast_stops_the_set_and_the_service_sees_no_further_request() {
    let (service, client, _) = setup(0.10).await;
    // Heterogeneous: the resources and one list wait in one set.
    #[derive(Debug)]
    enum Ready {
        One(Resource),
        All(ListResourcesOutput),
    }
    let waiters = NAMES
        .iter()
        .map(|name| {
            client
                .wait_until_resource_active(name)
                .min_delay(Duration::from_millis(20))
                .max_delay(Duration::from_millis(100))
                .map_output(Ready::One)
        })
        .chain([client
            .wait_until_all_resources_active("web-")
            .min_delay(Duration::from_millis(20))
            .max_delay(Duration::from_millis(100))
            .map_output(Ready::All)])
        .collect::<Vec<_>>();
    let results = WaitAll::new(waiters)
        .fail_fast(true)
        .concurrency(4)
        .wait(Duration::from_secs(30))
        .await;
    let requests = service.stats().requests;
    let failed: Vec<usize> = results
        .iter()
        .enumerate()
        .filter(|(_, r)| matches!(r, Err(WaiterError::FailureState { .. })))
        .map(|(i, _)| i)
        .collect();
    // One failure stopped the set: the first of the `fail-` resources to be seen failed.
    assert_eq!(failed.len(), 1, "{results:?}");
    let by = failed[0];
    assert!(NAMES[by].starts_with("fail-"));
    for (i, result) in results.iter().enumerate().filter(|(i, _)| *i != by) {
        match result {
            Ok(done) => match done.output().unwrap() {
                Ready::One(resource) => assert_eq!(resource.name, NAMES[i]),
                Ready::All(list) => assert!(list.resources.iter().all(|r| r.status == "ACTIVE")),
            },
            Err(WaiterError::Stopped {
                by: b, by_waiter, ..
            }) => {
                assert_eq!((*b, *by_waiter), (by, "ResourceActive"), "{i}");
            }
            Err(e) => panic!("{i}: {e}"),
        }
    }
    assert!(
        results
            .iter()
            .any(|r| matches!(r, Err(WaiterError::Stopped { .. })))
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        service.stats().requests,
        requests,
        "a request after the stop"
    );
}
