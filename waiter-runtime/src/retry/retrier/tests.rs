//! The retrier inside a waiter's poll (unit tests: the poll scope is made and read here as
//! the waiter makes and reads it): an error the waiter's acceptors name is returned at once,
//! the others are retried as outside a waiter, and no retry waits past the waiter's deadline.

use std::time::Duration;

use tokio::time::Instant;

use crate::ProvideErrorMetadata;
use crate::poll_scope::{NamedErrors, PollScope};
use crate::retry::{Jitter, Retrier, RetryBehavior, RetryConfig, StopReason};
use test_support::{Script, TestError, empty_quota_retrier, no_jitter};

// The scripted operation and its error, shared with the integration tests.
#[path = "../../../tests/support/retry.rs"]
mod test_support;

const MS: fn(u64) -> Duration = Duration::from_millis;

#[derive(Debug, ProvideErrorMetadata)]
#[error_metadata(status = 503)]
struct Unavailable;

#[derive(Debug, ProvideErrorMetadata)]
#[error_metadata(code = "SlowDown", status = 503)]
struct SlowDown(#[error_metadata(retry_after)] Duration);

fn poll(named: NamedErrors, deadline_in: Option<Duration>) -> PollScope {
    PollScope::new(named, deadline_in.map(|d| tokio::time::Instant::now() + d))
}

#[tokio::test(start_paused = true)]
async fn inside_a_poll_an_error_the_acceptors_name_is_returned_at_once() {
    let retrier = Retrier::new(no_jitter(5));
    let scope = poll(
        NamedErrors::codes(["com.example#ThrottlingException"]),
        None,
    );
    let script = Script::failing(TestError::Throttling);
    let report = scope.run(retrier.run_report(|| script.call())).await;
    assert_eq!(
        (report.attempts, report.stop),
        (1, StopReason::NamedByWaiter)
    );
    assert_eq!(report.tokens_taken, 0, "no retry, so no token taken");
    assert_eq!(retrier.quota().available(), 500);
    assert_eq!(scope.stats().attempts, 1);

    // Per-call max attempts do not override the rule.
    let script = Script::failing(TestError::Throttling);
    let report = scope
        .run(
            retrier
                .customize()
                .max_attempts(9)
                .run_report(|| script.call()),
        )
        .await;
    assert_eq!(report.attempts, 1);

    // `success: false` names every error, code or none.
    let scope = poll(NamedErrors::every(), None);
    for error in [
        TestError::Throttling,
        TestError::Unavailable,
        TestError::Timeout,
    ] {
        let script = Script::failing(error);
        let report = scope.run(retrier.run_report(|| script.call())).await;
        assert_eq!(
            (report.attempts, report.stop),
            (1, StopReason::NamedByWaiter)
        );
    }
}

#[tokio::test(start_paused = true)]
async fn inside_a_poll_other_errors_are_retried_as_outside() {
    let retrier = Retrier::new(no_jitter(5));
    // The waiter names `NotFound` only: throttles, 503s, transient and modeled-retryable errors
    // are retried as they would be outside a waiter, with backoff and quota.
    let scope = poll(NamedErrors::codes(["NotFound"]), None);
    let script = Script::new([
        Err(TestError::Throttling),
        Err(TestError::Unavailable),
        Err(TestError::Timeout),
        Ok(7),
    ]);
    let report = scope.run(retrier.run_report(|| script.call())).await;
    assert_eq!((report.attempts, report.result), (4, Ok(7)));
    assert_eq!(script.gaps(), [1, 2, 4].map(Duration::from_secs));
    let stats = scope.stats();
    assert_eq!(
        (stats.attempts, stats.retry_wait),
        (4, Duration::from_secs(7))
    );
    assert_eq!(
        retrier.quota().available(),
        490,
        "5 + 10 + 10 taken, 5 + 10 returned"
    );

    // A retry-after hint is honoured inside a poll too.
    let scope = poll(NamedErrors::codes(["NotFound"]), None);
    let script = Script::new([
        Err(TestError::UnavailableAfter(Duration::from_millis(1500))),
        Ok(1),
    ]);
    scope.run(retrier.run_report(|| script.call())).await;
    assert_eq!(script.gaps(), [Duration::from_millis(1500)]);

    // Max attempts still apply.
    let scope = poll(NamedErrors::codes(["NotFound"]), None);
    let script = Script::failing(TestError::Throttling);
    let report = scope.run(retrier.run_report(|| script.call())).await;
    assert_eq!((report.attempts, report.stop), (5, StopReason::MaxAttempts));
    assert_eq!(scope.stats().attempts, 5);

    // The named error is still returned at once after retries of others.
    let scope = poll(NamedErrors::codes(["ThrottlingException"]), None);
    let script = Script::new([Err(TestError::Unavailable), Err(TestError::Throttling)]);
    let report = scope.run(retrier.run_report(|| script.call())).await;
    assert_eq!(
        (report.attempts, report.stop),
        (2, StopReason::NamedByWaiter)
    );

    // Successes and non-retryable errors are reported as usual.
    let report = scope
        .run(retrier.run_report(|| async { Ok::<_, TestError>(1) }))
        .await;
    assert_eq!(report.stop, StopReason::Succeeded);
    let report = scope
        .run(retrier.run_report(|| async { Err::<(), _>(TestError::Coded("Invalid")) }))
        .await;
    assert_eq!(report.stop, StopReason::NotRetryable);

    // `run` (its fast first try included) follows the same rule.
    let scope = poll(NamedErrors::codes(["NotFound"]), None);
    let script = Script::new([Err(TestError::Throttling), Ok(3)]);
    assert_eq!(scope.run(retrier.run(|| script.call())).await, Ok(3));
    let script = Script::new([Err(TestError::NotFound), Ok(3)]);
    assert_eq!(
        scope.run(retrier.run(|| script.call())).await,
        Err(TestError::NotFound)
    );
}

#[tokio::test(start_paused = true)]
async fn inside_a_poll_no_retry_waits_past_the_waiters_deadline() {
    let retrier = Retrier::new(no_jitter(10));
    let scope = poll(NamedErrors::none(), Some(Duration::from_secs(5)));
    let script = Script::failing(TestError::Throttling);
    let start = tokio::time::Instant::now();
    let report = scope.run(retrier.run_report(|| script.call())).await;
    // Backoffs 1, 2 (ends at 3 s); the next, 4 s, would end at 7 s > 5 s: it is moved up to
    // the deadline (these attempts take no time, so they need no time to answer), as the
    // waiter's last poll is; after that attempt no time is left.
    assert_eq!(
        (report.attempts, report.stop),
        (4, StopReason::WaiterDeadline)
    );
    assert_eq!(start.elapsed(), Duration::from_secs(5));
    assert_eq!(script.gaps(), [1, 2, 2].map(Duration::from_secs));
    assert!(scope.stopped_at_deadline());
    assert_eq!(retrier.quota().available(), 485);
    // A delay that ends exactly at the deadline is allowed.
    let scope = poll(NamedErrors::none(), Some(Duration::from_secs(3)));
    let script = Script::failing(TestError::Throttling);
    let report = scope.run(retrier.run_report(|| script.call())).await;
    assert_eq!(
        (report.attempts, report.stop),
        (3, StopReason::WaiterDeadline)
    );
    assert_eq!(script.gaps(), [1, 2].map(Duration::from_secs));
}

#[tokio::test(start_paused = true)]
async fn the_long_polling_backoff_never_waits_past_the_waiter_deadline() {
    let retrier = empty_quota_retrier(RetryBehavior::V2_1);
    let start = Instant::now();
    // The waiter's deadline is 20 ms away: a 50 ms backoff does not fit. The retry is moved up
    // to the time left (the waiter's last-poll rule, inside the poll), the empty quota refuses
    // it, and the long-polling backoff waits that moved-up delay: it ends at the deadline, never
    // past it.
    let scope = poll(
        NamedErrors::codes(["NotFound"]),
        Some(Duration::from_millis(20)),
    );
    let script = Script::failing(TestError::Unavailable);
    let report = scope
        .run(
            retrier
                .customize()
                .long_polling(true)
                .run_report(|| script.call()),
        )
        .await;
    assert!(
        matches!(report.stop, StopReason::QuotaExhausted(_)),
        "{:?}",
        report.stop
    );
    assert_eq!(start.elapsed(), Duration::from_millis(20));
}

#[tokio::test(start_paused = true)]
async fn a_server_hint_past_the_deadline_is_not_moved_up() {
    // The server asks for 10 s; the deadline is in 5 s: an earlier retry would only be
    // refused again, so it is given up.
    let scope = PollScope::new(NamedErrors::none(), Some(Instant::now() + MS(5_000)));
    let retrier = Retrier::new(RetryConfig::standard().max_attempts(5).build());
    let report = scope
        .run(retrier.run_report(|| async { Err::<(), _>(SlowDown(MS(10_000))) }))
        .await;
    assert_eq!(
        (report.attempts, report.stop),
        (1, StopReason::WaiterDeadline)
    );
    assert!(scope.stopped_at_deadline());
    // Our own backoff past the deadline is moved up to it.
    let scope = PollScope::new(NamedErrors::none(), Some(Instant::now() + MS(5)));
    let retrier = Retrier::new(
        RetryConfig::standard()
            .max_attempts(5)
            .transient_backoff(MS(10_000))
            .throttling_backoff(MS(10_000))
            .jitter(Jitter::None)
            .build(),
    );
    let start = Instant::now();
    let report = scope
        .run(retrier.run_report(|| async { Err::<(), _>(Unavailable) }))
        .await;
    assert_eq!(
        (report.attempts, report.stop, start.elapsed()),
        (2, StopReason::WaiterDeadline, MS(5))
    );
}
