//! Setup shared by the end-to-end tests.

use waiter_tests::client::ResourceClient;
use waiter_tests::service::{ExampleService, RunningService, Settle};

/// Starts the example service on loopback (seeded, settling as `settle` says) and a client for it.
pub async fn service_and_client(seed: u64, settle: Settle) -> (RunningService, ResourceClient) {
    let service = ExampleService::builder()
        .seed(seed)
        .settle(settle)
        .start()
        .await
        .unwrap();
    let client = ResourceClient::new(service.url());
    (service, client)
}
