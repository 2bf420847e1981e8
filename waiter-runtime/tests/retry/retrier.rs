//! The retrier's loop: max attempts, the `on_retry` hook,
//! the rate-limiter hook, cancellation, `Send` futures. (The rule inside a waiter's poll: unit
//! tests in `src/retry/retrier/tests.rs`.)

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::support::{Script, TestError, empty_quota_retrier, no_jitter};
use tokio::time::Instant;
use waiter_runtime::retry::{
    ErrorKind, Jitter, RateLimiter, Retrier, RetryAction, RetryBehavior, RetryConfig, RetryReason,
    StopReason, classifier_fn,
};

#[tokio::test(start_paused = true)]
async fn the_first_try_always_runs_and_success_stops() {
    let script = Script::new([Ok(5)]);
    let report = Retrier::new(RetryConfig::disabled())
        .run_report(|| script.call())
        .await;
    assert_eq!(
        (report.attempts, report.stop, report.result),
        (1, StopReason::Succeeded, Ok(5))
    );
}

#[tokio::test(start_paused = true)]
async fn retries_until_success_within_max_attempts() {
    let script = Script::new([
        Err(TestError::Unavailable),
        Err(TestError::Throttling),
        Ok(3),
    ]);
    let report = Retrier::new(no_jitter(3))
        .run_report(|| script.call())
        .await;
    assert_eq!(
        (report.attempts, report.stop, report.result),
        (3, StopReason::Succeeded, Ok(3))
    );
}

