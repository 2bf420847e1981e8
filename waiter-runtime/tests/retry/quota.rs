//! The retry quota through the retrier: exact token counts for every rule, exhaustion, and
//! the invariant that many concurrent calls neither create nor lose a token. The mechanics are
//! pinned to the costs of retry behavior 2.0 (5, 10 after a transient error); the costs of 2.1
//! (14, 5 after a throttle) have tests of their own here and are replayed against botocore 1.44
//! in `oracle/v2_1.rs`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::support::{Script, TestError};
use waiter_runtime::retry::{
    ErrorKind, QuotaExhausted, Retrier, RetryBehavior, RetryConfig, RetryQuota, RetryQuotaBuilder,
    StopReason,
};

fn v2_0_quota() -> RetryQuotaBuilder {
    RetryQuota::builder().behavior(RetryBehavior::V2_0)
}

fn fast(max_attempts: u32) -> RetryConfig {
    RetryConfig::standard()
        .behavior(RetryBehavior::V2_0)
        .max_attempts(max_attempts)
        .transient_backoff(Duration::ZERO)
        .throttling_backoff(Duration::ZERO)
        .build()
}

#[tokio::test(start_paused = true)]
async fn standard_quota_starts_with_500_tokens() {
    let quota = v2_0_quota().build();
    assert_eq!((quota.available(), quota.capacity()), (500, 500));
    assert_eq!(quota.cost_of(ErrorKind::ServerError), 5);
    assert_eq!(quota.cost_of(ErrorKind::ThrottlingError), 5);
    assert_eq!(quota.cost_of(ErrorKind::ClientError), 5);
    assert_eq!(quota.cost_of(ErrorKind::TransientError), 10);
}

#[tokio::test(start_paused = true)]
async fn a_retry_costs_5_and_after_a_timeout_10() {
    let retrier = Retrier::new(fast(3));
    let script = Script::new([
        Err(TestError::Unavailable),
        Err(TestError::Timeout),
        Err(TestError::NotFound),
    ]);
    let report = retrier.run_report(|| script.call()).await;
    assert_eq!(report.attempts, 3);
    assert_eq!(report.stop, StopReason::NotRetryable);
    assert_eq!(report.tokens_taken, 15);
    assert_eq!(report.tokens_returned, 0, "a final failure returns nothing");
    assert_eq!(retrier.quota().available(), 485);
}

#[tokio::test(start_paused = true)]
async fn a_success_after_retries_returns_what_the_last_retry_took() {
    let retrier = Retrier::new(fast(3));
    let script = Script::new([Err(TestError::Unavailable), Err(TestError::Timeout), Ok(1)]);
    let report = retrier.run_report(|| script.call()).await;
    assert_eq!(report.stop, StopReason::Succeeded);
    assert_eq!((report.tokens_taken, report.tokens_returned), (15, 10));
    assert_eq!(retrier.quota().available(), 495);

    let script = Script::new([Err(TestError::Timeout), Err(TestError::Throttling), Ok(1)]);
    let report = retrier.run_report(|| script.call()).await;
    assert_eq!((report.tokens_taken, report.tokens_returned), (15, 5));
    assert_eq!(retrier.quota().available(), 485);
}

#[tokio::test(start_paused = true)]
async fn a_first_try_success_returns_1_never_above_capacity() {
    let retrier = Retrier::new(fast(3));
    let report = retrier
        .run_report(|| async { Ok::<_, TestError>(()) })
        .await;
    assert_eq!(report.tokens_returned, 0, "the bucket is full");
    assert_eq!(retrier.quota().available(), 500);

    let failing = Script::failing(TestError::Unavailable);
    retrier.run(|| failing.call()).await.unwrap_err();
    assert_eq!(retrier.quota().available(), 490);
    for expected in 491..=500 {
        let report = retrier
            .run_report(|| async { Ok::<_, TestError>(()) })
            .await;
        assert_eq!(report.tokens_returned, 1);
        assert_eq!(retrier.quota().available(), expected);
    }
    let report = retrier
        .run_report(|| async { Ok::<_, TestError>(()) })
        .await;
    assert_eq!(report.tokens_returned, 0);
    assert_eq!(retrier.quota().available(), 500);
}

