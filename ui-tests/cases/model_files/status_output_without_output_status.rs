// botocore's `status` matcher reads the output's HTTP status too: an output type without
// `OutputStatus` is one error at the attribute, saying what to add.
use waiter_runtime::{ProvideErrorMetadata, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    #[error_metadata(code = "InvalidVpcID.NotFound")]
    NotFound,
}

#[derive(Debug)]
pub struct DescribeVpcsOutput;

pub struct Client;

impl Client {
    #[waitable(botocore = "models/ec2.json")]
    pub async fn describe_vpcs(&self) -> Result<DescribeVpcsOutput, Error> {
        Err(Error::NotFound)
    }
}

fn main() {}
