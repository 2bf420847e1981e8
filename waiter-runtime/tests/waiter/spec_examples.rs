//! The Smithy waiters spec's four examples, pasted as the spec writes them, behaving as the
//! spec describes. (BucketExists is also exercised in `waitable/attribute.rs`.)

use std::sync::Mutex;
use std::time::Duration;

use waiter_runtime::jmespath::Searchable;
use waiter_runtime::{ProvideErrorMetadata, WaiterError, waitable};

const fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

#[derive(Debug, Clone, PartialEq, ProvideErrorMetadata)]
enum ServiceError {
    NotFound,
    ValidationError,
}

impl std::fmt::Display for ServiceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

/// Returns the scripted values in turn; the last one repeats.
struct Script<T>(Mutex<(usize, Vec<T>)>);

impl<T: Clone> Script<T> {
    fn new(items: Vec<T>) -> Self {
        Script(Mutex::new((0, items)))
    }
    fn next(&self) -> T {
        let mut s = self.0.lock().unwrap();
        let i = s.0.min(s.1.len() - 1);
        s.0 += 1;
        s.1[i].clone()
    }
    fn calls(&self) -> usize {
        self.0.lock().unwrap().0
    }
}

// ---- BucketExists ----

struct S3 {
    heads: Script<Result<(), ServiceError>>,
}

impl S3 {
    #[waitable(
        BucketExists: {
            documentation: "Wait until a bucket exists"
            acceptors: [
                {
                    state: "success"
                    matcher: {
                        success: true
                    }
                }
                {
                    state: "retry"
                    matcher: {
                        errorType: "NotFound"
                    }
                }
            ]
        }
    )]
    async fn head_bucket(&self, bucket: &str) -> Result<(), ServiceError> {
        let _ = bucket;
        self.heads.next()
    }
}

#[tokio::test(start_paused = true)]
async fn bucket_exists_follows_the_five_steps_of_the_spec() {
    // 2. success -> success state; 3. NotFound -> retry; 4. any other error -> failure.
    let s3 = S3 {
        heads: Script::new(vec![Err(ServiceError::NotFound), Ok(())]),
    };
    assert_eq!(
        s3.wait_until_bucket_exists("b")
            .wait(secs(300))
            .await
            .unwrap()
            .polls,
        2
    );
    let s3 = S3 {
        heads: Script::new(vec![
            Err(ServiceError::NotFound),
            Err(ServiceError::ValidationError),
        ]),
    };
    let err = s3
        .wait_until_bucket_exists("b")
        .wait(secs(300))
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        WaiterError::OperationFailed {
            error: ServiceError::ValidationError,
            ..
        }
    ));
    // 5. retry until the total allowed time is exceeded.
    let s3 = S3 {
        heads: Script::new(vec![Err(ServiceError::NotFound)]),
    };
    let err = s3
        .wait_until_bucket_exists("b")
        .wait(secs(300))
        .await
        .unwrap_err();
    // Polls that take no time: the last one is 1 ms before the deadline (the spec's table
    // polls at 300 s, where a request could not answer).
    assert!(
        matches!(err, WaiterError::ExceededMaxWait { elapsed, .. } if elapsed == secs(300) - Duration::from_millis(1))
    );
}

// ---- ThingExists: fail-fast on "failed", succeed on "success" ----

#[derive(Debug, Clone, Searchable)]
struct GetThingOutput {
    status: Option<String>,
}

struct Things {
    statuses: Script<&'static str>,
}

// `description` is not a member of the waiter structure: a warning, as in Smithy.
#[allow(deprecated)]
impl Things {
    #[waitable(
        ThingExists: {
            description: "Waits until a thing has been created"
            acceptors: [
                // Fail-fast if the thing transitions to a "failed" state.
                {
                    state: "failure"
                    matcher: {
                        output: {
                            path: "status"
                            comparator: "stringEquals"
                            expected: "failed"
                        }
                    }
                }
                // Succeed when the thing enters into a "success" state.
                {
                    state: "success"
                    matcher: {
                        output: {
                            path: "status"
                            comparator: "stringEquals"
                            expected: "success"
                        }
                    }
                }
            ]
        }
    )]
    async fn get_thing(&self, name: String) -> Result<GetThingOutput, ServiceError> {
        let _ = name;
        Ok(GetThingOutput {
            status: Some(self.statuses.next().to_owned()),
        })
    }
}

