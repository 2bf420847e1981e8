//! What a checkpoint is bound to (issue 37, 1): its format, its waiter's definition (the
//! fingerprint `#[waitable]` computes) and the input it polls (a digest of the `wait_until_*`
//! arguments). Resuming on another input, a changed definition or another format is a typed
//! error naming the difference; a corrupt or truncated checkpoint is an error, never a panic
//! (paused clock).

use std::time::Duration;

use futures_util::StreamExt;
use proptest::prelude::*;
use waiter_runtime::waiter::{
    CheckpointError, InputDigest, InputIdentity, WaitCheckpoint, WaitUpdate, Waiter,
};
use waiter_runtime::{Searchable, WaiterError, waitable};

const fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

#[derive(Debug, Clone, Searchable)]
pub struct Stream {
    status: String,
}

/// A Kinesis-like client whose streams are always `CREATING`.
pub struct Kinesis;

impl Kinesis {
    #[waitable(StreamExists: { acceptors: [
        { state: "success", matcher: { output: { path: "status", expected: "ACTIVE", comparator: "stringEquals" } } }
        { state: "retry", matcher: { errorType: "ResourceNotFoundException" } }
    ] minDelay: 10 })]
    pub async fn describe_stream(&self, name: &str) -> Result<Stream, std::io::Error> {
        let _ = name;
        Ok(Stream {
            status: "CREATING".into(),
        })
    }
}

/// The same waiter after an upgrade that changed its acceptors (`UPDATING` is ready too).
mod upgraded {
    use super::*;

    pub struct Kinesis;

    impl Kinesis {
        #[waitable(StreamExists: { acceptors: [
            { state: "success", matcher: { output: { path: "status", expected: "ACTIVE", comparator: "stringEquals" } } }
            { state: "success", matcher: { output: { path: "status", expected: "UPDATING", comparator: "stringEquals" } } }
            { state: "retry", matcher: { errorType: "ResourceNotFoundException" } }
        ] minDelay: 10 })]
        pub async fn describe_stream(&self, name: &str) -> Result<Stream, std::io::Error> {
            let _ = name;
            Ok(Stream {
                status: "CREATING".into(),
            })
        }
    }
}

/// The checkpoint after `waiter`'s first poll.
async fn first_checkpoint<'a, O: Send + 'a, E: Send + 'a>(
    waiter: Waiter<'a, O, E>,
) -> WaitCheckpoint {
    let mut stream = waiter.stream(secs(600));
    match stream.next().await {
        Some(WaitUpdate::Polled { event, .. }) => event.checkpoint().unwrap(),
        _ => panic!("no first poll"),
    }
}

#[tokio::test(start_paused = true)]
async fn a_checkpoint_resumed_on_another_input_is_refused() {
    let kinesis = Kinesis;
    let a = first_checkpoint(kinesis.wait_until_stream_exists("A")).await;
    assert_eq!(a.input, Some(InputDigest::of(&"A")));
    // The issue's case: stream A's checkpoint, resumed on stream B.
    let err = kinesis
        .wait_until_stream_exists("B")
        .resume(&a)
        .unwrap_err();
    assert_eq!(
        err,
        CheckpointError::OtherInput {
            waiter: "StreamExists",
            checkpoint: Some(InputDigest::of(&"A")),
            current: InputDigest::of(&"B"),
        }
    );
    assert!(
        err.to_string().starts_with(
            "cannot resume waiter `StreamExists`: the checkpoint waits on another input"
        ),
        "{err}"
    );
    // On A it is taken up; a `String` argument is the same input as a `&str`.
    assert!(kinesis.wait_until_stream_exists("A").resume(&a).is_ok());
    let owned = String::from("A");
    assert!(kinesis.wait_until_stream_exists(&owned).resume(&a).is_ok());
}

#[tokio::test(start_paused = true)]
async fn a_checkpoint_resumed_on_a_changed_definition_is_refused() {
    let checkpoint = first_checkpoint(Kinesis.wait_until_stream_exists("A")).await;
    assert_eq!(
        checkpoint.definition,
        Kinesis::STREAM_EXISTS_WAITER.fingerprint
    );
    let current = upgraded::Kinesis::STREAM_EXISTS_WAITER.fingerprint;
    assert_ne!(checkpoint.definition, current);
    let err = upgraded::Kinesis
        .wait_until_stream_exists("A")
        .resume(&checkpoint)
        .unwrap_err();
    assert_eq!(
        err,
        CheckpointError::OtherDefinition {
            waiter: "StreamExists",
            checkpoint: checkpoint.definition,
            current,
        }
    );
    assert!(
        err.to_string()
            .contains("definition (acceptors or delays) changed")
    );
}

