// Smithy's `invalid-message-jmespath.smithy`: a failure `message` that is not valid JMESPath
// is one error at the message, with the column.
use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum AError {
    OhNo,
}

#[derive(Debug, Searchable)]
pub struct AOutput {
    pub foo: Option<String>,
}

pub struct Client;

impl Client {
    #[waitable(@waitable(
        A: {
            "acceptors": [
                {
                    "state": "success",
                    "matcher": {
                        "output": {
                            "path": "foo == 'hi'",
                            "comparator": "booleanEquals",
                            "expected": "true"
                        }
                    }
                },
                {
                    "state": "failure",
                    "matcher": {
                        "output": {
                            "path": "foo == 'bad'",
                            "comparator": "booleanEquals",
                            "expected": "true"
                        }
                    },
                    "message": "foo.@@invalid"
                }
            ]
        }
    ))]
    pub async fn a(&self) -> Result<AOutput, AError> {
        Err(AError::OhNo)
    }
}

fn main() {}
