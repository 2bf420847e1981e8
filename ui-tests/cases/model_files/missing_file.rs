// A model file that is not there: one error at the path, with the path tried (the crate's
// manifest directory joined with it). The callers of the waiters `waiters` names still compile.
use waiter_runtime::waitable;

include!("../waitable/shared/ec2.rs");

pub struct Client;

impl Client {
    #[waitable(botocore = "models/missing.json", waiters = ["InstanceRunning"])]
    pub async fn describe_instances(&self) -> Result<DescribeInstancesOutput, Error> {
        Err(Error::NotFound)
    }
}

pub async fn caller() {
    let _ = Client.wait_until_instance_running();
}

fn main() {}
