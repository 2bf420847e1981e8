//! Per-attempt timeouts under one deadline (issue 36): each attempt has `min(attempt_timeout,
//! what is left of max_total_time)`; `run_timed` cuts an attempt that outlasts it and retries
//! it as a transient error, `run` and the blocking calls hand the attempt its time
//! (`attempt_time_left`). Paused clock.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;
use waiter_runtime::retry::{
    AttemptError, AttemptTimedOut, InvalidRetryConfig, Jitter, Retrier, RetryAction, RetryConfig,
    StopReason, attempt_deadline, attempt_time_left, classifier_fn,
};

use crate::support::TestError;

const MS: Duration = Duration::from_millis(1);
const S: Duration = Duration::from_secs(1);

/// 2 s per attempt, 5 s in all, 10 attempts, backoffs of 50, 100, 200 ms... (no jitter).
fn timed_retrier() -> Retrier {
    Retrier::new(
        RetryConfig::standard()
            .max_attempts(10)
            .jitter(Jitter::None)
            .attempt_timeout(2 * S)
            .max_total_time(5 * S)
            .build(),
    )
}

/// An attempt that never answers.
async fn hang() -> Result<u32, TestError> {
    std::future::pending().await
}

#[tokio::test(start_paused = true)]
async fn an_attempt_that_never_answers_is_cut_and_the_call_ends_by_max_total_time() {
    let retrier = timed_retrier();
    let starts = Mutex::new(Vec::new());
    let start = Instant::now();
    let report = retrier
        .run_report_timed(|| {
            starts.lock().unwrap().push(start.elapsed());
            hang()
        })
        .await;
    // Attempts at 0 (cut at 2 s), 2.05 s (cut at 4.05 s), 4.15 s (cut at the 5 s budget);
    // the next backoff (200 ms) would end past the budget.
    assert_eq!(
        *starts.lock().unwrap(),
        [Duration::ZERO, 2050 * MS, 4150 * MS]
    );
    assert_eq!(start.elapsed(), 5 * S);
    assert_eq!(report.attempts, 3);
    assert_eq!(report.stop, StopReason::TimeBudgetExhausted);
    match report.result {
        Err(AttemptError::TimedOut(timed_out)) => {
            assert_eq!(timed_out, AttemptTimedOut::new(3, 850 * MS));
            assert_eq!(timed_out.to_string(), "attempt 3 timed out after 850ms");
        }
        other => panic!("{other:?}"),
    }
    // Each timeout was retried as a transient error: 14 tokens each under 2.1.
    assert_eq!(report.tokens_taken, 28);
}

#[tokio::test(start_paused = true)]
async fn a_timed_out_attempt_is_retried_and_the_retry_may_succeed() {
    let retrier = timed_retrier();
    let calls = AtomicU32::new(0);
    let out = retrier
        .run_timed(|| async {
            if calls.fetch_add(1, Ordering::Relaxed) == 0 {
                hang().await
            } else {
                tokio::time::sleep(1500 * MS).await;
                Ok(7)
            }
        })
        .await;
    assert_eq!(out.unwrap(), 7);
    assert_eq!(calls.load(Ordering::Relaxed), 2);
}

#[tokio::test(start_paused = true)]
async fn the_operation_error_comes_back_as_failed() {
    let retrier = timed_retrier();
    let out = retrier
        .run_timed(|| async { Err::<u32, _>(TestError::NotFound) })
        .await;
    assert!(matches!(
        out,
        Err(AttemptError::Failed(TestError::NotFound))
    ));
}

#[tokio::test(start_paused = true)]
async fn classifiers_see_the_timeout_and_may_refuse_to_retry_it() {
    let retrier = timed_retrier().retry_classifier(classifier_fn("no retry of a timeout", |ctx| {
        match ctx.downcast_error::<AttemptTimedOut>() {
            Some(_) => RetryAction::RetryForbidden,
            None => RetryAction::NoActionIndicated,
        }
    }));
    let start = Instant::now();
    let report = retrier.run_report_timed(hang).await;
    assert_eq!(
        (report.attempts, report.stop),
        (1, StopReason::NotRetryable)
    );
    assert_eq!(start.elapsed(), 2 * S);
}

