//! S3 (restXml; the waiters only look at success and errors).

use std::collections::HashMap;
use std::time::SystemTime;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, fast, op_failed, success};

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct HeadBucketOutput {
    bucket_location_type: Option<String>,
    bucket_location_name: Option<String>,
    bucket_region: Option<String>,
    access_point_alias: Option<bool>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct HeadObjectOutput {
    delete_marker: Option<bool>,
    accept_ranges: Option<String>,
    last_modified: Option<SystemTime>,
    content_length: Option<i64>,
    #[serde(rename = "ETag")]
    e_tag: Option<String>,
    version_id: Option<String>,
    content_type: Option<String>,
    metadata: Option<HashMap<String, String>>,
    parts_count: Option<i32>,
}

impl Svc<HeadBucketOutput> {
    #[waitable({
        "BucketExists": {
            "acceptors": [
                { "state": "success", "matcher": { "success": true } },
                { "state": "retry", "matcher": { "errorType": "NotFound" } }
            ],
            "minDelay": 5
        },
        "BucketNotExists": {
            "acceptors": [
                { "state": "success", "matcher": { "errorType": "NotFound" } }
            ],
            "minDelay": 5
        }
    })]
    async fn head_bucket(&self, bucket: String) -> Result<HeadBucketOutput, AwsError> {
        let _ = bucket;
        self.next()
    }
}

impl Svc<HeadObjectOutput> {
    #[waitable({
        "ObjectExists": {
            "acceptors": [
                { "state": "success", "matcher": { "success": true } },
                { "state": "retry", "matcher": { "errorType": "NotFound" } }
            ],
            "minDelay": 5
        },
        "ObjectNotExists": {
            "acceptors": [
                { "state": "success", "matcher": { "errorType": "NotFound" } }
            ],
            "minDelay": 5
        }
    })]
    async fn head_object(&self, bucket: String, key: String) -> Result<HeadObjectOutput, AwsError> {
        let _ = (bucket, key);
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn s3_bucket_and_object_exist_and_not_exist() {
    let bucket = HeadBucketOutput {
        bucket_location_type: None,
        bucket_location_name: None,
        bucket_region: Some("us-east-1".into()),
        access_point_alias: Some(false),
    };
    let s3 = Svc::new([Err(AwsError("NotFound")), Ok(bucket.clone())]);
    assert_eq!(
        success(fast(s3.wait_until_bucket_exists("b".into())).await),
        2
    );
    let s3 = Svc::new([Ok(bucket), Err(AwsError("NotFound"))]);
    assert_eq!(
        success(fast(s3.wait_until_bucket_not_exists("b".into())).await),
        2
    );
    let s3 = Svc::new([Err(AwsError("Forbidden"))]);
    assert_eq!(
        op_failed(fast(s3.wait_until_bucket_exists("b".into())).await),
        AwsError("Forbidden")
    );

    let object = HeadObjectOutput {
        delete_marker: None,
        accept_ranges: Some("bytes".into()),
        last_modified: Some(SystemTime::UNIX_EPOCH),
        content_length: Some(3),
        e_tag: Some("\"abc\"".into()),
        version_id: None,
        content_type: Some("text/plain".into()),
        metadata: Some(HashMap::new()),
        parts_count: None,
    };
    let s3 = Svc::new([Err(AwsError("NotFound")), Ok(object.clone())]);
    let r = fast(s3.wait_until_object_exists("b".into(), "k".into())).await;
    assert_eq!(success(r), 2);
    let s3 = Svc::new([Ok(object), Err(AwsError("NotFound"))]);
    let r = fast(s3.wait_until_object_not_exists("b".into(), "k".into())).await;
    assert_eq!(success(r), 2);
}
