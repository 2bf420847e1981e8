// An `errorType` the error type does not model is a warning, as in Smithy, also when the type
// has a catch-all variant for the codes it does not model: a near miss says "did you mean",
// anything else lists the codes; a code the catch-all declares with `codes = [..]` is known.
// (`deny` makes the warnings errors, for the test.)
#![deny(deprecated)]

use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    ResourceNotFoundException,
    ResourceInUseException,
    #[error_metadata(codes = ["ProvisionedThroughputExceededException"])]
    Other {
        #[error_metadata(code)]
        code: String,
        #[error_metadata(status)]
        status: u16,
    },
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
        { state: "success", matcher: { output: { path: "Table.TableStatus", expected: "ACTIVE", comparator: "stringEquals" } } }
        { state: "retry", matcher: { errorType: "ResourceNotFound" } }
        { state: "retry", matcher: { errorType: "ThrottlingException" } }
        { state: "retry", matcher: { errorType: "ProvisionedThroughputExceededException" } }
        { state: "retry", matcher: { errorType: "com.amazonaws.dynamodb#ResourceInUseException" } }
    ] })]
    pub async fn describe_table(&self, name: &str) -> Result<DescribeTableOutput, Error> {
        let _ = name;
        Err(Error::ResourceNotFoundException)
    }
}

fn main() {}