#[tokio::test(start_paused = true)]
async fn run_hands_each_attempt_its_time_and_does_not_cut_it() {
    let retrier = timed_retrier();
    let seen = Mutex::new(Vec::new());
    let start = Instant::now();
    let report = retrier
        .run_report(|| async {
            seen.lock().unwrap().push(attempt_time_left().unwrap());
            // Longer than its 2 s: not cut, it ends with its own (transient) timeout error.
            tokio::time::sleep(3 * S).await;
            Err::<u32, _>(TestError::Timeout)
        })
        .await;
    // 2 s, then what is left of the 5 s: 5 - 3.05 = 1.95 s; the third attempt's backoff
    // (after 6.05 s) would end past the budget.
    assert_eq!(*seen.lock().unwrap(), [2 * S, 1950 * MS]);
    assert_eq!(
        (report.attempts, report.stop),
        (2, StopReason::TimeBudgetExhausted)
    );
    assert_eq!(start.elapsed(), 6050 * MS);
    assert_eq!(report.result, Err(TestError::Timeout));
}

#[tokio::test(start_paused = true)]
async fn run_hands_the_time_on_its_fast_path_too() {
    let retrier = timed_retrier();
    let out = retrier
        .run(|| async { Ok::<_, TestError>(attempt_time_left()) })
        .await;
    assert_eq!(out.unwrap(), Some(2 * S));
    // Without a bound, no time is handed: nothing to read.
    let out = Retrier::default()
        .run(|| async { Ok::<_, TestError>(attempt_deadline()) })
        .await;
    assert_eq!(out.unwrap(), None);
}

#[tokio::test(start_paused = true)]
async fn a_blocking_attempt_reads_its_time_and_cannot_be_cut() {
    let retrier = Retrier::new(
        RetryConfig::standard()
            .max_attempts(2)
            .transient_backoff(MS)
            .attempt_timeout(Duration::from_secs(3600))
            .build(),
    );
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (r, s) = (retrier.clone(), Arc::clone(&seen));
    let report = tokio::task::spawn_blocking(move || {
        r.run_report_blocking(|| {
            s.lock().unwrap().push(attempt_time_left().unwrap());
            Err::<(), _>(TestError::Timeout)
        })
    })
    .await
    .unwrap();
    assert_eq!(report.attempts, 2);
    let seen = seen.lock().unwrap();
    // On the system clock (a blocking caller's), so not exact: an hour, less the test's time.
    assert!(
        seen.iter()
            .all(|left| *left <= Duration::from_secs(3600) && *left > Duration::from_secs(3500)),
        "{seen:?}"
    );
}

#[test]
fn a_zero_attempt_timeout_is_reported() {
    let err = RetryConfig::standard()
        .attempt_timeout(Duration::ZERO)
        .try_build()
        .unwrap_err();
    assert_eq!(err, InvalidRetryConfig::ZeroAttemptTimeout);
    assert!(err.to_string().contains("`attempt_timeout` is 0"), "{err}");
}

#[tokio::test(start_paused = true)]
async fn without_a_bound_run_timed_is_run() {
    let retrier = Retrier::new(RetryConfig::standard().transient_backoff(MS).build());
    let calls = AtomicU32::new(0);
    let out = retrier
        .run_timed(|| async {
            match calls.fetch_add(1, Ordering::Relaxed) {
                0 => Err(TestError::Unavailable),
                _ => Ok(attempt_deadline()),
            }
        })
        .await;
    assert_eq!(out.unwrap(), None);
    assert_eq!(calls.load(Ordering::Relaxed), 2);
}
