//! Real AWS waiters, pasted as the AWS Smithy models publish them (`smithy.waiters#waitable`,
//! JSON AST), on hand-written client methods whose outputs are modelled on the AWS shapes: wire
//! names through serde renames, `Option` for optional members, lists, maps, unit enums,
//! numbers, booleans and timestamps where the model has them. Each waiter must compile (its
//! paths are type-checked against those outputs) and drive a poll against canned data.
//!
//! The hand-written side of this crate's `oracle` test, which compiles every waiter botocore
//! ships on generated outputs.

// The shapes are modelled faithfully: not every member or enum variant is built by a test.
#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use waiter_runtime::waiter::{FinalPoll, Waiter};
use waiter_runtime::{ProvideErrorMetadata, Searchable, WaiterError, waitable};

const MAX_WAIT: Duration = Duration::from_secs(120);

const fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// An AWS error as an SDK shows it: the service's error code.
#[derive(Debug, Clone, PartialEq)]
struct AwsError(&'static str);

impl fmt::Display for AwsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}
impl std::error::Error for AwsError {}

impl ProvideErrorMetadata for AwsError {
    fn code(&self) -> Option<&str> {
        Some(self.0)
    }
}

/// A canned service: each call returns the next scripted result; the last one repeats.
struct Svc<O> {
    script: Mutex<VecDeque<Result<O, AwsError>>>,
}

impl<O: Clone> Svc<O> {
    fn new(script: impl IntoIterator<Item = Result<O, AwsError>>) -> Self {
        let script: VecDeque<_> = script.into_iter().collect();
        assert!(!script.is_empty());
        Svc {
            script: Mutex::new(script),
        }
    }

    fn next(&self) -> Result<O, AwsError> {
        let mut script = self.script.lock().unwrap();
        if script.len() > 1 {
            script.pop_front().unwrap()
        } else {
            script.front().unwrap().clone()
        }
    }
}

/// Runs `waiter` with short delays (the model's are tens of seconds) up to `MAX_WAIT`.
async fn fast<O, E>(waiter: Waiter<'_, O, E>) -> Result<FinalPoll<O, E>, WaiterError<O, E>> {
    waiter
        .min_delay(ms(1))
        .max_delay(ms(5))
        .wait(MAX_WAIT)
        .await
}

/// The polls of a wait that reached `success`.
fn success<O: fmt::Debug, E: fmt::Debug>(r: Result<FinalPoll<O, E>, WaiterError<O, E>>) -> u32 {
    r.unwrap().polls
}

/// The index of the `failure` acceptor that ended a wait.
fn failure<O: fmt::Debug, E: fmt::Debug>(r: Result<FinalPoll<O, E>, WaiterError<O, E>>) -> usize {
    match r {
        Err(WaiterError::FailureState { acceptor, .. }) => acceptor,
        other => panic!("expected a failure state, got {other:?}"),
    }
}

/// The polls of a wait that ran out of time (every poll matched `retry` or nothing).
fn timed_out<O: fmt::Debug, E: fmt::Debug>(r: Result<FinalPoll<O, E>, WaiterError<O, E>>) -> u32 {
    match r {
        Err(WaiterError::ExceededMaxWait { polls, .. }) => polls,
        other => panic!("expected the max wait to pass, got {other:?}"),
    }
}

