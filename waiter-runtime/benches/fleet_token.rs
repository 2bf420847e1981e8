//! The cost of a token from `FleetRateLimiter` (a member holding a lease, its share far above
//! what the calls take) against `ClientRateLimiter`'s (on, plenty of tokens), through the
//! `RateLimiter` hook the retrier calls (a token and its response's report), with 1000 tasks
//! on 1 and 2 threads; and a whole retrier call with each. No Redis round trip is on the request path: the member's
//! background thread talks to the `redis-server` the bench starts.
//!
//! ```text
//! cargo bench -p waiter-benches --bench fleet_token -- --warm-up-time 1 --measurement-time 3
//! ```

#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use waiter_benches::tasks::{Call, measure, runtime};
use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::retry::adaptive::{ClientRateLimiter, FleetRateLimiter, RateLimiterState};
use waiter_runtime::retry::{RateLimiter, Retrier, RetryConfig};
use waiter_tests::redis_server::RedisServer;

#[derive(Debug, ProvideErrorMetadata)]
#[error_metadata(code = "ThrottlingException", status = 400)]
struct Throttled;

/// Sets the fleet steady at 1e8 requests/s since its last cut (at Redis's time now, less K),
/// its measured sending rate 1e8 too: the fleet's rate follows what it sends (at most twice
/// the smoothed measure), which idles down to the floor while the other rows run.
fn steady(redis: &RedisServer) {
    let cli = |args: &[&str]| {
        let out = std::process::Command::new("redis-cli")
            .args(["-p", &redis.port().to_string()])
            .args(args)
            .output()
            .expect("redis-cli");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let now = cli(&["TIME"]);
    let secs = now.split_whitespace().next().expect("TIME");
    cli(&[
        "HSET",
        "waiter:{bench}:state",
        "on",
        "1",
        "wmax",
        "1e8",
        "tcut",
        secs,
        "measured",
        "1e8",
        "win_start",
        secs,
        "win_count",
        "0",
    ]);
}

/// Waits until `member` holds a lease at a share over 1e7 requests/s.
fn leased(member: &FleetRateLimiter) {
    let start = Instant::now();
    while !member.status().share.is_some_and(|share| share > 1e7) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no lease: {:?}",
            member.status()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A member of a fleet whose rate is 1e8 requests/s, holding its lease.
fn leased_member(redis: &RedisServer) -> FleetRateLimiter {
    steady(redis);
    let member = FleetRateLimiter::new(&redis.url(), "bench").unwrap();
    leased(&member);
    member
}

enum Client {
    Token(Arc<dyn RateLimiter>),
    Call(Retrier),
}

impl Client {
    async fn request(&self, i: u64) -> Result<u64, Throttled> {
        match self {
            Client::Token(limiter) => {
                limiter.acquire_for(0).await;
                // Each token's response reported too: a member's share follows what the fleet
                // reports sending (at most twice it), so tokens without responses shrink it
                // until tokens wait, which no client does.
                limiter.on_response(false);
                Ok(black_box(i))
            }
            Client::Call(retrier) => retrier.run(|| async { Ok(black_box(i)) }).await,
        }
    }
}

impl Call for Client {
    async fn call(&self, i: u64) {
        black_box(self.request(i).await).ok();
    }
}

fn bench(c: &mut Criterion) {
    let redis = RedisServer::start().expect("redis-server");
    let member = leased_member(&redis);
    let single: Arc<dyn RateLimiter> = Arc::new(ClientRateLimiter::with_state(
        RateLimiterState::steady_at(1e12, 0.0).unwrap(),
    ));
    let fleet: Arc<dyn RateLimiter> = Arc::new(member.clone());
    let retrier = |limiter: &Arc<dyn RateLimiter>| {
        Retrier::new(RetryConfig::adaptive().build()).with_rate_limiter(Arc::clone(limiter))
    };
    let clients = [
        ("client_token", Arc::new(Client::Token(Arc::clone(&single)))),
        ("fleet_token", Arc::new(Client::Token(Arc::clone(&fleet)))),
        ("client_call", Arc::new(Client::Call(retrier(&single)))),
        ("fleet_call", Arc::new(Client::Call(retrier(&fleet)))),
    ];
    for threads in [1, 2] {
        let rt = runtime(threads);
        let mut group = c.benchmark_group(format!("fleet_token/{threads}_thread"));
        for (name, client) in &clients {
            if name.starts_with("fleet") {
                // Steady again: the client rows before left the member idle.
                steady(&redis);
                leased(&member);
            }
            group.bench_function(BenchmarkId::from_parameter(name), |b| {
                b.iter_custom(|iters| measure(&rt, client, iters))
            });
            eprintln!("{name}: {:?}", member.status());
        }
        group.finish();
    }
    assert!(
        member.status().leased,
        "the lease held: {:?}",
        member.status()
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = bench
}
criterion_main!(benches);
