//! A client for the example service, written the way a user would: reqwest, typed outputs,
//! an error enum that describes itself to waiters and retries.
//!
//! ```
//! use waiter_tests::client::ResourceClient;
//! use waiter_tests::service::{ExampleService, Settle};
//!
//! # #[tokio::main] async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let service = ExampleService::builder().settle(Settle::AfterReads(0)).start().await?;
//! let client = ResourceClient::new(service.url());
//! let created = client.create_resource("web", &[]).await?;
//! assert_eq!(created.status, "CREATING");
//! assert_eq!(client.describe_resource("web").await?.status, "ACTIVE");
//! # Ok(()) }
//! ```

mod error;
mod model;

use std::time::Duration;

use reqwest::Method;
use serde::de::DeserializeOwned;
use waiter_runtime::waitable;

pub use error::ResourceError;
pub use model::{ListResourcesOutput, Member, NewMember, Resource};

use model::CreateResourceInput;

/// A client for the example service.
#[derive(Debug, Clone)]
pub struct ResourceClient {
    http: reqwest::Client,
    base: String,
}

impl ResourceClient {
    /// A client for the service at `base_url` (`http://127.0.0.1:PORT`), with a 10 s timeout
    /// per request.
    pub fn new(base_url: impl Into<String>) -> Self {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .expect("a plain-HTTP reqwest client always builds");
        Self::with_http_client(http, base_url)
    }

    /// A client using the given reqwest client (timeouts, pool settings...).
    pub fn with_http_client(http: reqwest::Client, base_url: impl Into<String>) -> Self {
        let mut base = base_url.into();
        while base.ends_with('/') {
            base.pop();
        }
        Self { http, base }
    }

    /// `CreateResource`: starts creating a resource; it is `CREATING` at first.
    pub async fn create_resource(
        &self,
        name: &str,
        members: &[NewMember],
    ) -> Result<Resource, ResourceError> {
        let body = serde_json::to_vec(&CreateResourceInput { name, members })
            .expect("plain data serializes");
        self.send(Method::POST, "/resources", Some(body)).await
    }

    /// `DescribeResource`: the resource as it is now (`NotFound` once deleted).
    ///
    /// Waiters, pasted from the service's Smithy model (IDL form):
    /// [`wait_until_resource_exists`](Self::wait_until_resource_exists),
    /// [`wait_until_resource_deleted`](Self::wait_until_resource_deleted).
    #[waitable(
        ResourceExists: {
            documentation: "Waits until the resource can be described, whatever its status."
            acceptors: [
                { state: "success", matcher: { success: true } }
                { state: "retry", matcher: { errorType: "NotFound" } }
                { state: "retry", matcher: { errorType: "ThrottlingException" } }
                { state: "retry", matcher: { errorType: "SlowDown" } }
            ]
            minDelay: 1
            maxDelay: 20
        }
        ResourceDeleted: {
            documentation: "Waits until the resource is gone: describing it answers `NotFound`."
            acceptors: [
                { state: "success", matcher: { errorType: "com.example.resources#NotFound" } }
                { state: "retry", matcher: { errorType: "ThrottlingException" } }
                { state: "retry", matcher: { errorType: "SlowDown" } }
            ]
            minDelay: 1
            maxDelay: 20
            tags: ["cleanup"]
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

    /// `ListResources`: the resources whose name starts with `prefix`, sorted by name.
    pub async fn list_resources(&self, prefix: &str) -> Result<ListResourcesOutput, ResourceError> {
        self.send(Method::GET, &format!("/resources?prefix={prefix}"), None)
            .await
    }

    /// `DescribeResources`: those of the named resources that exist, sorted by name.
    pub async fn describe_resources(
        &self,
        names: &[String],
    ) -> Result<ListResourcesOutput, ResourceError> {
        self.send(
            Method::GET,
            &format!("/resources?names={}", names.join(",")),
            None,
        )
        .await
    }

    /// One HTTP exchange: the output on 2xx, the modeled error otherwise.
    async fn send<O: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: Option<Vec<u8>>,
    ) -> Result<O, ResourceError> {
        let mut req = self.http.request(method, format!("{}{path}", self.base));
        if let Some(body) = body {
            req = req.header("content-type", "application/json").body(body);
        }
        let resp = req.send().await?;
        let status = resp.status();
        let headers = resp.headers().clone();
        let bytes = resp.bytes().await?;
        if status.is_success() {
            serde_json::from_slice(&bytes).map_err(|e| ResourceError::InvalidResponse {
                status: status.as_u16(),
                reason: e.to_string(),
            })
        } else {
            Err(ResourceError::from_response(
                status.as_u16(),
                &headers,
                &bytes,
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::{ExampleService, Fault, Settle};
    use waiter_runtime::ProvideErrorMetadata;

    #[tokio::test]
    async fn operations_return_typed_outputs_and_errors() {
        let service = ExampleService::builder()
            .settle(Settle::AfterReads(1))
            .start()
            .await
            .unwrap();
        let client = ResourceClient::new(format!("{}/", service.url()));
        let members = [
            NewMember::new("a", "primary"),
            NewMember::new("b", "replica"),
        ];
        let created = client.create_resource("db", &members).await.unwrap();
        assert_eq!(
            (created.status.as_str(), created.members.len()),
            ("CREATING", 2)
        );
        assert_eq!(created.members[0].status, "JOINING");

        let err = client.create_resource("db", &[]).await.unwrap_err();
        assert!(matches!(err, ResourceError::ResourceInUse { .. }), "{err}");
        let err = client.create_resource("Not Valid", &[]).await.unwrap_err();
        assert_eq!(err.code(), Some("ValidationException"));

        assert_eq!(
            client.describe_resource("db").await.unwrap().status,
            "CREATING"
        );
        let listed = client.list_resources("d").await.unwrap();
        assert_eq!(listed.resources[0].status, "ACTIVE");
        assert!(
            client
                .list_resources("x")
                .await
                .unwrap()
                .resources
                .is_empty()
        );

        assert_eq!(
            client.delete_resource("db").await.unwrap().status,
            "DELETING"
        );
        client.describe_resource("db").await.unwrap();
        let err = client.describe_resource("db").await.unwrap_err();
        assert!(matches!(err, ResourceError::NotFound { .. }), "{err}");
        assert_eq!(
            (err.code(), err.http_status()),
            (Some("NotFound"), Some(404))
        );
    }

    #[tokio::test]
    async fn faults_become_errors_with_metadata() {
        let service = ExampleService::builder().start().await.unwrap();
        let client = ResourceClient::new(service.url());
        service
            .faults()
            .script([Fault::Throttle, Fault::Unavailable, Fault::Reset]);
        let err = client.list_resources("").await.unwrap_err();
        assert!(err.is_throttling_error());
        let err = client.list_resources("").await.unwrap_err();
        assert_eq!(
            (err.code(), err.http_status()),
            (Some("ServiceUnavailable"), Some(503))
        );
        let err = client.list_resources("").await.unwrap_err();
        assert!(
            matches!(err, ResourceError::Transport(_)) && err.is_transient(),
            "{err:?}"
        );
        assert!(err.to_string().starts_with("no answer from the service"));
    }
}
