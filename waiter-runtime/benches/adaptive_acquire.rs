//! Cost of the adaptive rate limiter per call when tokens are plentiful, against the same call
//! without it, with 1000 tasks on 1 and 2 threads.
//!
//! ```text
//! cargo bench -p waiter-runtime --bench adaptive_acquire -- --warm-up-time 1 --measurement-time 3
//! ```

#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState};

const TASKS: u64 = 1000;

fn runtime(threads: usize) -> tokio::runtime::Runtime {
    if threads == 1 {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .build()
            .unwrap()
    }
}

/// The operation every call makes: trivially cheap, so the figures are the overhead.
async fn operation(i: u64) -> Result<u64, ()> {
    Ok(black_box(i))
}

#[derive(Clone, Copy)]
enum Setup {
    /// No limiter at all: the standard mode's call.
    Standard,
    /// Adaptive mode before any throttle: one atomic load per attempt.
    AdaptiveOff,
    /// Adaptive mode, enabled, with far more tokens than the calls take.
    AdaptiveOn,
}

/// Runs `iters` calls spread over 1000 tasks; returns the time per `iters` calls.
fn measure(rt: &tokio::runtime::Runtime, setup: Setup, iters: u64) -> Duration {
    let per_task = iters.div_ceil(TASKS);
    let limiter = match setup {
        Setup::Standard => None,
        Setup::AdaptiveOff => Some(ClientRateLimiter::new()),
        Setup::AdaptiveOn => Some(ClientRateLimiter::with_state(RateLimiterState::steady_at(
            1e12, 0.0,
        ))),
    };
    let limiter = Arc::new(limiter);
    let elapsed = rt.block_on(async move {
        let start = Instant::now();
        let tasks: Vec<_> = (0..TASKS)
            .map(|_| {
                let limiter = limiter.clone();
                tokio::spawn(async move {
                    for i in 0..per_task {
                        if let Some(limiter) = &*limiter {
                            limiter.acquire().await;
                        }
                        let result = operation(i).await;
                        if let Some(limiter) = &*limiter {
                            limiter.on_response(false);
                        }
                        black_box(result).ok();
                    }
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
        start.elapsed()
    });
    elapsed.mul_f64(iters as f64 / (per_task * TASKS) as f64)
}

fn bench(c: &mut Criterion) {
    for threads in [1, 2] {
        let rt = runtime(threads);
        let mut group = c.benchmark_group(format!("adaptive_acquire/{threads}_thread"));
        for (name, setup) in [
            ("standard", Setup::Standard),
            ("adaptive_off", Setup::AdaptiveOff),
            ("adaptive_on", Setup::AdaptiveOn),
        ] {
            group.bench_function(BenchmarkId::from_parameter(name), |b| {
                b.iter_custom(|iters| measure(&rt, setup, iters))
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default();
    targets = bench
}
criterion_main!(benches);
