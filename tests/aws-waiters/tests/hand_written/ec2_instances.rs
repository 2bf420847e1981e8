//! EC2 (ec2 query protocol: PascalCase member names in the model): instances, their status and
//! their password data.

use std::time::SystemTime;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, Tag, failure, fast, ms, op_failed, success, timed_out};

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "kebab-case")]
enum InstanceStateName {
    Pending,
    Running,
    ShuttingDown,
    Terminated,
    Stopping,
    Stopped,
    /// A state this client does not know yet (a forward-compatible Smithy enum): still a
    /// string, so the waiter's string comparators type-check.
    #[serde(untagged)]
    Unknown(String),
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct InstanceState {
    code: Option<i32>,
    name: Option<InstanceStateName>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Instance {
    ami_launch_index: Option<i32>,
    image_id: Option<String>,
    instance_id: Option<String>,
    instance_type: Option<String>,
    launch_time: Option<SystemTime>,
    private_ip_address: Option<String>,
    state: Option<InstanceState>,
    ebs_optimized: Option<bool>,
    tags: Option<Vec<Tag>>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Reservation {
    groups: Option<Vec<GroupIdentifier>>,
    instances: Option<Vec<Instance>>,
    owner_id: Option<String>,
    reservation_id: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct GroupIdentifier {
    group_name: Option<String>,
    group_id: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeInstancesOutput {
    reservations: Option<Vec<Reservation>>,
    next_token: Option<String>,
}

fn instances(states: &[InstanceStateName]) -> DescribeInstancesOutput {
    DescribeInstancesOutput {
        reservations: Some(vec![Reservation {
            groups: None,
            instances: Some(
                states
                    .iter()
                    .enumerate()
                    .map(|(i, s)| Instance {
                        ami_launch_index: Some(i as i32),
                        image_id: Some("ami-1".into()),
                        instance_id: Some(format!("i-{i}")),
                        instance_type: Some("t3.micro".into()),
                        launch_time: Some(SystemTime::UNIX_EPOCH),
                        private_ip_address: None,
                        state: Some(InstanceState {
                            code: Some(16),
                            name: Some(s.clone()),
                        }),
                        ebs_optimized: Some(false),
                        tags: Some(vec![]),
                    })
                    .collect(),
            ),
            owner_id: Some("123".into()),
            reservation_id: Some("r-1".into()),
        }]),
        next_token: None,
    }
}

impl Svc<DescribeInstancesOutput> {
    #[waitable({
        "InstanceExists": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "length(Reservations[]) > `0`", "expected": "true", "comparator": "booleanEquals" } } },
                { "state": "retry", "matcher": { "errorType": "InvalidInstanceID.NotFound" } }
            ],
            "minDelay": 5
        },
        "InstanceRunning": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Reservations[].Instances[].State.Name", "expected": "running", "comparator": "allStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Reservations[].Instances[].State.Name", "expected": "shutting-down", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Reservations[].Instances[].State.Name", "expected": "terminated", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Reservations[].Instances[].State.Name", "expected": "stopping", "comparator": "anyStringEquals" } } },
                { "state": "retry", "matcher": { "errorType": "InvalidInstanceID.NotFound" } }
            ],
            "minDelay": 15
        },
        "InstanceStopped": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Reservations[].Instances[].State.Name", "expected": "stopped", "comparator": "allStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Reservations[].Instances[].State.Name", "expected": "pending", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Reservations[].Instances[].State.Name", "expected": "terminated", "comparator": "anyStringEquals" } } }
            ],
            "minDelay": 15
        },
        "InstanceTerminated": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Reservations[].Instances[].State.Name", "expected": "terminated", "comparator": "allStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Reservations[].Instances[].State.Name", "expected": "pending", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Reservations[].Instances[].State.Name", "expected": "stopping", "comparator": "anyStringEquals" } } }
            ],
            "minDelay": 15
        }
    })]
    async fn describe_instances(
        &self,
        instance_ids: Vec<String>,
    ) -> Result<DescribeInstancesOutput, AwsError> {
        let _ = instance_ids;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn ec2_instance_exists() {
    let ec2 = Svc::new([
        Err(AwsError("InvalidInstanceID.NotFound")),
        Ok(instances(&[InstanceStateName::Pending])),
    ]);
    let r = fast(ec2.wait_until_instance_exists(vec!["i-0".into()])).await;
    assert_eq!(success(r), 2);
    let empty = Svc::new([Ok(DescribeInstancesOutput {
        reservations: Some(vec![]),
        next_token: None,
    })]);
    let r = empty
        .wait_until_instance_exists(vec![])
        .min_delay(ms(1))
        .max_delay(ms(5))
        .wait(ms(50))
        .await;
    assert!(timed_out(r) > 1);
}

#[tokio::test(start_paused = true)]
async fn ec2_instance_running() {
    use InstanceStateName::*;
    let ec2 = Svc::new([
        Err(AwsError("InvalidInstanceID.NotFound")),
        Ok(instances(&[Pending, Running])),
        Ok(instances(&[Running, Running])),
    ]);
    let r = fast(ec2.wait_until_instance_running(vec!["i-0".into(), "i-1".into()])).await;
    assert_eq!(success(r), 3);
    // A state the client does not know is compared as the string it holds.
    let ec2 = Svc::new([
        Ok(instances(&[Unknown("hibernating".into())])),
        Ok(instances(&[Unknown("running".into())])),
    ]);
    assert_eq!(
        success(fast(ec2.wait_until_instance_running(vec![])).await),
        2
    );
    for (state, acceptor) in [(ShuttingDown, 1), (Terminated, 2), (Stopping, 3)] {
        let ec2 = Svc::new([Ok(instances(&[Running, state]))]);
        let r = fast(ec2.wait_until_instance_running(vec![])).await;
        assert_eq!(failure(r), acceptor);
    }
}

#[tokio::test(start_paused = true)]
async fn ec2_instance_stopped() {
    use InstanceStateName::*;
    let ec2 = Svc::new([Ok(instances(&[Stopping])), Ok(instances(&[Stopped]))]);
    let r = fast(ec2.wait_until_instance_stopped(vec![])).await;
    assert_eq!(success(r), 2);
    let ec2 = Svc::new([Ok(instances(&[Stopped, Pending]))]);
    let r = fast(ec2.wait_until_instance_stopped(vec![])).await;
    assert_eq!(failure(r), 1);
    // No acceptor names the error: it ends the wait.
    let ec2 = Svc::new([Err(AwsError("InvalidInstanceID.NotFound"))]);
    let r = fast(ec2.wait_until_instance_stopped(vec![])).await;
    assert_eq!(op_failed(r), AwsError("InvalidInstanceID.NotFound"));
}

#[tokio::test(start_paused = true)]
async fn ec2_instance_terminated() {
    use InstanceStateName::*;
    let ec2 = Svc::new([Ok(instances(&[ShuttingDown])), Ok(instances(&[Terminated]))]);
    let r = fast(ec2.wait_until_instance_terminated(vec![])).await;
    assert_eq!(success(r), 2);
    let ec2 = Svc::new([Ok(instances(&[Terminated, Stopping]))]);
    let r = fast(ec2.wait_until_instance_terminated(vec![])).await;
    assert_eq!(failure(r), 2);
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct InstanceStatusSummary {
    details: Option<Vec<InstanceStatusDetails>>,
    status: Option<SummaryStatus>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct InstanceStatusDetails {
    impaired_since: Option<SystemTime>,
    name: Option<String>,
    status: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "kebab-case")]
enum SummaryStatus {
    Ok,
    Impaired,
    InsufficientData,
    NotApplicable,
    Initializing,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct InstanceStatus {
    availability_zone: Option<String>,
    instance_id: Option<String>,
    instance_state: Option<InstanceState>,
    instance_status: Option<InstanceStatusSummary>,
    system_status: Option<InstanceStatusSummary>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeInstanceStatusOutput {
    instance_statuses: Option<Vec<InstanceStatus>>,
    next_token: Option<String>,
}

fn statuses(instance: SummaryStatus, system: SummaryStatus) -> DescribeInstanceStatusOutput {
    let summary = |s| InstanceStatusSummary {
        details: Some(vec![]),
        status: Some(s),
    };
    DescribeInstanceStatusOutput {
        instance_statuses: Some(vec![InstanceStatus {
            availability_zone: Some("us-east-1a".into()),
            instance_id: Some("i-0".into()),
            instance_state: None,
            instance_status: Some(summary(instance)),
            system_status: Some(summary(system)),
        }]),
        next_token: None,
    }
}

impl Svc<DescribeInstanceStatusOutput> {
    #[waitable({
        "InstanceStatusOk": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "InstanceStatuses[].InstanceStatus.Status", "expected": "ok", "comparator": "allStringEquals" } } },
                { "state": "retry", "matcher": { "errorType": "InvalidInstanceID.NotFound" } }
            ],
            "minDelay": 15
        },
        "SystemStatusOk": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "InstanceStatuses[].SystemStatus.Status", "expected": "ok", "comparator": "allStringEquals" } } }
            ],
            "minDelay": 15
        }
    })]
    async fn describe_instance_status(
        &self,
        instance_ids: Vec<String>,
    ) -> Result<DescribeInstanceStatusOutput, AwsError> {
        let _ = instance_ids;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn ec2_instance_status_ok_and_system_status_ok() {
    use SummaryStatus::{Impaired, Initializing};
    const OK: SummaryStatus = SummaryStatus::Ok;
    let ec2 = Svc::new([
        Err(AwsError("InvalidInstanceID.NotFound")),
        Ok(statuses(Initializing, OK)),
        Ok(statuses(OK, OK)),
    ]);
    let r = fast(ec2.wait_until_instance_status_ok(vec![])).await;
    assert_eq!(success(r), 3);
    let ec2 = Svc::new([Ok(statuses(Impaired, Impaired)), Ok(statuses(Impaired, OK))]);
    let r = fast(ec2.wait_until_system_status_ok(vec![])).await;
    assert_eq!(success(r), 2);
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct GetPasswordDataOutput {
    instance_id: Option<String>,
    password_data: Option<String>,
    timestamp: Option<SystemTime>,
}

impl Svc<GetPasswordDataOutput> {
    #[waitable({
        "PasswordDataAvailable": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "length(PasswordData) > `0`", "expected": "true", "comparator": "booleanEquals" } } }
            ],
            "minDelay": 15
        }
    })]
    async fn get_password_data(
        &self,
        instance_id: String,
    ) -> Result<GetPasswordDataOutput, AwsError> {
        let _ = instance_id;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn ec2_password_data_available() {
    let out = |p: &str| GetPasswordDataOutput {
        instance_id: Some("i-0".into()),
        password_data: Some(p.into()),
        timestamp: Some(SystemTime::UNIX_EPOCH),
    };
    let ec2 = Svc::new([Ok(out("")), Ok(out("c2VjcmV0"))]);
    let r = fast(ec2.wait_until_password_data_available("i-0".into())).await;
    assert_eq!(success(r), 2);
}
