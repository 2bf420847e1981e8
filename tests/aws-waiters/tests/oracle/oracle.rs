//! The oracle check (hand-written; `main.rs` and the service modules are generated): each
//! waiter is polled once per sample answer of `fixtures/oracle.json`, and the acceptor that
//! matched (and its state) must be the one botocore's matchers chose.

use aws_waiters::{AwsError, Canned, Outcome};
use serde::Deserialize;
use waiter_runtime::waiter::AcceptorState;

#[derive(Deserialize)]
struct Fixture {
    stats: Stats,
    waiters: Vec<Waiter>,
}

#[derive(Deserialize)]
struct Stats {
    compiled: usize,
    cases: usize,
    botocore_raises: usize,
}

#[derive(Deserialize)]
struct Waiter {
    service: String,
    waiter: String,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    #[serde(default)]
    output: Option<serde_json::Value>,
    #[serde(default)]
    error: Option<String>,
    /// The HTTP status of the error (what botocore's `status` acceptors read).
    #[serde(default)]
    status: Option<u16>,
    /// botocore's state: `success`, `failure`, `retry`, or `error` (no acceptor matched an
    /// error: botocore raises `WaiterError`, the spec's waiter fails).
    state: String,
    /// The index of the matching acceptor in the file.
    acceptor: Option<usize>,
    /// What botocore raised: a path's evaluation was a JMESPath error (`length()` of a missing
    /// member). botocore's matcher raises and its `Waiter.wait` ends with that exception; the
    /// Smithy spec says nothing, and ours says an evaluation error does not match. Recorded
    /// known difference: `state`/`acceptor` are then botocore's decision with the raising
    /// acceptors not matching (`gen.py`, `botocore_decision`).
    #[serde(default)]
    botocore_raises: Option<String>,
}

impl Case {
    /// The canned answer: the document, or the error with its status.
    fn answer(&self) -> Canned {
        match (&self.output, &self.error) {
            (_, Some(code)) => Canned(Err(AwsError {
                code: code.clone(),
                status: self.status.unwrap_or(400),
            })),
            (Some(doc), None) => Canned(Ok(doc.clone())),
            (None, None) => Canned(Ok(serde_json::Value::Null)),
        }
    }
}

fn expected(case: &Case) -> Outcome {
    let state = match case.state.as_str() {
        "success" => AcceptorState::Success,
        "failure" => AcceptorState::Failure,
        "retry" => AcceptorState::Retry,
        "error" => return Outcome::Error,
        other => panic!("unknown state {other}"),
    };
    match case.acceptor {
        Some(i) => Outcome::Matched(i, state),
        None => Outcome::Retry,
    }
}

#[tokio::test(start_paused = true)]
async fn every_waiter_decides_as_botocore() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/oracle.json"))
            .unwrap();
    let fixture: Fixture = serde_json::from_str(&text).unwrap();
    assert_eq!(fixture.waiters.len(), fixture.stats.compiled);
    let mut cases = 0;
    let mut raises = 0;
    let mut disagreements = Vec::new();
    for w in &fixture.waiters {
        for case in &w.cases {
            let answer = case.answer();
            let ours = crate::poll(&w.service, &w.waiter, answer).await;
            let theirs = expected(case);
            cases += 1;
            raises += usize::from(case.botocore_raises.is_some());
            if ours != theirs {
                disagreements.push(format!(
                    "{} {}: botocore {theirs:?}, ours {ours:?} on {}",
                    w.service,
                    w.waiter,
                    case.error
                        .clone()
                        .unwrap_or_else(|| format!("{:?}", case.output))
                ));
            }
        }
    }
    assert_eq!(cases, fixture.stats.cases);
    assert_eq!(raises, fixture.stats.botocore_raises);
    assert!(
        disagreements.is_empty(),
        "{} of {cases} answers disagree:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    println!(
        "{} waiters, {cases} answers: botocore and ours agree ({raises} on which botocore raises \
         a JMESPath error: ours does not match that acceptor)",
        fixture.waiters.len()
    );
}

/// `fixtures/smithy_oracle.json`: the waiters defined in both botocore and the Smithy models
/// `gen.py --smithy-models` was given, with the Smithy definition's decision on each answer and
/// botocore's.
#[cfg(aws_waiters_smithy)]
#[derive(Deserialize)]
struct SmithyFixture {
    stats: SmithyStats,
    waiters: Vec<SmithyWaiter>,
}

#[cfg(aws_waiters_smithy)]
#[derive(Deserialize)]
struct SmithyStats {
    waiters: usize,
    cases: usize,
    differ: usize,
}

#[cfg(aws_waiters_smithy)]
#[derive(Deserialize)]
struct SmithyWaiter {
    service: String,
    waiter: String,
    cases: Vec<SmithyCase>,
}

#[cfg(aws_waiters_smithy)]
#[derive(Deserialize)]
struct SmithyCase {
    #[serde(flatten)]
    case: Case,
    /// botocore's state on the same answer.
    botocore_state: String,
}

/// The waiters read from the Smithy models (`#[waitable(smithy = "models/smithy/..")]`, the
/// models `gen.py --smithy-models` copied, not committed) decide as the Smithy spec does on every
/// answer, and as botocore's on every answer but those where the two definitions differ
/// (`SMITHY.md`: S3's `status` acceptors, two SageMaker error codes).
#[cfg(aws_waiters_smithy)]
#[tokio::test(start_paused = true)]
async fn smithy_models_decide_as_the_spec_and_as_botocore_where_they_agree() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/smithy_oracle.json"
    ))
    .unwrap();
    let fixture: SmithyFixture = serde_json::from_str(&text).unwrap();
    assert_eq!(fixture.waiters.len(), fixture.stats.waiters);
    let (mut cases, mut differ) = (0, 0);
    let mut disagreements = Vec::new();
    for w in &fixture.waiters {
        for case in &w.cases {
            let ours = crate::smithy::poll(&w.service, &w.waiter, case.case.answer()).await;
            let spec = expected(&case.case);
            cases += 1;
            differ += usize::from(case.case.state != case.botocore_state);
            if ours != spec {
                disagreements.push(format!(
                    "{} {}: the Smithy spec {spec:?}, ours {ours:?} on {:?} {:?}",
                    w.service, w.waiter, case.case.error, case.case.output
                ));
            }
        }
    }
    assert_eq!((cases, differ), (fixture.stats.cases, fixture.stats.differ));
    assert!(
        disagreements.is_empty(),
        "{} of {cases} answers disagree:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    println!(
        "{} waiters read from Smithy models, {cases} answers: as the spec decides; as botocore \
         decides on all but {differ} (SMITHY.md)",
        fixture.waiters.len()
    );
}