/// The error of a wait that ended on an error no acceptor names.
fn op_failed<O: fmt::Debug, E: fmt::Debug>(r: Result<FinalPoll<O, E>, WaiterError<O, E>>) -> E {
    match r {
        Err(WaiterError::OperationFailed { error, .. }) => error,
        other => panic!("expected an unmatched error, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// EC2 (ec2 query protocol: PascalCase member names in the model)
// ---------------------------------------------------------------------------------------------

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
struct Tag {
    key: Option<String>,
    value: Option<String>,
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
#[serde(rename_all = "lowercase")]
enum ImageState {
    Pending,
    Available,
    Invalid,
    Deregistered,
    Transient,
    Failed,
    Error,
    Disabled,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct StateReason {
    code: Option<String>,
    message: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Image {
    architecture: Option<String>,
    creation_date: Option<String>,
    image_id: Option<String>,
    image_location: Option<String>,
    public: Option<bool>,
    state: Option<ImageState>,
    state_reason: Option<StateReason>,
    block_device_mappings: Option<Vec<HashMap<String, String>>>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeImagesOutput {
    images: Option<Vec<Image>>,
    next_token: Option<String>,
}

fn images(states: &[ImageState]) -> DescribeImagesOutput {
    DescribeImagesOutput {
        images: Some(
            states
                .iter()
                .map(|s| Image {
                    architecture: Some("x86_64".into()),
                    creation_date: None,
                    image_id: Some("ami-1".into()),
                    image_location: None,
                    public: Some(false),
                    state: Some(s.clone()),
                    state_reason: None,
                    block_device_mappings: None,
                })
                .collect(),
        ),
        next_token: None,
    }
}

impl Svc<DescribeImagesOutput> {
    #[waitable({
        "ImageAvailable": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Images[].State", "expected": "available", "comparator": "allStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Images[].State", "expected": "failed", "comparator": "anyStringEquals" } } }
            ],
            "minDelay": 15
        },
        "ImageExists": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "length(Images[]) > `0`", "expected": "true", "comparator": "booleanEquals" } } },
                { "state": "retry", "matcher": { "errorType": "InvalidAMIID.NotFound" } }
            ],
            "minDelay": 15
        }
    })]
    async fn describe_images(
        &self,
        image_ids: Vec<String>,
    ) -> Result<DescribeImagesOutput, AwsError> {
        let _ = image_ids;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn ec2_image_available_and_exists() {
    use ImageState::*;
    let ec2 = Svc::new([Ok(images(&[Pending])), Ok(images(&[Available]))]);
    let r = fast(ec2.wait_until_image_available(vec![])).await;
    assert_eq!(success(r), 2);
    let ec2 = Svc::new([Ok(images(&[Pending, Failed]))]);
    let r = fast(ec2.wait_until_image_available(vec![])).await;
    assert_eq!(failure(r), 1);
    let ec2 = Svc::new([
        Err(AwsError("InvalidAMIID.NotFound")),
        Ok(images(&[Pending])),
    ]);
    let r = fast(ec2.wait_until_image_exists(vec![])).await;
    assert_eq!(success(r), 2);
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "kebab-case")]
enum VolumeState {
    Creating,
    Available,
    InUse,
    Deleting,
    Deleted,
    Error,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct VolumeAttachment {
    attach_time: Option<SystemTime>,
    device: Option<String>,
    instance_id: Option<String>,
    state: Option<String>,
    volume_id: Option<String>,
    delete_on_termination: Option<bool>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Volume {
    attachments: Option<Vec<VolumeAttachment>>,
    availability_zone: Option<String>,
    create_time: Option<SystemTime>,
    encrypted: Option<bool>,
    size: Option<i32>,
    snapshot_id: Option<String>,
    state: Option<VolumeState>,
    volume_id: Option<String>,
    iops: Option<i32>,
    volume_type: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeVolumesOutput {
    volumes: Option<Vec<Volume>>,
    next_token: Option<String>,
}

fn volumes(states: &[VolumeState]) -> DescribeVolumesOutput {
    DescribeVolumesOutput {
        volumes: Some(
            states
                .iter()
                .map(|s| Volume {
                    attachments: Some(vec![]),
                    availability_zone: Some("us-east-1a".into()),
                    create_time: Some(SystemTime::UNIX_EPOCH),
                    encrypted: Some(true),
                    size: Some(8),
                    snapshot_id: None,
                    state: Some(s.clone()),
                    volume_id: Some("vol-1".into()),
                    iops: Some(3000),
                    volume_type: Some("gp3".into()),
                })
                .collect(),
        ),
        next_token: None,
    }
}

impl Svc<DescribeVolumesOutput> {
    #[waitable({
        "VolumeAvailable": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Volumes[].State", "expected": "available", "comparator": "allStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Volumes[].State", "expected": "deleted", "comparator": "anyStringEquals" } } }
            ],
            "minDelay": 15
        },
        "VolumeDeleted": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Volumes[].State", "expected": "deleted", "comparator": "allStringEquals" } } },
                { "state": "success", "matcher": { "errorType": "InvalidVolume.NotFound" } }
            ],
            "minDelay": 15
        },
        "VolumeInUse": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Volumes[].State", "expected": "in-use", "comparator": "allStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Volumes[].State", "expected": "deleted", "comparator": "anyStringEquals" } } }
            ],
            "minDelay": 15
        }
    })]
    async fn describe_volumes(
        &self,
        volume_ids: Vec<String>,
    ) -> Result<DescribeVolumesOutput, AwsError> {
        let _ = volume_ids;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn ec2_volume_available_deleted_in_use() {
    use VolumeState::*;
    let ec2 = Svc::new([Ok(volumes(&[Creating])), Ok(volumes(&[Available]))]);
    let r = fast(ec2.wait_until_volume_available(vec![])).await;
    assert_eq!(success(r), 2);
    let ec2 = Svc::new([Ok(volumes(&[Available, Deleted]))]);
    let r = fast(ec2.wait_until_volume_available(vec![])).await;
    assert_eq!(failure(r), 1);
    let ec2 = Svc::new([
        Ok(volumes(&[Deleting])),
        Err(AwsError("InvalidVolume.NotFound")),
    ]);
    let r = fast(ec2.wait_until_volume_deleted(vec![])).await;
    assert_eq!(success(r), 2);
    let ec2 = Svc::new([Ok(volumes(&[Available])), Ok(volumes(&[InUse]))]);
    let r = fast(ec2.wait_until_volume_in_use(vec![])).await;
    assert_eq!(success(r), 2);
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "lowercase")]
enum SnapshotState {
    Pending,
    Completed,
    Error,
    Recoverable,
    Recovering,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Snapshot {
    description: Option<String>,
    encrypted: Option<bool>,
    owner_id: Option<String>,
    progress: Option<String>,
    snapshot_id: Option<String>,
    start_time: Option<SystemTime>,
    state: Option<SnapshotState>,
    volume_id: Option<String>,
    volume_size: Option<i32>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeSnapshotsOutput {
    snapshots: Option<Vec<Snapshot>>,
    next_token: Option<String>,
}

fn snapshots(state: SnapshotState) -> DescribeSnapshotsOutput {
    DescribeSnapshotsOutput {
        snapshots: Some(vec![Snapshot {
            description: None,
            encrypted: Some(false),
            owner_id: Some("123".into()),
            progress: Some("100%".into()),
            snapshot_id: Some("snap-1".into()),
            start_time: Some(SystemTime::UNIX_EPOCH),
            state: Some(state),
            volume_id: Some("vol-1".into()),
            volume_size: Some(8),
        }]),
        next_token: None,
    }
}

impl Svc<DescribeSnapshotsOutput> {
    #[waitable({
        "SnapshotCompleted": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Snapshots[].State", "expected": "completed", "comparator": "allStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Snapshots[].State", "expected": "error", "comparator": "anyStringEquals" } } }
            ],
            "minDelay": 15
        }
    })]
    async fn describe_snapshots(
        &self,
        snapshot_ids: Vec<String>,
    ) -> Result<DescribeSnapshotsOutput, AwsError> {
        let _ = snapshot_ids;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn ec2_snapshot_completed() {
    let ec2 = Svc::new([
        Ok(snapshots(SnapshotState::Pending)),
        Ok(snapshots(SnapshotState::Completed)),
    ]);
    let r = fast(ec2.wait_until_snapshot_completed(vec![])).await;
    assert_eq!(success(r), 2);
    let ec2 = Svc::new([Ok(snapshots(SnapshotState::Error))]);
    let r = fast(ec2.wait_until_snapshot_completed(vec![])).await;
    assert_eq!(failure(r), 1);
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct IpPermission {
    from_port: Option<i32>,
    ip_protocol: Option<String>,
    to_port: Option<i32>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct SecurityGroup {
    description: Option<String>,
    group_name: Option<String>,
    ip_permissions: Option<Vec<IpPermission>>,
    owner_id: Option<String>,
    group_id: Option<String>,
    vpc_id: Option<String>,
    tags: Option<Vec<Tag>>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeSecurityGroupsOutput {
    security_groups: Option<Vec<SecurityGroup>>,
    next_token: Option<String>,
}

impl Svc<DescribeSecurityGroupsOutput> {
    #[waitable({
        "SecurityGroupExists": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "length(SecurityGroups[].GroupId) > `0`", "expected": "true", "comparator": "booleanEquals" } } },
                { "state": "retry", "matcher": { "errorType": "InvalidGroup.NotFound" } }
            ],
            "minDelay": 5
        }
    })]
    async fn describe_security_groups(
        &self,
        group_ids: Vec<String>,
    ) -> Result<DescribeSecurityGroupsOutput, AwsError> {
        let _ = group_ids;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn ec2_security_group_exists() {
    let group = SecurityGroup {
        description: Some("web".into()),
        group_name: Some("web".into()),
        ip_permissions: Some(vec![IpPermission {
            from_port: Some(443),
            ip_protocol: Some("tcp".into()),
            to_port: Some(443),
        }]),
        owner_id: None,
        group_id: Some("sg-1".into()),
        vpc_id: Some("vpc-1".into()),
        tags: None,
    };
    let ec2 = Svc::new([
        Err(AwsError("InvalidGroup.NotFound")),
        Ok(DescribeSecurityGroupsOutput {
            security_groups: Some(vec![group]),
            next_token: None,
        }),
    ]);
    let r = fast(ec2.wait_until_security_group_exists(vec!["sg-1".into()])).await;
    assert_eq!(success(r), 2);
    let ec2 = Svc::new([Err(AwsError("UnauthorizedOperation"))]);
    let r = fast(ec2.wait_until_security_group_exists(vec![])).await;
    assert_eq!(op_failed(r), AwsError("UnauthorizedOperation"));
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

// ---------------------------------------------------------------------------------------------
// DynamoDB (awsJson1_0, PascalCase members)
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// S3 (restXml; the waiters only look at success and errors)
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// CloudFormation (awsQuery, PascalCase members)
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum StackStatus {
    CreateInProgress,
    CreateFailed,
    CreateComplete,
    RollbackInProgress,
    RollbackFailed,
    RollbackComplete,
    DeleteInProgress,
    DeleteFailed,
    DeleteComplete,
    UpdateInProgress,
    UpdateCompleteCleanupInProgress,
    UpdateComplete,
    UpdateFailed,
    UpdateRollbackInProgress,
    UpdateRollbackFailed,
    UpdateRollbackCompleteCleanupInProgress,
    UpdateRollbackComplete,
    ReviewInProgress,
    ImportInProgress,
    ImportComplete,
    ImportRollbackInProgress,
    ImportRollbackFailed,
    ImportRollbackComplete,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Parameter {
    parameter_key: Option<String>,
    parameter_value: Option<String>,
    use_previous_value: Option<bool>,
    resolved_value: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct StackOutput {
    output_key: Option<String>,
    output_value: Option<String>,
    description: Option<String>,
    export_name: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Stack {
    stack_id: Option<String>,
    stack_name: String,
    description: Option<String>,
    parameters: Option<Vec<Parameter>>,
    creation_time: SystemTime,
    last_updated_time: Option<SystemTime>,
    stack_status: StackStatus,
    stack_status_reason: Option<String>,
    disable_rollback: Option<bool>,
    #[serde(rename = "NotificationARNs")]
    notification_arns: Option<Vec<String>>,
    timeout_in_minutes: Option<i32>,
    capabilities: Option<Vec<String>>,
    outputs: Option<Vec<StackOutput>>,
    #[serde(rename = "RoleARN")]
    role_arn: Option<String>,
    tags: Option<Vec<Tag>>,
    enable_termination_protection: Option<bool>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeStacksOutput {
    stacks: Option<Vec<Stack>>,
    next_token: Option<String>,
}

fn stacks(states: &[StackStatus]) -> DescribeStacksOutput {
    DescribeStacksOutput {
        stacks: Some(
            states
                .iter()
                .map(|s| Stack {
                    stack_id: Some("arn:aws:cloudformation:us-east-1:123:stack/s/1".into()),
                    stack_name: "s".into(),
                    description: None,
                    parameters: Some(vec![]),
                    creation_time: SystemTime::UNIX_EPOCH,
                    last_updated_time: None,
                    stack_status: s.clone(),
                    stack_status_reason: None,
                    disable_rollback: Some(false),
                    notification_arns: Some(vec![]),
                    timeout_in_minutes: None,
                    capabilities: None,
                    outputs: None,
                    role_arn: None,
                    tags: Some(vec![]),
                    enable_termination_protection: Some(false),
                })
                .collect(),
        ),
        next_token: None,
    }
}

impl Svc<DescribeStacksOutput> {
    #[waitable({
        "StackExists": {
            "acceptors": [
                { "state": "success", "matcher": { "success": true } },
                { "state": "retry", "matcher": { "errorType": "ValidationError" } }
            ],
            "minDelay": 5
        },
        "StackCreateComplete": {
            "documentation": "Wait until stack status is CREATE_COMPLETE.",
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "CREATE_COMPLETE", "comparator": "allStringEquals" } } },
                { "state": "success", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "UPDATE_COMPLETE", "comparator": "allStringEquals" } } },
                { "state": "success", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "UPDATE_IN_PROGRESS", "comparator": "allStringEquals" } } },
                { "state": "success", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS", "comparator": "allStringEquals" } } },
                { "state": "success", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "UPDATE_FAILED", "comparator": "allStringEquals" } } },
                { "state": "success", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "UPDATE_ROLLBACK_IN_PROGRESS", "comparator": "allStringEquals" } } },
                { "state": "success", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "UPDATE_ROLLBACK_FAILED", "comparator": "allStringEquals" } } },
                { "state": "success", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS", "comparator": "allStringEquals" } } },
                { "state": "success", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "UPDATE_ROLLBACK_COMPLETE", "comparator": "allStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "CREATE_FAILED", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "DELETE_COMPLETE", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "DELETE_FAILED", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "ROLLBACK_FAILED", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "ROLLBACK_COMPLETE", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "errorType": "ValidationError" } }
            ],
            "minDelay": 30
        },
        "StackDeleteComplete": {
            "documentation": "Wait until stack status is DELETE_COMPLETE.",
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "DELETE_COMPLETE", "comparator": "allStringEquals" } } },
                { "state": "success", "matcher": { "errorType": "ValidationError" } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "DELETE_FAILED", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "CREATE_FAILED", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "ROLLBACK_FAILED", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "UPDATE_ROLLBACK_IN_PROGRESS", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "UPDATE_ROLLBACK_FAILED", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "UPDATE_ROLLBACK_COMPLETE", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "UPDATE_COMPLETE", "comparator": "anyStringEquals" } } }
            ],
            "minDelay": 30
        }
    })]
    async fn describe_stacks(&self, stack_name: String) -> Result<DescribeStacksOutput, AwsError> {
        let _ = stack_name;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn cloudformation_stack_exists_create_and_delete_complete() {
    use StackStatus::*;
    let cfn = Svc::new([
        Err(AwsError("ValidationError")),
        Ok(stacks(&[CreateInProgress])),
    ]);
    assert_eq!(
        success(fast(cfn.wait_until_stack_exists("s".into())).await),
        2
    );

    let cfn = Svc::new([
        Ok(stacks(&[ReviewInProgress])),
        Ok(stacks(&[CreateInProgress])),
        Ok(stacks(&[CreateComplete])),
    ]);
    let r = fast(cfn.wait_until_stack_create_complete("s".into())).await;
    assert_eq!(success(r), 3);
    let cfn = Svc::new([
        Ok(stacks(&[CreateInProgress])),
        Ok(stacks(&[RollbackComplete])),
    ]);
    let r = fast(cfn.wait_until_stack_create_complete("s".into())).await;
    assert_eq!(failure(r), 13);
    let cfn = Svc::new([Err(AwsError("ValidationError"))]);
    let r = fast(cfn.wait_until_stack_create_complete("s".into())).await;
    assert_eq!(failure(r), 14);

    let cfn = Svc::new([
        Ok(stacks(&[DeleteInProgress])),
        Err(AwsError("ValidationError")),
    ]);
    let r = fast(cfn.wait_until_stack_delete_complete("s".into())).await;
    assert_eq!(success(r), 2);
    let cfn = Svc::new([Ok(stacks(&[DeleteInProgress])), Ok(stacks(&[DeleteFailed]))]);
    let r = fast(cfn.wait_until_stack_delete_complete("s".into())).await;
    assert_eq!(failure(r), 2);
}

// ---------------------------------------------------------------------------------------------
// ECS (awsJson1_1, camelCase members)
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Lambda (restJson1, PascalCase members)
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Searchable)]
enum State {
    Pending,
    Active,
    Inactive,
    Failed,
}

