//! A client whose every request is throttled, retrying through one `Retrier` with a
//! quota of two retries: the quota is the client's, shared by every waiter of the set.

use super::*;
use waiter_runtime::retry::{Retrier, RetryConfig, RetryQuota};
use waiter_runtime::{ProvideErrorMetadata, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum ApiError {
    #[error_metadata(code = "ThrottlingException", throttling)]
    Throttled,
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("throttled")
    }
}

pub struct Client {
    pub retrier: Retrier,
    pub sent: AtomicUsize,
}

impl Client {
    #[waitable(Ready: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    pub async fn get(&self, id: usize) -> Result<usize, ApiError> {
        self.retrier
            .run(|| async {
                self.sent.fetch_add(1, Ordering::SeqCst);
                Err::<(), _>(ApiError::Throttled)
            })
            .await
            .map(|()| id)
    }
}

#[tokio::test(start_paused = true)]
async fn one_clients_retry_quota_is_shared_by_the_set() {
    let quota = RetryQuota::builder().capacity(10).retry_cost(5).build();
    let client = Client {
        retrier: Retrier::new(RetryConfig::standard().max_attempts(10).build())
            .with_quota(quota.clone()),
        sent: AtomicUsize::new(0),
    };
    let results = WaitAll::new((0..3).map(|id| client.wait_until_ready(id)))
        .wait(secs(600))
        .await;
    // Two retries in all, for the whole set: 3 first attempts + 2 retries; then the
    // throttle, which no acceptor names, ends each wait.
    assert_eq!(client.sent.load(Ordering::SeqCst), 5);
    assert_eq!(quota.available(), 0);
    for result in &results {
        assert!(
            matches!(result, Err(WaiterError::OperationFailed { .. })),
            "{result:?}"
        );
    }
}
