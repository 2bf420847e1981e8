//! A blocking wait steered and resumed as an async one is: transient poll errors ridden out on
//! request, and a wait taken up from a checkpoint with the same deadline and poll count.

use std::time::Duration;

use waiter_runtime::WaiterError;
use waiter_runtime::waiter::{CheckpointError, PollEvent, TransientPollErrors, WaitCheckpoint};

use super::waiter::{Client, Error};

const MS: Duration = Duration::from_millis(1);

/// A service whose waiter names no throttling error: its polls answer from `SCRIPT`.
mod throttled {
    use std::cell::RefCell;

    use waiter_runtime::{Searchable, waitable};

    use super::super::waiter::Error;

    #[derive(Debug, Searchable)]
    pub struct Stack {
        pub status: String,
    }

    thread_local!(pub static SCRIPT: RefCell<Vec<Result<&'static str, Error>>> = const { RefCell::new(Vec::new()) });

    #[waitable(StackReady: { acceptors: [{ state: "success", matcher: { output: {
        path: "status", expected: "READY", comparator: "stringEquals" } } }] })]
    pub fn get_stack() -> Result<Stack, Error> {
        SCRIPT
            .with(|s| s.borrow_mut().remove(0))
            .map(|status| Stack {
                status: status.into(),
            })
    }

    pub fn script(answers: Vec<Result<&'static str, Error>>) {
        SCRIPT.with(|s| *s.borrow_mut() = answers);
    }
}

#[test]
fn a_throttled_poll_ends_the_wait_by_default_and_is_ridden_out_on_request() {
    throttled::script(vec![Ok("CREATING"), Err(Error::Throttled), Ok("READY")]);
    let err = throttled::wait_until_stack_ready()
        .min_delay(MS)
        .wait(Duration::from_secs(5))
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::OperationFailed { polls: 2, .. }),
        "{err:?}"
    );

    throttled::script(vec![Ok("CREATING"), Err(Error::Throttled), Ok("READY")]);
    let mut transient = Vec::new();
    let done = throttled::wait_until_stack_ready()
        .min_delay(MS)
        .transient_poll_errors(TransientPollErrors::Retry)
        .on_poll(|e: &PollEvent| transient.push(e.transient_error))
        .wait(Duration::from_secs(5))
        .unwrap();
    assert_eq!(done.polls, 3);
    assert_eq!(transient, [false, true, false]);
}

#[test]
fn an_error_that_is_not_transient_still_ends_the_wait() {
    throttled::script(vec![Err(Error::Denied)]);
    let err = throttled::wait_until_stack_ready()
        .transient_poll_errors(TransientPollErrors::Retry)
        .wait(Duration::from_secs(5))
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::OperationFailed { polls: 1, .. }),
        "{err:?}"
    );
}

#[test]
fn a_resumed_blocking_wait_keeps_the_poll_count_and_the_deadline() {
    let client = Client::new(vec![Ok("creating"), Ok("creating"), Ok("ready")]);
    let mut saved: Option<WaitCheckpoint> = None;
    // The first process stops after its first poll (a failure acceptor would end it; here the
    // observer keeps the checkpoint and the wait runs out of a tiny max wait).
    let _ = client
        .wait_until_thing_ready("t")
        .min_delay(Duration::from_millis(50))
        .on_poll(|e: &PollEvent| {
            if saved.is_none() {
                saved = e.checkpoint();
            }
        })
        .wait(Duration::from_secs(5));
    let saved = saved.unwrap();
    assert_eq!((saved.polls, saved.max_wait), (1, Duration::from_secs(5)));

    let client = Client::new(vec![Ok("creating"), Ok("ready")]);
    let done = client
        .wait_until_thing_ready("t")
        .min_delay(MS)
        .resume(&saved)
        .unwrap()
        .wait()
        .unwrap();
    // Polls count on from the checkpoint's: 1 before, 2 after.
    assert_eq!(done.polls, 3);
    // The elapsed time counts from the first process's start.
    assert!(done.elapsed >= saved.elapsed, "{done:?}");

    // Another waiter's checkpoint is refused, never a panic.
    let other = client
        .wait_until_thing_ready_retrying(&waiter_runtime::retry::Retrier::default())
        .resume(&saved)
        .unwrap_err();
    assert!(
        matches!(other, CheckpointError::OtherWaiter { .. }),
        "{other:?}"
    );
}

#[test]
fn the_waiters_own_retrier_classifies_custom_classifiers_included() {
    use waiter_runtime::retry::{Retrier, RetryAction, RetryConfig, classifier_fn};

    // `AccessDenied` is no transient error, but this retrier's own classifier says it is.
    let denied_is_transient = || {
        Retrier::new(RetryConfig::standard().max_attempts(1).build()).retry_classifier(
            classifier_fn("denied is transient", |ctx| {
                match ctx.error().and_then(|e| e.code()) {
                    Some("AccessDenied") => RetryAction::transient_error(),
                    _ => RetryAction::NoActionIndicated,
                }
            }),
        )
    };
    for retrier_first in [false, true] {
        throttled::script(vec![Err(Error::Denied), Ok("READY")]);
        let waiter = throttled::wait_until_stack_ready().min_delay(MS);
        let waiter = if retrier_first {
            waiter
                .retrier(denied_is_transient())
                .transient_poll_errors(TransientPollErrors::Retry)
        } else {
            waiter
                .transient_poll_errors(TransientPollErrors::Retry)
                .retrier(denied_is_transient())
        };
        let done = waiter.wait(Duration::from_secs(5)).unwrap();
        assert_eq!(done.polls, 2, "retrier first: {retrier_first}");
    }
}
