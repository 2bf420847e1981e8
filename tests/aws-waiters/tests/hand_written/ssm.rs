//! SSM (awsJson1_1, PascalCase members).

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, failure, fast, success};

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
