//! A blocking client for the example service, written the way a user of ureq would: plain
//! `fn`s, typed outputs, the same error enum as the async client, waiters pasted from Smithy
//! on a plain `fn`, and every call through a [`Retrier`] with `run_blocking`.
//!
//! The HTTP client is a type parameter ([`BlockingTransport`]): ureq 3's `Agent` by default;
//! the end-to-end tests plug in `reqwest::blocking` the same way.
//!
//! ```
//! use std::time::Duration;
//! use waiter_tests::blocking_client::BlockingResourceClient;
//! use waiter_tests::service::{ExampleService, Settle};
//!
//! // The service runs on a tokio runtime of its own; the client blocks the calling thread.
//! let runtime = tokio::runtime::Runtime::new()?;
//! let service = runtime.block_on(ExampleService::builder().settle(Settle::AfterReads(1)).start())?;
//! let client = BlockingResourceClient::new(service.url());
//! assert_eq!(client.create_resource("web")?.status, "CREATING");
//! let done = client
//!     .wait_until_resource_ready("web")
//!     .min_delay(Duration::from_millis(10))
//!     .wait(Duration::from_secs(5))?;
//! assert_eq!(done.output().unwrap().status, "ACTIVE");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::Duration;

use http::{HeaderMap, Method};
use serde::de::DeserializeOwned;
use waiter_runtime::retry::{Retrier, RetryConfig};
use waiter_runtime::waitable;

use crate::client::{Resource, ResourceError, resource_path};

/// One answer of the service, as a blocking HTTP client received it.
#[derive(Debug, Clone)]
pub struct RawAnswer {
    /// The HTTP status.
    pub status: u16,
    /// The response headers (`Retry-After` for throttling answers).
    pub headers: HeaderMap,
    /// The whole body.
    pub body: Vec<u8>,
}

/// A blocking HTTP client the [`BlockingResourceClient`] sends its requests with.
pub trait BlockingTransport {
    /// Sends one request (`json`: a JSON body) and reads the whole answer, whatever its
    /// status; `Err` when no complete answer came back (the transport's error, which tells
    /// retries whether it is transient).
    fn send(
        &self,
        method: Method,
        url: &str,
        json: Option<&[u8]>,
    ) -> Result<RawAnswer, ResourceError>;
}

/// ureq 3, with `http_status_as_error(false)` (see [`BlockingResourceClient::new`]): every
/// answer is read, so that an error's body names its code.
impl BlockingTransport for ureq::Agent {
    fn send(
        &self,
        method: Method,
        url: &str,
        json: Option<&[u8]>,
    ) -> Result<RawAnswer, ResourceError> {
        let mut response = match (method, json) {
            (Method::POST, Some(body)) => {
                self.post(url).content_type("application/json").send(body)?
            }
            (Method::DELETE, _) => self.delete(url).call()?,
            _ => self.get(url).call()?,
        };
        Ok(RawAnswer {
            status: response.status().as_u16(),
            headers: response.headers().clone(),
            body: response.body_mut().read_to_vec()?,
        })
    }
}

/// A blocking client for the example service: `CreateResource`, `DescribeResource` (with two
/// waiters), `DeleteResource`.
///
/// Every operation runs through the client's [`Retrier`] ([`Retrier::run_blocking`]): it
/// retries throttling, `5xx` answers and lost connections on the calling thread, inside a
/// waiter's polls too, except an error the running waiter's acceptors name (`NotFound`),
/// which it returns at once for the waiter to decide. Clones share the retrier (its quota and
/// rate limiter) with each other and with any async client given the same retrier.
#[derive(Debug, Clone)]
pub struct BlockingResourceClient<T = ureq::Agent> {
    transport: T,
    base: String,
    retrier: Retrier,
}

impl BlockingResourceClient {
    /// A client on ureq for the service at `base_url` (`http://127.0.0.1:PORT`): standard
    /// retries, a 10 s timeout per request.
    pub fn new(base_url: impl Into<String>) -> Self {
        Self::with_timeout(base_url, Duration::from_secs(10))
    }

    /// The same with this timeout per request (ureq's `timeout_global`): what bounds a
    /// blocking waiter's poll still in flight at its deadline.
    pub fn with_timeout(base_url: impl Into<String>, timeout: Duration) -> Self {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(timeout))
            .build()
            .new_agent();
        Self::with_transport(base_url, agent)
    }
}

impl<T: BlockingTransport + Sync> BlockingResourceClient<T> {
    /// A client sending its requests with `transport`: standard retries.
    pub fn with_transport(base_url: impl Into<String>, transport: T) -> Self {
        let mut base = base_url.into();
        while base.ends_with('/') {
            base.pop();
        }
        BlockingResourceClient {
            transport,
            base,
            retrier: Retrier::new(RetryConfig::standard().build()),
        }
    }

    /// Runs operations through `retrier` instead (one shared with async clients shares its
    /// quota and rate limiter with them).
    pub fn with_retrier(mut self, retrier: Retrier) -> Self {
        self.retrier = retrier;
        self
    }

    /// The retrier every operation runs through.
    pub fn retrier(&self) -> &Retrier {
        &self.retrier
    }

    /// `CreateResource`: starts creating a resource with no members; it is `CREATING` at first.
    pub fn create_resource(&self, name: &str) -> Result<Resource, ResourceError> {
        let body = serde_json::json!({ "name": name, "members": [] }).to_string();
        self.call(Method::POST, "/resources".into(), Some(body.as_bytes()))
    }

    /// `DescribeResource`: the resource as it is now (`NotFound` before it exists and once it
    /// is deleted).
    ///
    /// Waiters, pasted from a Smithy model:
    /// [`wait_until_resource_ready`](Self::wait_until_resource_ready),
    /// [`wait_until_resource_gone`](Self::wait_until_resource_gone).
    #[waitable(
        ResourceReady: {
            documentation: "Waits until the resource exists and is `ACTIVE`; fails fast once it is `FAILED`."
            acceptors: [
                {
                    state: "success"
                    matcher: { output: { path: "status", expected: "ACTIVE", comparator: "stringEquals" } }
                }
                {
                    state: "failure"
                    matcher: { output: { path: "status", expected: "FAILED", comparator: "stringEquals" } }
                    message: "statusReason"
                }
                { state: "retry", matcher: { errorType: "NotFound" } }
            ]
            minDelay: 1
            maxDelay: 20
        }
        ResourceGone: {
            documentation: "Waits until describing the resource answers `NotFound`."
            acceptors: [
                { state: "success", matcher: { errorType: "NotFound" } }
            ]
        }
    )]
    pub fn describe_resource(&self, name: &str) -> Result<Resource, ResourceError> {
        self.call(Method::GET, resource_path(name), None)
    }

    /// `DeleteResource`: starts deleting a resource; it is `DELETING`, then gone.
    pub fn delete_resource(&self, name: &str) -> Result<Resource, ResourceError> {
        self.call(Method::DELETE, resource_path(name), None)
    }

    /// One call: HTTP exchanges through the retrier, on the calling thread.
    fn call<O: DeserializeOwned>(
        &self,
        method: Method,
        path: String,
        json: Option<&[u8]>,
    ) -> Result<O, ResourceError> {
        let url = format!("{}{path}", self.base);
        self.retrier.run_blocking(|| {
            let answer = self.transport.send(method.clone(), &url, json)?;
            ResourceError::read_answer(answer.status, &answer.headers, &answer.body)
        })
    }
}
