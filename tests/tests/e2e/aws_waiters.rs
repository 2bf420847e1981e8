//! Real AWS waiters, pasted as published (no throttling acceptors), against the example
//! service throttling a quarter of the requests. The service's resources are presented in the
//! shapes of EC2 `DescribeInstances`, DynamoDB `DescribeTable` and CloudFormation
//! `DescribeStacks`, with those services' error codes, by a small SDK-like client: each
//! operation runs through the client's `Retrier`. Throttles are retried inside the polls (no
//! acceptor names them); the errors the waiters name (`InvalidInstanceID.NotFound`,
//! `ResourceNotFoundException`, `ValidationError`) reach the acceptors at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use waiter_runtime::retry::{Retrier, RetryConfig};
use waiter_runtime::{ProvideErrorMetadata, Searchable, WaiterError, waitable};
use waiter_tests::client::{ResourceClient, ResourceError};
use waiter_tests::service::{ExampleService, FaultConfig, RunningService, Settle};

const MIN: Duration = Duration::from_millis(10);
const MAX: Duration = Duration::from_millis(50);
const MAX_WAIT: Duration = Duration::from_secs(30);

/// An error as an AWS SDK shows it: the service's code, the transport's metadata.
#[derive(Debug)]
struct AwsError {
    code: Option<String>,
    source: ResourceError,
}

impl std::fmt::Display for AwsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {}",
            self.code.as_deref().unwrap_or("?"),
            self.source
        )
    }
}
impl std::error::Error for AwsError {}

impl ProvideErrorMetadata for AwsError {
    fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }
    fn message(&self) -> Option<&str> {
        self.source.message()
    }
    fn http_status(&self) -> Option<u16> {
        self.source.http_status()
    }
    fn retry_after(&self) -> Option<Duration> {
        self.source.retry_after()
    }
    fn is_transient(&self) -> bool {
        self.source.is_transient()
    }
    fn is_throttling(&self) -> bool {
        self.source.is_throttling()
    }
}

#[derive(Debug, Clone, Searchable)]
#[allow(non_snake_case)]
struct InstanceState {
    Name: String,
}
#[derive(Debug, Clone, Searchable)]
#[allow(non_snake_case)]
struct Instance {
    InstanceId: String,
    State: InstanceState,
}
#[derive(Debug, Clone, Searchable)]
#[allow(non_snake_case)]
struct Reservation {
    Instances: Vec<Instance>,
}
#[derive(Debug, Clone, Searchable)]
#[allow(non_snake_case)]
struct DescribeInstancesOutput {
    Reservations: Vec<Reservation>,
}
#[derive(Debug, Clone, Searchable)]
#[allow(non_snake_case)]
struct TableDescription {
    TableName: String,
    TableStatus: String,
}
#[derive(Debug, Clone, Searchable)]
#[allow(non_snake_case)]
struct DescribeTableOutput {
    Table: TableDescription,
}
#[derive(Debug, Clone, Searchable)]
#[allow(non_snake_case)]
struct Stack {
    StackName: String,
    StackStatus: String,
}
#[derive(Debug, Clone, Searchable)]
#[allow(non_snake_case)]
struct DescribeStacksOutput {
    Stacks: Vec<Stack>,
}

/// The SDK-like client: the example client without retries of its own, this client's
/// `Retrier` around each operation (as an AWS SDK client), AWS shapes and codes.
struct Aws {
    inner: ResourceClient,
    retrier: Retrier,
    retries: Arc<AtomicU32>,
}

impl Aws {
    fn new(service: &RunningService) -> Self {
        let retries = Arc::new(AtomicU32::new(0));
        let counted = Arc::clone(&retries);
        let retrier = Retrier::new(
            RetryConfig::standard()
                .max_attempts(5)
                .transient_backoff(Duration::from_millis(5))
                .throttling_backoff(Duration::from_millis(5))
                .max_backoff(Duration::from_millis(40))
                .build(),
        )
        .on_retry(move |_: &_| {
            counted.fetch_add(1, Ordering::Relaxed);
        });
        let inner = ResourceClient::builder(service.url())
            .retry_config(RetryConfig::disabled())
            .build();
        Aws {
            inner,
            retrier,
            retries,
        }
    }

