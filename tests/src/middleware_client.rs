//! The example client again, built on `reqwest-middleware` with
//! [`RetryMiddleware`](waiter_runtime::retry::layer::RetryMiddleware): no `retrier.run` around
//! each operation, the client itself retries every request.
//!
//! ```
//! use waiter_runtime::retry::layer::RetryMiddleware;
//! use waiter_tests::middleware_client::MiddlewareResourceClient;
//! use waiter_tests::service::{ExampleService, Settle};
//!
//! # #[tokio::main] async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let service = ExampleService::builder().settle(Settle::AfterReads(0)).start().await?;
//! let client = MiddlewareResourceClient::new(service.url(), RetryMiddleware::standard());
//! assert_eq!(client.create_resource("web", &[]).await?.status, "CREATING");
//! assert_eq!(client.describe_resource("web").await?.status, "ACTIVE");
//! # Ok(()) }
//! ```
//!
//! The example service names its error codes in the body only, so the middleware sees them by
//! status: `429 ThrottlingException` is retried as throttling, `503 SlowDown` and
//! `503 ServiceUnavailable` as server errors, `404 NotFound` and `400` validation errors are
//! returned at once.

use reqwest::Method;
use reqwest_middleware::{ClientBuilder, ClientWithMiddleware};
use serde::de::DeserializeOwned;
use waiter_runtime::retry::layer::RetryMiddleware;
use waiter_runtime::waitable;

use crate::client::{NewMember, Resource, ResourceError};

/// A client for the example service on a `reqwest-middleware` client with retries. Clones
/// share the middleware, so its retry quota and rate limiter.
#[derive(Debug, Clone)]
pub struct MiddlewareResourceClient {
    http: ClientWithMiddleware,
    base: String,
}

impl MiddlewareResourceClient {
    /// A client for the service at `base_url`, retrying through `retries`.
    pub fn new(base_url: impl Into<String>, retries: RetryMiddleware) -> Self {
        let mut base = base_url.into();
        while base.ends_with('/') {
            base.pop();
        }
        let http = ClientBuilder::new(reqwest::Client::new())
            .with(retries)
            .build();
        MiddlewareResourceClient { http, base }
    }

    /// `CreateResource`: starts creating a resource; it is `CREATING` at first.
    pub async fn create_resource(
        &self,
        name: &str,
        members: &[NewMember],
    ) -> Result<Resource, ResourceError> {
        let body = serde_json::json!({ "name": name, "members": members });
        self.send(Method::POST, "/resources", Some(body)).await
    }

    /// `DescribeResource`: the resource as it is now (`NotFound` once deleted).
    #[waitable(
        ResourceActive: {
            documentation: "Waits until the resource is `ACTIVE`; fails fast once it is `FAILED`."
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
                { state: "retry", matcher: { errorType: "ThrottlingException" } }
                { state: "retry", matcher: { errorType: "SlowDown" } }
            ]
            minDelay: 2
            maxDelay: 60
        }
        ResourceDeleted: {
            documentation: "Waits until the resource is gone: describing it answers `NotFound`."
            acceptors: [
                { state: "success", matcher: { errorType: "NotFound" } }
                { state: "retry", matcher: { errorType: "ThrottlingException" } }
                { state: "retry", matcher: { errorType: "SlowDown" } }
            ]
            minDelay: 1
            maxDelay: 20
        }
    )]
    pub async fn describe_resource(&self, name: &str) -> Result<Resource, ResourceError> {
        self.send(Method::GET, &format!("/resources/{name}"), None)
            .await
    }

    /// `DeleteResource`: starts deleting a resource; it is `DELETING`, then gone.
    pub async fn delete_resource(&self, name: &str) -> Result<Resource, ResourceError> {
        self.send(Method::DELETE, &format!("/resources/{name}"), None)
            .await
    }

    /// One call: one request, which the middleware retries.
    async fn send<O: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: Option<serde_json::Value>,
    ) -> Result<O, ResourceError> {
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        let response = request.send().await.map_err(|e| match e {
            reqwest_middleware::Error::Reqwest(e) => ResourceError::from(e),
            reqwest_middleware::Error::Middleware(e) => ResourceError::Unhandled {
                code: None,
                status: 0,
                message: Some(e.to_string()),
            },
        })?;
        ResourceError::read_response(response).await
    }
}
