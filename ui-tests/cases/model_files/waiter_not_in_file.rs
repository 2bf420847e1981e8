// `waiters = [..]` names a waiter the operation does not have: did you mean, at the name.
use waiter_runtime::waitable;

include!("../waitable/shared/ec2.rs");

pub struct Client;

impl Client {
    #[waitable(botocore = "models/ec2.json", waiters = ["InstanceTerminated", "InstanceRuning"])]
    pub async fn describe_instances(&self) -> Result<DescribeInstancesOutput, Error> {
        Err(Error::NotFound)
    }
}

fn main() {}
