//! EKS (restJson1, camelCase members).

use std::collections::HashMap;
use std::time::SystemTime;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, failure, fast, success};

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
