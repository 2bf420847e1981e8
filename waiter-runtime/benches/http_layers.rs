//! The retry middleware end to end, against `reqwest-retry`, over loopback.
//!
//! ```text
//! cargo bench -p waiter-benches --bench http_layers
//! ```
//!
//! 1. **Storm**: a service serving a fixed capacity (`CAPACITY` requests/s, bursts of
//!    `BURST`, every request past it answered `429 ThrottlingException`); 100 callers send
//!    requests back to back for `SECS` seconds (env `HTTP_LAYERS_SECS`, default 30), through
//!    one shared client: `reqwest-retry` with its default policy (`ExponentialBackoff`,
//!    3 retries), our middleware in standard mode (3 attempts, and 4 attempts as a
//!    reference), in adaptive mode, in adaptive mode with a floor under the rate at 80 % of
//!    the known capacity and with `beta: 0.8` (each with a fresh service). Printed: goodput
//!    (successful calls per second) relative to capacity, over the time until the last call
//!    ended and within the window, the share of requests the service throttled, failed
//!    calls, p50/p99 latency of a call (retries included). Env `HTTP_LAYERS_CLIENTS`
//!    (`reqwest-retry,standard,standard20,standard4,adaptive,floor,beta,aws,sdk`) runs some
//!    rows only (`aws`, `sdk`: adaptive with `Tuning::AWS`, `Tuning::SDK`)
//!    (`standard20`: retry behavior 2.0); `HTTP_LAYERS_RETRY_AFTER_MS` puts an
//!    `x-amz-retry-after` hint on every throttle; `HTTP_LAYERS_SERIES=1` prints, per second,
//!    what the service saw, the adaptive limiter's rates and the retry quota's tokens;
//!    `HTTP_LAYERS_STORM_ONLY=1` skips the overhead part; `HTTP_LAYERS_LATENCY_MS=40` makes
//!    the service answer 40 ms after each request arrived.
//! 2. **Overhead**: one `GET` that succeeds at once, sequentially, through a plain
//!    `reqwest-middleware` client (the baseline), `reqwest-retry`, and our middleware in both
//!    modes: first interleaved (rounds of a few requests through each client in turn, medians
//!    and ratios printed), then with criterion (ratios to the baseline in the same run), twice,
//!    the second round in reverse order.

#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group};
use reqwest_middleware::{ClientBuilder, ClientWithMiddleware};
use reqwest_retry::RetryTransientMiddleware;
use reqwest_retry::policies::ExponentialBackoff;
use tokio::time::Instant;
use waiter_runtime::retry::adaptive::{ClientRateLimiter, Tuning};
use waiter_runtime::retry::layer::RetryMiddleware;
use waiter_runtime::retry::{Retrier, RetryBehavior, RetryConfig, RetryQuota};
use waiter_tests::capacity::CapacityService;

const CALLERS: usize = 100;
const CAPACITY: f64 = 500.0;
const BURST: f64 = 50.0;

#[derive(Clone, Copy, Debug)]
enum Client {
    Plain,
    ReqwestRetry,
    Standard,
    /// Standard with the earlier retry behavior (2.0), as clients that pinned it run.
    StandardV20,
    /// Standard with 4 attempts, as many as `reqwest-retry`'s 3 retries make: what the
    /// difference in failed calls owes to the number of attempts.
    StandardFourAttempts,
    Adaptive,
    /// Adaptive with a floor under the rate at 80 % of the service's known capacity (the
    /// documented opt-in `Tuning { min_fill_rate, .. }`).
    AdaptiveFloor,
    /// Adaptive with the documented opt-in `Tuning { beta: 0.8, .. }`: a gentler cut on each
    /// throttle.
    AdaptiveBeta,
    /// Adaptive with `Tuning::AWS`: the SDKs' controller with our cold start (the default
    /// before issue 28).
    AdaptiveAws,
    /// Adaptive with `Tuning::SDK`: botocore's controller.
    AdaptiveSdk,
}

