//! The service's wire format: JSON bodies of requests, resources and errors.

use serde::{Deserialize, Serialize};

/// Where a resource is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ResourceStatus {
    /// Just created; becomes `Active` or `Failed` after a while.
    Creating,
    /// Ready.
    Active,
    /// Provisioning failed; `statusReason` says why. Terminal until deleted.
    Failed,
    /// Being deleted; disappears after a while (then reads answer `404 NotFound`).
    Deleting,
}

impl ResourceStatus {
    /// The wire spelling (`"ACTIVE"`...).
    pub fn as_str(self) -> &'static str {
        match self {
            ResourceStatus::Creating => "CREATING",
            ResourceStatus::Active => "ACTIVE",
            ResourceStatus::Failed => "FAILED",
            ResourceStatus::Deleting => "DELETING",
        }
    }
}

/// A member of a resource (nested lists, for projections and filters).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    /// Member name, unique within its resource.
    pub name: String,
    /// Free-form role (`"primary"`, `"replica"`...).
    pub role: String,
    /// `JOINING` while the resource is being created, then `ACTIVE` or `FAILED`.
    pub status: String,
}

/// A resource as the service describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// The resource's name (its identity).
    pub name: String,
    /// Where the resource is in its life.
    pub status: ResourceStatus,
    /// Why the resource is `FAILED`; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_reason: Option<String>,
    /// The resource's members.
    #[serde(default)]
    pub members: Vec<Member>,
}

/// A member as given to `CreateResource`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberSpec {
    /// Member name.
    pub name: String,
    /// Member role.
    #[serde(default = "default_role")]
    pub role: String,
}

fn default_role() -> String {
    "replica".to_owned()
}

/// Body of `POST /resources`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreateResourceRequest {
    /// Name of the resource to create.
    pub name: String,
    /// Members to create with it.
    #[serde(default)]
    pub members: Vec<MemberSpec>,
}

/// Body of `GET /resources`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListResourcesResponse {
    /// The resources, sorted by name.
    pub resources: Vec<Resource>,
}

/// Body of every error response (the status line carries the HTTP status).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// Machine-readable error code (`NotFound`, `ThrottlingException`...).
    pub code: String,
    /// Human-readable message.
    pub message: String,
}
