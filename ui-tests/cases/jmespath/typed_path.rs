// `jmespath!(Type, "path")` checks the path's field chains against `Type`, as `#[waitable]`
// does: a typo is a compile error with the closest wire name.
use waiter_runtime::{Searchable, jmespath};

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
    pub state: InstanceState,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct InstanceState {
    pub name: String,
}

fn main() {
    let names = jmespath!(DescribeInstancesOutput, "Reservations[].Instances[].Status.Name");
    let _ = names;
}
