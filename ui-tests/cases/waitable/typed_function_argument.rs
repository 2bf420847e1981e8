// `length()` of a number member is an error; of a boolean too, reported once where the path
// also reads the member elsewhere (one walk checks both).

use waiter_runtime::waitable;

include!("shared/ec2.rs");

pub struct Client;

impl Client {
    #[waitable(InstanceRunning: { acceptors: [{ state: "success", matcher: { output: { path: "length(Reservations[0].Instances[0].CpuCount) > `0`", expected: "true", comparator: "booleanEquals" } } } { state: "retry", matcher: { output: { path: "length(Reservations[0].Instances[0].EbsOptimized) > `0` && Reservations[0].Instances[0].EbsOptimized", expected: "true", comparator: "booleanEquals" } } }] })]
    pub async fn describe_instances(&self, ids: Vec<String>) -> Result<DescribeInstancesOutput, Error> {
        let _ = ids;
        Err(Error::NotFound)
    }
}

fn main() {}
