//! [`RetryMiddleware`]: the retrier as a `reqwest_middleware::Middleware`.

use std::sync::atomic::{AtomicBool, Ordering};

use http::Extensions;
use reqwest::{Request, Response};
use reqwest_middleware::{Middleware, Next};

use super::{HttpFailure, http_retrier, is_failure};
use crate::retry::{AttemptError, Retrier, RetryConfig};

/// Runs every request of a `reqwest_middleware` client through a [`Retrier`] (see the
/// [module](super) for what is retried).
///
/// ```
/// use reqwest_middleware::ClientBuilder;
/// use waiter_runtime::retry::layer::RetryMiddleware;
///
/// let client = ClientBuilder::new(reqwest::Client::new()).with(RetryMiddleware::standard()).build();
/// # drop(client);
/// ```
///
/// With other rules, build the retrier first:
///
/// ```
/// use std::time::Duration;
/// use reqwest_middleware::ClientBuilder;
/// use waiter_runtime::retry::layer::RetryMiddleware;
/// use waiter_runtime::retry::{Retrier, RetryConfig};
///
/// let retrier = Retrier::new(RetryConfig::adaptive().max_attempts(5).max_total_time(Duration::from_secs(30)).build());
/// let client = ClientBuilder::new(reqwest::Client::new()).with(RetryMiddleware::new(retrier)).build();
/// # drop(client);
/// ```
///
/// A request whose body cannot be cloned ([`reqwest::Request::try_clone`] says `None`: a
/// streaming body) is sent once. The `Extensions` are the same for every attempt, as with
/// `reqwest-retry`.
#[derive(Clone, Debug)]
pub struct RetryMiddleware {
    retrier: Retrier,
}

impl RetryMiddleware {
    /// Retries as `retrier` does, plus `429` as throttling.
    pub fn new(retrier: Retrier) -> Self {
        RetryMiddleware {
            retrier: http_retrier(retrier),
        }
    }

    /// The standard mode with its defaults (retry behavior 2.1: 3 attempts, full-jitter backoff
    /// from 50 ms after a transient error and from 1 s after a throttle, a quota of 500 tokens).
    pub fn standard() -> Self {
        Self::new(Retrier::new(RetryConfig::standard().build()))
    }

    /// The adaptive mode with its defaults: standard, plus client-side rate limiting once the
    /// service throttles.
    pub fn adaptive() -> Self {
        Self::new(Retrier::new(RetryConfig::adaptive().build()))
    }

    /// The retrier (its quota, its configuration).
    pub fn retrier(&self) -> &Retrier {
        &self.retrier
    }
}

type Failure = HttpFailure<Response, reqwest_middleware::Error>;

#[async_trait::async_trait]
impl Middleware for RetryMiddleware {
    async fn handle(
        &self,
        req: Request,
        extensions: &mut Extensions,
        next: Next<'_>,
    ) -> reqwest_middleware::Result<Response> {
        // The copy for the next attempt is made before each attempt is sent; the retrier asks
        // whether there is one before it schedules a retry.
        let mut spare = req.try_clone();
        let has_copy = AtomicBool::new(spare.is_some());
        let has_copy = &has_copy;
        let mut first = Some(req);
        // Every attempt gets the same extensions, one attempt at a time.
        let extensions = tokio::sync::Mutex::new(extensions);
        let extensions = &extensions;
        let next = &next;
        let op = move || {
            let req = first.take().or_else(|| {
                let req = spare.take()?;
                spare = req.try_clone();
                has_copy.store(spare.is_some(), Ordering::Relaxed);
                Some(req)
            });
            async move {
                let Some(req) = req else {
                    // Not reached: the retrier asks `has_copy` before every retry.
                    return Err(Failure::Transport(reqwest_middleware::Error::Middleware(
                        anyhow::anyhow!("the request's body cannot be cloned for another attempt"),
                    )));
                };
                let mut extensions = extensions.lock().await;
                match next.clone().run(req, &mut extensions).await {
                    Ok(response) if is_failure(response.status().as_u16()) => {
                        Err(Failure::Response(response))
                    }
                    Ok(response) => Ok(response),
                    Err(e) => Err(Failure::Transport(e)),
                }
            }
        };
        let report = self
            .retrier
            .run_report_while(op, &|| has_copy.load(Ordering::Relaxed))
            .await;
        match report.result {
            Ok(response) | Err(AttemptError::Failed(HttpFailure::Response(response))) => {
                Ok(response)
            }
            Err(AttemptError::Failed(HttpFailure::Transport(e))) => Err(e),
            Err(AttemptError::TimedOut(timed_out)) => Err(reqwest_middleware::Error::Middleware(
                anyhow::Error::new(timed_out),
            )),
        }
    }
}
