// `inputOutput`: the input side is the parameter's type, the output side the output's.

use waiter_runtime::waitable;

include!("shared/ec2.rs");

pub struct Client;

impl Client {
    #[waitable(InstanceRunning: { acceptors: [{ state: "success", matcher: { inputOutput: { path: "contains(input, output.Reservations[].Instances[].InstanceID) && input.Name == 'x'", expected: "true", comparator: "booleanEquals" } } }] })]
    pub async fn describe_instances(&self, ids: Vec<String>) -> Result<DescribeInstancesOutput, Error> {
        let _ = ids;
        Err(Error::NotFound)
    }
}

fn main() {}
