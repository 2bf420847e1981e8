//! The client's typed outputs and inputs: what a user would write from the service's docs.

use serde::{Deserialize, Serialize};
use waiter_runtime::Searchable;

/// A resource, as `CreateResource`, `DescribeResource` and `DeleteResource` return it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Searchable)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// The resource's name.
    pub name: String,
    /// `CREATING`, `ACTIVE`, `FAILED` or `DELETING`.
    pub status: String,
    /// Why the resource is `FAILED`.
    #[serde(default)]
    pub status_reason: Option<String>,
    /// The resource's members.
    #[serde(default)]
    pub members: Vec<Member>,
}

/// A member of a resource.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Searchable)]
pub struct Member {
    /// The member's name.
    pub name: String,
    /// The member's role.
    pub role: String,
    /// `JOINING`, `ACTIVE` or `FAILED`.
    pub status: String,
}

/// The output of `ListResources`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Searchable)]
pub struct ListResourcesOutput {
    /// The resources, sorted by name.
    pub resources: Vec<Resource>,
}

/// A member to create with a resource.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NewMember {
    /// The member's name.
    pub name: String,
    /// The member's role.
    pub role: String,
}

impl NewMember {
    /// A member named `name` with role `role`.
    pub fn new(name: impl Into<String>, role: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            role: role.into(),
        }
    }
}

#[derive(Debug, Serialize)]
pub(crate) struct CreateResourceInput<'a> {
    pub name: &'a str,
    pub members: &'a [NewMember],
}

#[derive(Debug, Deserialize)]
pub(crate) struct ErrorBody {
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
}
