// `stringEquals` on an `i32` member can never match.

use waiter_runtime::waitable;

include!("shared/ec2.rs");

pub struct Client;

impl Client {
    #[waitable(InstanceRunning: { acceptors: [{ state: "success", matcher: { output: { path: "Reservations[0].Instances[0].CpuCount", expected: "running", comparator: "stringEquals" } } }] })]
    pub async fn describe_instances(&self, ids: Vec<String>) -> Result<DescribeInstancesOutput, Error> {
        let _ = ids;
        Err(Error::NotFound)
    }
}

fn main() {}
