// Smithy's waiter `tags` are a `NonEmptyStringList`: an empty tag is not a valid trait value.
use waiter_runtime::{ProvideErrorMetadata, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum AError {
    OhNo,
}

pub struct Client;

impl Client {
    #[waitable(A: { tags: ["ready", ""], acceptors: [{ state: "success", matcher: { success: true } }] })]
    pub async fn a(&self) -> Result<(), AError> {
        Err(AError::OhNo)
    }
}

fn main() {}
