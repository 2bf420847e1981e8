// Smithy's `invalid-message-array-of-non-strings.smithy`: a failure `message` reading a
// member that holds a list of booleans (the output's type says so) is one error at the message.
use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum AError {
    OhNo,
}

#[derive(Debug, Searchable)]
pub struct AOutput {
    pub status: Option<String>,
    pub flags: Option<Vec<bool>>,
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
                            "path": "status == 'ready'",
                            "comparator": "booleanEquals",
                            "expected": "true"
                        }
                    }
                },
                {
                    "state": "failure",
                    "matcher": {
                        "output": {
                            "path": "status == 'failed'",
                            "comparator": "booleanEquals",
                            "expected": "true"
                        }
                    },
                    "message": "flags"
                }
            ]
        }
    ))]
    pub async fn a(&self) -> Result<AOutput, AError> {
        Err(AError::OhNo)
    }
}

fn main() {}
