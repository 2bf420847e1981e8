//! ECR: the image scan waiter.

use std::collections::HashMap;
use std::time::SystemTime;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, failure, fast, success};

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum ScanStatus {
    InProgress,
    Complete,
    Failed,
    UnsupportedImage,
    Active,
    Pending,
    ScanEligibilityExpired,
    FindingsUnavailable,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "camelCase")]
struct ImageScanStatus {
    status: Option<ScanStatus>,
    description: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "camelCase")]
struct ImageScanFindings {
    image_scan_completed_at: Option<SystemTime>,
    finding_severity_counts: Option<HashMap<String, i32>>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "camelCase")]
struct DescribeImageScanFindingsOutput {
    registry_id: Option<String>,
    repository_name: Option<String>,
    image_scan_status: Option<ImageScanStatus>,
    image_scan_findings: Option<ImageScanFindings>,
    next_token: Option<String>,
}

impl Svc<DescribeImageScanFindingsOutput> {
    #[waitable({
        "ImageScanComplete": {
            "documentation": "Wait until an image scan is complete and findings can be accessed",
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "imageScanStatus.status", "expected": "COMPLETE", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "imageScanStatus.status", "expected": "FAILED", "comparator": "stringEquals" } } }
            ],
            "minDelay": 5
        }
    })]
    async fn describe_image_scan_findings(
        &self,
        repository_name: String,
    ) -> Result<DescribeImageScanFindingsOutput, AwsError> {
        let _ = repository_name;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn ecr_image_scan_complete() {
    let findings = |status| DescribeImageScanFindingsOutput {
        registry_id: Some("123".into()),
        repository_name: Some("r".into()),
        image_scan_status: Some(ImageScanStatus {
            status: Some(status),
            description: None,
        }),
        image_scan_findings: Some(ImageScanFindings {
            image_scan_completed_at: None,
            finding_severity_counts: Some(HashMap::from([("HIGH".into(), 1)])),
        }),
        next_token: None,
    };
    let ecr = Svc::new([
        Ok(findings(ScanStatus::InProgress)),
        Ok(findings(ScanStatus::Complete)),
    ]);
    assert_eq!(
        success(fast(ecr.wait_until_image_scan_complete("r".into())).await),
        2
    );
    let ecr = Svc::new([Ok(findings(ScanStatus::Failed))]);
    assert_eq!(
        failure(fast(ecr.wait_until_image_scan_complete("r".into())).await),
        1
    );
}
