// A botocore waiter translated to Smithy but for two members: it is read as a Smithy waiter
// (not the whole botocore error), and each leftover is an unknown member whose warning says
// what to do: drop `operation`, rename `description` to `documentation`.
// (`deny` makes the warnings errors, for the test.)
#![deny(deprecated)]

use waiter_runtime::{Searchable, waitable};

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct Stack {
    pub stack_status: String,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct DescribeStacksOutput {
    pub stacks: Vec<Stack>,
}

pub struct Client;

impl Client {
    #[waitable(StackCreateComplete: {
        operation: "DescribeStacks"
        description: "Wait until stack status is CREATE_COMPLETE."
        minDelay: 30
        acceptors: [
            { state: "success", matcher: { output: { path: "Stacks[].StackStatus", expected: "CREATE_COMPLETE", comparator: "allStringEquals" } } }
        ]
    })]
    pub async fn describe_stacks(&self, name: &str) -> Result<DescribeStacksOutput, std::io::Error> {
        let _ = name;
        Err(std::io::Error::other("offline"))
    }
}

fn main() {}