#[derive(Debug, Clone, Searchable)]
enum LastUpdateStatus {
    Successful,
    Failed,
    InProgress,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "lowercase")]
enum Architecture {
    #[serde(rename = "x86_64")]
    X8664,
    Arm64,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct EnvironmentResponse {
    variables: Option<HashMap<String, String>>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct FunctionConfiguration {
    function_name: Option<String>,
    function_arn: Option<String>,
    runtime: Option<String>,
    role: Option<String>,
    handler: Option<String>,
    code_size: i64,
    timeout: Option<i32>,
    memory_size: Option<i32>,
    last_modified: Option<String>,
    code_sha256: Option<String>,
    version: Option<String>,
    environment: Option<EnvironmentResponse>,
    state: Option<State>,
    state_reason: Option<String>,
    last_update_status: Option<LastUpdateStatus>,
    architectures: Option<Vec<Architecture>>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct FunctionCodeLocation {
    repository_type: Option<String>,
    location: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Concurrency {
    reserved_concurrent_executions: Option<i32>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct GetFunctionOutput {
    configuration: Option<FunctionConfiguration>,
    code: Option<FunctionCodeLocation>,
    tags: Option<HashMap<String, String>>,
    concurrency: Option<Concurrency>,
}

fn configuration(state: State, update: LastUpdateStatus) -> FunctionConfiguration {
    FunctionConfiguration {
        function_name: Some("f".into()),
        function_arn: Some("arn:aws:lambda:us-east-1:123:function:f".into()),
        runtime: Some("provided.al2023".into()),
        role: None,
        handler: Some("bootstrap".into()),
        code_size: 1024,
        timeout: Some(3),
        memory_size: Some(128),
        last_modified: Some("2024-01-01T00:00:00.000+0000".into()),
        code_sha256: None,
        version: Some("$LATEST".into()),
        environment: Some(EnvironmentResponse {
            variables: Some(HashMap::from([("RUST_LOG".into(), "info".into())])),
        }),
        state: Some(state),
        state_reason: None,
        last_update_status: Some(update),
        architectures: Some(vec![Architecture::Arm64]),
    }
}

fn function(state: State, update: LastUpdateStatus) -> GetFunctionOutput {
    GetFunctionOutput {
        configuration: Some(configuration(state, update)),
        code: None,
        tags: Some(HashMap::new()),
        concurrency: None,
    }
}

impl Svc<GetFunctionOutput> {
    #[waitable({
        "FunctionActiveV2": {
            "documentation": "Waits for the function's State to be Active. This waiter uses GetFunction API. This should be used after new function creation.",
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Configuration.State", "expected": "Active", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Configuration.State", "expected": "Failed", "comparator": "stringEquals" } } },
                { "state": "retry", "matcher": { "output": { "path": "Configuration.State", "expected": "Pending", "comparator": "stringEquals" } } }
            ],
            "minDelay": 1
        },
        "FunctionExists": {
            "acceptors": [
                { "state": "success", "matcher": { "success": true } },
                { "state": "retry", "matcher": { "errorType": "ResourceNotFoundException" } }
            ],
            "minDelay": 1
        },
        "FunctionUpdatedV2": {
            "documentation": "Waits for the function's LastUpdateStatus to be Successful. This waiter uses GetFunction API. This should be used after function updates.",
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Configuration.LastUpdateStatus", "expected": "Successful", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Configuration.LastUpdateStatus", "expected": "Failed", "comparator": "stringEquals" } } },
                { "state": "retry", "matcher": { "output": { "path": "Configuration.LastUpdateStatus", "expected": "InProgress", "comparator": "stringEquals" } } }
            ],
            "minDelay": 1
        }
    })]
    async fn get_function(&self, function_name: String) -> Result<GetFunctionOutput, AwsError> {
        let _ = function_name;
        self.next()
    }
}

