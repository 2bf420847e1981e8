//! CloudFormation (awsQuery, PascalCase members).

use std::time::SystemTime;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, Tag, failure, fast, success};

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
