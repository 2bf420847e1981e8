//! Elastic Load Balancing: v2 (awsQuery, PascalCase members) and classic.

use std::time::SystemTime;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, fast, ms, success, timed_out};

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "snake_case")]
enum LoadBalancerStateEnum {
    Active,
    Provisioning,
    ActiveImpaired,
    Failed,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct LoadBalancerState {
    code: Option<LoadBalancerStateEnum>,
    reason: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct AvailabilityZone {
    zone_name: Option<String>,
    subnet_id: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct LoadBalancer {
    load_balancer_arn: Option<String>,
    #[serde(rename = "DNSName")]
    dns_name: Option<String>,
    canonical_hosted_zone_id: Option<String>,
    created_time: Option<SystemTime>,
    load_balancer_name: Option<String>,
    scheme: Option<String>,
    vpc_id: Option<String>,
    state: Option<LoadBalancerState>,
    r#type: Option<String>,
    availability_zones: Option<Vec<AvailabilityZone>>,
    security_groups: Option<Vec<String>>,
    ip_address_type: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeLoadBalancersOutput {
    load_balancers: Option<Vec<LoadBalancer>>,
    next_marker: Option<String>,
}

fn load_balancers(states: &[LoadBalancerStateEnum]) -> DescribeLoadBalancersOutput {
    DescribeLoadBalancersOutput {
        load_balancers: Some(
            states
                .iter()
                .map(|s| LoadBalancer {
                    load_balancer_arn: Some("arn:lb".into()),
                    dns_name: Some("lb.example".into()),
                    canonical_hosted_zone_id: None,
                    created_time: Some(SystemTime::UNIX_EPOCH),
                    load_balancer_name: Some("lb".into()),
                    scheme: Some("internet-facing".into()),
                    vpc_id: Some("vpc-1".into()),
                    state: Some(LoadBalancerState {
                        code: Some(s.clone()),
                        reason: None,
                    }),
                    r#type: Some("application".into()),
                    availability_zones: Some(vec![AvailabilityZone {
                        zone_name: Some("us-east-1a".into()),
                        subnet_id: Some("subnet-1".into()),
                    }]),
                    security_groups: Some(vec![]),
                    ip_address_type: Some("ipv4".into()),
                })
                .collect(),
        ),
        next_marker: None,
    }
}

impl Svc<DescribeLoadBalancersOutput> {
    #[waitable({
        "LoadBalancerAvailable": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "LoadBalancers[].State.Code", "expected": "active", "comparator": "allStringEquals" } } },
                { "state": "retry", "matcher": { "output": { "path": "LoadBalancers[].State.Code", "expected": "provisioning", "comparator": "anyStringEquals" } } },
                { "state": "retry", "matcher": { "errorType": "LoadBalancerNotFound" } }
            ],
            "minDelay": 15
        },
        "LoadBalancerExists": {
            "acceptors": [
                { "state": "success", "matcher": { "success": true } },
                { "state": "retry", "matcher": { "errorType": "LoadBalancerNotFound" } }
            ],
            "minDelay": 15
        },
        "LoadBalancersDeleted": {
            "acceptors": [
                { "state": "retry", "matcher": { "output": { "path": "LoadBalancers[].State.Code", "expected": "active", "comparator": "allStringEquals" } } },
                { "state": "success", "matcher": { "errorType": "LoadBalancerNotFound" } }
            ],
            "minDelay": 15
        }
    })]
    async fn describe_load_balancers(
        &self,
        names: Vec<String>,
    ) -> Result<DescribeLoadBalancersOutput, AwsError> {
        let _ = names;
        self.next()
    }
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "snake_case")]
enum TargetHealthStateEnum {
    Initial,
    Healthy,
    Unhealthy,
    #[serde(rename = "unhealthy.draining")]
    UnhealthyDraining,
    Unused,
    Draining,
    Unavailable,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct TargetDescription {
    id: String,
    port: Option<i32>,
    availability_zone: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct TargetHealth {
    state: Option<TargetHealthStateEnum>,
    reason: Option<String>,
    description: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct TargetHealthDescription {
    target: Option<TargetDescription>,
    health_check_port: Option<String>,
    target_health: Option<TargetHealth>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeTargetHealthOutput {
    target_health_descriptions: Option<Vec<TargetHealthDescription>>,
}

fn target_health(states: &[TargetHealthStateEnum]) -> DescribeTargetHealthOutput {
    DescribeTargetHealthOutput {
        target_health_descriptions: Some(
            states
                .iter()
                .map(|s| TargetHealthDescription {
                    target: Some(TargetDescription {
                        id: "i-0".into(),
                        port: Some(80),
                        availability_zone: None,
                    }),
                    health_check_port: Some("80".into()),
                    target_health: Some(TargetHealth {
                        state: Some(s.clone()),
                        reason: None,
                        description: None,
                    }),
                })
                .collect(),
        ),
    }
}

impl Svc<DescribeTargetHealthOutput> {
    #[waitable({
        "TargetDeregistered": {
            "acceptors": [
                { "state": "success", "matcher": { "errorType": "InvalidTarget" } },
                { "state": "success", "matcher": { "output": { "path": "TargetHealthDescriptions[].TargetHealth.State", "expected": "unused", "comparator": "allStringEquals" } } }
            ],
            "minDelay": 15
        },
        "TargetInService": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "TargetHealthDescriptions[].TargetHealth.State", "expected": "healthy", "comparator": "allStringEquals" } } },
                { "state": "retry", "matcher": { "errorType": "InvalidInstance" } }
            ],
            "minDelay": 15
        }
    })]
    async fn describe_target_health(
        &self,
        target_group_arn: String,
    ) -> Result<DescribeTargetHealthOutput, AwsError> {
        let _ = target_group_arn;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn elbv2_load_balancer_and_target_waiters() {
    use LoadBalancerStateEnum::*;
    let elb = Svc::new([
        Err(AwsError("LoadBalancerNotFound")),
        Ok(load_balancers(&[Provisioning])),
        Ok(load_balancers(&[Active])),
    ]);
    assert_eq!(
        success(fast(elb.wait_until_load_balancer_available(vec![])).await),
        3
    );
    let elb = Svc::new([
        Err(AwsError("LoadBalancerNotFound")),
        Ok(load_balancers(&[Provisioning])),
    ]);
    assert_eq!(
        success(fast(elb.wait_until_load_balancer_exists(vec![])).await),
        2
    );
    let elb = Svc::new([
        Ok(load_balancers(&[Active])),
        Err(AwsError("LoadBalancerNotFound")),
    ]);
    assert_eq!(
        success(fast(elb.wait_until_load_balancers_deleted(vec![])).await),
        2
    );
    // `failed` is neither active nor provisioning: no acceptor matches, the waiter retries.
    let elb = Svc::new([Ok(load_balancers(&[Failed]))]);
    let r = elb
        .wait_until_load_balancer_available(vec![])
        .min_delay(ms(1))
        .max_delay(ms(5))
        .wait(ms(100))
        .await;
    assert!(timed_out(r) > 1);

    use TargetHealthStateEnum::*;
    let elb = Svc::new([
        Err(AwsError("InvalidInstance")),
        Ok(target_health(&[Initial, Healthy])),
        Ok(target_health(&[Healthy, Healthy])),
    ]);
    let r = fast(elb.wait_until_target_in_service("tg".into())).await;
    assert_eq!(success(r), 3);
    let elb = Svc::new([Ok(target_health(&[Draining])), Ok(target_health(&[Unused]))]);
    let r = fast(elb.wait_until_target_deregistered("tg".into())).await;
    assert_eq!(success(r), 2);
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct InstanceHealth {
    instance_id: Option<String>,
    state: Option<String>,
    reason_code: Option<String>,
    description: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeEndPointStateOutput {
    instance_states: Option<Vec<InstanceHealth>>,
}

fn instance_health(states: &[&str]) -> DescribeEndPointStateOutput {
    DescribeEndPointStateOutput {
        instance_states: Some(
            states
                .iter()
                .map(|s| InstanceHealth {
                    instance_id: Some("i-0".into()),
                    state: Some((*s).into()),
                    reason_code: Some("N/A".into()),
                    description: None,
                })
                .collect(),
        ),
    }
}

impl Svc<DescribeEndPointStateOutput> {
    #[waitable({
        "AnyInstanceInService": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "InstanceStates[].State", "expected": "InService", "comparator": "anyStringEquals" } } }
            ],
            "minDelay": 15
        },
        "InstanceDeregistered": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "InstanceStates[].State", "expected": "OutOfService", "comparator": "allStringEquals" } } },
                { "state": "success", "matcher": { "errorType": "InvalidInstance" } }
            ],
            "minDelay": 15
        },
        "InstanceInService": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "InstanceStates[].State", "expected": "InService", "comparator": "allStringEquals" } } },
                { "state": "retry", "matcher": { "errorType": "InvalidInstance" } }
            ],
            "minDelay": 15
        }
    })]
    async fn describe_instance_health(
        &self,
        load_balancer_name: String,
    ) -> Result<DescribeEndPointStateOutput, AwsError> {
        let _ = load_balancer_name;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn elb_classic_instance_health_waiters() {
    let elb = Svc::new([
        Ok(instance_health(&["OutOfService", "Unknown"])),
        Ok(instance_health(&["OutOfService", "InService"])),
    ]);
    assert_eq!(
        success(fast(elb.wait_until_any_instance_in_service("lb".into())).await),
        2
    );
    let elb = Svc::new([
        Err(AwsError("InvalidInstance")),
        Ok(instance_health(&["InService", "InService"])),
    ]);
    assert_eq!(
        success(fast(elb.wait_until_instance_in_service("lb".into())).await),
        2
    );
    let elb = Svc::new([
        Ok(instance_health(&["InService"])),
        Err(AwsError("InvalidInstance")),
    ]);
    assert_eq!(
        success(fast(elb.wait_until_instance_deregistered("lb".into())).await),
        2
    );
}
