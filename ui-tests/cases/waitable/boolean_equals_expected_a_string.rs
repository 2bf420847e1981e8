// `booleanEquals` with `expected: "ACTIVE"`: one error at `expected`, saying to compare with
// `stringEquals` (not a second one saying the path reads a string). The path's members are
// still checked in the same pass: a typo in it is its own error.
use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    ResourceNotFoundException,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct Table {
    pub table_status: String,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct DescribeTableOutput {
    pub table: Table,
}

pub struct Client;

impl Client {
    #[waitable(TableExists: { acceptors: [
        { state: "success", matcher: { output: { path: "Table.TableStatus", expected: "ACTIVE", comparator: "booleanEquals" } } }
        { state: "failure", matcher: { output: { path: "Table.TableStats", expected: "FAILED", comparator: "booleanEquals" } } }
    ] })]
    pub async fn describe_table(&self, name: &str) -> Result<DescribeTableOutput, Error> {
        let _ = name;
        Err(Error::ResourceNotFoundException)
    }
}

fn main() {}