#[tokio::test(start_paused = true)]
async fn max_attempts_exhausted_returns_nothing() {
    let retrier = Retrier::new(fast(4));
    let script = Script::failing(TestError::Throttling);
    let report = retrier.run_report(|| script.call()).await;
    assert_eq!(report.stop, StopReason::MaxAttempts);
    assert_eq!(
        (report.attempts, report.tokens_taken, report.tokens_returned),
        (4, 15, 0)
    );
    assert_eq!(retrier.quota().available(), 485);
}

#[tokio::test(start_paused = true)]
async fn no_tokens_no_retry() {
    let quota = v2_0_quota().capacity(12).build();
    let retrier = Retrier::new(fast(10)).with_quota(quota.clone());
    let script = Script::failing(TestError::Unavailable);
    let report = retrier.run_report(|| script.call()).await;
    // 12 tokens: two retries of 5, then 2 left.
    assert_eq!(report.attempts, 3);
    assert_eq!(
        report.stop,
        StopReason::QuotaExhausted(QuotaExhausted {
            needed: 5,
            available: 2
        })
    );
    assert_eq!(report.tokens_taken, 10);
    assert_eq!(quota.available(), 2);

    // The next call makes its first try but cannot retry.
    let script = Script::failing(TestError::Unavailable);
    let report = retrier.run_report(|| script.call()).await;
    assert_eq!(report.attempts, 1);
    assert!(matches!(report.stop, StopReason::QuotaExhausted(_)));
    assert_eq!(quota.available(), 2);

    // A success on the first try refills by 1; three of them allow one retry again.
    for _ in 0..3 {
        retrier
            .run(|| async { Ok::<_, TestError>(()) })
            .await
            .unwrap();
    }
    assert_eq!(quota.available(), 5);
    let script = Script::new([Err(TestError::Unavailable), Ok(9)]);
    assert_eq!(retrier.run(|| script.call()).await, Ok(9));
    assert_eq!(quota.available(), 5, "took 5, got the 5 back on success");
}

#[tokio::test(start_paused = true)]
async fn a_transient_retry_needs_10_tokens() {
    let quota = v2_0_quota().capacity(9).build();
    let retrier = Retrier::new(fast(3)).with_quota(quota.clone());
    let script = Script::failing(TestError::Timeout);
    let report = retrier.run_report(|| script.call()).await;
    assert_eq!(report.attempts, 1);
    assert_eq!(
        report.stop,
        StopReason::QuotaExhausted(QuotaExhausted {
            needed: 10,
            available: 9
        })
    );
    assert_eq!(quota.available(), 9);
}

#[tokio::test(start_paused = true)]
async fn costs_are_configurable() {
    let quota = v2_0_quota()
        .capacity(100)
        .retry_cost(7)
        .timeout_retry_cost(20)
        .success_reward(3)
        .build();
    let retrier = Retrier::new(fast(3)).with_quota(quota.clone());
    let script = Script::new([
        Err(TestError::Unavailable),
        Err(TestError::Timeout),
        Err(TestError::NotFound),
    ]);
    retrier.run(|| script.call()).await.unwrap_err();
    assert_eq!(quota.available(), 73);
    retrier
        .run(|| async { Ok::<_, TestError>(()) })
        .await
        .unwrap();
    assert_eq!(quota.available(), 76);
}

