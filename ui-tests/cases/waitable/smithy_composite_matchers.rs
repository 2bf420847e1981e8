// Smithy's `valid-composite.smithy` (a Smithy 1.0 draft model): `not`, `and` and `or` matchers
// are not in today's spec. Each is one error saying how to write the condition instead.
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
    // These acceptors are somewhat nonsensical, but are just to assert that the
    // composite loaders actually work.
    #[waitable(@waitable(
        A: {
            "documentation": "A",
            "acceptors": [
                {
                    "state": "success",
                    "matcher": {
                        "not": {
                            "output": {
                                "path" : "foo == 'hi'",
                                "expected": "true",
                                "comparator": "booleanEquals"
                            }
                        }
                    }
                },
                {
                    "state": "success",
                    "matcher": {
                        "and": [
                            {
                                "output": {
                                    "path" : "foo == 'bye'",
                                    "expected": "true",
                                    "comparator": "booleanEquals"
                                }
                            },
                            {
                                "success": true
                            }
                        ]
                    }
                },
                {
                    "state": "success",
                    "matcher": {
                        // These do the same thing, but this is just to test loading works.
                        "or": [
                            {
                                "not": {
                                    "success": true
                                }
                            },
                            {
                                "success": false
                            }
                        ]
                    }
                },
            ]
        }
    ))]
    pub async fn a(&self) -> Result<AOutput, AError> {
        Err(AError::OhNo)
    }
}

fn main() {}
