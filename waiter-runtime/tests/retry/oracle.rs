//! Standard retry behaviors 2.1 and 2.0 against botocore as oracle: one harness, two tables.
//! Random sequences of calls recorded through botocore's own retry classes
//! (`tests/support/botocore/gen_botocore_oracle.py`: 2.1 with botocore 1.44's `RetryHandler`,
//! 2.0 with botocore 1.43's `StandardRetryConditions`, `RetryQuotaChecker` and
//! `ExponentialBackoff`), replayed through our `Retrier` on tokio's paused clock and compared
//! attempt by attempt: whether it retries, the quota's tokens after each attempt, why the call
//! stopped, and the delay before each retry; then the backoff formula and the classification
//! of each error, row by row.

mod v2_0;
mod v2_1;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::time::Instant;
use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::error_metadata::hint::parse_amz_retry_after;
use waiter_runtime::retry::{ErrorKind, Retrier, RetryConfig, RetryQuota, StopReason};

fn fixture(json: &str) -> Value {
    serde_json::from_str(json).expect("the fixture is JSON")
}

/// One attempt's failure as the fixture describes it.
#[derive(Debug, Clone, ProvideErrorMetadata)]
enum Failure {
    /// A response with an error code and a status, and the `x-amz-retry-after` hint our header
    /// parser read (if it accepted the header).
    Response {
        #[error_metadata(code)]
        code: Option<String>,
        #[error_metadata(status)]
        status: Option<u16>,
        #[error_metadata(retry_after)]
        retry_after: Option<Duration>,
    },
    /// botocore's `ReadTimeoutError`, `ConnectTimeoutError` and `ConnectionError`: errors our
    /// transport marks transient.
    #[error_metadata(transient)]
    Transport,
}

fn response(code: &str, status: u16, header: Option<&str>) -> Failure {
    Failure::Response {
        code: Some(code.to_owned()),
        status: Some(status),
        retry_after: header.and_then(parse_amz_retry_after),
    }
}

/// An attempt outcome of the fixture as our operation returns it.
fn outcome(code: &str, header: Option<&str>) -> Result<(), Failure> {
    match code {
        "S" => Ok(()),
        // A 503 response: botocore's transient status, our `ServerError`.
        "E" => Err(response("ServiceUnavailable", 503, header)),
        // `ThrottlingException`: a throttle in both.
        "T" => Err(response("ThrottlingException", 400, header)),
        "X" => Err(response("ValidationException", 400, header)),
        // A read timeout or a connection error: our `TransientError`.
        "O" | "C" => Err(Failure::Transport),
        other => panic!("unknown outcome {other:?}"),
    }
}

fn kind_of(code: &str) -> ErrorKind {
    match code {
        "T" => ErrorKind::ThrottlingError,
        "E" => ErrorKind::ServerError,
        "O" | "C" => ErrorKind::TransientError,
        other => panic!("unknown kind {other}"),
    }
}

/// Equal to botocore's float seconds, to the nanosecond.
#[track_caller]
fn assert_same_delay(ours: Duration, theirs: f64, what: &str) {
    assert!(
        (ours.as_secs_f64() - theirs).abs() <= 1e-9 * (1.0 + theirs),
        "{what}: botocore {theirs} s, ours {ours:?}"
    );
}

/// One attempt of a recorded call.
struct Attempt<'a> {
    code: &'a str,
    /// The `x-amz-retry-after` header of the response, if any.
    header: Option<&'a str>,
    /// Whether botocore retried after it.
    retried: bool,
    /// The quota's tokens after it.
    available: u32,
    /// The delay botocore waited after it (a retry's, or the long-polling backoff on an empty
    /// quota), when the table records delays: the 2.0 table does not (its backoff is jittered);
    /// its delays are checked against their bound instead.
    delay: Option<f64>,
}

/// A sequence's retrier as the table sets it up: the configuration, and whether its calls are
/// long-polling.
struct Setup {
    config: RetryConfig,
    long_polling: bool,
    what: String,
}

/// What a replay compared.
#[derive(Debug, Default)]
struct Replayed {
    calls: usize,
    attempts: usize,
    delays: usize,
    hinted: usize,
    exhausted: usize,
    max_attempts_stops: usize,
    refills: usize,
    long_polls: usize,
}

