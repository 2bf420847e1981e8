//! A client that retries through one adaptive `Retrier`: inside `WaitAll`, its limiter
//! paces the polls of every waiter of the set.

use super::*;
use waiter_runtime::retry::adaptive::ClientRateLimiter;
use waiter_runtime::retry::{Retrier, RetryConfig};
use waiter_runtime::{ProvideErrorMetadata, waitable};

#[derive(Debug, Clone, PartialEq, ProvideErrorMetadata)]
pub enum ApiError {
    #[error_metadata(code = "ThrottlingException", throttling)]
    Throttled,
}

pub struct Client {
    pub retrier: Retrier,
    pub sent: Mutex<Vec<Duration>>,
    pub start: Instant,
}

impl Client {
    #[waitable(Ready: { acceptors: [{ state: "success", matcher: { output: {
        path: "@", expected: "true", comparator: "booleanEquals" } } }] })]
    pub async fn is_ready(&self, id: usize) -> Result<bool, ApiError> {
        self.retrier
            .run(|| async {
                let at = {
                    let mut sent = self.sent.lock().unwrap();
                    sent.push(self.start.elapsed());
                    sent.len()
                };
                // Every third request of the whole client is throttled.
                if at % 3 == 0 {
                    Err(ApiError::Throttled)
                } else {
                    Ok(self.start.elapsed() >= Duration::from_secs(id as u64 % 20))
                }
            })
            .await
    }
}

#[tokio::test(start_paused = true)]
async fn one_clients_limiter_paces_all_polls_of_the_set() {
    let limiter = ClientRateLimiter::new();
    let client = Client {
        retrier: Retrier::new(RetryConfig::adaptive().max_attempts(10).build())
            .with_rate_limiter(Arc::new(limiter.clone())),
        sent: Mutex::new(Vec::new()),
        start: Instant::now(),
    };
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let results = WaitAll::new((0..40).map(|id| client.wait_until_ready(id)))
        .concurrency(0)
        .on_progress(move |p: &WaitAllProgress| {
            if let WaitAllChange::Polled(e) = p.change {
                sink.lock().unwrap().push((p.index, e));
            }
        })
        .wait(secs(600))
        .await;
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    let events = events.lock().unwrap();
    // Throttles were retried inside the polls...
    assert!(events.iter().any(|(_, e)| e.attempts > 1));
    // ...the limiter engaged, and polls of many different waiters waited for it.
    assert!(limiter.state().is_enabled());
    let paced: std::collections::BTreeSet<usize> = events
        .iter()
        .filter(|(_, e)| !e.rate_limit_wait.is_zero())
        .map(|(i, _)| *i)
        .collect();
    assert!(paced.len() >= 10, "{paced:?}");
}
