// Smithy's linter flags a field read from something that is not a structure ("Object field
// 'foo' extraction performed on number", `emits-danger-and-warning-typechecks.smithy`). On a
// typed output that is a member whose type is a string, a number or a boolean: one error.
use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum AError {
    OhNo,
}

#[derive(Debug, Searchable)]
pub struct AOutput {
    pub foo: Option<String>,
    pub count: Option<i32>,
}

pub struct Client;

impl Client {
    #[waitable(A: { acceptors: [
        { state: "success", matcher: { output: { path: "foo.bar", expected: "x", comparator: "stringEquals" } } }
        { state: "failure", matcher: { output: { path: "count.max", expected: "true", comparator: "booleanEquals" } } }
    ] })]
    pub async fn a(&self) -> Result<AOutput, AError> {
        Err(AError::OhNo)
    }
}

fn main() {}
