// A misspelt argument: did you mean, at it (the file is read all the same).
use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    #[error_metadata(code = "InvalidInstanceID.NotFound")]
    NotFound,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct DescribeInstancesOutput {
    pub reservations: Vec<serde_json::Value>,
}

pub struct Client;

impl Client {
    #[waitable(botocore = "models/ec2.json", waiter = ["InstanceRunning"])]
    pub async fn describe_instances(&self) -> Result<DescribeInstancesOutput, Error> {
        Err(Error::NotFound)
    }
}

fn main() {}
