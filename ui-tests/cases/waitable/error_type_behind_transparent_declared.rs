// A `transparent` variant may declare the codes the error it wraps carries
// (`codes = [..]`): the `errorType` check is on again, and a near miss says "did you mean".
#![deny(deprecated)]

use waiter_runtime::{ProvideErrorMetadata, waitable};

include!("shared/service_error.rs");

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    NotFound,
    #[error_metadata(transparent, codes = ["ValidationError", "Throttling"])]
    Service(ServiceError),
}

pub struct Client;

impl Client {
    #[waitable(StackDeleted: { acceptors: [
        { state: "success", matcher: { errorType: "ValidationError" } }
        { state: "retry", matcher: { errorType: "Throttling" } }
        { state: "retry", matcher: { errorType: "NotFound" } }
        { state: "retry", matcher: { errorType: "ValidationException" } }
    ] })]
    pub async fn describe_stack(&self, name: &str) -> Result<(), Error> {
        let _ = name;
        Err(Error::NotFound)
    }
}

fn main() {}
