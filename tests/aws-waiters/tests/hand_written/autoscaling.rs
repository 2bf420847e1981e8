//! Auto Scaling (awsQuery, PascalCase members).

use std::collections::HashMap;
use std::time::SystemTime;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, fast, success};

#[derive(Debug, Clone, Searchable)]
enum LifecycleState {
    Pending,
    #[serde(rename = "Pending:Wait")]
    PendingWait,
    #[serde(rename = "Pending:Proceed")]
    PendingProceed,
    Quarantined,
    InService,
    Terminating,
    #[serde(rename = "Terminating:Wait")]
    TerminatingWait,
    Terminated,
    Detaching,
    Detached,
    EnteringStandby,
    Standby,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct AsgInstance {
    instance_id: String,
    instance_type: Option<String>,
    availability_zone: String,
    lifecycle_state: LifecycleState,
    health_status: String,
    protected_from_scale_in: bool,
    weighted_capacity: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct AutoScalingGroup {
    auto_scaling_group_name: String,
    #[serde(rename = "AutoScalingGroupARN")]
    auto_scaling_group_arn: Option<String>,
    min_size: i32,
    max_size: i32,
    desired_capacity: i32,
    default_cooldown: Option<i32>,
    availability_zones: Option<Vec<String>>,
    #[serde(rename = "LoadBalancerNames")]
    load_balancer_names: Option<Vec<String>>,
    #[serde(rename = "TargetGroupARNs")]
    target_group_arns: Option<Vec<String>>,
    health_check_type: String,
    health_check_grace_period: Option<i32>,
    instances: Option<Vec<AsgInstance>>,
    created_time: SystemTime,
    tags: Option<Vec<HashMap<String, serde_json::Value>>>,
    capacity_rebalance: Option<bool>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeAutoScalingGroupsOutput {
    auto_scaling_groups: Vec<AutoScalingGroup>,
    next_token: Option<String>,
}

/// One group per entry: its minimum size and its instances' lifecycle states.
fn groups(spec: &[(i32, &[LifecycleState])]) -> DescribeAutoScalingGroupsOutput {
    DescribeAutoScalingGroupsOutput {
        auto_scaling_groups: spec
            .iter()
            .map(|(min, states)| AutoScalingGroup {
                auto_scaling_group_name: "g".into(),
                auto_scaling_group_arn: None,
                min_size: *min,
                max_size: 10,
                desired_capacity: *min,
                default_cooldown: Some(300),
                availability_zones: Some(vec!["us-east-1a".into()]),
                load_balancer_names: Some(vec![]),
                target_group_arns: Some(vec![]),
                health_check_type: "EC2".into(),
                health_check_grace_period: Some(300),
                instances: Some(
                    states
                        .iter()
                        .map(|s| AsgInstance {
                            instance_id: "i-0".into(),
                            instance_type: Some("t3.micro".into()),
                            availability_zone: "us-east-1a".into(),
                            lifecycle_state: s.clone(),
                            health_status: "Healthy".into(),
                            protected_from_scale_in: false,
                            weighted_capacity: None,
                        })
                        .collect(),
                ),
                created_time: SystemTime::UNIX_EPOCH,
                tags: Some(vec![]),
                capacity_rebalance: Some(false),
            })
            .collect(),
        next_token: None,
    }
}

impl Svc<DescribeAutoScalingGroupsOutput> {
    #[waitable({
        "GroupExists": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "length(AutoScalingGroups) > `0`", "expected": "true", "comparator": "booleanEquals" } } },
                { "state": "retry", "matcher": { "output": { "path": "length(AutoScalingGroups) > `0`", "expected": "false", "comparator": "booleanEquals" } } }
            ],
            "minDelay": 5
        },
        "GroupInService": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "contains(AutoScalingGroups[].[length(Instances[?LifecycleState=='InService']) >= MinSize][], `false`)", "expected": "false", "comparator": "booleanEquals" } } },
                { "state": "retry", "matcher": { "output": { "path": "contains(AutoScalingGroups[].[length(Instances[?LifecycleState=='InService']) >= MinSize][], `false`)", "expected": "true", "comparator": "booleanEquals" } } }
            ],
            "minDelay": 15
        },
        "GroupNotExists": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "length(AutoScalingGroups) > `0`", "expected": "false", "comparator": "booleanEquals" } } },
                { "state": "retry", "matcher": { "output": { "path": "length(AutoScalingGroups) > `0`", "expected": "true", "comparator": "booleanEquals" } } }
            ],
            "minDelay": 15
        }
    })]
    async fn describe_auto_scaling_groups(
        &self,
        auto_scaling_group_names: Vec<String>,
    ) -> Result<DescribeAutoScalingGroupsOutput, AwsError> {
        let _ = auto_scaling_group_names;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn autoscaling_group_waiters() {
    use LifecycleState::*;
    let asg = Svc::new([Ok(groups(&[])), Ok(groups(&[(1, &[Pending])]))]);
    assert_eq!(success(fast(asg.wait_until_group_exists(vec![])).await), 2);
    let asg = Svc::new([
        Ok(groups(&[(2, &[InService, PendingWait]), (1, &[InService])])),
        Ok(groups(&[(2, &[InService, InService]), (1, &[Standby])])),
        Ok(groups(&[(2, &[InService, InService]), (1, &[InService])])),
    ]);
    assert_eq!(
        success(fast(asg.wait_until_group_in_service(vec![])).await),
        3
    );
    let asg = Svc::new([Ok(groups(&[(1, &[Terminating])])), Ok(groups(&[]))]);
    assert_eq!(
        success(fast(asg.wait_until_group_not_exists(vec![])).await),
        2
    );
}
