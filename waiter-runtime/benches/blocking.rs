//! What the blocking forms cost, against their async twins and against backon, in one run:
//!
//! * `blocking_poll`: a whole wait that succeeds at the first poll, on the blocking waiter
//!   (`waiter_runtime::blocking::Waiter`, a `#[waitable]` plain `fn`) and on the async one (an
//!   `async fn`, driven by a current-thread runtime's `block_on`, as `waiter_poll` does);
//! * `blocking_retry`: `Retrier::run_blocking` around an operation that costs nothing and
//!   succeeds at the first try, against backon's blocking retry
//!   (`BlockingRetryable::retry(ExponentialBuilder::default())`, `std::thread::sleep`) and the
//!   operation called with no retry layer (`direct`), and `Retrier::run` on a current-thread
//!   runtime's `block_on`, one per call (`run_in_block_on`).
//!
//! ```text
//! cargo bench -p waiter-benches --bench blocking -- --warm-up-time 1 --measurement-time 3
//! ```

#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::hint::black_box;
use std::time::Duration;

use backon::{BlockingRetryable, ExponentialBuilder};
use criterion::{Criterion, criterion_group, criterion_main};
use waiter_benches::thing::{Error, Thing, ready};
use waiter_runtime::retry::{Retrier, RetryConfig};
use waiter_runtime::{ProvideErrorMetadata, waitable};

struct Client;

impl Client {
    #[waitable(ThingReady: { acceptors: [
        { state: "success", matcher: { output: { path: "status", expected: "ready", comparator: "stringEquals" } } }
        { state: "retry", matcher: { errorType: "NotFound" } }
    ] })]
    async fn get_thing(&self, name: &str) -> Result<Thing, Error> {
        ready(name)
    }
}

struct BlockingClient;

impl BlockingClient {
    #[waitable(ThingReady: { acceptors: [
        { state: "success", matcher: { output: { path: "status", expected: "ready", comparator: "stringEquals" } } }
        { state: "retry", matcher: { errorType: "NotFound" } }
    ] })]
    fn get_thing(&self, name: &str) -> Result<Thing, Error> {
        ready(name)
    }
}

fn blocking_poll(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let mut group = c.benchmark_group("blocking_poll");
    group.bench_function("async_wait_one_poll", |b| {
        b.iter(|| {
            rt.block_on(
                Client
                    .wait_until_thing_ready("t")
                    .wait(Duration::from_secs(60)),
            )
            .is_ok()
        })
    });
    group.bench_function("blocking_wait_one_poll", |b| {
        b.iter(|| {
            BlockingClient
                .wait_until_thing_ready("t")
                .wait(Duration::from_secs(60))
                .is_ok()
        })
    });
    group.finish();
}

#[derive(Debug, ProvideErrorMetadata)]
#[error_metadata(status = 503)]
struct Unavailable;

fn operation() -> Result<u64, Unavailable> {
    Ok(black_box(7))
}

fn blocking_retry(c: &mut Criterion) {
    let ours = Retrier::new(RetryConfig::standard().build());
    let mut group = c.benchmark_group("blocking_retry/first_try_succeeds");
    group.bench_function("direct", |b| b.iter(|| operation().unwrap()));
    group.bench_function("run_blocking", |b| {
        b.iter(|| ours.run_blocking(operation).unwrap())
    });
    // The async form with the same framing (each call on its own `block_on`), for scale.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    group.bench_function("run_in_block_on", |b| {
        b.iter(|| {
            rt.block_on(ours.run(|| std::future::ready(operation())))
                .unwrap()
        })
    });
    group.bench_function("backon_blocking", |b| {
        b.iter(|| {
            operation
                .retry(ExponentialBuilder::default())
                .sleep(std::thread::sleep)
                .call()
                .unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, blocking_poll, blocking_retry);
criterion_main!(benches);
