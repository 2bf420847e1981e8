//! `#[waitable(botocore = "..")]` and `#[waitable(smithy = "..")]`: waiters read from model
//! files (`tests/waitable/models/`, paths relative to this crate's manifest directory), each
//! botocore matcher as botocore means it: booleans and numbers on `path`, `error` with `true`
//! and `false`, `status` on errors and on outputs; delays, description and the published
//! maximum wait in the metadata. Every waiter botocore ships is checked against botocore itself
//! in `tests/aws-waiters`.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

use waiter_runtime::waiter::{AcceptorState, MatcherDescription, PollEvent};
use waiter_runtime::{OutputStatus, ProvideErrorMetadata, Searchable, Waiter, waitable};

#[derive(Debug, Clone, PartialEq)]
pub struct StreamError {
    code: &'static str,
    status: u16,
}

impl ProvideErrorMetadata for StreamError {
    fn code(&self) -> Option<&str> {
        Some(self.code)
    }
    fn http_status(&self) -> Option<u16> {
        Some(self.status)
    }
}

#[derive(Debug, Clone, Default, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct Stream {
    ready: bool,
    shards: Option<i64>,
    errors: Vec<StreamFault>,
    /// The HTTP status this client's answer came with (a client that returns every answer).
    #[searchable(skip)]
    status: u16,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct StreamFault {
    code: String,
}

impl OutputStatus for Stream {
    fn http_status(&self) -> Option<u16> {
        Some(self.status)
    }
}

/// A client answering from a script.
pub struct Client(Mutex<VecDeque<Result<Stream, StreamError>>>);

impl Client {
    fn new(answers: impl IntoIterator<Item = Result<Stream, StreamError>>) -> Client {
        Client(Mutex::new(answers.into_iter().collect()))
    }

    fn next(&self) -> Result<Stream, StreamError> {
        self.0
            .lock()
            .unwrap()
            .pop_front()
            .expect("a scripted answer")
    }

    #[waitable(botocore = "tests/waitable/models/stream.botocore.json")]
    pub async fn get_stream(&self, name: &str) -> Result<Stream, StreamError> {
        let _ = name;
        self.next()
    }
}

/// The Smithy model's waiter, on a function whose name is not the operation's.
pub struct SmithyClient(Client);

impl SmithyClient {
    #[waitable(
        smithy = "tests/waitable/models/stream.smithy.json",
        operation = "GetStream"
    )]
    pub async fn fetch_stream(&self) -> Result<Stream, StreamError> {
        self.0.next()
    }
}

/// A blocking client reading the same file, narrowed to one waiter.
pub struct BlockingClient(Client);

impl BlockingClient {
    #[waitable(botocore = "tests/waitable/models/stream.botocore.json", waiters = ["StreamGone"])]
    pub fn get_stream(&self) -> Result<Stream, StreamError> {
        self.0.next()
    }
}

/// The acceptor (index, state) the first poll matched, or `None`.
async fn first_poll(waiter: Waiter<'_, Stream, StreamError>) -> Option<(usize, AcceptorState)> {
    let mut first: Option<PollEvent> = None;
    let _ = waiter
        .min_delay(Duration::from_secs(1))
        .max_delay(Duration::from_secs(1))
        .on_poll(|e: &PollEvent| {
            first.get_or_insert(*e);
        })
        .wait(Duration::from_millis(1500))
        .await;
    let first = first.expect("a poll");
    first.acceptor.map(|i| (i, first.state))
}

fn ok(stream: Stream) -> Result<Stream, StreamError> {
    Ok(Stream {
        status: 200,
        ..stream
    })
}

fn err(code: &'static str, status: u16) -> Result<Stream, StreamError> {
    Err(StreamError { code, status })
}