#[tokio::test(start_paused = true)]
async fn a_checkpoint_of_another_format_is_refused() {
    let mut checkpoint = first_checkpoint(Kinesis.wait_until_stream_exists("A")).await;
    // A newer format, written by a later version.
    checkpoint.format = WaitCheckpoint::FORMAT + 1;
    let err = Kinesis
        .wait_until_stream_exists("A")
        .resume(&checkpoint)
        .unwrap_err();
    assert_eq!(
        err,
        CheckpointError::Format {
            found: 3,
            supported: 2
        }
    );
    // The same, read from its JSON.
    let json = checkpoint.to_json();
    assert_eq!(WaitCheckpoint::from_json(&json), Err(err));
    // The first format had no `format` (nor definition, nor input): it reads as format 1,
    // which cannot be checked, so it is refused, never resumed as if it could.
    let first = r#"{"waiter":"StreamExists","started_at":{"secs_since_epoch":1767225600,"nanos_since_epoch":0},"max_wait":{"secs":600,"nanos":0},"elapsed":{"secs":45,"nanos":0},"next_poll_in":{"secs":8,"nanos":0},"polls":6,"consecutive_successes":0,"retries":6,"longest_poll":{"secs":0,"nanos":0},"last_poll_planned":false}"#;
    assert_eq!(
        WaitCheckpoint::from_json(first),
        Err(CheckpointError::Format {
            found: 1,
            supported: 2
        })
    );
}

/// A request type of another crate: no `Hash`.
#[derive(Debug, Clone)]
pub struct DescribeRequest {
    pub name: String,
    pub timeout_secs: f64,
}

#[waitable(RequestReady: { acceptors: [{ state: "success", matcher: { success: false } }] })]
async fn describe(client_id: u32, request: DescribeRequest) -> Result<(), std::io::Error> {
    let _ = (client_id, request.name, request.timeout_secs);
    Ok(())
}

#[tokio::test(start_paused = true)]
async fn an_argument_without_identity_is_named_and_a_key_binds_instead() {
    let request = || DescribeRequest {
        name: "A".into(),
        timeout_secs: 5.0,
    };
    let checkpoint = first_checkpoint(wait_until_request_ready(1, request())).await;
    assert_eq!(checkpoint.input, None);
    let err = wait_until_request_ready(1, request())
        .resume(&checkpoint)
        .unwrap_err();
    assert_eq!(
        err,
        CheckpointError::InputNotIdentified {
            waiter: "RequestReady",
            argument: "request",
        }
    );
    assert!(
        err.to_string()
            .contains("argument `request` has no `InputIdentity`")
    );
    // A key of the caller's, on both sides.
    let keyed = first_checkpoint(wait_until_request_ready(1, request()).checkpoint_key("A")).await;
    assert_eq!(keyed.input, Some(InputDigest::of("A")));
    assert!(
        wait_until_request_ready(1, request())
            .checkpoint_key("A")
            .resume(&keyed)
            .is_ok()
    );
    assert!(matches!(
        wait_until_request_ready(1, request())
            .checkpoint_key("B")
            .resume(&keyed),
        Err(CheckpointError::OtherInput { .. })
    ));
}

/// A type of the user's that is not `Hash` says what identifies it.
#[derive(Debug, Clone)]
pub struct Arn {
    pub arn: String,
    pub fetched_at: f64,
}

impl InputIdentity for Arn {
    fn identify(&self, digest: &mut InputDigest) {
        digest.write_str(&self.arn);
    }
}

#[waitable(ArnReady: { acceptors: [{ state: "success", matcher: { success: false } }] })]
async fn describe_arn(arn: Arn) -> Result<(), std::io::Error> {
    let _ = (arn.arn, arn.fetched_at);
    Ok(())
}

#[tokio::test(start_paused = true)]
async fn a_hand_written_identity_binds_the_checkpoint() {
    let arn = |arn: &str, at| Arn {
        arn: arn.into(),
        fetched_at: at,
    };
    let checkpoint = first_checkpoint(wait_until_arn_ready(arn("arn:a", 1.0))).await;
    assert!(checkpoint.input.is_some());
    assert!(
        wait_until_arn_ready(arn("arn:a", 2.0))
            .resume(&checkpoint)
            .is_ok()
    );
    assert!(matches!(
        wait_until_arn_ready(arn("arn:b", 1.0)).resume(&checkpoint),
        Err(CheckpointError::OtherInput { .. })
    ));
}