#[tokio::test(start_paused = true)]
async fn thing_exists_succeeds_on_success() {
    let things = Things {
        statuses: Script::new(vec!["creating", "creating", "success"]),
    };
    let done = things
        .wait_until_thing_exists("t".into())
        .wait(secs(300))
        .await
        .unwrap();
    assert_eq!(done.polls, 3);
    assert_eq!(done.output().unwrap().status.as_deref(), Some("success"));
}

#[tokio::test(start_paused = true)]
async fn thing_exists_fails_fast_on_failed() {
    let things = Things {
        statuses: Script::new(vec!["creating", "failed", "success"]),
    };
    let err = things
        .wait_until_thing_exists("t".into())
        .wait(secs(300))
        .await
        .unwrap_err();
    let WaiterError::FailureState {
        acceptor,
        final_poll,
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!((*acceptor, final_poll.polls), (0, 2));
    assert_eq!(things.statuses.calls(), 2, "no poll after the failure");
}

// ---- GroupExists: input and output through inputOutput ----
//
// The spec's example omits the acceptor's required `state` and writes `inputOutput` directly in
// the acceptor instead of inside `matcher`; we add `state: "success"` (what its prose describes:
// "completes successfully when...") and the `matcher` wrapper. Pasted as published, it is a
// compile error naming both (ui-tests/cases/waitable/spec_group_exists_as_published.rs).

#[derive(Debug, Clone, Searchable)]
struct ListGroupsInput {
    groups: Vec<String>,
}

#[derive(Debug, Clone, Searchable)]
struct Group {
    name: String,
}

#[derive(Debug, Clone, Searchable)]
struct ListGroupsOutput {
    groups: Vec<Group>,
}

struct Groups {
    created: Script<usize>,
}

impl Groups {
    #[waitable(
        GroupExists: {
            acceptors: [
                {
                    state: "success"
                    matcher: {
                        inputOutput: {
                            path: "length(input.groups) == length(output.groups)"
                            expected: "true"
                            comparator: "booleanEquals"
                        }
                    }
                }
            ]
        }
    )]
    async fn list_groups(&self, input: ListGroupsInput) -> Result<ListGroupsOutput, ServiceError> {
        let n = self.created.next().min(input.groups.len());
        Ok(ListGroupsOutput {
            groups: input.groups[..n]
                .iter()
                .map(|g| Group { name: g.clone() })
                .collect(),
        })
    }

    /// Several parameters: `input` is an object keyed by parameter name.
    #[waitable(
        GroupsListed: {
            acceptors: [
                { state: "success", matcher: { inputOutput: { path: "length(input.names) == length(output.groups)", expected: "true", comparator: "booleanEquals" } } }
                { state: "failure", message: "output.groups[].name", matcher: { inputOutput: { path: "length(output.groups) > length(input.names)", expected: "true", comparator: "booleanEquals" } } }
            ]
            minDelay: 1
            maxDelay: 1
        }
    )]
    async fn list_named(
        &self,
        prefix: &str,
        names: Vec<String>,
    ) -> Result<ListGroupsOutput, ServiceError> {
        let _ = names; // read by the waiter, through `input.names`
        let n = self.created.next();
        Ok(ListGroupsOutput {
            groups: (0..n)
                .map(|i| Group {
                    name: format!("{prefix}{i}"),
                })
                .collect(),
        })
    }
}

#[tokio::test(start_paused = true)]
async fn group_exists_compares_input_with_output() {
    let groups = Groups {
        created: Script::new(vec![0, 1, 2]),
    };
    let input = ListGroupsInput {
        groups: vec!["a".into(), "b".into()],
    };
    let done = groups
        .wait_until_group_exists(input)
        .wait(secs(300))
        .await
        .unwrap();
    assert_eq!((done.polls, done.output().unwrap().groups.len()), (3, 2));
}

