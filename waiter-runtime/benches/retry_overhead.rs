//! What `Retrier::run` costs around an operation that costs nothing, against `backon` and
//! `tokio-retry` in the same run: when the first try succeeds, and when one retry is needed
//! (zero backoff). `direct` is the operation awaited with no retry layer at all.
//!
//! With a zero backoff, `backon` and `tokio-retry` still await a zero-length tokio timer, which
//! ends on the timer's next millisecond tick; `backon_no_sleep` gives backon a sleeper that
//! returns at once, to compare the retry loops alone.
//!
//! ```text
//! cargo bench -p waiter-benches --bench retry_overhead -- --warm-up-time 1 --measurement-time 3
//! ```

#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::time::Duration;

use backon::{ConstantBuilder, ExponentialBuilder, Retryable};
use criterion::{Criterion, criterion_group, criterion_main};
use waiter_benches::retry::{operation, runtime, time};
use waiter_runtime::retry::{Retrier, RetryConfig};

fn bench(c: &mut Criterion, group: &str, failures: u32) {
    let rt = runtime();
    let ours = Retrier::new(
        RetryConfig::standard()
            .max_attempts(3)
            .transient_backoff(Duration::ZERO)
            .throttling_backoff(Duration::ZERO)
            .build(),
    );
    let mut g = c.benchmark_group(group);

    g.bench_function("direct", |b| {
        b.iter_custom(|iters| {
            time(&rt, iters, || async {
                let mut op = operation(0);
                op().await.unwrap()
            })
        })
    });
    g.bench_function("waiter_runtime", |b| {
        b.iter_custom(|iters| {
            time(&rt, iters, || async {
                ours.run(operation(failures)).await.unwrap()
            })
        })
    });
    g.bench_function("backon", |b| {
        b.iter_custom(|iters| {
            time(&rt, iters, || async {
                if failures == 0 {
                    operation(failures)
                        .retry(ExponentialBuilder::default())
                        .await
                        .unwrap()
                } else {
                    let zero = ConstantBuilder::default()
                        .with_delay(Duration::ZERO)
                        .with_max_times(2);
                    operation(failures).retry(zero).await.unwrap()
                }
            })
        })
    });
    if failures > 0 {
        // backon with a sleeper that returns at once: its loop without tokio's timer.
        g.bench_function("backon_no_sleep", |b| {
            b.iter_custom(|iters| {
                time(&rt, iters, || async {
                    let zero = ConstantBuilder::default()
                        .with_delay(Duration::ZERO)
                        .with_max_times(2);
                    operation(failures)
                        .retry(zero)
                        .sleep(|_| std::future::ready(()))
                        .await
                        .unwrap()
                })
            })
        });
    }
    g.bench_function("tokio_retry", |b| {
        b.iter_custom(|iters| {
            time(&rt, iters, || async {
                if failures == 0 {
                    let strategy = tokio_retry::strategy::ExponentialBackoff::from_millis(10)
                        .map(tokio_retry::strategy::jitter)
                        .take(2);
                    tokio_retry::Retry::start(strategy, operation(failures))
                        .await
                        .unwrap()
                } else {
                    let strategy =
                        tokio_retry::strategy::FixedInterval::new(Duration::ZERO).take(2);
                    tokio_retry::Retry::start(strategy, operation(failures))
                        .await
                        .unwrap()
                }
            })
        })
    });
    g.finish();
}

fn first_try_succeeds(c: &mut Criterion) {
    bench(c, "retry_overhead/first_try_succeeds", 0);
}

fn one_retry_zero_backoff(c: &mut Criterion) {
    bench(c, "retry_overhead/one_retry_zero_backoff", 1);
}

criterion_group!(benches, first_try_succeeds, one_retry_zero_backoff);
criterion_main!(benches);
