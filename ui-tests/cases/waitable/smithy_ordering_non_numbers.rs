// JMESPath orders numbers only: `<`, `<=`, `>` and `>=` on anything else give null. Smithy's
// linter warns ("Invalid comparator '<' for boolean") and, when the path is then always null,
// flags its `booleanEquals` (DANGER, `emits-danger-and-warning-typechecks.smithy`). On a typed
// output an operand that is not a number is one error, in a filter too.
use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum AError {
    OhNo,
}

#[derive(Debug, Searchable)]
pub struct Item {
    pub name: Option<String>,
    pub size: Option<i64>,
}

#[derive(Debug, Searchable)]
pub struct AOutput {
    pub ready: Option<bool>,
    pub count: Option<i32>,
    pub items: Option<Vec<Item>>,
}

pub struct Client;

impl Client {
    #[waitable(A: { acceptors: [
        { state: "success", matcher: { output: { path: "ready < `2`", expected: "true", comparator: "booleanEquals" } } }
        { state: "success", matcher: { output: { path: "length(items[?name >= `1`]) == `0`", expected: "true", comparator: "booleanEquals" } } }
        { state: "retry", matcher: { output: { path: "count > `1` && length(items[?size > `1`]) > `0`", expected: "true", comparator: "booleanEquals" } } }
    ] })]
    pub async fn a(&self) -> Result<AOutput, AError> {
        Err(AError::OhNo)
    }
}

fn main() {}
