// A typo in one path (found by const evaluation) and a comparator mistake in another (found
// by the macro): both come out in one pass, one error each.

use waiter_runtime::waitable;

include!("shared/ec2.rs");

pub struct Client;

impl Client {
    #[waitable(InstanceRunning: {
        acceptors: [
            { state: "success", matcher: { output: { path: "Reservations[].Instances[].Status.Name", expected: "running", comparator: "allStringEquals" } } }
            { state: "failure", matcher: { output: { path: "length(Reservations)", expected: "terminated", comparator: "stringEquals" } } }
        ]
    })]
    pub async fn describe_instances(&self, ids: Vec<String>) -> Result<DescribeInstancesOutput, Error> {
        let _ = ids;
        Err(Error::NotFound)
    }
}

fn main() {}
