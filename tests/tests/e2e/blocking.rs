//! Blocking waiters and blocking retries over loopback: the blocking example client
//! (`waiter_tests::blocking_client`) on ureq 3 and on `reqwest::blocking`, against the example
//! service running on a tokio runtime of its own. The waiters run on the test's thread, outside
//! any runtime, on the real clock: delays are a few milliseconds.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use http::{HeaderMap, Method};
use waiter_runtime::WaiterError;
use waiter_runtime::retry::{Retrier, RetryConfig, RetryQuota, StopReason};
use waiter_runtime::waiter::{AcceptorState, PollEvent};
use waiter_tests::blocking_client::{BlockingResourceClient, BlockingTransport, RawAnswer};
use waiter_tests::client::{ResourceClient, ResourceError};
use waiter_tests::service::{ExampleService, Fault, RunningService, Settle};

/// The example service on a runtime of its own (its worker threads serve while the test's
/// thread blocks).
fn start(settle: Settle) -> (tokio::runtime::Runtime, RunningService) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let service = runtime
        .block_on(ExampleService::builder().seed(3).settle(settle).start())
        .unwrap();
    (runtime, service)
}

/// Retries with 1 ms backoffs, so a retried poll stays short on the real clock.
fn fast_retrier() -> Retrier {
    Retrier::new(
        RetryConfig::standard()
            .transient_backoff(Duration::from_millis(1))
            .throttling_backoff(Duration::from_millis(1))
            .build(),
    )
}

/// `reqwest::blocking` as the client's transport, as a user would plug in their HTTP client.
struct ReqwestBlocking(reqwest::blocking::Client);

impl BlockingTransport for ReqwestBlocking {
    fn send(
        &self,
        method: Method,
        url: &str,
        json: Option<&[u8]>,
    ) -> Result<RawAnswer, ResourceError> {
        let mut request = self.0.request(method, url);
        if let Some(body) = json {
            request = request
                .header("content-type", "application/json")
                .body(body.to_vec());
        }
        let response = request.send()?;
        let status = response.status().as_u16();
        let headers: HeaderMap = response.headers().clone();
        Ok(RawAnswer {
            status,
            headers,
            body: response.bytes()?.to_vec(),
        })
    }
}

/// A `ResourceReady` wait on a resource created after the first poll: poll 1 answers 404
/// (`NotFound`, the `retry` acceptor), poll 2's first attempt a scripted 503 that the client's
/// retrier retries inside the poll, then `CREATING` (no acceptor: retry), poll 3 `ACTIVE`.
fn not_found_then_503_then_pending_then_active<T: BlockingTransport + Sync>(
    client: &BlockingResourceClient<T>,
    service: &RunningService,
) {
    let events = Mutex::new(Vec::new());
    let done = client
        .wait_until_resource_ready("db")
        .min_delay(Duration::from_millis(5))
        .max_delay(Duration::from_millis(10))
        .on_poll(|e: &PollEvent| {
            events.lock().unwrap().push(*e);
            if e.poll == 1 {
                // Between polls, on the waiter's thread: the resource appears, and the next
                // request the service gets (poll 2's) is a 503.
                client.create_resource("db").unwrap();
                service.faults().script([Fault::Unavailable]);
            }
        })
        .wait(Duration::from_secs(10))
        .unwrap();
    assert_eq!(done.output().unwrap().status, "ACTIVE");
    let events = events.into_inner().unwrap();
    let seen: Vec<_> = events
        .iter()
        .map(|e| (e.poll, e.state, e.acceptor, e.attempts))
        .collect();
    assert_eq!(
        seen,
        [
            (1, AcceptorState::Retry, Some(2), 1),
            (2, AcceptorState::Retry, None, 2),
            (3, AcceptorState::Success, Some(0), 1),
        ],
        "{events:#?}"
    );
    // 3 describes, 1 retry inside poll 2, 1 create.
    assert_eq!(service.stats().requests, 5);
}

#[test]
fn a_blocking_waiter_on_a_ureq_client() {
    let (_runtime, service) = start(Settle::AfterReads(1));
    let client = BlockingResourceClient::new(service.url()).with_retrier(fast_retrier());
    not_found_then_503_then_pending_then_active(&client, &service);
}

#[test]
fn a_blocking_waiter_on_a_reqwest_blocking_client() {
    let (_runtime, service) = start(Settle::AfterReads(1));
    let http = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let client = BlockingResourceClient::with_transport(service.url(), ReqwestBlocking(http))
        .with_retrier(fast_retrier());
    not_found_then_503_then_pending_then_active(&client, &service);
}

