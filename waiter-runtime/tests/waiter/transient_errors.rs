//! `Waiter::transient_poll_errors`: under `Retry`, a transient or throttling error no acceptor
//! names is a poll that matched nothing; under `Fail` (the default) it ends the wait, as the
//! spec says (paused clock).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use waiter_runtime::retry::{Jitter, Retrier, RetryAction, RetryConfig, classifier_fn};
use waiter_runtime::waiter::{AcceptorState, PollEvent, TransientPollErrors};
use waiter_runtime::{ProvideErrorMetadata, Searchable, WaitAll, WaiterError, waitable};

const fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

#[derive(Debug, Clone, Copy, PartialEq, ProvideErrorMetadata)]
pub(crate) enum Error {
    #[error_metadata(code = "ThrottlingException", status = 400, throttling)]
    Throttled,
    #[error_metadata(code = "RequestTimeout", transient)]
    TimedOut,
    #[error_metadata(code = "InternalFailure", status = 500)]
    Internal,
    #[error_metadata(code = "AccessDenied", status = 403)]
    Denied,
    #[error_metadata(code = "Gone", status = 404)]
    Gone,
    #[error_metadata(code = "ServiceBusy", status = 400)]
    Busy,
}

#[derive(Debug, Searchable)]
pub(crate) struct Stack {
    status: String,
}

/// Answers from a script (the last answer repeats).
pub(crate) struct Service {
    script: Vec<Result<&'static str, Error>>,
    calls: AtomicU32,
}

impl Service {
    pub(crate) fn new(script: Vec<Result<&'static str, Error>>) -> Self {
        Service {
            script,
            calls: AtomicU32::new(0),
        }
    }

    #[waitable(StackReady: {
        acceptors: [
            { state: "success", matcher: { output: { path: "status", expected: "READY", comparator: "stringEquals" } } },
            { state: "failure", matcher: { errorType: "Gone" } },
        ],
        minDelay: 2,
        maxDelay: 2,
    })]
    pub(crate) async fn get_stack(&self) -> Result<Stack, Error> {
        let n = self.calls.fetch_add(1, Ordering::Relaxed) as usize;
        self.script[n.min(self.script.len() - 1)].map(|status| Stack {
            status: status.into(),
        })
    }
}

#[tokio::test(start_paused = true)]
async fn retry_polls_again_after_transient_and_throttling_errors() {
    let service = Service::new(vec![
        Err(Error::Throttled),
        Ok("CREATING"),
        Err(Error::TimedOut),
        Ok("READY"),
    ]);
    let events = Mutex::new(Vec::new());
    let done = service
        .wait_until_stack_ready()
        .transient_poll_errors(TransientPollErrors::Retry)
        .on_poll(|e: &PollEvent| events.lock().unwrap().push(*e))
        .wait(secs(60))
        .await
        .unwrap();
    assert_eq!((done.polls, done.elapsed), (4, secs(6)));
    let seen: Vec<_> = events
        .into_inner()
        .unwrap()
        .iter()
        .map(|e| (e.state, e.transient_error, e.next_delay))
        .collect();
    assert_eq!(
        seen,
        [
            (AcceptorState::Retry, true, Some(secs(2))),
            (AcceptorState::Retry, false, Some(secs(2))),
            (AcceptorState::Retry, true, Some(secs(2))),
            (AcceptorState::Success, false, None),
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn fail_is_the_default_and_ends_the_wait() {
    let service = Service::new(vec![Err(Error::Throttled), Ok("READY")]);
    let err = service
        .wait_until_stack_ready()
        .wait(secs(60))
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        WaiterError::OperationFailed {
            error: Error::Throttled,
            polls: 1,
            ..
        }
    ));
    // `Retry` then `Fail`: the last word holds.
    let service = Service::new(vec![Err(Error::Throttled), Ok("READY")]);
    let err = service
        .wait_until_stack_ready()
        .transient_poll_errors(TransientPollErrors::Retry)
        .transient_poll_errors(TransientPollErrors::Fail)
        .wait(secs(60))
        .await
        .unwrap_err();
    assert!(matches!(err, WaiterError::OperationFailed { polls: 1, .. }));
}

#[tokio::test(start_paused = true)]
async fn other_errors_still_end_the_wait() {
    for (error, polls) in [(Error::Denied, 2), (Error::Internal, 2)] {
        let service = Service::new(vec![Err(Error::Throttled), Err(error)]);
        let err = service
            .wait_until_stack_ready()
            .transient_poll_errors(TransientPollErrors::Retry)
            .wait(secs(60))
            .await
            .unwrap_err();
        assert!(
            matches!(&err, WaiterError::OperationFailed { error: e, polls: p, .. } if *e == error && *p == polls),
            "{err:?}"
        );
    }
    // An error an acceptor names is the acceptor's, whatever the option.
    let service = Service::new(vec![Err(Error::Throttled), Err(Error::Gone)]);
    let err = service
        .wait_until_stack_ready()
        .transient_poll_errors(TransientPollErrors::Retry)
        .wait(secs(60))
        .await
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::FailureState { acceptor: 1, .. }),
        "{err:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn at_the_deadline_the_last_error_is_in_last() {
    let service = Service::new(vec![Err(Error::Throttled)]);
    let err = service
        .wait_until_stack_ready()
        .transient_poll_errors(TransientPollErrors::Retry)
        .wait(secs(7))
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            WaiterError::ExceededMaxWait {
                polls: 4,
                last: Some(Err(Error::Throttled)),
                ..
            }
        ),
        "{err:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn after_the_polls_own_retries() {
    // Three throttles: the first poll's two attempts, then the second poll's first.
    let service = Service::new(vec![
        Err(Error::Throttled),
        Err(Error::Throttled),
        Err(Error::Throttled),
        Ok("READY"),
    ]);
    let attempts = Mutex::new(Vec::new());
    let config = RetryConfig::standard()
        .max_attempts(2)
        .jitter(Jitter::None)
        .throttling_backoff(Duration::from_millis(100))
        .build();
    let done = service
        .wait_until_stack_ready()
        .transient_poll_errors(TransientPollErrors::Retry)
        .retry(config)
        .on_poll(|e: &PollEvent| {
            attempts
                .lock()
                .unwrap()
                .push((e.attempts, e.transient_error))
        })
        .wait(secs(60))
        .await
        .unwrap();
    assert_eq!(done.polls, 2);
    assert_eq!(attempts.into_inner().unwrap(), [(2, true), (2, false)]);
}