impl Svc<FunctionConfiguration> {
    #[waitable({
        "FunctionActive": {
            "documentation": "Waits for the function's State to be Active. This waiter uses GetFunctionConfiguration API. This should be used after new function creation.",
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "State", "expected": "Active", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "State", "expected": "Failed", "comparator": "stringEquals" } } },
                { "state": "retry", "matcher": { "output": { "path": "State", "expected": "Pending", "comparator": "stringEquals" } } }
            ],
            "minDelay": 5
        },
        "FunctionUpdated": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "LastUpdateStatus", "expected": "Successful", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "LastUpdateStatus", "expected": "Failed", "comparator": "stringEquals" } } },
                { "state": "retry", "matcher": { "output": { "path": "LastUpdateStatus", "expected": "InProgress", "comparator": "stringEquals" } } }
            ],
            "minDelay": 5
        },
        "PublishedVersionActive": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "State", "expected": "Active", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "State", "expected": "Failed", "comparator": "stringEquals" } } },
                { "state": "retry", "matcher": { "output": { "path": "State", "expected": "Pending", "comparator": "stringEquals" } } }
            ],
            "minDelay": 5,
            "maxDelay": 1560
        }
    })]
    async fn get_function_configuration(
        &self,
        function_name: String,
    ) -> Result<FunctionConfiguration, AwsError> {
        let _ = function_name;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn lambda_function_waiters() {
    use LastUpdateStatus::{InProgress, Successful};
    let lambda = Svc::new([
        Err(AwsError("ResourceNotFoundException")),
        Ok(function(State::Pending, Successful)),
    ]);
    assert_eq!(
        success(fast(lambda.wait_until_function_exists("f".into())).await),
        2
    );
    let lambda = Svc::new([
        Ok(function(State::Pending, Successful)),
        Ok(function(State::Active, Successful)),
    ]);
    assert_eq!(
        success(fast(lambda.wait_until_function_active_v2("f".into())).await),
        2
    );
    let lambda = Svc::new([Ok(function(State::Failed, Successful))]);
    assert_eq!(
        failure(fast(lambda.wait_until_function_active_v2("f".into())).await),
        1
    );
    let lambda = Svc::new([
        Ok(function(State::Active, InProgress)),
        Ok(function(State::Active, LastUpdateStatus::Failed)),
    ]);
    assert_eq!(
        failure(fast(lambda.wait_until_function_updated_v2("f".into())).await),
        1
    );

    let lambda = Svc::new([
        Ok(configuration(State::Pending, Successful)),
        Ok(configuration(State::Active, Successful)),
    ]);
    assert_eq!(
        success(fast(lambda.wait_until_function_active("f".into())).await),
        2
    );
    let lambda = Svc::new([
        Ok(configuration(State::Active, InProgress)),
        Ok(configuration(State::Active, Successful)),
    ]);
    assert_eq!(
        success(fast(lambda.wait_until_function_updated("f".into())).await),
        2
    );
    let lambda = Svc::new([Ok(configuration(State::Inactive, Successful))]);
    let r = lambda
        .wait_until_published_version_active("f".into())
        .min_delay(ms(1))
        .max_delay(ms(5))
        .wait(ms(100))
        .await;
    assert!(timed_out(r) > 1);
}

// ---------------------------------------------------------------------------------------------
// RDS (awsQuery, PascalCase members with upper-case acronyms)
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Endpoint {
    address: Option<String>,
    port: Option<i32>,
    hosted_zone_id: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DBInstance {
    #[serde(rename = "DBInstanceIdentifier")]
    db_instance_identifier: Option<String>,
    #[serde(rename = "DBInstanceClass")]
    db_instance_class: Option<String>,
    engine: Option<String>,
    #[serde(rename = "DBInstanceStatus")]
    db_instance_status: Option<String>,
    endpoint: Option<Endpoint>,
    allocated_storage: Option<i32>,
    instance_create_time: Option<SystemTime>,
    #[serde(rename = "MultiAZ")]
    multi_az: Option<bool>,
    engine_version: Option<String>,
    publicly_accessible: Option<bool>,
    #[serde(rename = "DBInstanceArn")]
    db_instance_arn: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeDBInstancesOutput {
    marker: Option<String>,
    #[serde(rename = "DBInstances")]
    db_instances: Option<Vec<DBInstance>>,
}

fn db_instances(states: &[&str]) -> DescribeDBInstancesOutput {
    DescribeDBInstancesOutput {
        marker: None,
        db_instances: Some(
            states
                .iter()
                .map(|s| DBInstance {
                    db_instance_identifier: Some("db".into()),
                    db_instance_class: Some("db.t4g.micro".into()),
                    engine: Some("postgres".into()),
                    db_instance_status: Some((*s).into()),
                    endpoint: Some(Endpoint {
                        address: Some("db.example".into()),
                        port: Some(5432),
                        hosted_zone_id: None,
                    }),
                    allocated_storage: Some(20),
                    instance_create_time: Some(SystemTime::UNIX_EPOCH),
                    multi_az: Some(false),
                    engine_version: Some("16.1".into()),
                    publicly_accessible: Some(false),
                    db_instance_arn: None,
                })
                .collect(),
        ),
    }
}

impl Svc<DescribeDBInstancesOutput> {
    #[waitable({
        "DBInstanceAvailable": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "DBInstances[].DBInstanceStatus", "expected": "available", "comparator": "allStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "DBInstances[].DBInstanceStatus", "expected": "deleted", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "DBInstances[].DBInstanceStatus", "expected": "deleting", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "DBInstances[].DBInstanceStatus", "expected": "failed", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "DBInstances[].DBInstanceStatus", "expected": "incompatible-restore", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "DBInstances[].DBInstanceStatus", "expected": "incompatible-parameters", "comparator": "anyStringEquals" } } }
            ],
            "minDelay": 30
        },
        "DBInstanceDeleted": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "length(DBInstances) == `0`", "expected": "true", "comparator": "booleanEquals" } } },
                { "state": "success", "matcher": { "errorType": "DBInstanceNotFound" } },
                { "state": "failure", "matcher": { "output": { "path": "DBInstances[].DBInstanceStatus", "expected": "creating", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "DBInstances[].DBInstanceStatus", "expected": "modifying", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "DBInstances[].DBInstanceStatus", "expected": "rebooting", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "DBInstances[].DBInstanceStatus", "expected": "resetting-master-credentials", "comparator": "anyStringEquals" } } }
            ],
            "minDelay": 30
        }
    })]
    async fn describe_db_instances(
        &self,
        db_instance_identifier: String,
    ) -> Result<DescribeDBInstancesOutput, AwsError> {
        let _ = db_instance_identifier;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn rds_db_instance_available_and_deleted() {
    let rds = Svc::new([
        Ok(db_instances(&["creating"])),
        Ok(db_instances(&["backing-up"])),
        Ok(db_instances(&["available"])),
    ]);
    let r = fast(rds.wait_until_db_instance_available("db".into())).await;
    assert_eq!(success(r), 3);
    let rds = Svc::new([Ok(db_instances(&["incompatible-parameters"]))]);
    let r = fast(rds.wait_until_db_instance_available("db".into())).await;
    assert_eq!(failure(r), 5);
    let rds = Svc::new([Ok(db_instances(&["deleting"])), Ok(db_instances(&[]))]);
    let r = fast(rds.wait_until_db_instance_deleted("db".into())).await;
    assert_eq!(success(r), 2);
    let rds = Svc::new([
        Ok(db_instances(&["deleting"])),
        Err(AwsError("DBInstanceNotFound")),
    ]);
    let r = fast(rds.wait_until_db_instance_deleted("db".into())).await;
    assert_eq!(success(r), 2);
    let rds = Svc::new([Ok(db_instances(&["rebooting"]))]);
    let r = fast(rds.wait_until_db_instance_deleted("db".into())).await;
    assert_eq!(failure(r), 4);
}

// ---------------------------------------------------------------------------------------------
// EKS (restJson1, camelCase members)
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum ClusterStatus {
    Creating,
    Active,
    Deleting,
    Failed,
    Updating,
    Pending,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "camelCase")]
