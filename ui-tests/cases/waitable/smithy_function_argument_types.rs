// Smithy's linter makes a function argument of the wrong type an ERROR ("length function
// argument 0 error", `invalid-jmespath-syntax.smithy`). On a typed output every function's
// arguments are checked against the JMESPath signatures: one error per wrong argument.
use std::collections::HashMap;

use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum AError {
    OhNo,
}

#[derive(Debug, Searchable)]
pub struct Item {
    pub name: Option<String>,
}

#[derive(Debug, Searchable)]
pub struct AOutput {
    pub foo: Option<String>,
    pub count: Option<i32>,
    pub tags: Option<Vec<String>>,
    pub items: Option<Vec<Item>>,
    pub labels: Option<HashMap<String, String>>,
}

pub struct Client;

impl Client {
    #[waitable(A: { acceptors: [
        { state: "success", matcher: { output: { path: "contains(count, 'x')", expected: "true", comparator: "booleanEquals" } } }
        { state: "success", matcher: { output: { path: "abs(foo) > `1`", expected: "true", comparator: "booleanEquals" } } }
        { state: "success", matcher: { output: { path: "join(', ', items)", expected: "x", comparator: "stringEquals" } } }
        { state: "success", matcher: { output: { path: "sum(tags) > `1`", expected: "true", comparator: "booleanEquals" } } }
        { state: "success", matcher: { output: { path: "keys(tags)", expected: "x", comparator: "anyStringEquals" } } }
        { state: "success", matcher: { output: { path: "sort_by(labels, &name)[0].name", expected: "x", comparator: "stringEquals" } } }
        { state: "success", matcher: { output: { path: "starts_with('x', tags)", expected: "true", comparator: "booleanEquals" } } }
    ] })]
    pub async fn a(&self) -> Result<AOutput, AError> {
        Err(AError::OhNo)
    }
}

fn main() {}
