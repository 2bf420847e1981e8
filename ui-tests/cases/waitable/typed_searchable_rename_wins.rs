// serde names the wire, `#[searchable(..)]` the model: with the container's
// `#[searchable(rename_all = "PascalCase")]`, a field's `#[serde(rename = "reservationSet")]`
// (EC2's XML) is not the member's name; a path written with the wire name says which it is.
use waiter_runtime::{Searchable, waitable};

#[derive(Debug, Searchable)]
#[searchable(rename_all = "PascalCase")]
pub struct DescribeInstancesOutput {
    #[serde(rename = "reservationSet")]
    pub reservations: Vec<Reservation>,
}

#[derive(Debug, Searchable)]
#[searchable(rename_all = "PascalCase")]
pub struct Reservation {
    #[serde(rename = "instancesSet")]
    pub instances: Vec<Instance>,
}

#[derive(Debug, Searchable)]
#[searchable(rename_all = "PascalCase")]
pub struct Instance {
    #[serde(rename = "instanceState")]
    pub state: String,
}

pub struct Client;

impl Client {
    #[waitable(InstanceRunning: { acceptors: [
        { state: "success", matcher: { output: { path: "Reservations[].Instances[].State", expected: "running", comparator: "allStringEquals" } } }
        { state: "failure", matcher: { output: { path: "reservationSet[].Instances[].State", expected: "terminated", comparator: "anyStringEquals" } } }
    ] })]
    pub async fn describe_instances(&self) -> Result<DescribeInstancesOutput, std::io::Error> {
        Err(std::io::Error::other("offline"))
    }
}

fn main() {}