/// Replays every call of the table's `quota` sequences through a `Retrier` set up by `setup`,
/// attempt by attempt (read by `attempt`); `delays_recorded` says whether the table records the
/// delay of every retry.
async fn replay(
    fixture: &Value,
    setup: impl Fn(&Value) -> Setup,
    attempt: impl Fn(&Value) -> Attempt<'_>,
    delays_recorded: bool,
) -> Replayed {
    let mut r = Replayed::default();
    for (n, seq) in fixture["quota"].as_array().unwrap().iter().enumerate() {
        let Setup {
            config,
            long_polling,
            what: sequence,
        } = setup(seq);
        let max_attempts = config.max_attempts();
        let events = Arc::new(Mutex::new(Vec::new()));
        let seen_events = events.clone();
        let retrier = Retrier::new(config.clone())
            .on_retry(move |event| seen_events.lock().unwrap().push(event.delay));
        let quota: RetryQuota = retrier.quota().clone();
        for (c, call) in seq["calls"].as_array().unwrap().iter().enumerate() {
            let what = format!("sequence {n} ({sequence}, max attempts {max_attempts}) call {c}");
            let call: Vec<Attempt<'_>> = call.as_array().unwrap().iter().map(&attempt).collect();
            // The quota's tokens and the time as each attempt starts.
            let seen = Arc::new(Mutex::new(Vec::new()));
            events.lock().unwrap().clear();
            let mut next = 0;
            let report = retrier
                .customize()
                .long_polling(long_polling)
                .run_report(|| {
                    seen.lock()
                        .unwrap()
                        .push((quota.available(), Instant::now()));
                    let out = outcome(call[next].code, call[next].header);
                    next += 1;
                    async move { out }
                })
                .await;
            let returned = Instant::now();
            let seen = seen.lock().unwrap();
            let events = events.lock().unwrap();
            assert_eq!(report.attempts as usize, call.len(), "{what}: attempts");
            for (k, a) in call.iter().enumerate() {
                let last = k + 1 == call.len();
                let at = format!("{what} attempt {} ({})", k + 1, a.code);
                assert_eq!(a.retried, !last, "{at}: botocore retried?");
                let ours = if last {
                    quota.available()
                } else {
                    seen[k + 1].0
                };
                assert_eq!(ours, a.available, "{at}: tokens after");
                match (last, a.delay) {
                    (false, Some(theirs)) => {
                        assert_same_delay(events[k], theirs, &format!("{at}: delay"));
                        // The delay was slept (tokio's timer ticks in milliseconds).
                        let gap = seen[k + 1].1 - seen[k].1;
                        assert!(
                            events[k] <= gap && gap <= events[k] + Duration::from_millis(1),
                            "{at}: slept {gap:?} for {:?}",
                            events[k]
                        );
                        r.delays += 1;
                        r.hinted += usize::from(a.header.is_some());
                    }
                    (false, None) => {
                        assert!(!delays_recorded, "{at}: botocore retried without a delay");
                        // Within the bound botocore's `ExponentialBackoff` draws from.
                        let bound = config.backoff_bound(kind_of(a.code), k as u32 + 1);
                        let gap = seen[k + 1].1 - seen[k].1;
                        assert!(gap <= bound, "{at}: backoff {gap:?} > {bound:?}");
                    }
                    (true, Some(theirs)) => {
                        // botocore's long-polling backoff on an empty quota.
                        let slept = returned - seen[k].1;
                        assert!(
                            (slept.as_secs_f64() - theirs).abs() <= 1e-3 + 1e-9 * theirs,
                            "{at}: long-polling backoff: botocore {theirs} s, ours {slept:?}"
                        );
                        r.long_polls += 1;
                    }
                    (true, None) => {
                        assert_eq!(returned, seen[k].1, "{at}: returned at once");
                    }
                }
                r.attempts += 1;
            }
            assert_eq!(events.len(), call.len() - 1, "{what}: retries");
            // Why botocore stopped: a success, not retryable, the max attempts (checked
            // before the quota), or too few tokens.
            let last = call[call.len() - 1].code;
            let expected = if last == "S" {
                StopReason::Succeeded
            } else if last == "X" {
                StopReason::NotRetryable
            } else if call.len() as u32 == max_attempts {
                r.max_attempts_stops += 1;
                StopReason::MaxAttempts
            } else {
                r.exhausted += 1;
                match report.stop {
                    StopReason::QuotaExhausted(_) => report.stop,
                    other => {
                        panic!("{what}: botocore's quota was exhausted, we stopped: {other:?}")
                    }
                }
            };
            assert_eq!(report.stop, expected, "{what}: stop");
            r.refills += usize::from(last == "S" && call.len() > 1);
            r.calls += 1;
        }
    }
    eprintln!("{r:?}");
    r
}

