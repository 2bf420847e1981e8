//! EC2 (ec2 query protocol: PascalCase member names in the model): images, volumes, snapshots,
//! security groups, spot instance requests and NAT gateways.

use std::collections::HashMap;
use std::time::SystemTime;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, Tag, failure, fast, op_failed, success};

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
