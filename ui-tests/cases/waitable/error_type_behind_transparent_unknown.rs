// A `transparent` variant wrapping an error type whose codes are not known (a hand-written
// `ProvideErrorMetadata`) turns the `errorType` check off for its enum, and the first
// `errorType` of the attribute says so, once: not one warning per acceptor or per waiter
// (`tests/error_counts.rs` counts it).
#![deny(deprecated)]

use waiter_runtime::{ProvideErrorMetadata, waitable};

include!("shared/service_error.rs");

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    NotFound,
    #[error_metadata(transparent)]
    Service(ServiceError),
}

pub struct Client;

impl Client {
    #[waitable(
        StackDeleted: { acceptors: [
            { state: "success", matcher: { errorType: "ValidationError" } }
            { state: "retry", matcher: { errorType: "Throttling" } }
        ] }
        StackExists: { acceptors: [
            { state: "success", matcher: { success: true } }
            { state: "retry", matcher: { errorType: "ValidationError" } }
        ] }
    )]
    pub async fn describe_stack(&self, name: &str) -> Result<(), Error> {
        let _ = name;
        Err(Error::NotFound)
    }
}

fn main() {}
