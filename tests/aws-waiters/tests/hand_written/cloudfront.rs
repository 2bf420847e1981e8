//! CloudFront (restXml, PascalCase members).

use std::time::SystemTime;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, fast, op_failed, success};

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Aliases {
    quantity: i32,
    items: Option<Vec<String>>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DistributionConfig {
    caller_reference: String,
    aliases: Option<Aliases>,
    default_root_object: Option<String>,
    comment: String,
    enabled: bool,
    price_class: Option<String>,
    http_version: Option<String>,
    #[serde(rename = "IsIPV6Enabled")]
    is_ipv6_enabled: Option<bool>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Distribution {
    id: String,
    #[serde(rename = "ARN")]
    arn: String,
    status: String,
    last_modified_time: SystemTime,
    in_progress_invalidation_batches: i32,
    domain_name: String,
    distribution_config: DistributionConfig,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct GetDistributionOutput {
    distribution: Option<Distribution>,
    #[serde(rename = "ETag")]
    e_tag: Option<String>,
}

fn distribution(status: &str) -> GetDistributionOutput {
    GetDistributionOutput {
        distribution: Some(Distribution {
            id: "E1".into(),
            arn: "arn:aws:cloudfront::123:distribution/E1".into(),
            status: status.into(),
            last_modified_time: SystemTime::UNIX_EPOCH,
            in_progress_invalidation_batches: 0,
            domain_name: "d1.cloudfront.net".into(),
            distribution_config: DistributionConfig {
                caller_reference: "ref".into(),
                aliases: Some(Aliases {
                    quantity: 0,
                    items: None,
                }),
                default_root_object: Some("index.html".into()),
                comment: String::new(),
                enabled: true,
                price_class: Some("PriceClass_All".into()),
                http_version: Some("http2".into()),
                is_ipv6_enabled: Some(true),
            },
        }),
        e_tag: Some("E2".into()),
    }
}

impl Svc<GetDistributionOutput> {
    #[waitable({
        "DistributionDeployed": {
            "documentation": "Wait until a distribution is deployed.",
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Distribution.Status", "expected": "Deployed", "comparator": "stringEquals" } } }
            ],
            "minDelay": 60
        }
    })]
    async fn get_distribution(&self, id: String) -> Result<GetDistributionOutput, AwsError> {
        let _ = id;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn cloudfront_distribution_deployed() {
    let cf = Svc::new([Ok(distribution("InProgress")), Ok(distribution("Deployed"))]);
    assert_eq!(
        success(fast(cf.wait_until_distribution_deployed("E1".into())).await),
        2
    );
    let cf = Svc::new([Err(AwsError("NoSuchDistribution"))]);
    assert_eq!(
        op_failed(fast(cf.wait_until_distribution_deployed("E1".into())).await),
        AwsError("NoSuchDistribution")
    );
}
