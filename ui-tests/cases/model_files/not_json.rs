// A model file that is not JSON: one error at the path, with the line and column.
use waiter_runtime::waitable;

include!("../waitable/shared/ec2.rs");

pub struct Client;

impl Client {
    #[waitable(botocore = "models/not_json.json")]
    pub async fn describe_instances(&self) -> Result<DescribeInstancesOutput, Error> {
        Err(Error::NotFound)
    }
}

fn main() {}
