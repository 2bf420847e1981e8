// `booleanEquals` with `expected: "running"` on a path that gives a list (botocore's
// `pathAll` argument pasted as is): the advice is `allStringEquals`/`anyStringEquals`, which
// compare a list's elements, not `stringEquals`, which would never match a list.
use waiter_runtime::waitable;

include!("shared/ec2.rs");

pub struct Client;

impl Client {
    #[waitable(InstanceRunning: { acceptors: [
        { state: "success", matcher: { output: { path: "Reservations[].Instances[].State.Name", expected: "running", comparator: "booleanEquals" } } }
    ] })]
    pub async fn describe_instances(&self) -> Result<DescribeInstancesOutput, Error> {
        Err(Error::NotFound)
    }
}

fn main() {}
