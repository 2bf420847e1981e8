//! ECS (awsJson1_1, camelCase members).

use std::time::SystemTime;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, failure, fast, success};

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "camelCase")]
struct Failure {
    arn: Option<String>,
    reason: Option<String>,
    detail: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum DeploymentRolloutState {
    Completed,
    Failed,
    InProgress,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "camelCase")]
struct Deployment {
    id: Option<String>,
    status: Option<String>,
    task_definition: Option<String>,
    desired_count: i32,
    pending_count: i32,
    running_count: i32,
    failed_tasks: i32,
    created_at: Option<SystemTime>,
    rollout_state: Option<DeploymentRolloutState>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "camelCase")]
struct EcsService {
    service_arn: Option<String>,
    service_name: Option<String>,
    cluster_arn: Option<String>,
    status: Option<String>,
    desired_count: i32,
    running_count: i32,
    pending_count: i32,
    launch_type: Option<String>,
    deployments: Option<Vec<Deployment>>,
    created_at: Option<SystemTime>,
    enable_execute_command: bool,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "camelCase")]
struct DescribeServicesOutput {
    services: Option<Vec<EcsService>>,
    failures: Option<Vec<Failure>>,
}

fn deployment(desired: i32, running: i32) -> Deployment {
    Deployment {
        id: Some("ecs-svc/1".into()),
        status: Some("PRIMARY".into()),
        task_definition: Some("td:1".into()),
        desired_count: desired,
        pending_count: desired - running,
        running_count: running,
        failed_tasks: 0,
        created_at: Some(SystemTime::UNIX_EPOCH),
        rollout_state: Some(DeploymentRolloutState::InProgress),
    }
}

/// One service: its status, desired and running counts, deployments.
fn services(
    status: &str,
    desired: i32,
    running: i32,
    deployments: usize,
) -> DescribeServicesOutput {
    DescribeServicesOutput {
        services: Some(vec![EcsService {
            service_arn: Some("arn:aws:ecs:us-east-1:123:service/c/s".into()),
            service_name: Some("s".into()),
            cluster_arn: Some("arn:aws:ecs:us-east-1:123:cluster/c".into()),
            status: Some(status.into()),
            desired_count: desired,
            running_count: running,
            pending_count: 0,
            launch_type: Some("FARGATE".into()),
            deployments: Some(vec![deployment(desired, running); deployments]),
            created_at: None,
            enable_execute_command: false,
        }]),
        failures: Some(vec![]),
    }
}

fn missing() -> DescribeServicesOutput {
    DescribeServicesOutput {
        services: Some(vec![]),
        failures: Some(vec![Failure {
            arn: Some("arn:aws:ecs:us-east-1:123:service/c/s".into()),
            reason: Some("MISSING".into()),
            detail: None,
        }]),
    }
}

impl Svc<DescribeServicesOutput> {
    #[waitable({
        "ServicesInactive": {
            "acceptors": [
                { "state": "failure", "matcher": { "output": { "path": "failures[].reason", "expected": "MISSING", "comparator": "anyStringEquals" } } },
                { "state": "success", "matcher": { "output": { "path": "services[].status", "expected": "INACTIVE", "comparator": "anyStringEquals" } } }
            ],
            "minDelay": 15
        },
        "ServicesStable": {
            "acceptors": [
                { "state": "failure", "matcher": { "output": { "path": "failures[].reason", "expected": "MISSING", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "services[].status", "expected": "DRAINING", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "services[].status", "expected": "INACTIVE", "comparator": "anyStringEquals" } } },
                { "state": "success", "matcher": { "output": { "path": "length(services[?!(length(deployments) == `1` && runningCount == desiredCount)]) == `0`", "expected": "true", "comparator": "booleanEquals" } } }
            ],
            "minDelay": 15
        }
    })]
    async fn describe_services(
        &self,
        cluster: String,
        services: Vec<String>,
    ) -> Result<DescribeServicesOutput, AwsError> {
        let _ = (cluster, services);
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn ecs_services_stable_and_inactive() {
    let ecs = Svc::new([
        Ok(services("ACTIVE", 2, 1, 1)),
        Ok(services("ACTIVE", 2, 2, 2)),
        Ok(services("ACTIVE", 2, 2, 1)),
    ]);
    let r = fast(ecs.wait_until_services_stable("c".into(), vec!["s".into()])).await;
    assert_eq!(success(r), 3);
    let ecs = Svc::new([
        Ok(services("ACTIVE", 2, 1, 1)),
        Ok(services("DRAINING", 2, 1, 1)),
    ]);
    let r = fast(ecs.wait_until_services_stable("c".into(), vec!["s".into()])).await;
    assert_eq!(failure(r), 1);
    let ecs = Svc::new([Ok(missing())]);
    let r = fast(ecs.wait_until_services_stable("c".into(), vec!["s".into()])).await;
    assert_eq!(failure(r), 0);

    let ecs = Svc::new([
        Ok(services("DRAINING", 0, 0, 1)),
        Ok(services("INACTIVE", 0, 0, 0)),
    ]);
    let r = fast(ecs.wait_until_services_inactive("c".into(), vec!["s".into()])).await;
    assert_eq!(success(r), 2);
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "camelCase")]
struct Container {
    container_arn: Option<String>,
    name: Option<String>,
    last_status: Option<String>,
    exit_code: Option<i32>,
    reason: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "camelCase")]