impl Client {
    fn name(self) -> &'static str {
        match self {
            Client::Plain => "reqwest-middleware, no retries",
            Client::ReqwestRetry => "reqwest-retry (default policy)",
            Client::Standard => "RetryMiddleware::standard() (retry behavior 2.1)",
            Client::StandardV20 => "standard, behavior(RetryBehavior::V2_0)",
            Client::StandardFourAttempts => "standard, max_attempts(4) (reqwest-retry's count)",
            Client::Adaptive => "RetryMiddleware::adaptive()",
            Client::AdaptiveFloor => "adaptive, min_fill_rate 0.8 x capacity",
            Client::AdaptiveBeta => "adaptive, beta 0.8",
            Client::AdaptiveAws => "adaptive, Tuning::AWS (the default before issue 28)",
            Client::AdaptiveSdk => "adaptive, Tuning::SDK",
        }
    }

    /// The row's key for `HTTP_LAYERS_CLIENTS`.
    fn key(self) -> &'static str {
        match self {
            Client::Plain => "plain",
            Client::ReqwestRetry => "reqwest-retry",
            Client::Standard => "standard",
            Client::StandardV20 => "standard20",
            Client::StandardFourAttempts => "standard4",
            Client::Adaptive => "adaptive",
            Client::AdaptiveFloor => "floor",
            Client::AdaptiveBeta => "beta",
            Client::AdaptiveAws => "aws",
            Client::AdaptiveSdk => "sdk",
        }
    }

    fn build(self) -> ClientWithMiddleware {
        self.build_with_probe().0
    }

    /// The client, and our middleware's retrier and rate limiter (to sample their state).
    fn build_with_probe(self) -> (ClientWithMiddleware, Probe) {
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(CALLERS)
            .build()
            .unwrap();
        let builder = ClientBuilder::new(http);
        let adaptive = |tuning: Tuning| {
            // What `RetryMiddleware::adaptive()` builds, with a handle on the limiter.
            let limiter = ClientRateLimiter::with_tuning(tuning).unwrap();
            let retrier = Retrier::new(RetryConfig::adaptive().build())
                .with_rate_limiter(Arc::new(limiter.clone()));
            (RetryMiddleware::new(retrier), Some(limiter))
        };
        let (middleware, limiter) = match self {
            Client::Plain => return (builder.build(), Probe::default()),
            Client::ReqwestRetry => {
                let policy = ExponentialBackoff::builder().build_with_max_retries(3);
                let client = builder
                    .with(RetryTransientMiddleware::new_with_policy(policy))
                    .build();
                return (client, Probe::default());
            }
            Client::Standard => (RetryMiddleware::standard(), None),
            Client::StandardV20 => {
                let config = RetryConfig::standard()
                    .behavior(RetryBehavior::V2_0)
                    .build();
                (RetryMiddleware::new(Retrier::new(config)), None)
            }
            Client::StandardFourAttempts => {
                let config = RetryConfig::standard().max_attempts(4).build();
                (RetryMiddleware::new(Retrier::new(config)), None)
            }
            Client::Adaptive => adaptive(Tuning::default()),
            Client::AdaptiveFloor => adaptive(Tuning {
                min_fill_rate: 0.8 * CAPACITY,
                ..Tuning::default()
            }),
            Client::AdaptiveBeta => adaptive(Tuning {
                beta: 0.8,
                ..Tuning::default()
            }),
            Client::AdaptiveAws => adaptive(Tuning::AWS),
            Client::AdaptiveSdk => adaptive(Tuning::SDK),
        };
        let probe = Probe {
            quota: Some(middleware.retrier().quota().clone()),
            limiter,
        };
        (builder.with(middleware).build(), probe)
    }
}

/// Handles on our middleware's shared state, for `HTTP_LAYERS_SERIES`.
#[derive(Default)]
struct Probe {
    quota: Option<RetryQuota>,
    limiter: Option<ClientRateLimiter>,
}

struct StormResult {
    calls: usize,
    succeeded: usize,
    /// Successful calls that ended before the deadline.
    succeeded_in_window: usize,
    /// Until the last call ended (callers start no call after the deadline).
    elapsed: Duration,
    requests: u64,
    throttled: u64,
    p50: Duration,
    p99: Duration,
}

