//! Watching a wait over loopback: `Waiter::stream` shows each poll's response (the status
//! while the resource is `CREATING`), and `TransientPollErrors::Retry` rides out the
//! service's throttling that outlasts the poll's own retries.

use std::time::Duration;

use futures_util::StreamExt;
use waiter_runtime::WaiterError;
use waiter_runtime::retry::RetryConfig;
use waiter_runtime::waiter::{TransientPollErrors, WaitUpdate};
use waiter_tests::client::ResourceClient;
use waiter_tests::service::{ExampleService, Fault, Settle};

const MIN: Duration = Duration::from_millis(5);
const MAX: Duration = Duration::from_millis(20);
const MAX_WAIT: Duration = Duration::from_secs(20);

#[tokio::test]
async fn the_stream_shows_each_polls_status_then_the_end() {
    let (_service, client) = crate::common::service_and_client(11, Settle::AfterReads(2)).await;
    client.create_resource("web", &[]).await.unwrap();
    let mut updates = client
        .wait_until_resource_active("web")
        .min_delay(MIN)
        .max_delay(MAX)
        .stream(MAX_WAIT);
    let mut seen = Vec::new();
    let mut done = None;
    while let Some(update) = updates.next().await {
        match update {
            WaitUpdate::Polled { event, result } => {
                seen.push((event.poll, result.unwrap().status));
            }
            WaitUpdate::Done(outcome) => done = Some(outcome),
        }
    }
    assert_eq!(
        seen,
        [(1, "CREATING".to_owned()), (2, "CREATING".to_owned())]
    );
    let done = done.unwrap().unwrap();
    assert_eq!(
        (done.polls, done.output().unwrap().status.as_str()),
        (3, "ACTIVE")
    );
}

/// A client whose polls make one attempt each: a throttle reaches the waiter.
async fn throttled_service() -> (waiter_tests::service::RunningService, ResourceClient) {
    let service = ExampleService::builder()
        .seed(12)
        .settle(Settle::AfterReads(1))
        .start()
        .await
        .unwrap();
    let client = ResourceClient::builder(service.url())
        .retry_config(RetryConfig::standard().max_attempts(1).build())
        .build();
    client.create_resource("db", &[]).await.unwrap();
    // The next requests (the first two polls) are throttled: `429 ThrottlingException`, then
    // `503 SlowDown`.
    service.faults().script([Fault::Throttle, Fault::SlowDown]);
    (service, client)
}

#[tokio::test]
async fn retry_polls_again_after_the_services_throttling() {
    let (service, client) = throttled_service().await;
    let mut transient = Vec::new();
    let done = client
        .wait_until_resource_active("db")
        .min_delay(MIN)
        .max_delay(MAX)
        .transient_poll_errors(TransientPollErrors::Retry)
        .on_poll(|e: &_| transient.push(e.transient_error))
        .wait(MAX_WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(transient, [true, true, false, false]);
    assert_eq!(done.output().unwrap().status, "ACTIVE");
    assert_eq!(service.stats().throttled, 2);
}

#[tokio::test]
async fn fail_ends_the_wait_at_the_first_throttle() {
    let (_service, client) = throttled_service().await;
    let err = client
        .wait_until_resource_active("db")
        .min_delay(MIN)
        .max_delay(MAX)
        .wait(MAX_WAIT)
        .await
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::OperationFailed { polls: 1, .. }),
        "{err}"
    );
}
