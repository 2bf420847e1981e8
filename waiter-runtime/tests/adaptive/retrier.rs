//! `RetryConfig::adaptive()` through the retrier: throttling responses (and only those) cut the
//! rate, and attempts are paced once the service has throttled. Paused clock throughout.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;
use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState, Tuning};
use waiter_runtime::retry::{Jitter, Retrier, RetryAction, RetryConfig, classifier_fn};

#[derive(Debug, ProvideErrorMetadata)]
enum OpError {
    #[error_metadata(code = "ThrottlingException", status = 400)]
    Throttled,
    #[error_metadata(code = "InternalError", status = 503)]
    Unavailable,
    #[error_metadata(code = "BusyNow", status = 400)]
    Busy,
}

#[tokio::test(start_paused = true)]
async fn without_a_throttle_user_busy_errors_do_not_count() {
    let limiter = ClientRateLimiter::new();
    let out = adaptive(&limiter)
        .run(|| async { Err::<(), _>(OpError::Busy) })
        .await;
    assert!(out.is_err(), "not retryable, not throttling");
    assert!(!limiter.state().is_enabled());
}

#[tokio::test(start_paused = true)]
async fn retrier_new_in_adaptive_mode_has_a_limiter_of_its_own() {
    let retrier = Retrier::new(
        RetryConfig::adaptive()
            .max_attempts(3)
            .transient_backoff(Duration::from_millis(10))
            .throttling_backoff(Duration::from_millis(10))
            .build(),
    );
    let start = Instant::now();
    drive(&retrier, 1, || OpError::Throttled).await;
    // Turned on by that throttle, which came before any success: the rate is cut from what
    // the client sent (one request in its 50 ms), and the retry waits tens of milliseconds
    // for a token, on top of its backoff (at most 10 ms) and two attempts of 50 ms.
    assert!(
        start.elapsed() >= Duration::from_millis(140),
        "{:?}",
        start.elapsed()
    );
    // Clones share the limiter: instant calls through a clone are paced too (at some 20/s).
    let clone = retrier.clone();
    let start = Instant::now();
    for _ in 0..30 {
        clone.run(|| async { Ok::<_, OpError>(()) }).await.unwrap();
    }
    assert!(
        start.elapsed() >= Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
}

fn adaptive(limiter: &ClientRateLimiter) -> Retrier {
    Retrier::new(
        RetryConfig::adaptive()
            .max_attempts(3)
            .transient_backoff(Duration::from_millis(10))
            .throttling_backoff(Duration::from_millis(10))
            .build(),
    )
    .with_rate_limiter(Arc::new(limiter.clone()))
}

/// Makes `calls` calls 50 ms apart; each call's first attempt fails with `first`, the retry
/// succeeds.
async fn drive(retrier: &Retrier, calls: u32, first: fn() -> OpError) {
    for _ in 0..calls {
        let attempts = AtomicU32::new(0);
        let out = retrier
            .run(|| async {
                tokio::time::sleep(Duration::from_millis(50)).await;
                if attempts.fetch_add(1, Ordering::Relaxed) == 0 {
                    Err(first())
                } else {
                    Ok(())
                }
            })
            .await;
        assert!(out.is_ok());
    }
}

#[tokio::test(start_paused = true)]
async fn throttling_errors_turn_the_limiter_on_and_cut_the_rate() {
    let limiter = ClientRateLimiter::new();
    let retrier = adaptive(&limiter);
    // Successes at ~20/s for 2 s: off, the measured rate climbs.
    let ok = AtomicU32::new(0);
    for _ in 0..40 {
        retrier
            .run(|| async {
                tokio::time::sleep(Duration::from_millis(50)).await;
                ok.fetch_add(1, Ordering::Relaxed);
                Ok::<_, OpError>(())
            })
            .await
            .unwrap();
    }
    assert!(!limiter.state().is_enabled());
    let measured = limiter.state().measured_transmit_rate();
    assert!(measured > 10.0, "{measured}");

    drive(&retrier, 1, || OpError::Throttled).await;
    let state = limiter.state();
    assert!(state.is_enabled());
    assert!(state.max_rate() > 10.0);
    assert!(state.fill_rate() < measured);
}

#[tokio::test(start_paused = true)]
async fn transient_errors_do_not_turn_it_on_or_cut_the_rate() {
    let limiter = ClientRateLimiter::new();
    drive(&adaptive(&limiter), 40, || OpError::Unavailable).await;
    let state = limiter.state();
    assert!(!state.is_enabled(), "503s are transient, not throttling");
    assert_eq!(state.max_rate(), 0.0, "no throttle recorded");

    // Once on, transient errors still leave CUBIC's last throttle where it was.
    drive(&adaptive(&limiter), 1, || OpError::Throttled).await;
    let throttled = limiter.state();
    drive(&adaptive(&limiter), 10, || OpError::Unavailable).await;
    let after = limiter.state();
    assert_eq!(
        (after.max_rate(), after.last_throttle()),
        (throttled.max_rate(), throttled.last_throttle())
    );
}

#[tokio::test(start_paused = true)]
async fn a_user_classifier_saying_throttling_cuts_the_rate() {
    // The built-in classifiers do not know `BusyNow`; the user's classifier calls it throttling.
    let busy_is_throttling = classifier_fn("busy is throttling", |ctx| {
        match ctx.error().and_then(|e| e.code()) {
            Some("BusyNow") => RetryAction::throttling_error(),
            _ => RetryAction::NoActionIndicated,
        }
    });
    let limiter = ClientRateLimiter::new();
    let retrier = adaptive(&limiter).retry_classifier(busy_is_throttling);
    drive(&retrier, 1, || OpError::Busy).await;
    assert!(limiter.state().is_enabled());
}

#[tokio::test(start_paused = true)]
async fn once_throttled_attempts_are_paced() {
    let limiter = ClientRateLimiter::new();
    let retrier = adaptive(&limiter);
    drive(&retrier, 1, || OpError::Throttled).await;
    // The throttle came before any success: the rate was cut from what the client sent (one
    // request in 50 ms), and it is still low: thirty instant calls take over a second, not
    // zero.
    let state = limiter.state();
    assert!(state.fill_rate() < 25.0, "{}", state.fill_rate());
    let start = Instant::now();
    for _ in 0..30 {
        retrier
            .run(|| async { Ok::<_, OpError>(()) })
            .await
            .unwrap();
    }
    assert!(
        start.elapsed() >= Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    assert!(limiter.state().capacity() >= 0.0);
}

#[tokio::test(start_paused = true)]
async fn standard_mode_never_paces() {
    let retrier = Retrier::new(
        RetryConfig::standard()
            .max_attempts(3)
            .transient_backoff(Duration::from_millis(10))
            .throttling_backoff(Duration::from_millis(10))
            .build(),
    );
    drive(&retrier, 5, || OpError::Throttled).await;
    let start = Instant::now();
    for _ in 0..100 {
        retrier
            .run(|| async { Ok::<_, OpError>(()) })
            .await
            .unwrap();
    }
    assert_eq!(start.elapsed(), Duration::ZERO);
}

#[tokio::test(start_paused = true)]
async fn a_retry_is_served_before_later_calls_first_attempts() {
    // On, at a floor of 2 tokens/s, bucket drained: every attempt waits its turn, 0.5 s apart.
    let tuning = Tuning {
        min_fill_rate: 2.0,
        ..Tuning::AWS
    };
    let limiter = ClientRateLimiter::with_state(
        RateLimiterState::steady_at_with_tuning(tuning, 2.0, 0.0).unwrap(),
    );
    while limiter.try_acquire() {}
    let retrier = Retrier::new(
        RetryConfig::adaptive()
            .max_attempts(2)
            .transient_backoff(Duration::from_millis(10))
            .throttling_backoff(Duration::from_millis(10))
            .jitter(Jitter::None)
            .build(),
    )
    .with_rate_limiter(Arc::new(limiter.clone()));

    // Call "a" starts first; its first attempt fails (transient: the rate is not cut) and it
    // comes back 10 ms later, while "b", "c" and "d", started after it, still wait for their
    // first token.
    let sent = Arc::new(Mutex::new(Vec::new()));
    let mut calls = Vec::new();
    for name in ["a", "b", "c", "d"] {
        let (retrier, sent) = (retrier.clone(), sent.clone());
        calls.push(tokio::spawn(async move {
            let attempts = AtomicU32::new(0);
            retrier
                .run(|| async {
                    let attempt = attempts.fetch_add(1, Ordering::Relaxed) + 1;
                    sent.lock().unwrap().push(format!("{name}{attempt}"));
                    if name == "a" && attempt == 1 {
                        Err(OpError::Unavailable)
                    } else {
                        Ok(())
                    }
                })
                .await
        }));
        tokio::task::yield_now().await;
    }
    for call in calls {
        call.await.unwrap().unwrap();
    }
    // The retry keeps the call's place in line: it goes before the calls that started later.
    assert_eq!(*sent.lock().unwrap(), ["a1", "a2", "b1", "c1", "d1"]);
    assert_eq!(limiter.waiting(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_classifier_that_looks_at_successes_still_sees_them() {
    // Successes skip classification only when no classifier looks at them: here one calls a
    // successful response (say, with a "slow down" body) a throttle, which must reach the
    // limiter.
    let limiter = ClientRateLimiter::new();
    let retrier =
        adaptive(&limiter).retry_classifier(classifier_fn("slow down", |ctx| match ctx.error() {
            None => RetryAction::throttling_error(),
            Some(_) => RetryAction::NoActionIndicated,
        }));
    let out = retrier
        .run(|| async { Ok::<_, OpError>("slow down") })
        .await;
    assert!(out.is_ok(), "retried, then the last result is returned");
    assert!(limiter.state().is_enabled());
}