async fn storm(
    client: Client,
    secs: u64,
    series: bool,
    retry_after: Option<Duration>,
    latency: Duration,
) -> StormResult {
    let service = Arc::new(
        CapacityService::start(CAPACITY, BURST, retry_after)
            .await
            .unwrap(),
    );
    service.set_latency(latency);
    let (http, probe) = client.build_with_probe();
    let url = Arc::new(service.url("/work"));
    let start = Instant::now();
    let deadline = start + Duration::from_secs(secs);
    // Env `HTTP_LAYERS_SERIES=1`: per second, what the service saw and the limiter's state.
    let sampler = series.then(|| {
        let service = Arc::clone(&service);
        tokio::spawn(async move {
            let mut last = service.stats();
            let mut tick = tokio::time::interval_at(start + Duration::from_secs(1), Duration::from_secs(1));
            for second in 1..=secs {
                tick.tick().await;
                let now = service.stats();
                let limiter = probe.limiter.as_ref().map(|l| l.state()).filter(|s| s.is_enabled());
                let quota = probe.quota.as_ref().map(|q| q.available());
                println!(
                    "  {second:>3} s: {:>4} requests, {:>4} admitted, {:>4} throttled; fill rate {}, measured {}; quota {}",
                    now.requests - last.requests,
                    now.succeeded - last.succeeded,
                    now.throttled - last.throttled,
                    limiter.map_or("-".into(), |s| format!("{:.1}", s.fill_rate())),
                    limiter.map_or("-".into(), |s| format!("{:.1}", s.measured_transmit_rate())),
                    quota.map_or("-".into(), |q| q.to_string()),
                );
                last = now;
            }
        })
    });
    let callers: Vec<_> = (0..CALLERS)
        .map(|_| {
            let http = http.clone();
            let url = Arc::clone(&url);
            tokio::spawn(async move {
                let mut calls = Vec::new();
                while Instant::now() < deadline {
                    let started = Instant::now();
                    let ok = matches!(http.get(url.as_str()).send().await, Ok(r) if r.status().is_success());
                    let ended = Instant::now();
                    calls.push((ended - started, ok, ended <= deadline));
                }
                calls
            })
        })
        .collect();
    let mut calls = Vec::new();
    for caller in callers {
        calls.extend(caller.await.unwrap());
    }
    let elapsed = start.elapsed();
    if let Some(sampler) = sampler {
        sampler.abort();
    }
    let stats = service.stats();
    let mut latencies: Vec<Duration> = calls.iter().map(|(latency, ..)| *latency).collect();
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize];
    StormResult {
        calls: calls.len(),
        succeeded: calls.iter().filter(|(_, ok, _)| *ok).count(),
        succeeded_in_window: calls
            .iter()
            .filter(|(_, ok, within)| *ok && *within)
            .count(),
        elapsed,
        requests: stats.requests,
        throttled: stats.throttled,
        p50: at(0.5),
        p99: at(0.99),
    }
}

