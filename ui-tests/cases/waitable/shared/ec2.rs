// The EC2 output types the `typed_*` cases search (trybuild cases are standalone files, so
// they `include!` this one; it is not a case: the harness globs `cases/waitable/*.rs` only).
use std::collections::HashMap;

use waiter_runtime::{ProvideErrorMetadata, Searchable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    NotFound,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct DescribeInstancesOutput {
    pub reservations: Vec<Reservation>,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct Reservation {
    pub instances: Vec<Instance>,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct Instance {
    pub instance_id: String,
    pub state: InstanceState,
    pub cpu_count: i32,
    pub ebs_optimized: bool,
    pub labels: HashMap<String, String>,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct InstanceState {
    pub name: String,
}
