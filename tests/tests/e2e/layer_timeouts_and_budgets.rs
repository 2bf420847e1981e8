//! The retry layers honour the retrier's attempt timeout and retry budget (issue 36), over
//! loopback: an upstream that hangs is cut at the attempt timeout and retried, the error of the
//! last cut attempt says so (downcast to `AttemptTimedOut`), and the budget shared by the
//! layer's clones stops a retry storm.

use std::time::Duration;

use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::client::legacy::connect::HttpConnector;
use tokio::time::Instant;
use waiter_runtime::retry::layer::RetryService;
use waiter_runtime::retry::{AttemptTimedOut, Jitter, Retrier, RetryBudget, RetryConfig};
use waiter_tests::capacity::{CapacityService, Reply};

use crate::http_layers::{Body, fast, reqwest_client, storm, tower_client, tower_send};

async fn tower_get(
    client: &mut RetryService<HyperClient<HttpConnector, Body>>,
    url: &str,
) -> Result<u16, tower::BoxError> {
    Ok(tower_send(client, url).await?.status().as_u16())
}

/// 2 attempts of 200 ms each, 10 ms between them.
fn timed() -> Retrier {
    Retrier::new(
        RetryConfig::standard()
            .max_attempts(2)
            .attempt_timeout(Duration::from_millis(200))
            .transient_backoff(Duration::from_millis(10))
            .jitter(Jitter::None)
            .build(),
    )
}

const HANG: Duration = Duration::from_secs(30);

#[tokio::test]
async fn a_hanging_upstream_is_cut_at_the_attempt_timeout_and_retried() {
    let service = CapacityService::unlimited().await.unwrap();
    let url = service.url("/slow");

    service.script([Reply::status(200).delayed(HANG), Reply::status(200)]);
    let start = Instant::now();
    assert_eq!(
        tower_get(&mut tower_client(timed()), &url).await.unwrap(),
        200
    );
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(service.stats().requests, 2);

    service.script([Reply::status(200).delayed(HANG), Reply::status(200)]);
    let start = Instant::now();
    let response = reqwest_client(timed()).get(&url).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(service.stats().requests, 4);
}

#[tokio::test]
async fn the_last_cut_attempt_is_the_error() {
    let service = CapacityService::unlimited().await.unwrap();
    let url = service.url("/hang");
    service.always(Reply::status(200).delayed(HANG));

    let start = Instant::now();
    let error = tower_get(&mut tower_client(timed()), &url)
        .await
        .unwrap_err();
    let timed_out = error.downcast_ref::<AttemptTimedOut>().unwrap();
    assert_eq!(
        (timed_out.attempt(), timed_out.after()),
        (2, Duration::from_millis(200))
    );
    assert!(
        start.elapsed() >= Duration::from_millis(410),
        "{:?}",
        start.elapsed()
    );
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );

    let error = reqwest_client(timed()).get(&url).send().await.unwrap_err();
    let reqwest_middleware::Error::Middleware(error) = error else {
        panic!("{error:?}");
    };
    let timed_out = error.downcast_ref::<AttemptTimedOut>().unwrap();
    assert_eq!(timed_out.to_string(), "attempt 2 timed out after 200ms");
    assert_eq!(service.stats().requests, 4);
}

#[tokio::test]
async fn the_budget_shared_by_a_layers_clones_stops_a_retry_storm() {
    // Only a floor of 4 retries in its window, for every clone of the client.
    let budget = || RetryBudget::new(0.0, 1, Duration::from_secs(4)).unwrap();
    // Without the budget: 30 requests (3 attempts each).
    assert_eq!(
        storm(|| fast().with_budget(budget())).await,
        [10 + 4, 10 + 4]
    );
}
