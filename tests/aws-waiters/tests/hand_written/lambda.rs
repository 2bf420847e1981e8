//! Lambda (restJson1, PascalCase members).

use std::collections::HashMap;

use waiter_runtime::{Searchable, waitable};

use crate::support::{AwsError, Svc, failure, fast, ms, success, timed_out};

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
