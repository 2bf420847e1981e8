// A failure `message` reading a member that does not exist.

use waiter_runtime::waitable;

include!("shared/ec2.rs");

pub struct Client;

impl Client {
    #[waitable(InstanceRunning: { acceptors: [{ state: "success", matcher: { success: true } } { state: "failure", matcher: { errorType: "NotFound" }, message: "Reservations[].Instances[].StateReason" }] })]
    pub async fn describe_instances(&self, ids: Vec<String>) -> Result<DescribeInstancesOutput, Error> {
        let _ = ids;
        Err(Error::NotFound)
    }
}

fn main() {}