fn storms() {
    let secs = std::env::var("HTTP_LAYERS_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    let series = std::env::var_os("HTTP_LAYERS_SERIES").is_some();
    // Env `HTTP_LAYERS_RETRY_AFTER_MS=200`: every throttle carries `x-amz-retry-after: 200`.
    let retry_after = std::env::var("HTTP_LAYERS_RETRY_AFTER_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map(Duration::from_millis);
    // Env `HTTP_LAYERS_LATENCY_MS=40`: every answer 40 ms after its request arrived.
    let latency = Duration::from_millis(
        std::env::var("HTTP_LAYERS_LATENCY_MS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0),
    );
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    println!(
        "\nstorm: {CALLERS} callers for {secs} s against {CAPACITY} requests/s (bursts of {BURST}), \
         x-amz-retry-after {retry_after:?}, latency {latency:?}\n"
    );
    // Goodput two ways: successful calls over the time until the last call ended (calls under
    // way at the deadline finish, retries and backoffs included), and successful calls that
    // ended within the window over the window.
    println!(
        "| client | goodput / capacity | in the {secs} s window | last call ended | requests throttled | failed calls | calls | p50 | p99 |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    // Env `HTTP_LAYERS_CLIENTS=standard,adaptive`: only those rows (keys as in `Client::key`).
    let only = std::env::var("HTTP_LAYERS_CLIENTS").ok();
    for client in [
        Client::ReqwestRetry,
        Client::Standard,
        Client::StandardV20,
        Client::StandardFourAttempts,
        Client::Adaptive,
        Client::AdaptiveFloor,
        Client::AdaptiveBeta,
        Client::AdaptiveAws,
        Client::AdaptiveSdk,
    ] {
        if only
            .as_deref()
            .is_some_and(|only| !only.split(',').any(|key| key == client.key()))
        {
            continue;
        }
        let r = rt.block_on(storm(client, secs, series, retry_after, latency));
        let failed = r.calls - r.succeeded;
        println!(
            "| {} | {:.3} | {:.3} | {:.1} s | {:.1} % ({} of {}) | {} ({:.1} %) | {} | {:.2} ms | {:.1} ms |",
            client.name(),
            r.succeeded as f64 / r.elapsed.as_secs_f64() / CAPACITY,
            r.succeeded_in_window as f64 / secs as f64 / CAPACITY,
            r.elapsed.as_secs_f64(),
            100.0 * r.throttled as f64 / r.requests as f64,
            r.throttled,
            r.requests,
            failed,
            100.0 * failed as f64 / r.calls as f64,
            r.calls,
            r.p50.as_secs_f64() * 1e3,
            r.p99.as_secs_f64() * 1e3,
        );
    }
    println!();
}

/// The runtime, an unlimited loopback service (kept alive by the caller), its `/ok` URL and the
/// clients compared on a request that succeeds at once.
fn immediate_success_setup() -> (
    tokio::runtime::Runtime,
    CapacityService,
    String,
    [Client; 4],
) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let service = rt.block_on(CapacityService::unlimited()).unwrap();
    let url = service.url("/ok");
    let clients = [
        Client::Plain,
        Client::ReqwestRetry,
        Client::Standard,
        Client::Adaptive,
    ];
    (rt, service, url, clients)
}

fn overhead(c: &mut Criterion) {
    let (rt, _service, url, clients) = immediate_success_setup();
    // Twice, the second time in reverse order: on a shared machine the load changes during a
    // run, and the order of the rows should not decide the ratios.
    for (round, order) in [(1, clients), (2, reversed(clients))] {
        let mut group = c.benchmark_group(format!("http_layers/immediate_success/round{round}"));
        for client in order {
            let http = client.build();
            group.bench_function(client.name(), |b| {
                b.to_async(&rt).iter(|| async {
                    let response = http.get(&url).send().await.unwrap();
                    assert!(response.status().is_success());
                })
            });
        }
        group.finish();
    }
}

/// The overhead measured interleaved: rounds of `BATCH` sequential requests through each
/// client in turn (the order rotating each round), so that a change in machine load hits
/// every client alike; per client, the median and quartiles of its rounds' mean request time.
/// Criterion (below) measures each client for seconds in a row, and on a shared machine the
/// load changes between them.
fn overhead_interleaved() {
    const ROUNDS: usize = 400;
    const BATCH: usize = 10;
    let (rt, _service, url, clients) = immediate_success_setup();
    let https: Vec<_> = clients.iter().map(|c| c.build()).collect();
    let mut times = vec![Vec::with_capacity(ROUNDS); clients.len()];
    rt.block_on(async {
        // Warm-up: connections open, pools filled.
        for http in &https {
            for _ in 0..50 {
                http.get(&url).send().await.unwrap();
            }
        }
        for round in 0..ROUNDS {
            for k in 0..clients.len() {
                let i = (round + k) % clients.len();
                let start = Instant::now();
                for _ in 0..BATCH {
                    let response = https[i].get(&url).send().await.unwrap();
                    assert!(response.status().is_success());
                }
                times[i].push(start.elapsed() / BATCH as u32);
            }
        }
    });
    let quartiles = |t: &mut Vec<Duration>| {
        t.sort();
        let at = |q: f64| t[((t.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e6;
        (at(0.25), at(0.5), at(0.75))
    };
    let stats: Vec<_> = times.iter_mut().map(quartiles).collect();
    let (base, retry) = (stats[0].1, stats[1].1);
    println!(
        "overhead, interleaved: {ROUNDS} rounds of {BATCH} requests per client, median (quartiles) of a round's mean\n"
    );
    println!("| per request | median | quartiles | vs no middleware | vs reqwest-retry |");
    println!("|---|---:|---:|---:|---:|");
    for (client, (q1, median, q3)) in clients.iter().zip(&stats) {
        println!(
            "| {} | {median:.1} µs | {q1:.1} to {q3:.1} µs | {:.2} | {:.2} |",
            client.name(),
            median / base,
            median / retry,
        );
    }
    println!();
}

fn reversed<const N: usize>(mut clients: [Client; N]) -> [Client; N] {
    clients.reverse();
    clients
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = overhead
}

fn main() {
    storms();
    // Env `HTTP_LAYERS_STORM_ONLY=1`: the storm tables only.
    if std::env::var_os("HTTP_LAYERS_STORM_ONLY").is_some() {
        return;
    }
    overhead_interleaved();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
