// A path of the model file that the output type cannot answer: one error at the attribute,
// naming the file, the waiter, the acceptor and the path, with the pasted form's "did you
// mean" (here the output calls `State` `Status`).
use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    #[error_metadata(code = "InvalidInstanceID.NotFound")]
    NotFound,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct DescribeInstancesOutput {
    pub reservations: Vec<Reservation>,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct Reservation {
    pub instances: Vec<Instance>,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct Instance {
    pub status: InstanceState,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct InstanceState {
    pub name: String,
}

pub struct Client;

impl Client {
    #[waitable(botocore = "models/ec2.json", waiters = ["InstanceTerminated"])]
    pub async fn describe_instances(&self) -> Result<DescribeInstancesOutput, Error> {
        Err(Error::NotFound)
    }
}

fn main() {}
