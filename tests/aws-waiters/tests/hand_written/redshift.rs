//! Redshift: cluster waiters.

use std::time::SystemTime;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, failure, fast, success};

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
