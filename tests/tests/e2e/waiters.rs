//! Waiters over loopback TCP against the example service: `success` and `errorType`
//! acceptors (`success: true` and `false`), unexpected errors, and the deadline cancelling a
//! hung request.

use std::time::Duration;

use waiter_runtime::retry::RetryConfig;
use waiter_runtime::waiter::AcceptorState;
use waiter_runtime::{ProvideErrorMetadata, WaiterError, waitable};
use waiter_tests::client::{ListResourcesOutput, ResourceClient, ResourceError};
use waiter_tests::service::{Fault, Outcome, RunningService, Settle};

const FAST: Duration = Duration::from_millis(10);
const FAST_MAX: Duration = Duration::from_millis(40);
const MAX_WAIT: Duration = Duration::from_secs(20);

async fn setup(settle: Settle) -> (RunningService, ResourceClient) {
    crate::common::service_and_client(11, settle).await
}

#[tokio::test]
async fn resource_exists_retries_on_not_found_then_succeeds() {
    let (service, client) = setup(Settle::Manual).await;
    let waiter = {
        let client = client.clone();
        tokio::spawn(async move {
            client
                .wait_until_resource_exists("late")
                .min_delay(FAST)
                .max_delay(FAST_MAX)
                .wait(MAX_WAIT)
                .await
        })
    };
    service
        .wait_for_stats(MAX_WAIT, |s| s.requests >= 3)
        .await
        .unwrap();
    client.create_resource("late", &[]).await.unwrap();
    let done = waiter.await.unwrap().unwrap();
    assert_eq!(done.output().unwrap().status, "CREATING");
    let gets: Vec<_> = service
        .request_log()
        .into_iter()
        .filter(|r| r.method == "GET")
        .map(|r| r.outcome)
        .collect();
    assert_eq!(gets.len() as u32, done.polls);
    assert!(
        gets[..gets.len() - 1]
            .iter()
            .all(|o| *o == Outcome::Answered(404)),
        "{gets:?}"
    );
    assert_eq!(gets.last(), Some(&Outcome::Answered(200)));
}

#[tokio::test]
async fn resource_deleted_succeeds_on_the_not_found_error() {
    let (service, client) = setup(Settle::AfterReads(2)).await;
    client.create_resource("gone", &[]).await.unwrap();
    service.settle("gone");
    client.delete_resource("gone").await.unwrap();
    let done = client
        .wait_until_resource_deleted("gone")
        .min_delay(FAST)
        .max_delay(FAST_MAX)
        .wait(MAX_WAIT)
        .await
        .unwrap();
    // Two reads see DELETING (no acceptor matches: retry), the third answers 404 NotFound.
    assert_eq!(done.polls, 3);
    let err = done.error().expect("the waiter succeeded on an error");
    assert!(matches!(err, ResourceError::NotFound { .. }), "{err}");
    assert_eq!(err.http_status(), Some(404));
}

#[tokio::test]
async fn throttled_polls_are_retried_inside_the_poll_without_throttling_acceptors() {
    let (service, _) = setup(Settle::Manual).await;
    let client = ResourceClient::builder(service.url())
        .retry_config(
            RetryConfig::standard()
                .transient_backoff(Duration::from_millis(5))
                .throttling_backoff(Duration::from_millis(5))
                .max_backoff(Duration::from_millis(20))
                .build(),
        )
        .build();
    client.create_resource("t", &[]).await.unwrap();
    service.faults().script([Fault::Throttle, Fault::SlowDown]);
    let mut events = Vec::new();
    let done = client
        .wait_until_resource_exists("t")
        .min_delay(FAST)
        .max_delay(FAST_MAX)
        .on_poll(|e: &_| events.push((e.state, e.attempts)))
        .wait(MAX_WAIT)
        .await
        .unwrap();
    // No acceptor names the throttling codes: the client's retrier retried them in the poll.
    assert_eq!(done.polls, 1);
    assert_eq!(events, [(AcceptorState::Success, 3)]);
    assert_eq!(service.stats().throttled, 2);
}

