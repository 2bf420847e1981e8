//! Retries over loopback TCP: injected 503/429/connection resets, `Retry-After`, max attempts,
//! and, inside a waiter's poll, retries of every error the waiter's acceptors do not name.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use waiter_runtime::retry::{ErrorKind, Retrier, RetryBehavior, RetryConfig};
use waiter_runtime::{ProvideErrorMetadata, WaiterError};
use waiter_tests::client::{ResourceClient, ResourceError};
use waiter_tests::service::{ExampleService, Fault, FaultConfig, Outcome, RunningService, Settle};

/// What the retrier's `on_retry` hook saw: (attempt, kind, delay).
type Seen = Arc<Mutex<Vec<(u32, ErrorKind, Duration)>>>;

fn fast(max_attempts: u32) -> RetryConfig {
    RetryConfig::standard()
        .max_attempts(max_attempts)
        .transient_backoff(Duration::from_millis(5))
        .throttling_backoff(Duration::from_millis(5))
        .max_backoff(Duration::from_millis(20))
        .build()
}

async fn setup(config: RetryConfig) -> (RunningService, ResourceClient, Seen) {
    let service = ExampleService::builder()
        .seed(5)
        .settle(Settle::Manual)
        .start()
        .await
        .unwrap();
    let seen: Seen = Arc::default();
    let hook = Arc::clone(&seen);
    let retrier = Retrier::new(config).on_retry(move |e: &_| {
        hook.lock()
            .unwrap()
            .push((e.attempt, e.reason.kind(), e.delay))
    });
    let client = ResourceClient::builder(service.url())
        .retrier(retrier)
        .build();
    (service, client, seen)
}

fn kinds(seen: &Seen) -> Vec<ErrorKind> {
    seen.lock()
        .unwrap()
        .iter()
        .map(|(_, kind, _)| *kind)
        .collect()
}

#[tokio::test]
async fn retries_through_throttling_unavailable_and_resets() {
    let (service, client, seen) = setup(fast(5)).await;
    service.faults().script([
        Fault::Throttle,
        Fault::Unavailable,
        Fault::Reset,
        Fault::SlowDown,
    ]);
    let out = client
        .list_resources("")
        .await
        .expect("the fifth attempt is answered");
    assert!(out.resources.is_empty());
    let outcomes: Vec<_> = service
        .request_log()
        .into_iter()
        .map(|r| r.outcome)
        .collect();
    assert_eq!(
        outcomes,
        [
            Outcome::Throttled,
            Outcome::Unavailable,
            Outcome::Reset,
            Outcome::Throttled,
            Outcome::Answered(200)
        ]
    );
    assert_eq!(
        kinds(&seen),
        [
            ErrorKind::ThrottlingError,
            ErrorKind::ServerError,
            ErrorKind::TransientError,
            ErrorKind::ThrottlingError
        ]
    );
    let attempts: Vec<u32> = seen.lock().unwrap().iter().map(|(a, _, _)| *a).collect();
    assert_eq!(attempts, [1, 2, 3, 4]);
    // A reset connection is not reused: the retry opened a new one.
    assert!(service.stats().connections_opened >= 2);
}

#[tokio::test]
async fn gives_up_after_max_attempts_with_the_last_error() {
    let (service, client, seen) = setup(fast(3)).await;
    service.faults().script([Fault::Unavailable; 4]);
    let err = client.describe_resource("x").await.unwrap_err();
    assert_eq!(err.code(), Some("ServiceUnavailable"));
    assert_eq!(service.stats().requests, 3);
    assert_eq!(seen.lock().unwrap().len(), 2);
}

#[tokio::test]
async fn errors_the_service_documents_as_final_are_not_retried() {
    let (service, client, seen) = setup(fast(5)).await;
    let err = client.describe_resource("missing").await.unwrap_err();
    assert!(matches!(err, ResourceError::NotFound { .. }), "{err}");
    client.create_resource("dup", &[]).await.unwrap();
    let err = client.create_resource("dup", &[]).await.unwrap_err();
    assert_eq!(err.code(), Some("ResourceInUseException"));
    assert_eq!(service.stats().requests, 3);
    assert!(seen.lock().unwrap().is_empty());
}

