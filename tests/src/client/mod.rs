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
use waiter_runtime::retry::{Retrier, RetryConfig};
use waiter_runtime::waitable;

pub use error::ResourceError;
pub use model::{ListResourcesOutput, Member, NewMember, Resource};

use model::CreateResourceInput;

/// A client for the example service.
///
/// Every operation runs through the client's [`Retrier`]: it retries throttling, `5xx` answers
/// and connection failures as the AWS SDKs do, inside a waiter's polls too, except an error the
/// running waiter's acceptors name (`NotFound` for `ResourceExists`), which it returns at once
/// for the waiter to decide. So the waiters below need no throttling acceptors. Clones share
/// the retrier, so they share its retry quota and, in adaptive mode, its rate limiter.
#[derive(Debug, Clone)]
pub struct ResourceClient {
    http: reqwest::Client,
    base: String,
    retrier: Retrier,
}

/// Configures a [`ResourceClient`].
#[derive(Debug)]
pub struct ResourceClientBuilder {
    base: String,
    http: Option<reqwest::Client>,
    timeout: Duration,
    retrier: Option<Retrier>,
}

impl ResourceClientBuilder {
    /// Runs operations through this retrier (built from a [`RetryConfig`], with hooks or
    /// classifiers of your own). Default: `Retrier::new(RetryConfig::standard().build())`.
    pub fn retrier(mut self, retrier: Retrier) -> Self {
        self.retrier = Some(retrier);
        self
    }

    /// Runs operations through a new retrier with this configuration.
    pub fn retry_config(self, config: RetryConfig) -> Self {
        self.retrier(Retrier::new(config))
    }

    /// Timeout of each HTTP request (default 10 s). Ignored with [`http_client`](Self::http_client).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Uses this reqwest client (its own timeouts, pool settings...).
    pub fn http_client(mut self, http: reqwest::Client) -> Self {
        self.http = Some(http);
        self
    }

    /// The client.
    pub fn build(self) -> ResourceClient {
        let http = self.http.unwrap_or_else(|| {
            reqwest::Client::builder()
                .timeout(self.timeout)
                .build()
                .expect("a plain-HTTP reqwest client always builds")
        });
        let mut base = self.base;
        while base.ends_with('/') {
            base.pop();
        }
        let retrier = self
            .retrier
            .unwrap_or_else(|| Retrier::new(RetryConfig::standard().build()));
        ResourceClient {
            http,
            base,
            retrier,
        }
    }
}

impl ResourceClient {
    /// A client for the service at `base_url` (`http://127.0.0.1:PORT`): standard retries,
    /// a 10 s timeout per request.
    pub fn new(base_url: impl Into<String>) -> Self {
        Self::builder(base_url).build()
    }

    /// A builder for a client of the service at `base_url`.
    pub fn builder(base_url: impl Into<String>) -> ResourceClientBuilder {
        ResourceClientBuilder {
            base: base_url.into(),
            http: None,
            timeout: Duration::from_secs(10),
            retrier: None,
        }
    }

    /// The retrier every operation runs through.
    pub fn retrier(&self) -> &Retrier {
        &self.retrier
    }

    /// `CreateResource`: starts creating a resource; it is `CREATING` at first.
    pub async fn create_resource(
        &self,
        name: &str,
        members: &[NewMember],
    ) -> Result<Resource, ResourceError> {
        let body = serde_json::to_vec(&CreateResourceInput { name, members })
            .expect("plain data serializes");
        self.send(Method::POST, "/resources".into(), &[], Some(body))
            .await
    }

