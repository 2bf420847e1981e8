// Smithy's `WaiterDelay` is an `integer` (32 bits, `@range(min: 1)`): a delay above
// 2147483647 seconds is not a valid trait value.
use waiter_runtime::{ProvideErrorMetadata, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum AError {
    OhNo,
}

pub struct Client;

impl Client {
    #[waitable(A: { minDelay: 2, maxDelay: 2147483648, acceptors: [{ state: "success", matcher: { success: true } }] })]
    pub async fn a(&self) -> Result<(), AError> {
        Err(AError::OhNo)
    }
}

fn main() {}