#[tokio::test(start_paused = true)]
async fn clones_and_shared_quotas_share_tokens() {
    let a = Retrier::new(fast(2));
    let b = a.clone();
    let c = Retrier::new(fast(2)).with_quota(a.quota().clone());
    for r in [&a, &b, &c] {
        let script = Script::failing(TestError::Unavailable);
        r.run(|| script.call()).await.unwrap_err();
    }
    assert_eq!(a.quota().available(), 485);
    assert!(c.quota().shares_bucket_with(b.quota()));
    assert!(!Retrier::new(fast(2)).quota().shares_bucket_with(a.quota()));
}

/// Many tasks on several threads hammer one quota with random outcomes. Every token taken or
/// given back is reported per call; at the end the bucket holds exactly the start minus what
/// was taken plus what was given back. It never exceeds its capacity.
#[test]
fn concurrent_calls_neither_create_nor_lose_tokens() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let quota = v2_0_quota().capacity(2_000).build();
        let retrier = Retrier::new(fast(4)).with_quota(quota.clone());
        let taken = Arc::new(AtomicU64::new(0));
        let returned = Arc::new(AtomicU64::new(0));
        let mut tasks = Vec::new();
        for task in 0..64u64 {
            let (retrier, taken, returned) = (retrier.clone(), taken.clone(), returned.clone());
            tasks.push(tokio::spawn(async move {
                let mut seed = task.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                for _ in 0..200 {
                    let report = retrier
                        .run_report(|| {
                            // xorshift: a cheap deterministic outcome per attempt.
                            seed ^= seed << 13;
                            seed ^= seed >> 7;
                            seed ^= seed << 17;
                            let outcome = match seed % 5 {
                                0 => Err(TestError::Unavailable),
                                1 => Err(TestError::Timeout),
                                2 => Err(TestError::NotFound),
                                _ => Ok(()),
                            };
                            async move {
                                tokio::task::yield_now().await;
                                outcome
                            }
                        })
                        .await;
                    assert!(u64::from(report.tokens_returned) <= report.tokens_taken.max(1));
                    taken.fetch_add(report.tokens_taken, Ordering::Relaxed);
                    returned.fetch_add(u64::from(report.tokens_returned), Ordering::Relaxed);
                    assert!(quota_ok(retrier.quota()));
                }
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        let (taken, returned) = (
            taken.load(Ordering::Relaxed),
            returned.load(Ordering::Relaxed),
        );
        assert!(
            taken > 2_000,
            "the quota was exercised down to exhaustion ({taken} taken)"
        );
        assert_eq!(u64::from(quota.available()) + taken, 2_000 + returned);
    });

    fn quota_ok(q: &RetryQuota) -> bool {
        q.available() <= q.capacity()
    }
}

/// With 50 tokens and retries of 5, exactly 10 retries are granted however many tasks race.
#[test]
fn concurrent_exhaustion_grants_exactly_what_the_tokens_pay_for() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let quota = v2_0_quota().capacity(50).build();
        let retrier = Retrier::new(fast(2)).with_quota(quota.clone());
        let mut tasks = Vec::new();
        for _ in 0..100 {
            let retrier = retrier.clone();
            tasks.push(tokio::spawn(async move {
                retrier
                    .run_report(|| async {
                        tokio::task::yield_now().await;
                        Err::<(), _>(TestError::Unavailable)
                    })
                    .await
            }));
        }
        let mut retried = 0;
        let mut refused = 0;
        for t in tasks {
            let report = t.await.unwrap();
            match report.stop {
                StopReason::MaxAttempts => retried += 1,
                StopReason::QuotaExhausted(_) => refused += 1,
                other => panic!("unexpected stop {other:?}"),
            }
        }
        assert_eq!((retried, refused), (10, 90));
        assert_eq!(quota.available(), 0);
    });
}

