//! The async and the blocking form of one waiter in one file: on two client types (the same
//! pasted waiter, and the same waiters of a model file), on two types named alike in two
//! modules, and on one type under two names (the recipe of the error a waiter repeated on one
//! type gets). That this file compiles is half the test: `#[waitable]` reads the file to find a
//! waiter repeated on one type, and none of these is.

use std::time::Duration;

use waiter_runtime::{ProvideErrorMetadata, WaiterError, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    #[error_metadata(code = "ResourceNotFoundException")]
    NotFound,
    #[error_metadata(code = "StreamNotFound")]
    StreamNotFound,
}

/// What both clients answer, the same on every poll.
fn found(name: &str) -> Result<(), Error> {
    match name {
        "" => Err(Error::StreamNotFound),
        "creating" => Err(Error::NotFound),
        _ => Ok(()),
    }
}

pub struct Client;

impl Client {
    #[waitable(StreamExists: { acceptors: [
        { state: "success", matcher: { success: true } }
        { state: "retry", matcher: { errorType: "ResourceNotFoundException" } }
    ] })]
    pub async fn describe_stream(&self, name: &str) -> Result<(), Error> {
        found(name)
    }

    #[waitable(botocore = "tests/waitable/models/stream.botocore.json", waiters = ["StreamGone"])]
    pub async fn get_stream(&self, name: &str) -> Result<(), Error> {
        found(name)
    }

    /// The same waiter on the blocking method of the same type, under its own name.
    #[waitable(StreamExistsBlocking: { acceptors: [
        { state: "success", matcher: { success: true } }
        { state: "retry", matcher: { errorType: "ResourceNotFoundException" } }
    ] })]
    pub fn describe_stream_blocking(&self, name: &str) -> Result<(), Error> {
        found(name)
    }
}

pub struct BlockingClient;

impl BlockingClient {
    #[waitable(StreamExists: { acceptors: [
        { state: "success", matcher: { success: true } }
        { state: "retry", matcher: { errorType: "ResourceNotFoundException" } }
    ] })]
    pub fn describe_stream(&self, name: &str) -> Result<(), Error> {
        found(name)
    }

    #[waitable(botocore = "tests/waitable/models/stream.botocore.json", waiters = ["StreamGone"])]
    pub fn get_stream(&self, name: &str) -> Result<(), Error> {
        found(name)
    }
}

/// A type named as the async client, in another module: another type.
mod blocking {
    use waiter_runtime::waitable;

    pub struct Client;

    impl Client {
        #[waitable(StreamExists: { acceptors: [{ state: "success", matcher: { success: true } }] })]
        pub fn describe_stream(&self, name: &str) -> Result<(), super::Error> {
            super::found(name)
        }
    }
}

#[tokio::test(start_paused = true)]
async fn the_async_client_keeps_its_waiters() {
    let done = Client
        .wait_until_stream_exists("orders")
        .wait(Duration::from_secs(60))
        .await
        .unwrap();
    assert_eq!(done.polls, 1);
    let creating = Client
        .wait_until_stream_exists("creating")
        .wait(Duration::from_secs(10))
        .await;
    assert!(matches!(creating, Err(WaiterError::ExceededMaxWait { .. })));
    let gone = Client
        .wait_until_stream_gone("")
        .wait(Duration::from_secs(600))
        .await;
    assert_eq!(gone.unwrap().polls, 1);
    assert_eq!(Client::STREAM_EXISTS_WAITER.name, "StreamExists");
    assert_eq!(Client::STREAM_GONE_WAITER.name, "StreamGone");
}

#[test]
fn the_blocking_client_keeps_the_same_waiters() {
    let wait = Duration::from_secs(1);
    assert_eq!(
        BlockingClient
            .wait_until_stream_exists("orders")
            .wait(wait)
            .unwrap()
            .polls,
        1
    );
    assert_eq!(
        BlockingClient
            .wait_until_stream_gone("")
            .wait(wait)
            .unwrap()
            .polls,
        1
    );
    assert_eq!(BlockingClient::STREAM_EXISTS_WAITER.name, "StreamExists");
    assert_eq!(BlockingClient::STREAM_GONE_WAITER.name, "StreamGone");
    assert_eq!(
        blocking::Client
            .wait_until_stream_exists("orders")
            .wait(wait)
            .unwrap()
            .polls,
        1
    );
}

#[test]
fn one_type_has_both_forms_under_two_names() {
    let done = Client
        .wait_until_stream_exists_blocking("orders")
        .wait(Duration::from_secs(1))
        .unwrap();
    assert_eq!(done.polls, 1);
    assert_eq!(
        Client::STREAM_EXISTS_BLOCKING_WAITER.name,
        "StreamExistsBlocking"
    );
}
