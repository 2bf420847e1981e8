//! Route 53, IAM, SES, CloudWatch, SageMaker: other shapes of path (maps, numbers, bare members).

use std::collections::HashMap;
use std::time::SystemTime;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, Tag, failure, fast, ms, success, timed_out};

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum ChangeStatus {
    Pending,
    Insync,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct ChangeInfo {
    id: String,
    status: ChangeStatus,
    submitted_at: SystemTime,
    comment: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct GetChangeOutput {
    change_info: ChangeInfo,
}

impl Svc<GetChangeOutput> {
    #[waitable({
        "ResourceRecordSetsChanged": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "ChangeInfo.Status", "expected": "INSYNC", "comparator": "stringEquals" } } }
            ],
            "minDelay": 30
        }
    })]
    async fn get_change(&self, id: String) -> Result<GetChangeOutput, AwsError> {
        let _ = id;
        self.next()
    }
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Role {
    path: String,
    role_name: String,
    role_id: String,
    arn: String,
    create_date: SystemTime,
    assume_role_policy_document: Option<String>,
    max_session_duration: Option<i32>,
    tags: Option<Vec<Tag>>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct GetRoleOutput {
    role: Role,
}

impl Svc<GetRoleOutput> {
    #[waitable({
        "RoleExists": {
            "acceptors": [
                { "state": "success", "matcher": { "success": true } },
                { "state": "retry", "matcher": { "errorType": "NoSuchEntity" } }
            ],
            "minDelay": 1
        }
    })]
    async fn get_role(&self, role_name: String) -> Result<GetRoleOutput, AwsError> {
        let _ = role_name;
        self.next()
    }
}

#[derive(Debug, Clone, Searchable)]
enum VerificationStatus {
    Pending,
    Success,
    Failed,
    TemporaryFailure,
    NotStarted,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct IdentityVerificationAttributes {
    verification_status: VerificationStatus,
    verification_token: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct GetIdentityVerificationAttributesOutput {
    verification_attributes: HashMap<String, IdentityVerificationAttributes>,
}

fn verification(
    statuses: &[(&str, VerificationStatus)],
) -> GetIdentityVerificationAttributesOutput {
    GetIdentityVerificationAttributesOutput {
        verification_attributes: statuses
            .iter()
            .map(|(identity, status)| {
                (
                    (*identity).to_owned(),
                    IdentityVerificationAttributes {
                        verification_status: status.clone(),
                        verification_token: None,
                    },
                )
            })
            .collect(),
    }
}

impl Svc<GetIdentityVerificationAttributesOutput> {
    #[waitable({
        "IdentityExists": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "VerificationAttributes.*.VerificationStatus", "expected": "Success", "comparator": "allStringEquals" } } }
            ],
            "minDelay": 3
        }
    })]
    async fn get_identity_verification_attributes(
        &self,
        identities: Vec<String>,
    ) -> Result<GetIdentityVerificationAttributesOutput, AwsError> {
        let _ = identities;
        self.next()
    }
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Dimension {
    name: String,
    value: String,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct MetricAlarm {
    alarm_name: Option<String>,
    alarm_arn: Option<String>,
    actions_enabled: Option<bool>,
    #[serde(rename = "OKActions")]
    ok_actions: Option<Vec<String>>,
    state_value: Option<String>,
    state_updated_timestamp: Option<SystemTime>,
    metric_name: Option<String>,
    namespace: Option<String>,
    statistic: Option<String>,
    dimensions: Option<Vec<Dimension>>,
    period: Option<i32>,
    evaluation_periods: Option<i32>,
    threshold: Option<f64>,
    comparison_operator: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeAlarmsOutput {
    composite_alarms: Option<Vec<HashMap<String, serde_json::Value>>>,
    metric_alarms: Option<Vec<MetricAlarm>>,
    next_token: Option<String>,
}

impl Svc<DescribeAlarmsOutput> {
    #[waitable({
        "AlarmExists": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "length(MetricAlarms[]) > `0`", "expected": "true", "comparator": "booleanEquals" } } }
            ],
            "minDelay": 5
        },
        "CompositeAlarmExists": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "length(CompositeAlarms[]) > `0`", "expected": "true", "comparator": "booleanEquals" } } }
            ],
            "minDelay": 5
        }
    })]
    async fn describe_alarms(
        &self,
        alarm_names: Vec<String>,
    ) -> Result<DescribeAlarmsOutput, AwsError> {
        let _ = alarm_names;
        self.next()
    }
}