#[tokio::test(start_paused = true)]
async fn a_corrupt_or_truncated_checkpoint_is_an_error() {
    let checkpoint = first_checkpoint(Kinesis.wait_until_stream_exists("A")).await;
    let json = checkpoint.to_json();
    assert_eq!(WaitCheckpoint::from_json(&json).as_ref(), Ok(&checkpoint));
    // Cut anywhere: an error, never a panic.
    for end in 0..json.len() {
        assert!(
            matches!(
                WaitCheckpoint::from_json(&json[..end]),
                Err(CheckpointError::Corrupt { .. })
            ),
            "{}",
            &json[..end]
        );
    }
    // Fields edited into nonsense: each an error saying which field.
    for (from, to, field) in [
        (r#""polls":1"#, r#""polls":-1"#, "`polls`"),
        (r#""polls":1"#, r#""polls":4294967296"#, "`polls`"),
        (r#""nanos":0"#, r#""nanos":1000000000"#, "nanos"),
        (r#""waiter":"StreamExists""#, r#""waiter":7"#, "`waiter`"),
        (
            r#""last_poll_planned":false"#,
            r#""last_poll_planned":"no""#,
            "`last_poll_planned`",
        ),
    ] {
        let edited = json.replacen(from, to, 1);
        assert_ne!(edited, json, "{from}");
        match WaitCheckpoint::from_json(&edited) {
            Err(CheckpointError::Corrupt { reason }) => {
                assert!(reason.contains(field), "{reason}")
            }
            other => panic!("{edited}: {other:?}"),
        }
    }
    let definition = format!(r#""definition":"{:016x}""#, checkpoint.definition);
    let edited = json.replacen(&definition, r#""definition":"not hex""#, 1);
    assert!(matches!(
        WaitCheckpoint::from_json(&edited),
        Err(CheckpointError::Corrupt { .. })
    ));
    assert!(matches!(
        WaitCheckpoint::from_json("[1, 2, 3]"),
        Err(CheckpointError::Corrupt { .. })
    ));
    // Values that contradict each other.
    let mut edited = checkpoint.clone();
    edited.consecutive_successes = edited.polls + 1;
    assert!(matches!(
        Kinesis.wait_until_stream_exists("A").resume(&edited),
        Err(CheckpointError::Corrupt { .. })
    ));
}

fn any_duration() -> impl Strategy<Value = Duration> {
    prop_oneof![
        Just(Duration::ZERO),
        Just(Duration::MAX),
        (0u64..100_000, 0u32..1_000_000_000).prop_map(|(s, n)| Duration::new(s, n)),
        (any::<u64>(), 0u32..1_000_000_000).prop_map(|(s, n)| Duration::new(s, n)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any value in any field: `resume` never panics, and a wait it takes up ends by its
    /// deadline (on the paused clock, a second past it at most: the timer's resolution).
    #[test]
    fn any_checkpoint_resumes_or_errs_and_ends_by_its_deadline(
        started_ago in prop_oneof![(0u64..600).prop_map(secs), any_duration()],
        max_wait in prop_oneof![(1u64..3_600).prop_map(secs), any_duration()],
        elapsed in prop_oneof![(0u64..600).prop_map(secs), any_duration()],
        next_poll_in in any_duration(),
        longest_poll in any_duration(),
        polls in any::<u32>(),
        consecutive_successes in any::<u32>(),
        retries in any::<u32>(),
        last_poll_planned in any::<bool>(),
        jitter in any::<u64>(),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap();
        runtime.block_on(async {
            let mut checkpoint = first_checkpoint(Kinesis.wait_until_stream_exists("A")).await;
            checkpoint.started_at = std::time::SystemTime::now()
                .checked_sub(started_ago)
                .unwrap_or(std::time::UNIX_EPOCH)
                .max(std::time::UNIX_EPOCH);
            checkpoint.max_wait = max_wait.min(secs(3_600));
            checkpoint.elapsed = elapsed;
            checkpoint.next_poll_in = next_poll_in;
            checkpoint.longest_poll = longest_poll;
            checkpoint.polls = polls;
            checkpoint.consecutive_successes = consecutive_successes;
            checkpoint.retries = retries;
            checkpoint.last_poll_planned = last_poll_planned;
            checkpoint.jitter = jitter;
            // Through its JSON too.
            let read = WaitCheckpoint::from_json(&checkpoint.to_json());
            prop_assert_eq!(read.as_ref(), Ok(&checkpoint));
            let start = tokio::time::Instant::now();
            // About one case in six resumes; the others are refused (a deadline passed,
            // successes above the polls...).
            if let Ok(resumed) = Kinesis.wait_until_stream_exists("A").resume(&checkpoint) {
                let outcome = resumed.wait().await;
                prop_assert!(
                    matches!(outcome, Err(WaiterError::ExceededMaxWait { .. })),
                    "{:?}", outcome
                );
                prop_assert!(start.elapsed() <= checkpoint.max_wait, "{:?}", start.elapsed());
            }
            Ok(())
        })?;
    }
}