#[tokio::test(start_paused = true)]
async fn several_parameters_are_an_object_keyed_by_name_and_failure_messages_list_strings() {
    let groups = Groups {
        created: Script::new(vec![1, 2]),
    };
    let done = groups
        .wait_until_groups_listed("g", vec!["x".into(), "y".into()])
        .wait(secs(60))
        .await
        .unwrap();
    assert_eq!(done.polls, 2);

    let groups = Groups {
        created: Script::new(vec![3]),
    };
    let err = groups
        .wait_until_groups_listed("g", vec!["x".into()])
        .wait(secs(60))
        .await
        .unwrap_err();
    let WaiterError::FailureState { message, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(message.as_deref(), Some("g0; g1; g2"));
    assert!(err.to_string().ends_with(": g0; g1; g2"), "{err}");
}

// ---- ResourceRunning: only the terminal failure state ----

#[derive(Debug, Clone, Searchable)]
struct GetResourceOutput {
    #[searchable(rename = "State")]
    state: String,
    #[searchable(rename = "Reason")]
    reason: Option<String>,
}

struct Resources {
    states: Script<&'static str>,
}

#[allow(deprecated)] // `description`, as in the spec: a warning
impl Resources {
    #[waitable(
        ResourceRunning: {
            description: "Waits for the resource to be running"
            acceptors: [
                {
                    state: "failure"
                    message: "Reason"
                    matcher: {
                        output: {
                            path: "State"
                            expected: "Stopped"
                            comparator: "stringEquals"
                        }
                    }
                }
                {
                    state: "success"
                    matcher: {
                        output: {
                            path: "State"
                            expected: "Running"
                            comparator: "stringEquals"
                        }
                    }
                }
                // other acceptors...
            ]
        }
    )]
    async fn get_resource(&self, id: &str) -> Result<GetResourceOutput, ServiceError> {
        let state = self.states.next();
        let reason = (state == "Stopped").then(|| format!("{id} was stopped by a user"));
        Ok(GetResourceOutput {
            state: state.to_owned(),
            reason,
        })
    }
}

#[tokio::test(start_paused = true)]
async fn resource_running_goes_through_intermediate_states() {
    // Creating -> Stopping is not terminal: the waiter keeps polling.
    let resources = Resources {
        states: Script::new(vec!["Creating", "Stopping", "Starting", "Running"]),
    };
    let done = resources
        .wait_until_resource_running("r-1")
        .wait(secs(600))
        .await
        .unwrap();
    assert_eq!(done.polls, 4);
}

#[tokio::test(start_paused = true)]
async fn resource_running_fails_on_stopped_with_the_message() {
    let resources = Resources {
        states: Script::new(vec!["Creating", "Stopped"]),
    };
    let err = resources
        .wait_until_resource_running("r-1")
        .wait(secs(600))
        .await
        .unwrap_err();
    let WaiterError::FailureState { message, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(message.as_deref(), Some("r-1 was stopped by a user"));
}

// ---- list comparators ----

#[derive(Debug, Clone, Searchable)]
struct Instance {
    state: String,
}

#[derive(Debug, Clone, Searchable)]
struct Described {
    instances: Vec<Instance>,
}

struct Ec2 {
    states: Script<Vec<&'static str>>,
}

impl Ec2 {
    #[waitable(
        InstancesRunning: {
            acceptors: [
                { state: "success", matcher: { output: { path: "instances[].state", expected: "running", comparator: "allStringEquals" } } }
                { state: "failure", matcher: { output: { path: "instances[].state", expected: "terminated", comparator: "anyStringEquals" } } }
            ]
        }
    )]
    async fn describe(&self) -> Result<Described, ServiceError> {
        let instances = self
            .states
            .next()
            .into_iter()
            .map(|s| Instance {
                state: s.to_owned(),
            })
            .collect();
        Ok(Described { instances })
    }
}

#[tokio::test(start_paused = true)]
async fn all_and_any_string_equals() {
    // allStringEquals needs at least one value.
    let ec2 = Ec2 {
        states: Script::new(vec![
            vec![],
            vec!["pending", "running"],
            vec!["running", "running"],
        ]),
    };
    assert_eq!(
        ec2.wait_until_instances_running()
            .wait(secs(300))
            .await
            .unwrap()
            .polls,
        3
    );
    let ec2 = Ec2 {
        states: Script::new(vec![
            vec!["pending", "running"],
            vec!["running", "terminated"],
        ]),
    };
    let err = ec2
        .wait_until_instances_running()
        .wait(secs(300))
        .await
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::FailureState { acceptor: 1, .. }),
        "{err:?}"
    );
}