struct Task {
    task_arn: Option<String>,
    cluster_arn: Option<String>,
    last_status: Option<String>,
    desired_status: Option<String>,
    containers: Option<Vec<Container>>,
    cpu: Option<String>,
    memory: Option<String>,
    started_at: Option<SystemTime>,
    stopped_reason: Option<String>,
    version: i64,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "camelCase")]
struct DescribeTasksOutput {
    tasks: Option<Vec<Task>>,
    failures: Option<Vec<Failure>>,
}

fn tasks(states: &[&str]) -> DescribeTasksOutput {
    DescribeTasksOutput {
        tasks: Some(
            states
                .iter()
                .map(|s| Task {
                    task_arn: Some("arn:aws:ecs:us-east-1:123:task/c/t".into()),
                    cluster_arn: None,
                    last_status: Some((*s).into()),
                    desired_status: Some("RUNNING".into()),
                    containers: Some(vec![Container {
                        container_arn: None,
                        name: Some("app".into()),
                        last_status: Some((*s).into()),
                        exit_code: None,
                        reason: None,
                    }]),
                    cpu: Some("256".into()),
                    memory: Some("512".into()),
                    started_at: None,
                    stopped_reason: None,
                    version: 1,
                })
                .collect(),
        ),
        failures: Some(vec![]),
    }
}

impl Svc<DescribeTasksOutput> {
    #[waitable({
        "TasksRunning": {
            "acceptors": [
                { "state": "failure", "matcher": { "output": { "path": "tasks[].lastStatus", "expected": "STOPPED", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "failures[].reason", "expected": "MISSING", "comparator": "anyStringEquals" } } },
                { "state": "success", "matcher": { "output": { "path": "tasks[].lastStatus", "expected": "RUNNING", "comparator": "allStringEquals" } } }
            ],
            "minDelay": 6
        },
        "TasksStopped": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "tasks[].lastStatus", "expected": "STOPPED", "comparator": "allStringEquals" } } }
            ],
            "minDelay": 6
        }
    })]
    async fn describe_tasks(
        &self,
        cluster: String,
        tasks: Vec<String>,
    ) -> Result<DescribeTasksOutput, AwsError> {
        let _ = (cluster, tasks);
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn ecs_tasks_running_and_stopped() {
    let ecs = Svc::new([
        Ok(tasks(&["PROVISIONING", "PENDING"])),
        Ok(tasks(&["RUNNING", "RUNNING"])),
    ]);
    let r = fast(ecs.wait_until_tasks_running("c".into(), vec![])).await;
    assert_eq!(success(r), 2);
    let ecs = Svc::new([Ok(tasks(&["RUNNING", "STOPPED"]))]);
    let r = fast(ecs.wait_until_tasks_running("c".into(), vec![])).await;
    assert_eq!(failure(r), 0);
    let ecs = Svc::new([Ok(tasks(&["DEPROVISIONING"])), Ok(tasks(&["STOPPED"]))]);
    let r = fast(ecs.wait_until_tasks_stopped("c".into(), vec![])).await;
    assert_eq!(success(r), 2);
}
