//! Shared by every service's module: the AWS error, the canned service, the wait helpers, and
//! EC2's `Tag` shape, which CloudFormation's and IAM's outputs reuse.

use std::collections::VecDeque;
use std::fmt;
use std::sync::Mutex;
use std::time::Duration;

use waiter_runtime::waiter::{FinalPoll, Waiter};
use waiter_runtime::{ProvideErrorMetadata, Searchable, WaiterError};

pub const MAX_WAIT: Duration = Duration::from_secs(120);

pub const fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// An AWS error as an SDK shows it: the service's error code.
#[derive(Debug, Clone, PartialEq)]
pub struct AwsError(pub &'static str);

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
pub struct Svc<O> {
    script: Mutex<VecDeque<Result<O, AwsError>>>,
}

impl<O: Clone> Svc<O> {
    pub fn new(script: impl IntoIterator<Item = Result<O, AwsError>>) -> Self {
        let script: VecDeque<_> = script.into_iter().collect();
        assert!(!script.is_empty());
        Svc {
            script: Mutex::new(script),
        }
    }

    pub fn next(&self) -> Result<O, AwsError> {
        let mut script = self.script.lock().unwrap();
        if script.len() > 1 {
            script.pop_front().unwrap()
        } else {
            script.front().unwrap().clone()
        }
    }
}

/// Runs `waiter` with short delays (the model's are tens of seconds) up to `MAX_WAIT`.
pub async fn fast<O, E>(waiter: Waiter<'_, O, E>) -> Result<FinalPoll<O, E>, WaiterError<O, E>> {
    waiter
        .min_delay(ms(1))
        .max_delay(ms(5))
        .wait(MAX_WAIT)
        .await
}

/// The polls of a wait that reached `success`.
pub fn success<O: fmt::Debug, E: fmt::Debug>(r: Result<FinalPoll<O, E>, WaiterError<O, E>>) -> u32 {
    r.unwrap().polls
}

/// The index of the `failure` acceptor that ended a wait.
pub fn failure<O: fmt::Debug, E: fmt::Debug>(
    r: Result<FinalPoll<O, E>, WaiterError<O, E>>,
) -> usize {
    match r {
        Err(WaiterError::FailureState { acceptor, .. }) => acceptor,
        other => panic!("expected a failure state, got {other:?}"),
    }
}

/// The polls of a wait that ran out of time (every poll matched `retry` or nothing).
pub fn timed_out<O: fmt::Debug, E: fmt::Debug>(
    r: Result<FinalPoll<O, E>, WaiterError<O, E>>,
) -> u32 {
    match r {
        Err(WaiterError::ExceededMaxWait { polls, .. }) => polls,
        other => panic!("expected the max wait to pass, got {other:?}"),
    }
}

/// The error of a wait that ended on an error no acceptor names.
pub fn op_failed<O: fmt::Debug, E: fmt::Debug>(r: Result<FinalPoll<O, E>, WaiterError<O, E>>) -> E {
    match r {
        Err(WaiterError::OperationFailed { error, .. }) => error,
        other => panic!("expected an unmatched error, got {other:?}"),
    }
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct Tag {
    key: Option<String>,
    value: Option<String>,
}
