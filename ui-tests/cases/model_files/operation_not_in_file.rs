// The function's name in PascalCase is no operation with waiters in the file: did you mean.
use waiter_runtime::waitable;

include!("../waitable/shared/ec2.rs");

pub struct Client;

impl Client {
    #[waitable(botocore = "models/ec2.json")]
    pub async fn describe_instance(&self) -> Result<DescribeInstancesOutput, Error> {
        Err(Error::NotFound)
    }
}

fn main() {}
