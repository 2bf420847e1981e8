// A flattened struct's members are the parent's (through nested flattened structs too): a name
// none of them has is an error, and a member found through a flattened struct has its own type.
use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    NotFound,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct GetStackOutput {
    pub stack_status: String,
    #[serde(flatten)]
    pub metadata: ResponseMetadata,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct ResponseMetadata {
    pub request_id: String,
    #[serde(flatten)]
    pub origin: Origin,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct Origin {
    pub region: String,
}

pub struct Client;

impl Client {
    #[waitable(StackReady: { acceptors: [
        { state: "success", matcher: { output: { path: "StackStatus", expected: "CREATE_COMPLETE", comparator: "stringEquals" } } }
        { state: "failure", matcher: { output: { path: "RequestID", expected: "x", comparator: "stringEquals" } } }
        { state: "failure", matcher: { output: { path: "RequestId", expected: "true", comparator: "booleanEquals" } } }
        { state: "failure", matcher: { output: { path: "Regoin", expected: "x", comparator: "stringEquals" } } }
    ] })]
    pub async fn get_stack(&self, name: String) -> Result<GetStackOutput, Error> {
        let _ = name;
        Err(Error::NotFound)
    }
}

fn main() {}
