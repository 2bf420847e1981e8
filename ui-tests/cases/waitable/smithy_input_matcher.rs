// Smithy's `valid-inputpath.smithy` (a Smithy 1.0 draft model): the `input` matcher is not in
// today's spec. Each use is one error saying to write `inputOutput` with `input.` paths.
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
            "documentation": "A",
            "acceptors": [
                {
                    "state": "success",
                    "matcher": {
                        "input": {
                            "path": "foo == 'hi'",
                            "expected": "true",
                            "comparator": "booleanEquals"
                        }
                    }
                },
                {
                    "state": "success",
                    "matcher": {
                        "input": {
                            "path": "[foo]",
                            "expected": "hi",
                            "comparator": "allStringEquals"
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