/// Checks `config.delay` (and the bound the jitter draws from) against the table's rows of
/// botocore's `ExponentialBackoff.delay_amount`; `row` reads a row as (config, kind, attempt,
/// random factor, botocore's delay). Returns the number of rows.
fn check_backoff(
    fixture: &Value,
    row: impl Fn(&Value) -> (RetryConfig, ErrorKind, u32, f64, f64),
) -> usize {
    let rows = fixture["backoff"].as_array().unwrap();
    for r in rows {
        let (config, kind, attempt, random, theirs) = row(r);
        let what = format!("{r}");
        assert_same_delay(config.delay(kind, attempt, random, None), theirs, &what);
        if random > 0.0 {
            // The bound the jitter draws from: the cap applies before the jitter.
            let bound = config.backoff_bound(kind, attempt).as_secs_f64();
            let theirs = theirs / random;
            assert!(
                (bound - theirs).abs() <= 1e-9 * theirs,
                "{what}: bound: botocore {theirs}, ours {bound}"
            );
        }
    }
    rows.len()
}

/// One row of the table's classification of a failed first attempt, and what ours did.
struct Classified {
    what: String,
    code: Option<String>,
    status: Option<u16>,
    exception: Option<String>,
    /// botocore's verdict: retryable, a throttle, the tokens the retry took.
    retryable: bool,
    throttling: bool,
    cost: Option<u64>,
    /// Ours: retried, the kind, the tokens taken.
    retried: bool,
    kind: Option<ErrorKind>,
    taken: u64,
}

impl Classified {
    /// Ours retried it as botocore did, and took it for a throttle as botocore did.
    #[track_caller]
    fn assert_same_verdict(&self) {
        let what = &self.what;
        assert_eq!(self.retried, self.retryable, "{what}: retried?");
        assert_eq!(
            self.kind == Some(ErrorKind::ThrottlingError),
            self.throttling,
            "{what}: a throttle? ours {:?}",
            self.kind
        );
    }
}

/// Runs each `classify` row of the table as a failed first attempt through a retrier of
/// `config` (two attempts at most).
async fn classify_rows(fixture: &Value, config: &RetryConfig) -> Vec<Classified> {
    let mut out = Vec::new();
    for row in fixture["classify"].as_array().unwrap() {
        let code = row[0].as_str().map(str::to_owned);
        let status = row[1].as_u64().map(|s| s as u16);
        let exception = row[2].as_str().map(str::to_owned);
        let failure = match exception {
            Some(_) => Failure::Transport,
            None => Failure::Response {
                code: code.clone(),
                status,
                retry_after: None,
            },
        };
        let kind = Arc::new(Mutex::new(None));
        let seen = kind.clone();
        let retrier = Retrier::new(config.clone())
            .on_retry(move |event| *seen.lock().unwrap() = Some(event.reason.kind()));
        let mut first = true;
        let report = retrier
            .customize()
            .max_attempts(2)
            .run_report(|| {
                let outcome = if std::mem::take(&mut first) {
                    Err(failure.clone())
                } else {
                    Ok(())
                };
                async move { outcome }
            })
            .await;
        let kind = *kind.lock().unwrap();
        out.push(Classified {
            what: format!("{row}"),
            code,
            status,
            exception,
            retryable: row[3].as_bool().unwrap(),
            throttling: row[4].as_bool().unwrap(),
            cost: row[5].as_u64(),
            retried: report.attempts == 2,
            kind,
            taken: report.tokens_taken,
        });
    }
    out
}
