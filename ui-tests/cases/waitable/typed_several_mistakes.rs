// Several typed-path mistakes in one attribute: all of them in one pass.

use waiter_runtime::waitable;

include!("shared/ec2.rs");

pub struct Client;

impl Client {
    #[waitable(InstanceRunning: { acceptors: [{ state: "success", matcher: { output: { path: "Reservations[].Instances[].Status.Name", expected: "running", comparator: "allStringEquals" } } } { state: "failure", matcher: { output: { path: "Reservations[0].Instances[0].CpuCount", expected: "x", comparator: "stringEquals" } } }] })]
    pub async fn describe_instances(&self, ids: Vec<String>) -> Result<DescribeInstancesOutput, Error> {
        let _ = ids;
        Err(Error::NotFound)
    }
}

fn main() {}
