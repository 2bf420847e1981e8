// A botocore waiter pasted: the translation advice is the one error. The waiter functions keep
// their signatures (by the waiters' names), so the callers compile.
use std::time::Duration;
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
    #[waitable({
        "TableExists": {
            "delay": 20,
            "operation": "DescribeTable",
            "maxAttempts": 25,
            "acceptors": [
                { "expected": "ACTIVE", "matcher": "path", "state": "success", "argument": "Table.TableStatus" },
                { "expected": "ResourceNotFoundException", "matcher": "error", "state": "retry" }
            ]
        },
        "TableNotExists": {
            "delay": 20,
            "operation": "DescribeTable",
            "maxAttempts": 25,
            "acceptors": [
                { "expected": "ResourceNotFoundException", "matcher": "error", "state": "success" }
            ]
        }
    })]
    pub async fn describe_table(&self, name: &str) -> Result<DescribeTableOutput, Error> {
        let _ = name;
        Err(Error::ResourceNotFoundException)
    }
}

pub async fn caller(client: &Client) {
    let done = client
        .wait_until_table_exists("orders")
        .wait(Duration::from_secs(300))
        .await
        .unwrap();
    let _: &str = &done.output().unwrap().table.table_status;
    let _ = client
        .wait_until_table_not_exists("orders")
        .wait(Duration::from_secs(300))
        .await;
}

fn main() {}
