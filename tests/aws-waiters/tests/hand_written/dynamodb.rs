//! DynamoDB (awsJson1_0, PascalCase members).

use std::collections::HashMap;
use std::time::SystemTime;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, failure, fast, op_failed, success};

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum TableStatus {
    Creating,
    Updating,
    Deleting,
    Active,
    InaccessibleEncryptionCredentials,
    Archiving,
    Archived,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct KeySchemaElement {
    attribute_name: String,
    key_type: String,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct ProvisionedThroughputDescription {
    last_increase_date_time: Option<SystemTime>,
    number_of_decreases_today: Option<i64>,
    read_capacity_units: Option<i64>,
    write_capacity_units: Option<i64>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct TableDescription {
    attribute_definitions: Option<Vec<HashMap<String, String>>>,
    table_name: Option<String>,
    key_schema: Option<Vec<KeySchemaElement>>,
    table_status: Option<TableStatus>,
    creation_date_time: Option<SystemTime>,
    provisioned_throughput: Option<ProvisionedThroughputDescription>,
    table_size_bytes: Option<i64>,
    item_count: Option<i64>,
    table_arn: Option<String>,
    table_id: Option<String>,
    deletion_protection_enabled: Option<bool>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeTableOutput {
    table: Option<TableDescription>,
}

fn table(status: TableStatus) -> DescribeTableOutput {
    DescribeTableOutput {
        table: Some(TableDescription {
            attribute_definitions: None,
            table_name: Some("t".into()),
            key_schema: Some(vec![KeySchemaElement {
                attribute_name: "pk".into(),
                key_type: "HASH".into(),
            }]),
            table_status: Some(status),
            creation_date_time: Some(SystemTime::UNIX_EPOCH),
            provisioned_throughput: None,
            table_size_bytes: Some(0),
            item_count: Some(0),
            table_arn: Some("arn:aws:dynamodb:us-east-1:123:table/t".into()),
            table_id: None,
            deletion_protection_enabled: Some(false),
        }),
    }
}

impl Svc<DescribeTableOutput> {
    #[waitable({
        "TableExists": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Table.TableStatus", "expected": "ACTIVE", "comparator": "stringEquals" } } },
                { "state": "retry", "matcher": { "errorType": "ResourceNotFoundException" } }
            ],
            "minDelay": 20
        },
        "TableNotExists": {
            "acceptors": [
                { "state": "success", "matcher": { "errorType": "ResourceNotFoundException" } }
            ],
            "minDelay": 20
        }
    })]
    async fn describe_table(&self, table_name: String) -> Result<DescribeTableOutput, AwsError> {
        let _ = table_name;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn dynamodb_table_exists_and_not_exists() {
    let ddb = Svc::new([
        Err(AwsError("ResourceNotFoundException")),
        Ok(table(TableStatus::Creating)),
        Ok(table(TableStatus::Active)),
    ]);
    assert_eq!(
        success(fast(ddb.wait_until_table_exists("t".into())).await),
        3
    );
    let ddb = Svc::new([
        Ok(table(TableStatus::Deleting)),
        Err(AwsError("ResourceNotFoundException")),
    ]);
    assert_eq!(
        success(fast(ddb.wait_until_table_not_exists("t".into())).await),
        2
    );
    let ddb = Svc::new([Err(AwsError("AccessDeniedException"))]);
    assert_eq!(
        op_failed(fast(ddb.wait_until_table_exists("t".into())).await),
        AwsError("AccessDeniedException")
    );
}

#[derive(Debug, Clone, PartialEq, Searchable)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum DestinationStatus {
    Enabling,
    Active,
    Disabling,
    Disabled,
    EnableFailed,
    Updating,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct KinesisDataStreamDestination {
    stream_arn: Option<String>,
    destination_status: Option<DestinationStatus>,
    destination_status_description: Option<String>,
    approximate_creation_date_time_precision: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeKinesisStreamingDestinationOutput {
    table_name: Option<String>,
    kinesis_data_stream_destinations: Option<Vec<KinesisDataStreamDestination>>,
}

fn destinations(states: &[DestinationStatus]) -> DescribeKinesisStreamingDestinationOutput {
    DescribeKinesisStreamingDestinationOutput {
        table_name: Some("t".into()),
        kinesis_data_stream_destinations: Some(
            states
                .iter()
                .map(|s| KinesisDataStreamDestination {
                    stream_arn: Some("arn:aws:kinesis:us-east-1:123:stream/s".into()),
                    destination_status: Some(s.clone()),
                    destination_status_description: None,
                    approximate_creation_date_time_precision: None,
                })
                .collect(),
        ),
    }
}

impl Svc<DescribeKinesisStreamingDestinationOutput> {
    #[waitable({
        "KinesisStreamingDestinationActive": {
            "documentation": "Wait until a Kinesis streaming destination is active",
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "KinesisDataStreamDestinations[].DestinationStatus", "expected": "ACTIVE", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "length(KinesisDataStreamDestinations) > `0` && length(KinesisDataStreamDestinations[?DestinationStatus == 'DISABLED' || DestinationStatus == 'ENABLE_FAILED']) == length(KinesisDataStreamDestinations)", "expected": "true", "comparator": "booleanEquals" } } }
            ],
            "minDelay": 20
        }
    })]
    async fn describe_kinesis_streaming_destination(
        &self,
        table_name: String,
    ) -> Result<DescribeKinesisStreamingDestinationOutput, AwsError> {
        let _ = table_name;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn dynamodb_kinesis_streaming_destination_active() {
    use DestinationStatus::*;
    let ddb = Svc::new([
        Ok(destinations(&[])),
        Ok(destinations(&[Enabling, Disabled])),
        Ok(destinations(&[Active, Disabled])),
    ]);
    let r = fast(ddb.wait_until_kinesis_streaming_destination_active("t".into())).await;
    assert_eq!(success(r), 3);
    let ddb = Svc::new([Ok(destinations(&[Disabled, EnableFailed]))]);
    let r = fast(ddb.wait_until_kinesis_streaming_destination_active("t".into())).await;
    assert_eq!(failure(r), 1);
}