#[tokio::test]
async fn retry_after_is_followed_within_5s_in_2_1_and_bounded_by_max_backoff_in_2_0() {
    for behavior in [RetryBehavior::V2_1, RetryBehavior::V2_0] {
        let config = RetryConfig::standard()
            .behavior(behavior)
            .max_attempts(3)
            .transient_backoff(Duration::from_millis(1))
            .throttling_backoff(Duration::from_millis(1))
            .max_backoff(Duration::from_millis(400))
            .build();
        let (service, client, seen) = setup(config).await;
        service.faults().set(FaultConfig {
            retry_after: Some(Duration::from_millis(150)),
            ..FaultConfig::none()
        });
        service.faults().script([Fault::Throttle]);
        let started = std::time::Instant::now();
        client.list_resources("").await.unwrap();
        assert!(
            started.elapsed() >= Duration::from_millis(150),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(seen.lock().unwrap()[0].2, Duration::from_millis(150));
        if behavior == RetryBehavior::V2_1 {
            // 2.1 follows a hint up to 5 s past the computed delay, whatever `max_backoff`
            // (not waited here: real time; see `waiter-runtime/tests/retry/backoff.rs` on the paused clock).
            continue;
        }
        // 2.0: a hint above max_backoff is cut to max_backoff.
        service.faults().set(FaultConfig {
            retry_after: Some(Duration::from_secs(30)),
            ..FaultConfig::none()
        });
        service.faults().script([Fault::SlowDown]);
        client.list_resources("").await.unwrap();
        assert_eq!(seen.lock().unwrap()[1].2, Duration::from_millis(400));
    }
}

#[tokio::test]
async fn inside_a_waiter_poll_the_retrier_retries_what_no_acceptor_names() {
    let (service, client, seen) = setup(fast(5)).await;
    client.create_resource("p", &[]).await.unwrap();

    // Throttles inside a poll are retried there, as outside a waiter: one poll, three requests.
    service.faults().script([Fault::Throttle, Fault::SlowDown]);
    let before = service.stats().requests;
    let mut attempts = Vec::new();
    let done = client
        .wait_until_resource_exists("p")
        .min_delay(Duration::from_millis(5))
        .max_delay(Duration::from_millis(20))
        .on_poll(|e: &_| attempts.push(e.attempts))
        .wait(Duration::from_secs(10))
        .await
        .unwrap();
    assert_eq!((done.polls, attempts), (1, vec![3]));
    assert_eq!(service.stats().requests - before, 3);
    assert_eq!(seen.lock().unwrap().len(), 2);

    // `NotFound`, which `ResourceExists` names (a retry acceptor), is never retried in a poll:
    // one request per poll, the waiter's delays between them.
    let before = service.stats().requests;
    let waiter = {
        let client = client.clone();
        tokio::spawn(async move {
            client
                .wait_until_resource_exists("later")
                .min_delay(Duration::from_millis(5))
                .max_delay(Duration::from_millis(20))
                .wait(Duration::from_secs(10))
                .await
        })
    };
    service
        .wait_for_stats(Duration::from_secs(10), |s| s.requests >= before + 3)
        .await
        .unwrap();
    client.create_resource("later", &[]).await.unwrap();
    let done = waiter.await.unwrap().unwrap();
    assert_eq!(
        service.stats().requests - before,
        u64::from(done.polls) + 1,
        "one request per poll, and the create"
    );
    assert_eq!(seen.lock().unwrap().len(), 2, "no retry of NotFound");

    // An error retried to the last attempt, which no acceptor expects, ends the wait.
    service.faults().script([Fault::Unavailable; 5]);
    let before = service.stats().requests;
    let err = client
        .wait_until_resource_exists("p")
        .min_delay(Duration::from_millis(5))
        .max_delay(Duration::from_millis(20))
        .wait(Duration::from_secs(10))
        .await
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::OperationFailed { polls: 1, .. }),
        "{err}"
    );
    assert_eq!(service.stats().requests - before, 5);
}
