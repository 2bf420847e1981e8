//! Workspace-only support of the generated `oracle` test: the canned client every generated
//! service module wraps, the AWS-like error, and one poll of a waiter. `gen.py` (documented at
//! its top) writes `tests/oracle/*.rs` and `fixtures/oracle.json`.

use std::fmt;
use std::time::Duration;

use serde::de::DeserializeOwned;
use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::waiter::{AcceptorState, PollEvent, Waiter, WaiterError};

/// An error as an AWS SDK shows it: the service's error code, and the HTTP status it came with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AwsError {
    /// The error code (`ResourceNotFoundException`, `InvalidInstanceID.NotFound`...).
    pub code: String,
    /// The HTTP status (400 for most errors; what botocore's `status` acceptors read).
    pub status: u16,
}

impl fmt::Display for AwsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.code)
    }
}

impl std::error::Error for AwsError {}

impl ProvideErrorMetadata for AwsError {
    fn code(&self) -> Option<&str> {
        Some(&self.code)
    }

    fn http_status(&self) -> Option<u16> {
        Some(self.status)
    }
}

/// One canned answer of an operation: an output document (deserialized into the operation's
/// typed output at each call) or an error.
#[derive(Debug, Clone)]
pub struct Canned(pub Result<serde_json::Value, AwsError>);

impl Canned {
    /// The answer, the document deserialized into `O`.
    ///
    /// # Panics
    ///
    /// When the document does not fit `O` (a bug of the generator).
    pub fn answer<O: DeserializeOwned>(&self) -> Result<O, AwsError> {
        match &self.0 {
            Ok(doc) => Ok(serde_json::from_value(doc.clone()).unwrap_or_else(|e| {
                panic!(
                    "document does not fit {}: {e}\n{doc}",
                    std::any::type_name::<O>()
                )
            })),
            Err(error) => Err(error.clone()),
        }
    }
}

/// What the first poll of a waiter decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// An acceptor matched: its index and state.
    Matched(usize, AcceptorState),
    /// No acceptor matched a successful answer: the waiter polls again.
    Retry,
    /// No acceptor matched an error: the wait ended with it.
    Error,
}

/// Runs `waiter` (on tokio's paused clock) and returns what its first poll decided.
pub async fn first_poll<O, E>(waiter: Waiter<'_, O, E>) -> Outcome {
    let mut first: Option<PollEvent> = None;
    let result = waiter
        .min_delay(Duration::from_secs(1))
        .max_delay(Duration::from_secs(1))
        .on_poll(|e: &PollEvent| {
            first.get_or_insert(*e);
        })
        .wait(Duration::from_secs(1))
        .await;
    let first = first.expect("the waiter polled");
    match (first.acceptor, result) {
        (Some(i), _) => Outcome::Matched(i, first.state),
        (None, Err(WaiterError::OperationFailed { polls: 1, .. })) => Outcome::Error,
        (None, _) => {
            assert_eq!(first.state, AcceptorState::Retry);
            Outcome::Retry
        }
    }
}
