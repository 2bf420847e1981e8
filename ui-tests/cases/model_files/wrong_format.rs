// A Smithy model named as botocore's file: one error saying which argument reads it.
use waiter_runtime::waitable;

include!("../waitable/shared/ec2.rs");

pub struct Client;

impl Client {
    #[waitable(botocore = "models/dynamodb.smithy.json")]
    pub async fn describe_table(&self) -> Result<DescribeInstancesOutput, Error> {
        Err(Error::NotFound)
    }
}

fn main() {}