#[tokio::test(start_paused = true)]
async fn a_set_retries_for_all_its_waiters() {
    let (a, b) = (
        Service::new(vec![Err(Error::Throttled), Ok("READY")]),
        Service::new(vec![Ok("CREATING"), Err(Error::TimedOut), Ok("READY")]),
    );
    let results = WaitAll::new([a.wait_until_stack_ready(), b.wait_until_stack_ready()])
        .transient_poll_errors(TransientPollErrors::Retry)
        .wait(secs(60))
        .await;
    let polls: Vec<u32> = results.iter().map(|r| r.as_ref().unwrap().polls).collect();
    assert_eq!(polls, [2, 3]);
    // Without it, the throttle ends the first waiter's wait.
    let a = Service::new(vec![Err(Error::Throttled), Ok("READY")]);
    let results = WaitAll::new([a.wait_until_stack_ready()])
        .wait(secs(60))
        .await;
    assert!(matches!(
        results[0],
        Err(WaiterError::OperationFailed { .. })
    ));
}

/// A retrier whose own classifier calls `ServiceBusy` transient, and that retries nothing
/// inside a poll (one attempt).
fn busy_is_transient() -> Retrier {
    Retrier::new(RetryConfig::standard().max_attempts(1).build()).retry_classifier(classifier_fn(
        "busy is transient",
        |ctx| match ctx.error().and_then(|e| e.code()) {
            Some("ServiceBusy") => RetryAction::transient_error(),
            _ => RetryAction::NoActionIndicated,
        },
    ))
}

#[tokio::test(start_paused = true)]
async fn the_waiters_own_retrier_classifies_custom_classifiers_included() {
    // Given before or after `transient_poll_errors`, the waiter's retrier classifies.
    for retrier_first in [false, true] {
        let service = Service::new(vec![Err(Error::Busy), Ok("READY")]);
        let waiter = service.wait_until_stack_ready();
        let waiter = if retrier_first {
            waiter
                .retrier(busy_is_transient())
                .transient_poll_errors(TransientPollErrors::Retry)
        } else {
            waiter
                .transient_poll_errors(TransientPollErrors::Retry)
                .retrier(busy_is_transient())
        };
        let done = waiter.wait(secs(60)).await.unwrap();
        assert_eq!(done.polls, 2, "retrier first: {retrier_first}");
    }
    // Without it, the defaults: `ServiceBusy` is neither transient nor throttling.
    let service = Service::new(vec![Err(Error::Busy), Ok("READY")]);
    let err = service
        .wait_until_stack_ready()
        .transient_poll_errors(TransientPollErrors::Retry)
        .wait(secs(60))
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            WaiterError::OperationFailed {
                error: Error::Busy,
                polls: 1,
                ..
            }
        ),
        "{err:?}"
    );
    // A retrier without classifiers calls nothing transient, not even a throttle.
    let service = Service::new(vec![Err(Error::Throttled), Ok("READY")]);
    let err = service
        .wait_until_stack_ready()
        .transient_poll_errors(TransientPollErrors::Retry)
        .retrier(Retrier::new(RetryConfig::standard().build()).with_retry_classifiers([]))
        .wait(secs(60))
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            WaiterError::OperationFailed {
                error: Error::Throttled,
                polls: 1,
                ..
            }
        ),
        "{err:?}"
    );
}