#[tokio::test(start_paused = true)]
async fn max_attempts_counts_the_first_try() {
    for max in [1, 2, 5] {
        let script = Script::failing(TestError::Unavailable);
        let report = Retrier::new(no_jitter(max))
            .run_report(|| script.call())
            .await;
        assert_eq!(script.attempts(), max as usize);
        assert_eq!(
            (report.attempts, report.stop),
            (max, StopReason::MaxAttempts)
        );
        assert_eq!(
            report.result,
            Err(TestError::Unavailable),
            "the last error is returned"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn errors_that_no_classifier_retries_fail_at_once() {
    let script = Script::failing(TestError::NotFound);
    let report = Retrier::new(no_jitter(5))
        .run_report(|| script.call())
        .await;
    assert_eq!(
        (report.attempts, report.stop),
        (1, StopReason::NotRetryable)
    );
}

#[tokio::test(start_paused = true)]
async fn an_ok_result_can_be_classified_as_retryable() {
    let retrier = Retrier::new(no_jitter(3)).retry_classifier(classifier_fn("pending", |ctx| {
        if ctx.is_success() && ctx.attempt() < 2 {
            RetryAction::server_error()
        } else {
            RetryAction::NoActionIndicated
        }
    }));
    let script = Script::new([Ok(1), Ok(2)]);
    let report = retrier.run_report(|| script.call()).await;
    assert_eq!((report.attempts, report.result), (2, Ok(2)));
}

#[tokio::test(start_paused = true)]
async fn on_retry_sees_attempt_reason_delay_and_error() {
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = events.clone();
    let retrier = Retrier::new(no_jitter(4)).on_retry(move |e| {
        seen.lock().unwrap().push((
            e.attempt,
            e.reason.clone(),
            e.delay,
            e.error.and_then(|e| e.code()).map(str::to_owned),
        ));
    });
    let script = Script::new([
        Err(TestError::Throttling),
        Err(TestError::Timeout),
        Err(TestError::UnavailableAfter(Duration::from_millis(300))),
        Ok(1),
    ]);
    retrier.run(|| script.call()).await.unwrap();
    let events = events.lock().unwrap();
    assert_eq!(
        *events,
        [
            (
                1,
                RetryReason::RetryableError {
                    kind: ErrorKind::ThrottlingError,
                    retry_after: None
                },
                Duration::from_secs(1),
                Some("ThrottlingException".to_owned())
            ),
            (
                2,
                RetryReason::RetryableError {
                    kind: ErrorKind::TransientError,
                    retry_after: None
                },
                Duration::from_secs(2),
                Some("Timeout".to_owned())
            ),
            (
                3,
                RetryReason::RetryableError {
                    kind: ErrorKind::ServerError,
                    retry_after: Some(Duration::from_millis(300))
                },
                Duration::from_millis(300),
                Some("ServiceUnavailable".to_owned())
            ),
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn on_retry_is_not_called_when_no_retry_follows() {
    let count = Arc::new(AtomicU32::new(0));
    let c = count.clone();
    let retrier = Retrier::new(no_jitter(2)).on_retry(move |_| {
        c.fetch_add(1, Ordering::Relaxed);
    });
    let script = Script::failing(TestError::Unavailable);
    retrier.run(|| script.call()).await.unwrap_err();
    assert_eq!(count.load(Ordering::Relaxed), 1, "2 attempts, 1 retry");
}

#[derive(Debug, Default)]
struct RecordingLimiter {
    log: Mutex<Vec<String>>,
    tickets: AtomicU32,
}

impl RateLimiter for RecordingLimiter {
    fn acquire(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(async move {
            self.log.lock().unwrap().push("acquire".into());
            tokio::time::sleep(Duration::from_millis(10)).await;
        })
    }
    fn call_started(&self) -> u64 {
        u64::from(self.tickets.fetch_add(1, Ordering::Relaxed)) + 100
    }
    fn acquire_for(&self, ticket: u64) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        self.log.lock().unwrap().push(format!("ticket {ticket}"));
        self.acquire()
    }
    fn on_response(&self, throttled: bool) {
        self.log
            .lock()
            .unwrap()
            .push(format!("response throttled={throttled}"));
    }
}

#[tokio::test(start_paused = true)]
async fn the_rate_limiter_paces_every_attempt_and_learns_of_throttling() {
    let limiter = Arc::new(RecordingLimiter::default());
    let retrier = Retrier::new(
        RetryConfig::adaptive()
            .max_attempts(3)
            .transient_backoff(Duration::ZERO)
            .throttling_backoff(Duration::ZERO)
            .build(),
    )
    .with_rate_limiter(limiter.clone());
    let script = Script::new([
        Err(TestError::Throttling),
        Err(TestError::Unavailable),
        Ok(1),
    ]);
    retrier.run(|| script.call()).await.unwrap();
    assert_eq!(
        *limiter.log.lock().unwrap(),
        [
            "ticket 100",
            "acquire",
            "response throttled=true",
            "ticket 100",
            "acquire",
            "response throttled=false",
            "ticket 100",
            "acquire",
            "response throttled=false"
        ]
    );
    // The next call gets the next place in line.
    limiter.log.lock().unwrap().clear();
    retrier
        .run(|| async { Ok::<_, TestError>(()) })
        .await
        .unwrap();
    assert_eq!(
        *limiter.log.lock().unwrap(),
        ["ticket 101", "acquire", "response throttled=false"]
    );
    // The limiter's wait comes before each attempt.
    assert_eq!(
        script.gaps(),
        [Duration::from_millis(10), Duration::from_millis(10)]
    );
}

#[tokio::test(start_paused = true)]
async fn a_cancelled_call_gives_nothing_back_and_leaves_the_quota_consistent() {
    let retrier = Retrier::new(no_jitter(3));
    let script = Script::failing(TestError::Unavailable);
    // Cancelled during the 1 s backoff after the first retry was scheduled (5 tokens taken).
    let out = tokio::time::timeout(Duration::from_millis(500), retrier.run(|| script.call())).await;
    assert!(out.is_err());
    assert_eq!(retrier.quota().available(), 495);
    // The retrier works on.
    let report = retrier
        .run_report(|| async { Ok::<_, TestError>(()) })
        .await;
    assert_eq!(report.tokens_returned, 1);
}

#[tokio::test(start_paused = true)]
async fn run_futures_are_send_and_retriers_are_shared_across_tasks() {
    fn assert_send<T: Send>(t: T) -> T {
        t
    }
    let retrier = Retrier::new(no_jitter(2));
    let handles: Vec<_> = (0..4)
        .map(|i| {
            let retrier = retrier.clone();
            tokio::spawn(assert_send(async move {
                let script = Script::new([Err(TestError::Unavailable), Ok(i)]);
                retrier.run(|| script.call()).await
            }))
        })
        .collect();
    for (i, h) in handles.into_iter().enumerate() {
        assert_eq!(h.await.unwrap(), Ok(i as u32));
    }
}

#[test]
fn retrier_debug_names_its_parts() {
    let retrier = Retrier::default();
    let debug = format!("{retrier:?}");
    assert!(debug.contains("max_attempts: 3"), "{debug}");
    assert!(debug.contains("available: 500"), "{debug}");
}

#[tokio::test(start_paused = true)]
async fn a_long_polling_call_backs_off_once_when_the_quota_is_empty() {
    let retrier = empty_quota_retrier(RetryBehavior::V2_1);
    // 13 tokens: a retry after a 503 costs 14 (none), after a throttle 5.
    for (error, backoff) in [
        (TestError::Unavailable, Duration::from_millis(50)),
        (TestError::Timeout, Duration::from_millis(50)),
    ] {
        let start = Instant::now();
        let script = Script::failing(error.clone());
        let report = retrier
            .customize()
            .long_polling(true)
            .run_report(|| script.call())
            .await;
        assert!(
            matches!(report.stop, StopReason::QuotaExhausted(_)),
            "{error:?}"
        );
        assert_eq!((report.attempts, report.tokens_taken), (1, 0));
        assert_eq!(start.elapsed(), backoff, "{error:?}");
        // The same call, not long-polling: back at once.
        let start = Instant::now();
        let report = retrier.run_report(|| script.call()).await;
        assert!(matches!(report.stop, StopReason::QuotaExhausted(_)));
        assert_eq!(start.elapsed(), Duration::ZERO);
    }
    // Throttles still find tokens (5 each): retried as usual, then the backoff of the third
    // attempt's refusal (1 s base, attempt 3: 4 s).
    let start = Instant::now();
    let script = Script::failing(TestError::Throttling);
    let report = retrier
        .customize()
        .long_polling(true)
        .max_attempts(5)
        .run_report(|| script.call())
        .await;
    assert_eq!(report.attempts, 3);
    assert!(matches!(report.stop, StopReason::QuotaExhausted(_)));
    assert_eq!(
        script.gaps(),
        [Duration::from_secs(1), Duration::from_secs(2)]
    );
    assert_eq!(start.elapsed(), Duration::from_secs(1 + 2 + 4));
}

#[tokio::test(start_paused = true)]
async fn the_long_polling_backoff_is_only_for_an_empty_quota_in_2_1() {
    // Retry behavior 2.0 returns at once, long-polling or not.
    let retrier = empty_quota_retrier(RetryBehavior::V2_0);
    let start = Instant::now();
    let script = Script::failing(TestError::Timeout); // 10 tokens in 2.0: there are 13
    let report = retrier
        .customize()
        .long_polling(true)
        .max_attempts(5)
        .run_report(|| script.call())
        .await;
    assert_eq!(report.attempts, 2);
    assert!(matches!(report.stop, StopReason::QuotaExhausted(_)));
    assert_eq!(start.elapsed(), Duration::from_secs(1));

    // 2.1, but the call stops for another reason: no backoff.
    let retrier = Retrier::new(RetryConfig::standard().jitter(Jitter::None).build());
    for (error, max_attempts, stop) in [
        (TestError::Unavailable, 1, StopReason::MaxAttempts),
        (TestError::NotFound, 3, StopReason::NotRetryable),
    ] {
        let start = Instant::now();
        let script = Script::failing(error);
        let report = retrier
            .customize()
            .long_polling(true)
            .max_attempts(max_attempts)
            .run_report(|| script.call())
            .await;
        assert_eq!(report.stop, stop);
        assert_eq!(start.elapsed(), Duration::ZERO, "{stop:?}");
    }
}