    /// `DescribeResource`: the resource as it is now (`NotFound` once deleted).
    ///
    /// Waiters, pasted from the service's Smithy model (IDL form):
    /// [`wait_until_resource_exists`](Self::wait_until_resource_exists),
    /// [`wait_until_resource_active`](Self::wait_until_resource_active),
    /// [`wait_until_members_active`](Self::wait_until_members_active),
    /// [`wait_until_resource_deleted`](Self::wait_until_resource_deleted).
    #[waitable(
        ResourceExists: {
            documentation: "Waits until the resource can be described, whatever its status."
            acceptors: [
                { state: "success", matcher: { success: true } }
                { state: "retry", matcher: { errorType: "NotFound" } }
            ]
            minDelay: 1
            maxDelay: 20
        }
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
                {
                    state: "failure"
                    matcher: { output: { path: "status", expected: "DELETING", comparator: "stringEquals" } }
                    message: "join('', ['resource ', name, ' is being deleted'])"
                }
            ]
            minDelay: 2
            maxDelay: 60
            tags: ["provisioning"]
        }
        MembersActive: {
            documentation: "Waits until every member of the resource is `ACTIVE`."
            acceptors: [
                {
                    state: "success"
                    matcher: { output: { path: "members[].status", expected: "ACTIVE", comparator: "allStringEquals" } }
                }
                {
                    state: "success"
                    matcher: {
                        output: {
                            path: "length(members) == `0` && status == 'ACTIVE'"
                            expected: "true"
                            comparator: "booleanEquals"
                        }
                    }
                }
                {
                    state: "failure"
                    matcher: { output: { path: "members[].status", expected: "FAILED", comparator: "anyStringEquals" } }
                    message: "members[?status=='FAILED'].name"
                }
            ]
        }
        ResourceDeleted: {
            documentation: "Waits until the resource is gone: describing it answers `NotFound`."
            acceptors: [
                { state: "success", matcher: { errorType: "com.example.resources#NotFound" } }
            ]
            minDelay: 1
            maxDelay: 20
            tags: ["cleanup"]
        }
    )]
    pub async fn describe_resource(&self, name: &str) -> Result<Resource, ResourceError> {
        self.send(Method::GET, resource_path(name), &[], None).await
    }

    /// `DeleteResource`: starts deleting a resource; it is `DELETING`, then gone.
    pub async fn delete_resource(&self, name: &str) -> Result<Resource, ResourceError> {
        self.send(Method::DELETE, resource_path(name), &[], None)
            .await
    }

    /// `ListResources`: the resources whose name starts with `prefix`, sorted by name.
    ///
    /// Waiter, pasted from the service's JSON AST model:
    /// [`wait_until_all_resources_active`](Self::wait_until_all_resources_active).
    #[waitable({
        "AllResourcesActive": {
            "documentation": "Waits until every listed resource is ACTIVE; fails fast when one is FAILED.",
            "acceptors": [
                {
                    "state": "success",
                    "matcher": {
                        "output": { "path": "resources[].status", "expected": "ACTIVE", "comparator": "allStringEquals" }
                    }
                },
                {
                    "state": "failure",
                    "matcher": {
                        "output": { "path": "resources[].status", "expected": "FAILED", "comparator": "anyStringEquals" }
                    },
                    "message": "resources[?status=='FAILED'].statusReason"
                }
            ],
            "minDelay": 2,
            "maxDelay": 60
        }
    })]
    pub async fn list_resources(&self, prefix: &str) -> Result<ListResourcesOutput, ResourceError> {
        let query = [("prefix", prefix.to_owned())];
        self.send(Method::GET, "/resources".into(), &query, None)
            .await
    }

    /// `DescribeResources`: those of the named resources that exist, sorted by name.
    ///
    /// Waiter with an `inputOutput` matcher, in the manner of the Smithy spec's `GroupExists`:
    /// [`wait_until_resources_exist`](Self::wait_until_resources_exist).
    #[waitable(
        ResourcesExist: {
            documentation: "Waits until every named resource exists."
            acceptors: [
                {
                    state: "success"
                    matcher: {
                        inputOutput: {
                            path: "length(input) == length(output.resources)"
                            expected: "true"
                            comparator: "booleanEquals"
                        }
                    }
                }
            ]
        }
    )]
    pub async fn describe_resources(
        &self,
        names: &[String],
    ) -> Result<ListResourcesOutput, ResourceError> {
        let query = [("names", names.join(","))];
        self.send(Method::GET, "/resources".into(), &query, None)
            .await
    }

    /// One call: HTTP exchanges through the retrier.
    async fn send<O: DeserializeOwned>(
        &self,
        method: Method,
        path: String,
        query: &[(&str, String)],
        body: Option<Vec<u8>>,
    ) -> Result<O, ResourceError> {
        self.retrier
            .run(|| self.exchange(method.clone(), &path, query, body.clone()))
            .await
    }

    /// One HTTP exchange: the output on 2xx, the modeled error otherwise.
    async fn exchange<O: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        query: &[(&str, String)],
        body: Option<Vec<u8>>,
    ) -> Result<O, ResourceError> {
        let mut req = self.http.request(method, format!("{}{path}", self.base));
        if !query.is_empty() {
            req = req.query(query);
        }
        if let Some(body) = body {
            req = req.header("content-type", "application/json").body(body);
        }
        let resp = req.send().await?;
        ResourceError::read_response(resp).await
    }
}

/// `/resources/{name}`, the name percent-encoded as one path segment.
pub(crate) fn resource_path(name: &str) -> String {
    let mut path = String::from("/resources/");
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            path.push(char::from(b));
        } else {
            path.push_str(&format!("%{b:02X}"));
        }
    }
    path
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

    #[test]
    fn names_are_one_encoded_path_segment() {
        assert_eq!(resource_path("web-1"), "/resources/web-1");
        assert_eq!(resource_path("a/b?c d"), "/resources/a%2Fb%3Fc%20d");
    }

    #[tokio::test]
    async fn names_that_are_not_valid_reach_the_service_intact() {
        let service = ExampleService::builder().start().await.unwrap();
        let client = ResourceClient::new(service.url());
        let err = client
            .describe_resource("../resources?prefix=")
            .await
            .unwrap_err();
        assert!(matches!(err, ResourceError::NotFound { .. }), "{err}");
        let err = client.create_resource("a/b", &[]).await.unwrap_err();
        assert_eq!(err.code(), Some("ValidationException"));
        assert!(
            client
                .list_resources("a&names=x")
                .await
                .unwrap()
                .resources
                .is_empty()
        );
    }

    #[tokio::test]
    async fn faults_become_errors_with_metadata() {
        let service = ExampleService::builder().start().await.unwrap();
        let client = ResourceClient::builder(service.url())
            .retry_config(RetryConfig::disabled())
            .build();
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
