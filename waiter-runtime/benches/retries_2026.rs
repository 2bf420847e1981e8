//! Issue 36's costs, in one run (BENCHMARKS.md, "Retries in 2026"):
//!
//! * `first_try`: `Retrier::run` around an operation that costs nothing and succeeds, without
//!   a time bound (`run`, the fast path, which must not pay for attempt timeouts), with an
//!   `attempt_timeout` (`run_attempt_timeout`: the attempt's deadline in scope, one clock
//!   reading), and `run_timed` with it (the attempt raced against a timer);
//! * `one_retry`: one retry at zero backoff, limited by the AWS quota (the default), by a
//!   `RetryBudget` alone (an unlimited quota), and by both;
//! * `budget_16_threads`: 16 threads each starting calls and taking retries from one shared
//!   limiter as fast as they can: our `RetryBudget` (lock-free slots), the `RetryQuota` (one
//!   atomic), and tower's `TpsBudget` (a mutex taken on every deposit and withdrawal), time per
//!   operation (a deposit and a withdrawal) across all threads; `budget_1_thread` the same on
//!   one thread;
//! * `clock`: what one reading of the clock costs here, `std::time::Instant::now()` and
//!   tokio's `Instant::now()` (which the budget, the attempt deadlines and tower's `TpsBudget`
//!   read; this package turns on tokio's `test-util`, under which tokio's reading looks for a
//!   paused clock first: a user's build without it reads std's).
//!
//! ```text
//! cargo bench -p waiter-benches --bench retries_2026 -- --warm-up-time 1 --measurement-time 3
//! ```

#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use tower::retry::budget::{Budget as _, TpsBudget};
use waiter_benches::retry::{operation, runtime, time};
use waiter_runtime::retry::{ErrorKind, Retrier, RetryBudget, RetryConfig, RetryQuota};

fn zero_backoff() -> waiter_runtime::retry::RetryConfigBuilder {
    RetryConfig::standard()
        .max_attempts(3)
        .transient_backoff(Duration::ZERO)
        .throttling_backoff(Duration::ZERO)
}

fn first_try(c: &mut Criterion) {
    let rt = runtime();
    let plain = Retrier::new(zero_backoff().build());
    let timed = Retrier::new(
        zero_backoff()
            .attempt_timeout(Duration::from_secs(5))
            .build(),
    );
    let mut g = c.benchmark_group("retries_2026/first_try");
    g.bench_function("run", |b| {
        b.iter_custom(|iters| {
            time(&rt, iters, || async {
                plain.run(operation(0)).await.unwrap()
            })
        })
    });
    g.bench_function("run_attempt_timeout", |b| {
        b.iter_custom(|iters| {
            time(&rt, iters, || async {
                timed.run(operation(0)).await.unwrap()
            })
        })
    });
    g.bench_function("run_timed_attempt_timeout", |b| {
        b.iter_custom(|iters| {
            time(&rt, iters, || async {
                timed.run_timed(operation(0)).await.unwrap()
            })
        })
    });
    g.finish();
}

fn one_retry(c: &mut Criterion) {
    let rt = runtime();
    let quota = Retrier::new(zero_backoff().build());
    // A budget that never runs out here: a share of 1000 retries per call.
    let budget = || RetryBudget::new(1000.0, 0, Duration::from_secs(10)).unwrap();
    let budget_only = Retrier::new(zero_backoff().build())
        .with_budget(budget())
        .with_quota(RetryQuota::unlimited());
    let both = Retrier::new(zero_backoff().build()).with_budget(budget());
    let mut g = c.benchmark_group("retries_2026/one_retry");
    for (name, retrier) in [
        ("quota", &quota),
        ("budget", &budget_only),
        ("budget_and_quota", &both),
    ] {
        g.bench_function(name, |b| {
            b.iter_custom(|iters| {
                time(&rt, iters, || async {
                    retrier.run(operation(1)).await.unwrap()
                })
            })
        });
    }
    g.finish();
}

/// Runs `op` `iters` times in all, over `threads` threads started together: the wall time.
fn contended(threads: u64, iters: u64, op: &(dyn Fn() + Sync)) -> Duration {
    let per_thread = iters.div_ceil(threads);
    let barrier = std::sync::Barrier::new(threads as usize);
    let start = std::sync::Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                if barrier.wait().is_leader() {
                    *start.lock().unwrap() = Some(Instant::now());
                }
                for _ in 0..per_thread {
                    op();
                }
            });
        }
    });
    let started = start.lock().unwrap().expect("a leader");
    started.elapsed()
}

fn budgets(c: &mut Criterion, threads: u64) {
    // Large enough that withdrawals are always allowed, as in a healthy service: the common
    // case, and the one that writes on every operation.
    let ours = RetryBudget::new(1000.0, 10, Duration::from_secs(10)).unwrap();
    let quota = RetryQuota::builder()
        .capacity(u32::MAX)
        .success_reward(0)
        .build();
    let tower = TpsBudget::new(Duration::from_secs(10), 10, 1000.0);
    let name = if threads == 1 {
        "retries_2026/budget_1_thread".to_owned()
    } else {
        format!("retries_2026/budget_{threads}_threads")
    };
    let mut g = c.benchmark_group(name);
    g.bench_function("retry_budget", |b| {
        b.iter_custom(|iters| {
            contended(threads, iters, &|| {
                ours.deposit();
                black_box(ours.try_withdraw());
            })
        })
    });
    g.bench_function("retry_quota", |b| {
        b.iter_custom(|iters| {
            contended(threads, iters, &|| {
                // A call and its one retry, given back by its success.
                let token = quota.acquire().schedule_retry(ErrorKind::ServerError);
                black_box(token.map(|t| t.success()).ok());
            })
        })
    });
    g.bench_function("tower_tps_budget", |b| {
        b.iter_custom(|iters| {
            contended(threads, iters, &|| {
                tower.deposit();
                black_box(tower.withdraw());
            })
        })
    });
    g.finish();
}

fn clock(c: &mut Criterion) {
    let mut g = c.benchmark_group("retries_2026/clock");
    g.bench_function("std_instant_now", |b| b.iter(|| black_box(Instant::now())));
    g.bench_function("tokio_instant_now", |b| {
        b.iter(|| black_box(tokio::time::Instant::now()))
    });
    g.finish();
}

fn budget_16_threads(c: &mut Criterion) {
    budgets(c, 16);
}

fn budget_1_thread(c: &mut Criterion) {
    budgets(c, 1);
}

criterion_group!(
    benches,
    first_try,
    one_retry,
    budget_16_threads,
    budget_1_thread,
    clock
);
criterion_main!(benches);
