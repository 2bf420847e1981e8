//! RDS (awsQuery, PascalCase members with upper-case acronyms).

use std::time::SystemTime;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, failure, fast, success};

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