struct Certificate {
    data: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "camelCase")]
struct VpcConfigResponse {
    subnet_ids: Option<Vec<String>>,
    security_group_ids: Option<Vec<String>>,
    vpc_id: Option<String>,
    endpoint_public_access: bool,
    endpoint_private_access: bool,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "camelCase")]
struct Cluster {
    name: Option<String>,
    arn: Option<String>,
    created_at: Option<SystemTime>,
    version: Option<String>,
    endpoint: Option<String>,
    role_arn: Option<String>,
    resources_vpc_config: Option<VpcConfigResponse>,
    status: Option<ClusterStatus>,
    certificate_authority: Option<Certificate>,
    platform_version: Option<String>,
    tags: Option<HashMap<String, String>>,
}

#[derive(Debug, Clone, Searchable)]
struct DescribeClusterOutput {
    cluster: Option<Cluster>,
}

fn cluster(status: ClusterStatus) -> DescribeClusterOutput {
    DescribeClusterOutput {
        cluster: Some(Cluster {
            name: Some("c".into()),
            arn: None,
            created_at: Some(SystemTime::UNIX_EPOCH),
            version: Some("1.31".into()),
            endpoint: None,
            role_arn: None,
            resources_vpc_config: Some(VpcConfigResponse {
                subnet_ids: Some(vec!["subnet-1".into()]),
                security_group_ids: Some(vec![]),
                vpc_id: Some("vpc-1".into()),
                endpoint_public_access: true,
                endpoint_private_access: false,
            }),
            status: Some(status),
            certificate_authority: None,
            platform_version: Some("eks.1".into()),
            tags: Some(HashMap::new()),
        }),
    }
}

impl Svc<DescribeClusterOutput> {
    #[waitable({
        "ClusterActive": {
            "acceptors": [
                { "state": "failure", "matcher": { "output": { "path": "cluster.status", "expected": "DELETING", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "cluster.status", "expected": "FAILED", "comparator": "stringEquals" } } },
                { "state": "success", "matcher": { "output": { "path": "cluster.status", "expected": "ACTIVE", "comparator": "stringEquals" } } }
            ],
            "minDelay": 30
        },
        "ClusterDeleted": {
            "acceptors": [
                { "state": "failure", "matcher": { "output": { "path": "cluster.status", "expected": "ACTIVE", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "cluster.status", "expected": "CREATING", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "cluster.status", "expected": "PENDING", "comparator": "stringEquals" } } },
                { "state": "success", "matcher": { "errorType": "ResourceNotFoundException" } }
            ],
            "minDelay": 30
        }
    })]
    async fn describe_cluster(&self, name: String) -> Result<DescribeClusterOutput, AwsError> {
        let _ = name;
        self.next()
    }
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum NodegroupStatus {
    Creating,
    Active,
    Updating,
    Deleting,
    CreateFailed,
    DeleteFailed,
    Degraded,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "camelCase")]
