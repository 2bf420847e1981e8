// `booleanEquals` with `expected: "running"` on a path that gives a list (botocore's
// `pathAll` argument pasted as is): the advice is `allStringEquals`/`anyStringEquals`, which
// compare a list's elements, not `stringEquals`, which would never match a list.
use waiter_runtime::{Searchable, waitable};

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct InstanceState {
    pub name: String,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct Instance {
    pub state: InstanceState,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct Reservation {
    pub instances: Vec<Instance>,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct DescribeInstancesOutput {
    pub reservations: Vec<Reservation>,
}

pub struct Client;

impl Client {
    #[waitable(InstanceRunning: { acceptors: [
        { state: "success", matcher: { output: { path: "Reservations[].Instances[].State.Name", expected: "running", comparator: "booleanEquals" } } }
    ] })]
    pub async fn describe_instances(&self) -> Result<DescribeInstancesOutput, std::io::Error> {
        Err(std::io::Error::other("offline"))
    }
}

fn main() {}
