// `stringEquals` on a projection: the path gives a list, and the error names what the list
// holds (`services[].status` is a list of strings), with the comparators that compare lists.
// `booleanEquals` on a projection likewise.
use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    ServiceNotFoundException,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "camelCase")]
pub struct Service {
    pub status: String,
    pub deployments_done: bool,
}

#[derive(Debug, Searchable)]
pub struct DescribeServicesOutput {
    pub services: Vec<Service>,
}

pub struct Client;

impl Client {
    #[waitable(ServicesStable: { acceptors: [
        { state: "success", matcher: { output: { path: "services[].status", expected: "ACTIVE", comparator: "stringEquals" } } }
        { state: "success", matcher: { output: { path: "services[].deploymentsDone", expected: "true", comparator: "booleanEquals" } } }
    ] })]
    pub async fn describe_services(&self, cluster: &str) -> Result<DescribeServicesOutput, Error> {
        let _ = cluster;
        Err(Error::ServiceNotFoundException)
    }
}

fn main() {}