struct NodegroupScalingConfig {
    min_size: Option<i32>,
    max_size: Option<i32>,
    desired_size: Option<i32>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "camelCase")]
struct Nodegroup {
    nodegroup_name: Option<String>,
    cluster_name: Option<String>,
    status: Option<NodegroupStatus>,
    scaling_config: Option<NodegroupScalingConfig>,
    instance_types: Option<Vec<String>>,
    labels: Option<HashMap<String, String>>,
    disk_size: Option<i32>,
}

#[derive(Debug, Clone, Searchable)]
struct DescribeNodegroupOutput {
    nodegroup: Option<Nodegroup>,
}

fn nodegroup(status: NodegroupStatus) -> DescribeNodegroupOutput {
    DescribeNodegroupOutput {
        nodegroup: Some(Nodegroup {
            nodegroup_name: Some("ng".into()),
            cluster_name: Some("c".into()),
            status: Some(status),
            scaling_config: Some(NodegroupScalingConfig {
                min_size: Some(1),
                max_size: Some(3),
                desired_size: Some(2),
            }),
            instance_types: Some(vec!["m7g.large".into()]),
            labels: None,
            disk_size: Some(20),
        }),
    }
}

impl Svc<DescribeNodegroupOutput> {
    #[waitable({
        "NodegroupActive": {
            "acceptors": [
                { "state": "failure", "matcher": { "output": { "path": "nodegroup.status", "expected": "CREATE_FAILED", "comparator": "stringEquals" } } },
                { "state": "success", "matcher": { "output": { "path": "nodegroup.status", "expected": "ACTIVE", "comparator": "stringEquals" } } }
            ],
            "minDelay": 30
        },
        "NodegroupDeleted": {
            "acceptors": [
                { "state": "failure", "matcher": { "output": { "path": "nodegroup.status", "expected": "DELETE_FAILED", "comparator": "stringEquals" } } },
                { "state": "success", "matcher": { "errorType": "ResourceNotFoundException" } }
            ],
            "minDelay": 30
        }
    })]
    async fn describe_nodegroup(
        &self,
        cluster_name: String,
        nodegroup_name: String,
    ) -> Result<DescribeNodegroupOutput, AwsError> {
        let _ = (cluster_name, nodegroup_name);
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn eks_cluster_and_nodegroup_waiters() {
    use ClusterStatus::*;
    let eks = Svc::new([Ok(cluster(Creating)), Ok(cluster(Active))]);
    assert_eq!(
        success(fast(eks.wait_until_cluster_active("c".into())).await),
        2
    );
    let eks = Svc::new([Ok(cluster(Creating)), Ok(cluster(ClusterStatus::Failed))]);
    assert_eq!(
        failure(fast(eks.wait_until_cluster_active("c".into())).await),
        1
    );
    let eks = Svc::new([
        Ok(cluster(Deleting)),
        Err(AwsError("ResourceNotFoundException")),
    ]);
    assert_eq!(
        success(fast(eks.wait_until_cluster_deleted("c".into())).await),
        2
    );
    let eks = Svc::new([Ok(cluster(Deleting)), Ok(cluster(Pending))]);
    assert_eq!(
        failure(fast(eks.wait_until_cluster_deleted("c".into())).await),
        2
    );

    let eks = Svc::new([
        Ok(nodegroup(NodegroupStatus::Creating)),
        Ok(nodegroup(NodegroupStatus::Active)),
    ]);
    let r = fast(eks.wait_until_nodegroup_active("c".into(), "ng".into())).await;
    assert_eq!(success(r), 2);
    let eks = Svc::new([Ok(nodegroup(NodegroupStatus::CreateFailed))]);
    let r = fast(eks.wait_until_nodegroup_active("c".into(), "ng".into())).await;
    assert_eq!(failure(r), 0);
    let eks = Svc::new([
        Ok(nodegroup(NodegroupStatus::Deleting)),
        Err(AwsError("ResourceNotFoundException")),
    ]);
    let r = fast(eks.wait_until_nodegroup_deleted("c".into(), "ng".into())).await;
    assert_eq!(success(r), 2);
}

// ---------------------------------------------------------------------------------------------
// Auto Scaling (awsQuery, PascalCase members)
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// ACM (awsJson1_1, PascalCase members)
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum DomainStatus {
    PendingValidation,
    Success,
    Failed,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum CertificateStatus {
    PendingValidation,
    Issued,
    Inactive,
    Expired,
    ValidationTimedOut,
    Revoked,
    Failed,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct ResourceRecord {
    name: String,
    r#type: String,
    value: String,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DomainValidation {
    domain_name: String,
    validation_emails: Option<Vec<String>>,
    validation_domain: Option<String>,
    validation_status: Option<DomainStatus>,
    resource_record: Option<ResourceRecord>,
    validation_method: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct CertificateDetail {
    certificate_arn: Option<String>,
    domain_name: Option<String>,
    subject_alternative_names: Option<Vec<String>>,
    domain_validation_options: Option<Vec<DomainValidation>>,
    serial: Option<String>,
    created_at: Option<SystemTime>,
    issued_at: Option<SystemTime>,
    status: Option<CertificateStatus>,
    in_use_by: Option<Vec<String>>,
    failure_reason: Option<String>,
    r#type: Option<String>,
    not_after: Option<SystemTime>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeCertificateOutput {
    certificate: Option<CertificateDetail>,
}

fn certificate(status: CertificateStatus, domains: &[DomainStatus]) -> DescribeCertificateOutput {
    DescribeCertificateOutput {
        certificate: Some(CertificateDetail {
            certificate_arn: Some("arn:aws:acm:us-east-1:123:certificate/1".into()),
            domain_name: Some("example.com".into()),
            subject_alternative_names: Some(vec!["www.example.com".into()]),
            domain_validation_options: Some(
                domains
                    .iter()
                    .map(|d| DomainValidation {
                        domain_name: "example.com".into(),
                        validation_emails: None,
                        validation_domain: Some("example.com".into()),
                        validation_status: Some(d.clone()),
                        resource_record: Some(ResourceRecord {
                            name: "_x.example.com.".into(),
                            r#type: "CNAME".into(),
                            value: "_y.acm-validations.aws.".into(),
                        }),
                        validation_method: Some("DNS".into()),
                    })
                    .collect(),
            ),
            serial: None,
            created_at: Some(SystemTime::UNIX_EPOCH),
            issued_at: None,
            status: Some(status),
            in_use_by: Some(vec![]),
            failure_reason: None,
            r#type: Some("AMAZON_ISSUED".into()),
            not_after: None,
        }),
    }
}

impl Svc<DescribeCertificateOutput> {
    #[waitable({
        "CertificateValidated": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Certificate.DomainValidationOptions[].ValidationStatus", "expected": "SUCCESS", "comparator": "allStringEquals" } } },
                { "state": "retry", "matcher": { "output": { "path": "Certificate.DomainValidationOptions[].ValidationStatus", "expected": "PENDING_VALIDATION", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Certificate.Status", "expected": "FAILED", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "errorType": "ResourceNotFoundException" } }
            ],
            "minDelay": 60
        }
    })]
    async fn describe_certificate(
        &self,
        certificate_arn: String,
    ) -> Result<DescribeCertificateOutput, AwsError> {
        let _ = certificate_arn;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn acm_certificate_validated() {
    use CertificateStatus::{Issued, PendingValidation};
    use DomainStatus::Success;
    let acm = Svc::new([
        Ok(certificate(
            PendingValidation,
            &[Success, DomainStatus::PendingValidation],
        )),
        Ok(certificate(Issued, &[Success, Success])),
    ]);
    let r = fast(acm.wait_until_certificate_validated("arn".into())).await;
    assert_eq!(success(r), 2);
    let acm = Svc::new([Ok(certificate(
        CertificateStatus::Failed,
        &[DomainStatus::Failed],
    ))]);
    let r = fast(acm.wait_until_certificate_validated("arn".into())).await;
    assert_eq!(failure(r), 2);
    let acm = Svc::new([Err(AwsError("ResourceNotFoundException"))]);
    let r = fast(acm.wait_until_certificate_validated("arn".into())).await;
    assert_eq!(failure(r), 3);
}

// ---------------------------------------------------------------------------------------------
// Elastic Load Balancing v2 (awsQuery, PascalCase members)
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// CloudFront (restXml, PascalCase members)
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// SSM (awsJson1_1, PascalCase members)
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Searchable)]
enum CommandInvocationStatus {
    Pending,
    InProgress,
    Delayed,
    Success,
    Cancelled,
    TimedOut,
    Failed,
    Cancelling,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct CloudWatchOutputConfig {
    cloud_watch_log_group_name: Option<String>,
    cloud_watch_output_enabled: bool,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct GetCommandInvocationOutput {
    command_id: Option<String>,
    instance_id: Option<String>,
    comment: Option<String>,
    document_name: Option<String>,
    document_version: Option<String>,
    plugin_name: Option<String>,
    response_code: i32,
    execution_start_date_time: Option<String>,
    execution_elapsed_time: Option<String>,
    execution_end_date_time: Option<String>,
    status: Option<CommandInvocationStatus>,
    status_details: Option<String>,
    standard_output_content: Option<String>,
    #[serde(rename = "StandardOutputUrl")]
    standard_output_url: Option<String>,
    standard_error_content: Option<String>,
    cloud_watch_output_config: Option<CloudWatchOutputConfig>,
}

fn invocation(status: CommandInvocationStatus) -> GetCommandInvocationOutput {
    GetCommandInvocationOutput {
        command_id: Some("c-1".into()),
        instance_id: Some("i-0".into()),
        comment: None,
        document_name: Some("AWS-RunShellScript".into()),
        document_version: Some("1".into()),
        plugin_name: Some("aws:runShellScript".into()),
        response_code: -1,
        execution_start_date_time: None,
        execution_elapsed_time: None,
        execution_end_date_time: None,
        status: Some(status),
        status_details: None,
        standard_output_content: Some(String::new()),
        standard_output_url: None,
        standard_error_content: None,
        cloud_watch_output_config: Some(CloudWatchOutputConfig {
            cloud_watch_log_group_name: None,
            cloud_watch_output_enabled: false,
        }),
    }
}

impl Svc<GetCommandInvocationOutput> {
    #[waitable({
        "CommandExecuted": {
            "acceptors": [
                { "state": "retry", "matcher": { "output": { "path": "Status", "expected": "Pending", "comparator": "stringEquals" } } },
                { "state": "retry", "matcher": { "output": { "path": "Status", "expected": "InProgress", "comparator": "stringEquals" } } },
                { "state": "retry", "matcher": { "output": { "path": "Status", "expected": "Delayed", "comparator": "stringEquals" } } },
                { "state": "success", "matcher": { "output": { "path": "Status", "expected": "Success", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Status", "expected": "Cancelled", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Status", "expected": "TimedOut", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Status", "expected": "Failed", "comparator": "stringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Status", "expected": "Cancelling", "comparator": "stringEquals" } } },
                { "state": "retry", "matcher": { "errorType": "InvocationDoesNotExist" } }
            ],
            "minDelay": 5
        }
    })]
    async fn get_command_invocation(
        &self,
        command_id: String,
        instance_id: String,
    ) -> Result<GetCommandInvocationOutput, AwsError> {
        let _ = (command_id, instance_id);
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn ssm_command_executed() {
    use CommandInvocationStatus::*;
    let ssm = Svc::new([
        Err(AwsError("InvocationDoesNotExist")),
        Ok(invocation(Pending)),
        Ok(invocation(InProgress)),
        Ok(invocation(Delayed)),
        Ok(invocation(Success)),
    ]);
    let r = fast(ssm.wait_until_command_executed("c-1".into(), "i-0".into())).await;
    assert_eq!(success(r), 5);
    for (status, acceptor) in [(Cancelled, 4), (TimedOut, 5), (Failed, 6), (Cancelling, 7)] {
        let ssm = Svc::new([Ok(invocation(InProgress)), Ok(invocation(status))]);
        let r = fast(ssm.wait_until_command_executed("c-1".into(), "i-0".into())).await;
        assert_eq!(failure(r), acceptor);
    }
}

// ---------------------------------------------------------------------------------------------
// Kinesis (awsJson1_1, PascalCase members)
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Route 53, IAM, SES, CloudWatch, SageMaker: other shapes of path (maps, numbers, bare members)
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// More EC2, ECR, Elastic Load Balancing (classic), Redshift
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct SpotInstanceStatus {
    code: Option<String>,
    message: Option<String>,
    update_time: Option<SystemTime>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct SpotInstanceRequest {
    instance_id: Option<String>,
    spot_instance_request_id: Option<String>,
    spot_price: Option<String>,
    state: Option<String>,
    status: Option<SpotInstanceStatus>,
    valid_until: Option<SystemTime>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeSpotInstanceRequestsOutput {
    spot_instance_requests: Option<Vec<SpotInstanceRequest>>,
    next_token: Option<String>,
}

fn spot(codes: &[&str]) -> DescribeSpotInstanceRequestsOutput {
    DescribeSpotInstanceRequestsOutput {
        spot_instance_requests: Some(
            codes
                .iter()
                .map(|c| SpotInstanceRequest {
                    instance_id: None,
                    spot_instance_request_id: Some("sir-1".into()),
                    spot_price: Some("0.01".into()),
                    state: Some("open".into()),
                    status: Some(SpotInstanceStatus {
                        code: Some((*c).into()),
                        message: None,
                        update_time: Some(SystemTime::UNIX_EPOCH),
                    }),
                    valid_until: None,
                })
                .collect(),
        ),
        next_token: None,
    }
}

impl Svc<DescribeSpotInstanceRequestsOutput> {
    #[waitable({
        "SpotInstanceRequestFulfilled": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "SpotInstanceRequests[].Status.Code", "expected": "fulfilled", "comparator": "allStringEquals" } } },
                { "state": "success", "matcher": { "output": { "path": "SpotInstanceRequests[].Status.Code", "expected": "request-canceled-and-instance-running", "comparator": "allStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "SpotInstanceRequests[].Status.Code", "expected": "schedule-expired", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "SpotInstanceRequests[].Status.Code", "expected": "canceled-before-fulfillment", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "SpotInstanceRequests[].Status.Code", "expected": "bad-parameters", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "SpotInstanceRequests[].Status.Code", "expected": "system-error", "comparator": "anyStringEquals" } } },
                { "state": "retry", "matcher": { "errorType": "InvalidSpotInstanceRequestID.NotFound" } }
            ],
            "minDelay": 15
        }
    })]
    async fn describe_spot_instance_requests(
        &self,
        ids: Vec<String>,
    ) -> Result<DescribeSpotInstanceRequestsOutput, AwsError> {
        let _ = ids;
        self.next()
    }
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "lowercase")]
enum NatGatewayState {
    Pending,
    Failed,
    Available,
    Deleting,
    Deleted,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct NatGatewayAddress {
    allocation_id: Option<String>,
    public_ip: Option<String>,
    is_primary: Option<bool>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct NatGateway {
    create_time: Option<SystemTime>,
    failure_code: Option<String>,
    nat_gateway_addresses: Option<Vec<NatGatewayAddress>>,
    nat_gateway_id: Option<String>,
    state: Option<NatGatewayState>,
    subnet_id: Option<String>,
    vpc_id: Option<String>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct DescribeNatGatewaysOutput {
    nat_gateways: Option<Vec<NatGateway>>,
    next_token: Option<String>,
}

fn nat(state: NatGatewayState) -> DescribeNatGatewaysOutput {
    DescribeNatGatewaysOutput {
        nat_gateways: Some(vec![NatGateway {
            create_time: Some(SystemTime::UNIX_EPOCH),
            failure_code: None,
            nat_gateway_addresses: Some(vec![NatGatewayAddress {
                allocation_id: Some("eipalloc-1".into()),
                public_ip: Some("203.0.113.1".into()),
                is_primary: Some(true),
            }]),
            nat_gateway_id: Some("nat-1".into()),
            state: Some(state),
            subnet_id: Some("subnet-1".into()),
            vpc_id: Some("vpc-1".into()),
        }]),
        next_token: None,
    }
}

impl Svc<DescribeNatGatewaysOutput> {
    #[waitable({
        "NatGatewayAvailable": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "NatGateways[].State", "expected": "available", "comparator": "allStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "NatGateways[].State", "expected": "failed", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "NatGateways[].State", "expected": "deleting", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "NatGateways[].State", "expected": "deleted", "comparator": "anyStringEquals" } } },
                { "state": "retry", "matcher": { "errorType": "NatGatewayNotFound" } }
            ],
            "minDelay": 15
        },
        "NatGatewayDeleted": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "NatGateways[].State", "expected": "deleted", "comparator": "allStringEquals" } } },
                { "state": "success", "matcher": { "errorType": "NatGatewayNotFound" } }
            ],
            "minDelay": 15
        }
    })]
    async fn describe_nat_gateways(
        &self,
        ids: Vec<String>,
    ) -> Result<DescribeNatGatewaysOutput, AwsError> {
        let _ = ids;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn ec2_spot_request_and_nat_gateway_waiters() {
    let ec2 = Svc::new([
        Err(AwsError("InvalidSpotInstanceRequestID.NotFound")),
        Ok(spot(&["pending-evaluation"])),
        Ok(spot(&["fulfilled"])),
    ]);
    let r = fast(ec2.wait_until_spot_instance_request_fulfilled(vec![])).await;
    assert_eq!(success(r), 3);
    let ec2 = Svc::new([Ok(spot(&["fulfilled", "bad-parameters"]))]);
    let r = fast(ec2.wait_until_spot_instance_request_fulfilled(vec![])).await;
    assert_eq!(failure(r), 4);

    let ec2 = Svc::new([
        Err(AwsError("NatGatewayNotFound")),
        Ok(nat(NatGatewayState::Pending)),
        Ok(nat(NatGatewayState::Available)),
    ]);
    assert_eq!(
        success(fast(ec2.wait_until_nat_gateway_available(vec![])).await),
        3
    );
    let ec2 = Svc::new([Ok(nat(NatGatewayState::Failed))]);
    assert_eq!(
        failure(fast(ec2.wait_until_nat_gateway_available(vec![])).await),
        1
    );
    let ec2 = Svc::new([
        Ok(nat(NatGatewayState::Deleting)),
        Err(AwsError("NatGatewayNotFound")),
    ]);
    assert_eq!(
        success(fast(ec2.wait_until_nat_gateway_deleted(vec![])).await),
        2
    );
}

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

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct RedshiftCluster {
    cluster_identifier: Option<String>,
    node_type: Option<String>,
    cluster_status: Option<String>,
    number_of_nodes: Option<i32>,
    publicly_accessible: Option<bool>,
    encrypted: Option<bool>,
    cluster_create_time: Option<SystemTime>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct ClustersMessage {
    marker: Option<String>,
    clusters: Option<Vec<RedshiftCluster>>,
}

impl Svc<ClustersMessage> {
    #[waitable({
        "ClusterAvailable": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Clusters[].ClusterStatus", "expected": "available", "comparator": "allStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Clusters[].ClusterStatus", "expected": "deleting", "comparator": "anyStringEquals" } } },
                { "state": "retry", "matcher": { "errorType": "ClusterNotFound" } }
            ],
            "minDelay": 60
        },
        "ClusterDeleted": {
            "acceptors": [
                { "state": "success", "matcher": { "errorType": "ClusterNotFound" } },
                { "state": "failure", "matcher": { "output": { "path": "Clusters[].ClusterStatus", "expected": "creating", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Clusters[].ClusterStatus", "expected": "modifying", "comparator": "anyStringEquals" } } }
            ],
            "minDelay": 60
        }
    })]
    async fn describe_clusters(
        &self,
        cluster_identifier: String,
    ) -> Result<ClustersMessage, AwsError> {
        let _ = cluster_identifier;
        self.next()
    }
}

