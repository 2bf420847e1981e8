// Smithy's `valid-inputpath.smithy` (a Smithy 1.0 draft model) uses an `arrayEmpty` comparator,
// which today's spec does not have: one error saying how to test for an empty list.
use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum AError {
    OhNo,
}

#[derive(Debug, Clone, Searchable)]
pub struct AInput {
    pub foo: Option<String>,
}

pub struct Client;

impl Client {
    #[waitable(@waitable(
        A: {
            "acceptors": [
                {
                    "state": "success",
                    "matcher": { "success": true }
                },
                {
                    "state": "failure",
                    "matcher": {
                        "inputOutput": {
                            "path": "[input.foo]",
                            "expected": "hi",
                            "comparator": "arrayEmpty"
                        }
                    }
                },
            ]
        }
    ))]
    pub async fn a(&self, input: AInput) -> Result<(), AError> {
        let _ = input;
        Err(AError::OhNo)
    }
}

fn main() {}