/// The token contract driven directly from OS threads in tight loops (the token API is
/// synchronous): the conservation law holds exactly, and the bucket never leaves [0, capacity].
/// The mix of calls keeps the bucket between empty and full, where takes and refunds race.
#[test]
fn racing_threads_neither_create_nor_lose_tokens() {
    const CAPACITY: u32 = 1_000_000;
    let quota = v2_0_quota().capacity(CAPACITY).build();
    // Start below capacity so first-try refunds are not all capped away.
    let drain: Vec<_> = (0..20_000)
        .map(|_| {
            quota
                .acquire()
                .schedule_retry(ErrorKind::ServerError)
                .unwrap()
        })
        .collect();
    drain.into_iter().for_each(|t| t.failure());
    let start = quota.available();
    assert_eq!(start, CAPACITY - 100_000);

    let barrier = Arc::new(std::sync::Barrier::new(8));
    let threads: Vec<_> = (0..8u64)
        .map(|t| {
            let (quota, barrier) = (quota.clone(), barrier.clone());
            std::thread::spawn(move || {
                let (mut taken, mut returned) = (0u64, 0u64);
                let mut seed = t.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                barrier.wait();
                for _ in 0..100_000 {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let token = quota.acquire();
                    match seed % 10 {
                        // First-try success: gives back 1.
                        0..=3 => returned += u64::from(token.success()),
                        // One or two retries, then success: gives back the last retry's cost.
                        4..=8 => {
                            let kinds: &[ErrorKind] = if seed % 10 == 8 {
                                &[ErrorKind::ServerError, ErrorKind::TransientError]
                            } else {
                                &[ErrorKind::ThrottlingError]
                            };
                            let mut token = Some(token);
                            for kind in kinds {
                                // A failed `schedule_retry` consumes the token: the call is over.
                                token = match token.take().map(|t| t.schedule_retry(*kind)) {
                                    Some(Ok(next)) => {
                                        taken += u64::from(next.held());
                                        Some(next)
                                    }
                                    _ => None,
                                };
                            }
                            if let Some(token) = token {
                                returned += u64::from(token.success());
                            }
                        }
                        // A retry, then a final failure: nothing back.
                        _ => {
                            if let Ok(next) = token.schedule_retry(ErrorKind::ServerError) {
                                taken += u64::from(next.held());
                                next.failure();
                            }
                        }
                    }
                    assert!(quota.available() <= quota.capacity());
                }
                (taken, returned)
            })
        })
        .collect();
    let (mut taken, mut returned) = (0, 0);
    for t in threads {
        let (a, b) = t.join().unwrap();
        taken += a;
        returned += b;
    }
    assert!(taken > 1_000_000, "{taken} tokens taken");
    assert_eq!(
        u64::from(quota.available()) + taken,
        u64::from(start) + returned
    );
}

#[tokio::test(start_paused = true)]
async fn retry_behavior_2_1_costs_14_after_any_error_but_a_throttle_5_after_one() {
    let retrier = Retrier::new(
        RetryConfig::standard()
            .max_attempts(3)
            .transient_backoff(Duration::ZERO)
            .throttling_backoff(Duration::ZERO)
            .build(),
    );
    assert_eq!(retrier.quota().available(), 500);
    for (error, cost) in [
        (TestError::Unavailable, 14),
        (TestError::Timeout, 14),
        (TestError::ModeledRetryable(400), 14),
        (TestError::Throttling, 5),
        (TestError::ModeledThrottling, 5),
    ] {
        let before = retrier.quota().available();
        let script = Script::new([Err(error.clone()), Ok(1)]);
        let report = retrier.run_report(|| script.call()).await;
        assert_eq!(report.tokens_taken, cost, "{error:?}");
        // A success after a retry gives back what the retry took.
        assert_eq!(report.tokens_returned, cost as u32, "{error:?}");
        assert_eq!(retrier.quota().available(), before, "{error:?}");
    }
    let script = Script::failing(TestError::Timeout);
    let report = retrier.run_report(|| script.call()).await;
    assert_eq!((report.attempts, report.tokens_taken), (3, 28));
    assert_eq!(retrier.quota().available(), 472);
}
