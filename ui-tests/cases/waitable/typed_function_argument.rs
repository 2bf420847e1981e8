// `length()` of a number member is an error; of a boolean too, reported once where the path
// also reads the member elsewhere (one walk checks both).
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
    #[waitable(InstanceRunning: { acceptors: [{ state: "success", matcher: { output: { path: "length(Reservations[0].Instances[0].CpuCount) > `0`", expected: "true", comparator: "booleanEquals" } } } { state: "retry", matcher: { output: { path: "length(Reservations[0].Instances[0].EbsOptimized) > `0` && Reservations[0].Instances[0].EbsOptimized", expected: "true", comparator: "booleanEquals" } } }] })]
    pub async fn describe_instances(&self, ids: Vec<String>) -> Result<DescribeInstancesOutput, Error> {
        let _ = ids;
        Err(Error::NotFound)
    }
}

fn main() {}
