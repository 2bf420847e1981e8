//! Kinesis (awsJson1_1, PascalCase members).

use std::time::SystemTime;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, fast, success};

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum StreamStatus {
    Creating,
    Deleting,
    Active,
    Updating,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct HashKeyRange {
    starting_hash_key: String,
    ending_hash_key: String,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Shard {
    shard_id: String,
    parent_shard_id: Option<String>,
    hash_key_range: HashKeyRange,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct EnhancedMetrics {
    shard_level_metrics: Option<Vec<String>>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct StreamDescription {
    stream_name: String,
    #[serde(rename = "StreamARN")]
    stream_arn: String,
    stream_status: StreamStatus,
    shards: Vec<Shard>,
    has_more_shards: bool,
    retention_period_hours: i32,
    stream_creation_timestamp: SystemTime,
    enhanced_monitoring: Vec<EnhancedMetrics>,
    encryption_type: Option<String>,
    key_id: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeStreamOutput {
    stream_description: StreamDescription,
}

fn stream(status: StreamStatus) -> DescribeStreamOutput {
    DescribeStreamOutput {
        stream_description: StreamDescription {
            stream_name: "s".into(),
            stream_arn: "arn:aws:kinesis:us-east-1:123:stream/s".into(),
            stream_status: status,
            shards: vec![Shard {
                shard_id: "shardId-000000000000".into(),
                parent_shard_id: None,
                hash_key_range: HashKeyRange {
                    starting_hash_key: "0".into(),
                    ending_hash_key: "340282366920938463463374607431768211455".into(),
                },
            }],
            has_more_shards: false,
            retention_period_hours: 24,
            stream_creation_timestamp: SystemTime::UNIX_EPOCH,
            enhanced_monitoring: vec![EnhancedMetrics {
                shard_level_metrics: Some(vec![]),
            }],
            encryption_type: Some("NONE".into()),
            key_id: None,
        },
    }
}

impl Svc<DescribeStreamOutput> {
    #[waitable({
        "StreamExists": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "StreamDescription.StreamStatus", "expected": "ACTIVE", "comparator": "stringEquals" } } }
            ],
            "minDelay": 10
        },
        "StreamNotExists": {
            "acceptors": [
                { "state": "success", "matcher": { "errorType": "ResourceNotFoundException" } }
            ],
            "minDelay": 10
        }
    })]
    async fn describe_stream(&self, stream_name: String) -> Result<DescribeStreamOutput, AwsError> {
        let _ = stream_name;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn kinesis_stream_exists_and_not_exists() {
    let kinesis = Svc::new([
        Ok(stream(StreamStatus::Creating)),
        Ok(stream(StreamStatus::Active)),
    ]);
    assert_eq!(
        success(fast(kinesis.wait_until_stream_exists("s".into())).await),
        2
    );
    let kinesis = Svc::new([
        Ok(stream(StreamStatus::Deleting)),
        Err(AwsError("ResourceNotFoundException")),
    ]);
    assert_eq!(
        success(fast(kinesis.wait_until_stream_not_exists("s".into())).await),
        2
    );
}