#[test]
fn a_failure_acceptor_ends_a_blocking_wait_with_its_message() {
    let (_runtime, service) = start(Settle::AfterReads(0));
    let client = BlockingResourceClient::new(service.url());
    client.create_resource("fail-cache").unwrap();
    let err = client
        .wait_until_resource_ready("fail-cache")
        .min_delay(Duration::from_millis(5))
        .wait(Duration::from_secs(10))
        .unwrap_err();
    let WaiterError::FailureState {
        acceptor,
        message: Some(message),
        final_poll,
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(*acceptor, 1);
    assert_eq!(final_poll.output().unwrap().status, "FAILED");
    assert!(message.starts_with("provisioning failed"), "{message}");
    assert!(err.is_failure());
}

#[test]
fn the_blocking_deadline_is_kept_to_timer_resolution() {
    let (_runtime, service) = start(Settle::Manual);
    let client = BlockingResourceClient::new(service.url());
    let max_wait = Duration::from_millis(300);
    let start = Instant::now();
    // Never created: every poll answers `NotFound` (retry) until the maximum wait.
    let err = client
        .wait_until_resource_ready("never")
        .min_delay(Duration::from_millis(20))
        .max_delay(Duration::from_millis(40))
        .wait(max_wait)
        .unwrap_err();
    let took = start.elapsed();
    let WaiterError::ExceededMaxWait {
        polls,
        elapsed,
        cancelled_in_flight,
        last: Some(Err(ResourceError::NotFound { .. })),
        ..
    } = err
    else {
        panic!("{err:?}")
    };
    assert!(!cancelled_in_flight);
    assert!(polls >= 5, "{polls} polls in 300 ms at 20 to 40 ms apart");
    assert_eq!(u64::from(polls), service.stats().requests);
    // Loopback polls take well under a millisecond; sleeping is the only slack. A blocking
    // sleep overshoots by the OS timer's resolution (about a millisecond; more on a loaded
    // machine), never by a whole delay.
    let slack = Duration::from_millis(25);
    assert!(elapsed <= max_wait + slack, "{elapsed:?}");
    assert!(took <= max_wait + slack, "{took:?}");
    assert!(
        took + Duration::from_millis(40) >= max_wait,
        "gave up early: {took:?}"
    );
}

#[test]
fn a_poll_in_flight_at_the_deadline_is_bounded_by_the_client_timeout() {
    let (_runtime, service) = start(Settle::Manual);
    let timeout = Duration::from_millis(200);
    let client = BlockingResourceClient::with_timeout(service.url(), timeout);
    // The service never answers the first poll: a blocking poll cannot be cancelled, so the
    // wait goes on past its 50 ms until ureq's timeout ends the poll, and no retry follows.
    service.faults().script([Fault::Hang]);
    let start = Instant::now();
    let err = client
        .wait_until_resource_ready("never")
        .min_delay(Duration::from_millis(5))
        .wait(Duration::from_millis(50))
        .unwrap_err();
    let took = start.elapsed();
    let WaiterError::ExceededMaxWait {
        polls,
        cancelled_in_flight,
        last: Some(Err(ResourceError::Http(ureq::Error::Timeout(_)))),
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!((*polls, *cancelled_in_flight), (1, false));
    assert!(took >= timeout, "{took:?}");
    assert!(took < timeout + Duration::from_millis(100), "{took:?}");
    assert_eq!(service.stats().requests, 1, "no retry past the deadline");
}

/// A retrier whose quota holds two retries after server errors (14 tokens each), no more,
/// and an async client of `service` running its calls through it.
fn two_retries_in_quota(service: &RunningService) -> (Retrier, ResourceClient) {
    let retrier = Retrier::new(
        RetryConfig::standard()
            .transient_backoff(Duration::from_millis(1))
            .build(),
    )
    .with_quota(RetryQuota::builder().capacity(28).build());
    let client = ResourceClient::builder(service.url())
        .retrier(retrier.clone())
        .build();
    (retrier, client)
}

/// An async `CreateResource` that fails with the service's 503.
fn create_fails(runtime: &tokio::runtime::Runtime, client: &ResourceClient) {
    let err = runtime
        .block_on(client.create_resource("web", &[]))
        .unwrap_err();
    assert!(
        matches!(err, ResourceError::ServiceUnavailable { .. }),
        "{err}"
    );
}

#[test]
fn run_blocking_shares_one_quota_with_async_calls() {
    let (runtime, service) = start(Settle::AfterReads(0));
    let url = format!("{}/resources/web", service.url());
    // ureq as it comes: a 503 is `ureq::Error::StatusCode(503)`, retried by its status.
    let agent = ureq::Agent::new_with_defaults();
    let get = || agent.get(&url).call().map(|_| ());

    // An async call spends the quota (three 503s: two retries); a blocking call through the
    // same retrier finds it empty and does not retry.
    let (retrier, async_client) = two_retries_in_quota(&service);
    service.faults().script([Fault::Unavailable; 4]);
    create_fails(&runtime, &async_client);
    assert_eq!(retrier.quota().available(), 0);
    let report = retrier.run_report_blocking(get);
    assert!(
        matches!(report.result, Err(ureq::Error::StatusCode(503))),
        "{:?}",
        report.result
    );
    assert!(
        matches!(report.stop, StopReason::QuotaExhausted(_)),
        "{:?}",
        report.stop
    );
    assert_eq!((report.attempts, service.stats().requests), (1, 4));

    // The other way round: a blocking call spends a fresh quota, an async call finds it empty.
    let (retrier, async_client) = two_retries_in_quota(&service);
    service.faults().script([Fault::Unavailable; 4]);
    let report = retrier.run_report_blocking(get);
    assert_eq!((report.attempts, report.stop), (3, StopReason::MaxAttempts));
    assert_eq!(retrier.quota().available(), 0);
    create_fails(&runtime, &async_client);
    assert_eq!(
        service.stats().requests,
        8,
        "the async call was not retried"
    );
}

/// `blocking::Waiter::iter` over loopback: each poll's own answer as it comes (a 404, then
/// `CREATING` twice), then the end, as `Waiter::stream` gives them; the observer sees the same
/// polls, and no request is made after the end.
#[test]
fn a_blocking_wait_watched_poll_by_poll() {
    use waiter_runtime::waiter::WaitUpdate;

    let (_runtime, service) = start(Settle::AfterReads(2));
    let client = BlockingResourceClient::new(service.url()).with_retrier(fast_retrier());
    let mut seen = Vec::new();
    let mut lines = Vec::new();
    let updates = client
        .wait_until_resource_ready("db")
        .min_delay(Duration::from_millis(5))
        .max_delay(Duration::from_millis(10))
        .on_poll(|e: &PollEvent| seen.push((e.poll, e.state)))
        .iter(Duration::from_secs(10));
    for update in updates {
        match update {
            WaitUpdate::Polled { event, result } => {
                lines.push(match result {
                    Ok(resource) => format!("poll {}: {}", event.poll, resource.status),
                    Err(error) => format!("poll {}: {error}", event.poll),
                });
                if event.poll == 1 {
                    // Between two polls, on the waiter's thread.
                    client.create_resource("db").unwrap();
                }
            }
            WaitUpdate::Done(done) => {
                let done = done.unwrap();
                lines.push(format!(
                    "done after {} polls: {}",
                    done.polls,
                    done.output().unwrap().status
                ));
            }
        }
    }
    assert_eq!(
        lines,
        [
            "poll 1: resource not found (NotFound): resource 'db' does not exist",
            "poll 2: CREATING",
            "poll 3: CREATING",
            "done after 4 polls: ACTIVE"
        ]
    );
    assert_eq!(
        seen,
        [
            (1, AcceptorState::Retry),
            (2, AcceptorState::Retry),
            (3, AcceptorState::Retry),
            (4, AcceptorState::Success)
        ]
    );
    // 4 describes and the create.
    assert_eq!(service.stats().requests, 5);
}

/// The iterator keeps `.wait`'s deadline: a resource that never settles ends as
/// `ExceededMaxWait` at the deadline, the last result already given in a `Polled`.
#[test]
fn a_blocking_iterator_ends_at_the_deadline() {
    use waiter_runtime::waiter::WaitUpdate;

    let (_runtime, service) = start(Settle::Manual);
    let client = BlockingResourceClient::new(service.url());
    client.create_resource("db").unwrap();
    let started = Instant::now();
    let updates: Vec<_> = client
        .wait_until_resource_ready("db")
        .min_delay(Duration::from_millis(20))
        .max_delay(Duration::from_millis(20))
        .iter(Duration::from_millis(300))
        .collect();
    let took = started.elapsed();
    let (last, polled) = updates.split_last().unwrap();
    assert!(polled.len() >= 5, "{} polls", polled.len());
    assert!(polled.iter().all(|u| matches!(
        u,
        WaitUpdate::Polled { result: Ok(r), .. } if r.status == "CREATING"
    )));
    match last {
        WaitUpdate::Done(Err(WaiterError::ExceededMaxWait { polls, last, .. })) => {
            // The last poll ends the wait and keeps its result; one that ran out while
            // sleeping keeps none (it was given already).
            assert!(*polls as usize == polled.len() + usize::from(last.is_some()));
        }
        other => panic!("{other:?}"),
    }
    assert!(
        took >= Duration::from_millis(250) && took < Duration::from_secs(3),
        "{took:?}"
    );
}
