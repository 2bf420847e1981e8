//! Facts `waiter-macros` computes at compile time and the runtime computes or declares at run
//! time: each pair must agree. A proc-macro crate exports only macros and the runtime depends on
//! it, so neither can import the other's copy; these tests pin every pair.
//!
//! * The default `minDelay`/`maxDelay` a waiter's metadata gets when its model sets none.
//! * `normalize_code`: the codes `#[derive(ProvideErrorMetadata)]` publishes and an acceptor's
//!   `errorType`, normalised at compile time, against the runtime's `normalize_code`, which
//!   normalises the codes read off the wire when the waiter runs.
//! * The fingerprint of a waiter's definition, which stored checkpoints record: the one an
//!   expansion emits is the one the macro's own test pins (`waitable/fingerprint.rs`).

// An `errorType` the macro normalises otherwise than the derive normalises the error's codes
// is a "not a code this type models" warning (the `deprecated` lint): an error here.
#![deny(deprecated)]

use std::time::Duration;

use waiter_runtime::__private_v0_1::ErrorCodes;
use waiter_runtime::error_metadata::normalize_code;
use waiter_runtime::waiter::WaiterMetadata;
use waiter_runtime::{ProvideErrorMetadata, WaiterError, waitable};

/// Codes in each form a model or the wire writes them: an absolute shape ID (awsJson's
/// `__type`), a `:uri` suffix (restJson's `x-amzn-ErrorType`), both, several separators, a
/// plain code with dots. The derive's attributes below hold the same strings, in this order.
const WRITTEN: [&str; 7] = [
    "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
    "ThrottlingException:http://internal.amazon.com/",
    "aws.protocoltests#FooError:http://x/",
    "a#b#Nested",
    "Code:with:colons",
    "InvalidInstanceID.NotFound",
    "com.amazonaws.sqs#QueueDoesNotExist",
];

#[derive(Debug, Clone, ProvideErrorMetadata)]
#[allow(dead_code)]
enum Wire {
    #[error_metadata(code = "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException")]
    Absolute,
    #[error_metadata(code = "ThrottlingException:http://internal.amazon.com/")]
    WithUri,
    #[error_metadata(code = "aws.protocoltests#FooError:http://x/")]
    Both,
    #[error_metadata(code = "a#b#Nested")]
    Hashes,
    #[error_metadata(code = "Code:with:colons")]
    Colons,
    #[error_metadata(code = "InvalidInstanceID.NotFound")]
    Dotted,
    /// A code read off the wire, as the service sent it.
    #[error_metadata(codes = ["com.amazonaws.sqs#QueueDoesNotExist"])]
    Other {
        #[error_metadata(code)]
        code: String,
    },
}

impl std::fmt::Display for Wire {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl std::error::Error for Wire {}

#[test]
fn derived_codes_are_normalized_as_the_runtime_normalizes() {
    let runtime: Vec<&str> = WRITTEN.iter().map(|code| normalize_code(code)).collect();
    assert_eq!(ErrorCodes::<Wire>::CODES, Some(&runtime[..]));
    // The pairs differ from the written codes: the test would see a macro that did not
    // normalise at all.
    assert_ne!(runtime, WRITTEN);
}

/// A client whose operation fails with the wire's code, and a waiter whose `errorType` names the
/// shape absolutely, in another namespace form: the macro normalises it to the name the derive
/// lists (no warning, which `deny(deprecated)` makes an error), and the runtime matches it to
/// the code read off the wire.
struct Queue;

impl Queue {
    #[waitable(
        QueueGone: {
            acceptors: [
                { state: "success", matcher: { errorType: "com.amazonaws.sqs.v2012#QueueDoesNotExist" } }
                { state: "failure", matcher: { errorType: "aws.protocoltests#FooError" } }
            ]
        }
    )]
    pub async fn get_queue(&self, code: &str) -> Result<(), Wire> {
        Err(Wire::Other {
            code: code.to_owned(),
        })
    }
}

#[tokio::test(start_paused = true)]
async fn an_error_type_the_macro_normalized_matches_the_code_the_runtime_normalizes() {
    Queue
        .wait_until_queue_gone("com.amazonaws.sqs#QueueDoesNotExist:http://internal/")
        .wait(Duration::from_secs(60))
        .await
        .expect("the absolute errorType matches the wire's code");
    let err = Queue
        .wait_until_queue_gone("aws.protocoltests#FooError")
        .wait(Duration::from_secs(60))
        .await
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::FailureState { acceptor: 1, .. }),
        "{err:?}"
    );
}

#[test]
fn a_model_without_delays_gets_the_runtimes_defaults() {
    let metadata: WaiterMetadata = Queue::QUEUE_GONE_WAITER;
    assert_eq!(metadata.min_delay, WaiterMetadata::DEFAULT_MIN_DELAY);
    assert_eq!(metadata.max_delay, WaiterMetadata::DEFAULT_MAX_DELAY);
}

/// The definition `waiter-macros/src/waitable/fingerprint.rs` pins (`fingerprints_are_pinned`),
/// pasted here: its expansion carries the same fingerprint. A change of the computation would
/// refuse every checkpoint stored before it.
struct Kinesis;

impl Kinesis {
    #[waitable(StreamExists: { acceptors: [
        { state: "success", matcher: { output: { path: "StreamDescription.StreamStatus", expected: "ACTIVE", comparator: "stringEquals" } } }
        { state: "retry", matcher: { errorType: "ResourceNotFoundException" } }
    ] })]
    pub(crate) async fn describe_stream(&self) -> Result<StreamOutput, std::io::Error> {
        Ok(StreamOutput {
            stream_description: Description {
                stream_status: "ACTIVE".into(),
            },
        })
    }
}

#[derive(Debug, waiter_runtime::Searchable)]
#[serde(rename_all = "PascalCase")]
struct StreamOutput {
    stream_description: Description,
}

#[derive(Debug, waiter_runtime::Searchable)]
#[serde(rename_all = "PascalCase")]
struct Description {
    stream_status: String,
}

#[test]
fn the_expansion_carries_the_pinned_fingerprint() {
    assert_eq!(
        Kinesis::STREAM_EXISTS_WAITER.fingerprint,
        0x09be_25d3_817a_fb2d
    );
    let _ = Kinesis.wait_until_stream_exists();
}