#[derive(Debug, Clone, Searchable)]
enum EndpointStatus {
    OutOfService,
    Creating,
    Updating,
    SystemUpdating,
    RollingBack,
    InService,
    Deleting,
    Failed,
    UpdateRollbackFailed,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct ProductionVariantSummary {
    variant_name: String,
    current_weight: Option<f32>,
    desired_weight: Option<f32>,
    current_instance_count: Option<i32>,
    desired_instance_count: Option<i32>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeEndpointOutput {
    endpoint_name: String,
    endpoint_arn: String,
    endpoint_config_name: Option<String>,
    production_variants: Option<Vec<ProductionVariantSummary>>,
    endpoint_status: EndpointStatus,
    failure_reason: Option<String>,
    creation_time: SystemTime,
    last_modified_time: SystemTime,
}

impl Svc<DescribeEndpointOutput> {
    #[waitable({
        "EndpointInService": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "EndpointStatus", "expected": "InService", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "EndpointStatus", "expected": "Failed", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "errorType": "ValidationException" } }
            ],
            "minDelay": 30,
            "maxDelay": 120
        },
        "EndpointDeleted": {
            "acceptors": [
                { "state": "success", "matcher": { "errorType": "ValidationException" } },
                { "state": "failure", "matcher": { "output": { "path": "EndpointStatus", "expected": "Failed", "comparator": "stringEquals" } } }
            ],
            "minDelay": 30,
            "maxDelay": 120
        }
    })]
    async fn describe_endpoint(
        &self,
        endpoint_name: String,
    ) -> Result<DescribeEndpointOutput, AwsError> {
        let _ = endpoint_name;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn route53_iam_ses_cloudwatch_sagemaker_waiters() {
    let change = |status| GetChangeOutput {
        change_info: ChangeInfo {
            id: "/change/C1".into(),
            status,
            submitted_at: SystemTime::UNIX_EPOCH,
            comment: None,
        },
    };
    let r53 = Svc::new([
        Ok(change(ChangeStatus::Pending)),
        Ok(change(ChangeStatus::Insync)),
    ]);
    assert_eq!(
        success(fast(r53.wait_until_resource_record_sets_changed("C1".into())).await),
        2
    );

    let role = GetRoleOutput {
        role: Role {
            path: "/".into(),
            role_name: "r".into(),
            role_id: "AROA1".into(),
            arn: "arn:aws:iam::123:role/r".into(),
            create_date: SystemTime::UNIX_EPOCH,
            assume_role_policy_document: None,
            max_session_duration: Some(3600),
            tags: None,
        },
    };
    let iam = Svc::new([Err(AwsError("NoSuchEntity")), Ok(role)]);
    assert_eq!(
        success(fast(iam.wait_until_role_exists("r".into())).await),
        2
    );

    use VerificationStatus::*;
    let ses = Svc::new([
        Ok(verification(&[
            ("a.example", Success),
            ("b.example", Pending),
        ])),
        Ok(verification(&[
            ("a.example", Success),
            ("b.example", Success),
        ])),
    ]);
    let r = fast(ses.wait_until_identity_exists(vec![])).await;
    assert_eq!(success(r), 2);

    let alarm = MetricAlarm {
        alarm_name: Some("cpu".into()),
        alarm_arn: None,
        actions_enabled: Some(true),
        ok_actions: Some(vec![]),
        state_value: Some("OK".into()),
        state_updated_timestamp: None,
        metric_name: Some("CPUUtilization".into()),
        namespace: Some("AWS/EC2".into()),
        statistic: Some("Average".into()),
        dimensions: Some(vec![Dimension {
            name: "InstanceId".into(),
            value: "i-0".into(),
        }]),
        period: Some(300),
        evaluation_periods: Some(2),
        threshold: Some(80.5),
        comparison_operator: Some("GreaterThanThreshold".into()),
    };
    let alarms = |metric: Vec<MetricAlarm>| DescribeAlarmsOutput {
        composite_alarms: Some(vec![]),
        metric_alarms: Some(metric),
        next_token: None,
    };
    let cw = Svc::new([Ok(alarms(vec![])), Ok(alarms(vec![alarm]))]);
    assert_eq!(success(fast(cw.wait_until_alarm_exists(vec![])).await), 2);
    let cw = Svc::new([Ok(alarms(vec![]))]);
    let r = cw
        .wait_until_composite_alarm_exists(vec![])
        .min_delay(ms(1))
        .max_delay(ms(5))
        .wait(ms(100))
        .await;
    assert!(timed_out(r) > 1);

    let endpoint = |status| DescribeEndpointOutput {
        endpoint_name: "e".into(),
        endpoint_arn: "arn:aws:sagemaker:us-east-1:123:endpoint/e".into(),
        endpoint_config_name: Some("ec".into()),
        production_variants: Some(vec![ProductionVariantSummary {
            variant_name: "AllTraffic".into(),
            current_weight: Some(1.0),
            desired_weight: Some(1.0),
            current_instance_count: Some(1),
            desired_instance_count: Some(1),
        }]),
        endpoint_status: status,
        failure_reason: None,
        creation_time: SystemTime::UNIX_EPOCH,
        last_modified_time: SystemTime::UNIX_EPOCH,
    };
    let sm = Svc::new([
        Ok(endpoint(EndpointStatus::Creating)),
        Ok(endpoint(EndpointStatus::InService)),
    ]);
    assert_eq!(
        success(fast(sm.wait_until_endpoint_in_service("e".into())).await),
        2
    );
    let sm = Svc::new([
        Ok(endpoint(EndpointStatus::Creating)),
        Ok(endpoint(EndpointStatus::Failed)),
    ]);
    assert_eq!(
        failure(fast(sm.wait_until_endpoint_in_service("e".into())).await),
        1
    );
    let sm = Svc::new([
        Ok(endpoint(EndpointStatus::Deleting)),
        Err(AwsError("ValidationException")),
    ]);
    assert_eq!(
        success(fast(sm.wait_until_endpoint_deleted("e".into())).await),
        2
    );
}