    /// Describes `name` through the retrier; `not_found` is the service's code for a missing
    /// resource, `status` maps the example service's statuses to the AWS service's.
    async fn describe(
        &self,
        name: &str,
        not_found: &str,
        status: fn(&str) -> &'static str,
    ) -> Result<&'static str, AwsError> {
        self.retrier
            .run(|| async {
                match self.inner.describe_resource(name).await {
                    Ok(resource) => Ok(status(&resource.status)),
                    Err(source) => Err(AwsError {
                        code: match &source {
                            ResourceError::NotFound { .. } => Some(not_found.to_owned()),
                            other => other.code().map(str::to_owned),
                        },
                        source,
                    }),
                }
            })
            .await
    }

    // EC2 `InstanceRunning`, as published.
    #[waitable({
        "InstanceRunning": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Reservations[].Instances[].State.Name", "expected": "running", "comparator": "allStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Reservations[].Instances[].State.Name", "expected": "shutting-down", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Reservations[].Instances[].State.Name", "expected": "terminated", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Reservations[].Instances[].State.Name", "expected": "stopping", "comparator": "anyStringEquals" } } },
                { "state": "retry", "matcher": { "errorType": "InvalidInstanceID.NotFound" } }
            ],
            "minDelay": 15
        }
    })]
    async fn describe_instances(&self, id: &str) -> Result<DescribeInstancesOutput, AwsError> {
        let state = self
            .describe(id, "InvalidInstanceID.NotFound", |s| match s {
                "CREATING" => "pending",
                "ACTIVE" => "running",
                "DELETING" => "shutting-down",
                _ => "terminated",
            })
            .await?;
        Ok(DescribeInstancesOutput {
            Reservations: vec![Reservation {
                Instances: vec![Instance {
                    InstanceId: id.to_owned(),
                    State: InstanceState {
                        Name: state.to_owned(),
                    },
                }],
            }],
        })
    }

    // DynamoDB `TableExists`, as published.
    #[waitable({
        "TableExists": {
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Table.TableStatus", "expected": "ACTIVE", "comparator": "stringEquals" } } },
                { "state": "retry", "matcher": { "errorType": "ResourceNotFoundException" } }
            ],
            "minDelay": 20
        }
    })]
    async fn describe_table(&self, name: &str) -> Result<DescribeTableOutput, AwsError> {
        let status = self
            .describe(name, "ResourceNotFoundException", |s| match s {
                "CREATING" => "CREATING",
                "ACTIVE" => "ACTIVE",
                "DELETING" => "DELETING",
                _ => "INACCESSIBLE_ENCRYPTION_CREDENTIALS",
            })
            .await?;
        Ok(DescribeTableOutput {
            Table: TableDescription {
                TableName: name.to_owned(),
                TableStatus: status.to_owned(),
            },
        })
    }

    // CloudFormation `StackCreateComplete`, as published (botocore's acceptors, Smithy form).
    #[waitable({
        "StackCreateComplete": {
            "documentation": "Wait until stack status is CREATE_COMPLETE.",
            "acceptors": [
                { "state": "success", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "CREATE_COMPLETE", "comparator": "allStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "CREATE_FAILED", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "DELETE_COMPLETE", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "DELETE_FAILED", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "ROLLBACK_FAILED", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "output": { "path": "Stacks[].StackStatus", "expected": "ROLLBACK_COMPLETE", "comparator": "anyStringEquals" } } },
                { "state": "failure", "matcher": { "errorType": "ValidationError" } }
            ],
            "minDelay": 30
        }
    })]
    async fn describe_stacks(&self, name: &str) -> Result<DescribeStacksOutput, AwsError> {
        let status = self
            .describe(name, "ValidationError", |s| match s {
                "CREATING" => "CREATE_IN_PROGRESS",
                "ACTIVE" => "CREATE_COMPLETE",
                "DELETING" => "DELETE_IN_PROGRESS",
                _ => "ROLLBACK_COMPLETE",
            })
            .await?;
        Ok(DescribeStacksOutput {
            Stacks: vec![Stack {
                StackName: name.to_owned(),
                StackStatus: status.to_owned(),
            }],
        })
    }
}

/// The example service throttling 25 % of the requests (429 `ThrottlingException` and 503
/// `SlowDown`, half each); resources settle after `reads` reads.
async fn throttling_service(seed: u64, reads: u32) -> (RunningService, Aws) {
    let service = ExampleService::builder()
        .seed(seed)
        .settle(Settle::AfterReads(reads))
        .faults(FaultConfig::throttling(0.25))
        .start()
        .await
        .unwrap();
    let aws = Aws::new(&service);
    (service, aws)
}