#[tokio::test]
async fn an_error_no_acceptor_expects_ends_the_wait() {
    let (service, _) = setup(Settle::Manual).await;
    // Without retries, so that the 503 is not retried away inside the poll.
    let client = ResourceClient::builder(service.url())
        .retry_config(RetryConfig::disabled())
        .build();
    service.faults().script([Fault::Unavailable]);
    let err = client
        .wait_until_resource_exists("x")
        .min_delay(FAST)
        .max_delay(FAST_MAX)
        .wait(MAX_WAIT)
        .await
        .unwrap_err();
    let WaiterError::OperationFailed { error, polls, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(*polls, 1);
    assert_eq!(error.code(), Some("ServiceUnavailable"));
    assert!(err.to_string().contains("ResourceExists"), "{err}");
}

#[tokio::test]
async fn the_deadline_cancels_a_hung_request_and_the_server_sees_it_closed() {
    let (service, client) = setup(Settle::Manual).await;
    service.faults().script([Fault::Hang]);
    let started = std::time::Instant::now();
    let max_wait = Duration::from_millis(300);
    let err = client
        .wait_until_resource_exists("hung")
        .min_delay(FAST)
        .max_delay(FAST_MAX)
        .wait(max_wait)
        .await
        .unwrap_err();
    let elapsed = started.elapsed();
    let WaiterError::ExceededMaxWait {
        polls,
        cancelled_in_flight,
        ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!((*polls, *cancelled_in_flight), (0, true));
    // The last poll starts min_delay (50 ms) before the deadline; once it answers, too little
    // time is left for another: the wait ends between max_wait - min_delay and max_wait.
    assert!(
        elapsed >= max_wait - Duration::from_millis(50)
            && elapsed < max_wait + Duration::from_secs(1),
        "{elapsed:?}"
    );
    let stats = service
        .wait_for_stats(Duration::from_secs(5), |s| {
            s.hung_cancelled == 1 && s.connections_closed == s.connections_opened
        })
        .await
        .expect("the server sees the connection closed and drops the hung handler");
    assert_eq!((stats.hung, stats.requests), (1, 1));
}

/// A health probe over the example client, with a waiter that succeeds as soon as a call fails,
/// whatever the error (`success: false`), and keeps polling while calls succeed.
struct Probe(ResourceClient);

impl Probe {
    #[waitable(
        ServiceFailing: {
            acceptors: [
                { state: "success", matcher: { success: false } }
                { state: "retry", matcher: { success: true } }
            ]
        }
    )]
    async fn probe(&self) -> Result<ListResourcesOutput, ResourceError> {
        self.0.list_resources("").await
    }
}

#[tokio::test]
async fn success_false_matches_any_error_even_without_a_code() {
    let (service, client) = setup(Settle::Manual).await;
    service.faults().script_ok(2);
    service.faults().script([Fault::Reset]);
    let done = Probe(client)
        .wait_until_service_failing()
        .min_delay(FAST)
        .max_delay(FAST_MAX)
        .wait(MAX_WAIT)
        .await
        .unwrap();
    assert_eq!(done.polls, 3);
    let err = done
        .error()
        .expect("the waiter succeeded on the failed call");
    assert!(
        matches!(err, ResourceError::Transport(_)) && err.code().is_none(),
        "{err:?}"
    );
    assert_eq!(
        service.stats().requests,
        3,
        "one attempt per poll, even for a connection reset"
    );
}

#[tokio::test]
async fn a_resource_that_never_settles_ends_at_the_max_wait_with_the_last_result() {
    let (service, client) = setup(Settle::Manual).await;
    client.create_resource("stuck", &[]).await.unwrap();
    let max_wait = Duration::from_millis(400);
    let started = std::time::Instant::now();
    let err = client
        .wait_until_resource_active("stuck")
        .min_delay(Duration::from_millis(50))
        .max_delay(Duration::from_millis(100))
        .wait(max_wait)
        .await
        .unwrap_err();
    let elapsed = started.elapsed();
    let WaiterError::ExceededMaxWait { polls, last, .. } = &err else {
        panic!("{err}")
    };
    assert!(*polls >= 3, "{polls}");
    assert_eq!(last.as_ref().unwrap().as_ref().unwrap().status, "CREATING");
    // The last poll starts min_delay (50 ms) before the deadline; once it answers, too little
    // time is left for another: the wait ends between max_wait - min_delay and max_wait.
    assert!(
        elapsed >= max_wait - Duration::from_millis(50)
            && elapsed < max_wait + Duration::from_secs(1),
        "{elapsed:?}"
    );
    // The create, each completed poll, and perhaps a last poll cut short at the deadline.
    let requests = service.stats().requests;
    assert!(
        (1 + u64::from(*polls)..=2 + u64::from(*polls)).contains(&requests),
        "{requests}"
    );
    assert!(err.to_string().contains("ResourceActive"), "{err}");
}
