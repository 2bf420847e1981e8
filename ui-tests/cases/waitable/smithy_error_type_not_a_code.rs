// Smithy's `invalid-errorType.smithy`: an `errorType` the operation does not list is a
// WARNING. When the error type derives `ProvideErrorMetadata` (its codes are known),
// an `errorType` that is none of them is a warning too (rustc's `deprecated` lint, at the
// string); `deny` turns it into an error here so that the case fails and its diagnostic is
// recorded. Codes that match (`OhNo`, `smithy.example#OhNo`, a renamed code) do not warn.
#![deny(deprecated)]

use waiter_runtime::{ProvideErrorMetadata, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum AError {
    OhNo,
    #[error_metadata(code = "ResourceNotFoundException")]
    NotFound,
}

pub struct Client;

impl Client {
    #[waitable(A: { acceptors: [
        { state: "success", matcher: { errorType: "Nope" } }
        { state: "success", matcher: { errorType: "OhNo" } }
        { state: "success", matcher: { errorType: "smithy.example#OhNo" } }
        { state: "failure", matcher: { errorType: "ResourceNotFoundException" } }
    ] })]
    pub async fn a(&self) -> Result<(), AError> {
        Err(AError::OhNo)
    }
}

fn main() {}
