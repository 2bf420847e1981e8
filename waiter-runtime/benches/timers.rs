//! The fallback timer (futures-timer, used outside a tokio runtime) against tokio's, measured in
//! one run:
//!
//! * `sleep_1ms`: one 1 ms sleep, awaited: tokio's timer on a current-thread runtime, and
//!   futures-timer's `Delay` on `futures::executor::block_on` (what a waiter's delay costs on
//!   each: the timer's resolution and its wake-up);
//! * `wait_one_poll`: a whole `#[waitable]` wait that succeeds at the first poll (its deadline
//!   timer is armed and dropped), on tokio and on `futures::executor::block_on` (the fallback
//!   timer), for the cost of the timer on the path every wait takes.
//!
//! ```text
//! cargo bench -p waiter-benches --bench timers -- --warm-up-time 1 --measurement-time 3
//! ```

#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
enum Error {}

#[derive(Debug, Searchable)]
struct Thing {
    status: String,
}

#[waitable(ThingReady: { acceptors: [
    { state: "success", matcher: { output: { path: "status", expected: "ready", comparator: "stringEquals" } } }
] })]
async fn get_thing(name: &str) -> Result<Thing, Error> {
    black_box(name);
    Ok(Thing {
        status: "ready".into(),
    })
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let mut group = c.benchmark_group("timers");
    group.bench_function("sleep_1ms/tokio", |b| {
        b.iter(|| rt.block_on(async { tokio::time::sleep(Duration::from_millis(1)).await }))
    });
    group.bench_function("sleep_1ms/futures_timer", |b| {
        b.iter(|| futures::executor::block_on(futures_timer::Delay::new(Duration::from_millis(1))))
    });
    group.bench_function("wait_one_poll/tokio", |b| {
        b.iter(|| {
            rt.block_on(wait_until_thing_ready("t").wait(Duration::from_secs(60)))
                .is_ok()
        })
    });
    group.bench_function("wait_one_poll/futures_timer", |b| {
        b.iter(|| {
            futures::executor::block_on(wait_until_thing_ready("t").wait(Duration::from_secs(60)))
                .is_ok()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