#[tokio::test(start_paused = true)]
async fn redshift_cluster_available_and_deleted() {
    let clusters = |status: &str| ClustersMessage {
        marker: None,
        clusters: Some(vec![RedshiftCluster {
            cluster_identifier: Some("c".into()),
            node_type: Some("ra3.xlplus".into()),
            cluster_status: Some(status.into()),
            number_of_nodes: Some(2),
            publicly_accessible: Some(false),
            encrypted: Some(true),
            cluster_create_time: None,
        }]),
    };
    let rs = Svc::new([
        Err(AwsError("ClusterNotFound")),
        Ok(clusters("creating")),
        Ok(clusters("available")),
    ]);
    assert_eq!(
        success(fast(rs.wait_until_cluster_available("c".into())).await),
        3
    );
    let rs = Svc::new([Ok(clusters("deleting"))]);
    assert_eq!(
        failure(fast(rs.wait_until_cluster_available("c".into())).await),
        1
    );
    let rs = Svc::new([Ok(clusters("deleting")), Err(AwsError("ClusterNotFound"))]);
    assert_eq!(
        success(fast(rs.wait_until_cluster_deleted("c".into())).await),
        2
    );
    let rs = Svc::new([Ok(clusters("modifying"))]);
    assert_eq!(
        failure(fast(rs.wait_until_cluster_deleted("c".into())).await),
        2
    );
}
