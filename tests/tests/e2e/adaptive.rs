//! Adaptive retries over loopback TCP: once the service throttles, the client's rate limiter
//! turns on and cuts the request rate, which the service observes.

use std::sync::Arc;
use std::time::{Duration, Instant};

use waiter_runtime::retry::adaptive::{ClientRateLimiter, Tuning};
use waiter_runtime::retry::{Retrier, RetryConfig};
use waiter_tests::client::ResourceClient;
use waiter_tests::service::{ExampleService, FaultConfig, RequestRecord, Settle};

/// Requests per second the service saw in `[from, to)`.
fn rate(log: &[RequestRecord], from: Instant, to: Instant) -> f64 {
    let n = log.iter().filter(|r| r.at >= from && r.at < to).count();
    n as f64 / (to - from).as_secs_f64()
}

/// Sends list calls from `tasks` tasks until `until`; returns how many completed.
async fn hammer(client: &ResourceClient, tasks: usize, until: Instant) -> usize {
    let mut set = tokio::task::JoinSet::new();
    for _ in 0..tasks {
        let client = client.clone();
        set.spawn(async move {
            let mut done = 0;
            let deadline = tokio::time::Instant::from_std(until);
            while tokio::time::timeout_at(deadline, client.list_resources(""))
                .await
                .is_ok()
            {
                done += 1;
            }
            done
        });
    }
    set.join_all().await.into_iter().sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn adaptive_mode_cuts_the_request_rate_under_throttling() {
    let service = ExampleService::builder()
        .seed(9)
        .settle(Settle::Manual)
        .start()
        .await
        .unwrap();
    // The AWS tuning, measuring the send rate in 100 ms buckets instead of 500 ms so the test
    // is short.
    let tuning = Tuning {
        rate_bucket_width: 0.1,
        ..Tuning::AWS
    };
    let limiter = ClientRateLimiter::with_tuning(tuning).unwrap();
    let retrier = Retrier::new(
        RetryConfig::adaptive()
            .max_attempts(3)
            .transient_backoff(Duration::from_millis(1))
            .throttling_backoff(Duration::from_millis(1))
            .max_backoff(Duration::from_millis(5))
            .build(),
    )
    .with_rate_limiter(Arc::new(limiter.clone()));
    let client = ResourceClient::builder(service.url())
        .retrier(retrier)
        .build();

    // Unthrottled: the limiter stays off, requests go as fast as the loop sends them.
    let t0 = Instant::now();
    let t1 = t0 + Duration::from_millis(600);
    assert!(hammer(&client, 2, t1).await > 20);
    assert!(!limiter.state().is_enabled());

    // Half the requests throttled: the limiter turns on and CUBIC cuts the rate.
    service.faults().set(FaultConfig {
        throttle: 0.5,
        ..FaultConfig::none()
    });
    let t2 = t1 + Duration::from_millis(1500);
    hammer(&client, 2, t2).await;

    let state = limiter.state();
    assert!(state.is_enabled(), "a throttle turns the limiter on");
    let log = service.request_log();
    let before = rate(&log, t0 + Duration::from_millis(100), t1);
    let after = rate(&log, t2 - Duration::from_millis(600), t2);
    eprintln!(
        "rates: before {before:.0} req/s, after {after:.1} req/s, fill {:.2}",
        state.fill_rate()
    );
    assert!(service.stats().throttled > 0);
    assert!(
        after < before / 2.0,
        "the service saw {before:.0} req/s before throttling and {after:.0} req/s after"
    );
    assert!(
        state.fill_rate() < before / 2.0,
        "fill rate {:.1} req/s, unthrottled rate {before:.0} req/s",
        state.fill_rate()
    );
}
