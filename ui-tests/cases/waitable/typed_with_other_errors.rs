// A typo in one path (found by const evaluation) and a comparator mistake in another (found
// by the macro): both come out in one pass, one error each.
use std::collections::HashMap;

use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

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

pub struct Client;

impl Client {
    #[waitable(InstanceRunning: {
        acceptors: [
            { state: "success", matcher: { output: { path: "Reservations[].Instances[].Status.Name", expected: "running", comparator: "allStringEquals" } } }
            { state: "failure", matcher: { output: { path: "Reservations[].Instances[].State.Name", expected: "terminated", comparator: "stringEquals" } } }
        ]
    })]
    pub async fn describe_instances(&self, ids: Vec<String>) -> Result<DescribeInstancesOutput, Error> {
        let _ = ids;
        Err(Error::NotFound)
    }
}

fn main() {}
