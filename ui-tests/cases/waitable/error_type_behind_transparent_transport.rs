// A `transparent` variant wrapping a transport error the runtime describes itself
// (`std::io::Error` here; reqwest's, http's, ureq's alike) adds no code: the `errorType` check
// stays on, so a misspelled code (`Id` for `ID`) still warns, with the acceptor's code on the
// first line. (`deny` makes the warning an error, for the test.)
#![deny(deprecated)]

use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Ec2Error {
    #[error_metadata(code = "InvalidInstanceID.NotFound")]
    InstanceNotFound,
    #[error_metadata(transparent)]
    Transport(std::io::Error),
}

#[derive(Debug, Searchable)]
pub struct Instance {
    pub state: String,
}

pub struct Client;

impl Client {
    #[waitable(InstanceExists: { acceptors: [
        { state: "success", matcher: { output: { path: "state", expected: "running", comparator: "stringEquals" } } }
        { state: "retry", matcher: { errorType: "InvalidInstanceId.NotFound" } }
    ] })]
    pub async fn describe_instance(&self, id: &str) -> Result<Instance, Ec2Error> {
        let _ = id;
        Err(Ec2Error::InstanceNotFound)
    }
}

fn main() {}