/// Creates `name`, retrying the create as any call (it is not inside a waiter).
async fn create(aws: &Aws, name: &str) {
    aws.retrier
        .run(|| aws.inner.create_resource(name, &[]))
        .await
        .unwrap();
}

#[tokio::test]
async fn ec2_instance_running_survives_25_percent_throttling() {
    let (service, aws) = throttling_service(1, 6).await;
    create(&aws, "i-0abc").await;
    let mut attempts = 0;
    let done = aws
        .wait_until_instance_running("i-0abc")
        .min_delay(MIN)
        .max_delay(MAX)
        .on_poll(|e: &_| attempts += e.attempts)
        .wait(MAX_WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(done.polls, 7, "six reads see pending, the seventh running");
    let stats = service.stats();
    assert!(stats.throttled > 0, "{stats:?}");
    assert!(aws.retries.load(Ordering::Relaxed) > 0);
    assert!(
        attempts > done.polls,
        "throttles were retried inside the polls"
    );
}

#[tokio::test]
async fn ec2_instance_running_fails_fast_on_a_terminated_instance() {
    let service = ExampleService::builder()
        .seed(2)
        .settle(Settle::AfterReads(3))
        .faults(FaultConfig::throttling(0.25))
        .fail_names_starting_with("fail-")
        .start()
        .await
        .unwrap();
    let aws = Aws::new(&service);
    create(&aws, "fail-i-1").await;
    let err = aws
        .wait_until_instance_running("fail-i-1")
        .min_delay(MIN)
        .max_delay(MAX)
        .wait(MAX_WAIT)
        .await
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::FailureState { acceptor: 2, .. }),
        "{err}"
    );
    assert!(
        err.to_string()
            .ends_with(r#": Reservations[].Instances[].State.Name anyStringEquals "terminated""#),
        "{err}"
    );
}

#[tokio::test]
async fn dynamodb_table_exists_survives_25_percent_throttling() {
    let (service, aws) = throttling_service(3, 2).await;
    let waiter = {
        let aws = Arc::new(aws);
        let waiting = Arc::clone(&aws);
        let task = tokio::spawn(async move {
            let mut not_found = 0;
            let result = waiting
                .wait_until_table_exists("orders")
                .min_delay(MIN)
                .max_delay(MAX)
                .on_poll(|e: &_| not_found += u32::from(e.acceptor == Some(1)))
                .wait(MAX_WAIT)
                .await
                .map(|done| done.polls);
            (result, not_found)
        });
        service
            .wait_for_stats(MAX_WAIT, |s| s.requests >= 6)
            .await
            .unwrap();
        create(&aws, "orders").await;
        task
    };
    let (polls, not_found) = waiter.await.unwrap();
    let polls = polls.unwrap_or_else(|e| panic!("{e}"));
    assert!(
        not_found >= 2,
        "ResourceNotFoundException went to its retry acceptor"
    );
    assert!(polls > not_found);
    assert!(service.stats().throttled > 0);
}

#[tokio::test]
async fn cloudformation_stack_create_complete_survives_25_percent_throttling() {
    let (service, aws) = throttling_service(4, 4).await;
    create(&aws, "web-stack").await;
    let done = aws
        .wait_until_stack_create_complete("web-stack")
        .min_delay(MIN)
        .max_delay(MAX)
        .wait(MAX_WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(done.polls, 5);
    assert_eq!(
        done.output().unwrap().Stacks[0].StackStatus,
        "CREATE_COMPLETE"
    );
    assert!(service.stats().throttled > 0);
}

#[tokio::test]
async fn cloudformation_validation_error_ends_the_wait_at_once_even_when_throttled_first() {
    let (service, aws) = throttling_service(5, 1).await;
    service.faults().script([
        waiter_tests::service::Fault::Throttle,
        waiter_tests::service::Fault::SlowDown,
    ]);
    let mut attempts = Vec::new();
    let err = aws
        .wait_until_stack_create_complete("no-such-stack")
        .min_delay(MIN)
        .max_delay(MAX)
        .on_poll(|e: &_| attempts.push(e.attempts))
        .wait(MAX_WAIT)
        .await
        .unwrap_err();
    // The two throttles were retried inside the first poll; `ValidationError`, named by a
    // failure acceptor, was not.
    assert_eq!(attempts, [3]);
    assert!(
        matches!(err, WaiterError::FailureState { acceptor: 6, .. }),
        "{err}"
    );
    assert!(
        err.to_string().ends_with(": errorType ValidationError"),
        "{err}"
    );
}
