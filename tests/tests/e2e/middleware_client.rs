//! The example client built on the retry middleware, against the example service under a
//! throttling storm: the operations and a waiter succeed with no `retrier.run` in the client.

use std::time::Duration;

use waiter_runtime::retry::layer::RetryMiddleware;
use waiter_runtime::retry::{Jitter, Retrier, RetryConfig};
use waiter_tests::middleware_client::MiddlewareResourceClient;
use waiter_tests::service::{ExampleService, FaultConfig, Settle};

fn middleware() -> RetryMiddleware {
    RetryMiddleware::new(Retrier::new(
        RetryConfig::standard()
            .max_attempts(6)
            .transient_backoff(Duration::from_millis(10))
            .throttling_backoff(Duration::from_millis(10))
            .jitter(Jitter::None)
            .build(),
    ))
}

#[tokio::test]
async fn operations_and_waiters_get_through_a_throttling_storm() {
    let service = ExampleService::builder()
        .settle(Settle::AfterReads(2))
        .faults(FaultConfig::throttling(0.3))
        .seed(7)
        .start()
        .await
        .unwrap();
    let client = MiddlewareResourceClient::new(service.url(), middleware());
    for name in ["a", "b", "c", "d"] {
        assert_eq!(
            client.create_resource(name, &[]).await.unwrap().status,
            "CREATING"
        );
        let done = client
            .wait_until_resource_active(name)
            .min_delay(Duration::from_millis(10))
            .max_delay(Duration::from_millis(50))
            .wait(Duration::from_secs(20))
            .await
            .unwrap();
        assert_eq!(done.output().unwrap().status, "ACTIVE");
    }
    let stats = service.stats();
    assert!(stats.throttled > 0, "{stats:?}");
    // A `404` is not retried: the `ResourceDeleted` waiter's success.
    client.delete_resource("a").await.unwrap();
    service.faults().set(FaultConfig::none());
    let done = client
        .wait_until_resource_deleted("a")
        .min_delay(Duration::from_millis(10))
        .max_delay(Duration::from_millis(50))
        .wait(Duration::from_secs(20))
        .await
        .unwrap();
    assert!(done.result.is_err());
}