#[tokio::test(start_paused = true)]
async fn path_booleans_numbers_and_status_read_as_botocore_means_them() {
    use AcceptorState::{Failure, Retry, Success};
    let cases = [
        // `path` with `expected: true`: `booleanEquals`.
        (
            ok(Stream {
                ready: true,
                ..Stream::default()
            }),
            Some((0, Success)),
        ),
        // `path` with `expected: 0`: the path equal to the number.
        (
            ok(Stream {
                shards: Some(0),
                ..Stream::default()
            }),
            Some((1, Failure)),
        ),
        (
            ok(Stream {
                shards: Some(2),
                ..Stream::default()
            }),
            None,
        ),
        (
            ok(Stream {
                errors: vec![StreamFault {
                    code: "Fatal".into(),
                }],
                ..Stream::default()
            }),
            Some((2, Failure)),
        ),
        // `status: 404` on an error's HTTP status, and on an output's (`OutputStatus`).
        (err("StreamNotFound", 404), Some((3, Retry))),
        (
            Ok(Stream {
                status: 404,
                ..Stream::default()
            }),
            Some((3, Retry)),
        ),
        (err("InternalFailure", 500), None),
    ];
    for (answer, expected) in cases {
        let client = Client::new([answer.clone(), answer.clone()]);
        assert_eq!(
            first_poll(client.wait_until_stream_ready("s")).await,
            expected,
            "{answer:?}"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn error_true_is_any_error_and_false_no_error() {
    use AcceptorState::{Failure, Retry, Success};
    for (answer, expected) in [
        (err("StreamNotFound", 400), (0, Success)),
        // `expected: false`: no error, so a successful answer.
        (ok(Stream::default()), (1, Retry)),
        // `expected: true`: any error.
        (err("AccessDenied", 403), (2, Failure)),
    ] {
        let client = Client::new([answer.clone(), answer.clone()]);
        assert_eq!(
            first_poll(client.wait_until_stream_gone("s")).await,
            Some(expected),
            "{answer:?}"
        );
    }
}

#[test]
fn the_metadata_keeps_the_delays_description_and_published_maximum_wait() {
    let ready = Client::STREAM_READY_WAITER;
    assert_eq!(ready.min_delay, Duration::from_secs(3));
    assert_eq!(ready.max_delay, Duration::from_secs(120));
    assert_eq!(ready.published_max_wait, Some(Duration::from_secs(60)));
    assert_eq!(
        ready.documentation,
        Some("Waits until the stream is ready.")
    );
    assert_eq!(ready.acceptors[3].matcher, MatcherDescription::Status(404));
    // A status acceptor names the errors with that status: a retry layer leaves them to it.
    assert!(ready.named_errors().names_status(Some(404)));
    assert!(!ready.named_errors().names_status(Some(500)));
    // A `delay` above the default `maxDelay` is both bounds.
    let gone = BlockingClient::STREAM_GONE_WAITER;
    assert_eq!(
        (gone.min_delay, gone.max_delay),
        (Duration::from_secs(200), Duration::from_secs(200))
    );
    assert_eq!(gone.published_max_wait, Some(Duration::from_secs(600)));
    // The Smithy model publishes no maximum wait; its errorType keeps its shape ID.
    let smithy = SmithyClient::STREAM_READY_WAITER;
    assert_eq!(smithy.published_max_wait, None);
    assert_eq!(smithy.operation, "fetch_stream");
    assert_eq!(
        smithy.acceptors[1].matcher,
        MatcherDescription::ErrorType("example.streams#StreamNotFound")
    );
}

#[tokio::test(start_paused = true)]
async fn the_smithy_model_is_read_on_the_operation_named() {
    let client = SmithyClient(Client::new([
        err("StreamNotFound", 400),
        ok(Stream::default()),
        ok(Stream {
            ready: true,
            ..Stream::default()
        }),
    ]));
    let done = client
        .wait_until_stream_ready()
        .min_delay(Duration::from_secs(1))
        .max_delay(Duration::from_secs(1))
        .wait(Duration::from_secs(60))
        .await
        .unwrap();
    assert_eq!(done.polls, 3);
}

#[test]
fn a_blocking_client_reads_the_waiters_it_names() {
    let client = BlockingClient(Client::new([err("StreamNotFound", 400)]));
    let done = client
        .wait_until_stream_gone()
        .wait(Duration::from_secs(1))
        .unwrap();
    assert_eq!(done.polls, 1);
}
