// An operation of a Smithy model that carries no `smithy.waiters#waitable` trait: one error,
// with the operations that have waiters.
use waiter_runtime::waitable;

include!("../waitable/shared/ec2.rs");

pub struct Client;

impl Client {
    #[waitable(smithy = "models/dynamodb.smithy.json")]
    pub async fn list_tables(&self) -> Result<DescribeInstancesOutput, Error> {
        Err(Error::NotFound)
    }
}

fn main() {}
