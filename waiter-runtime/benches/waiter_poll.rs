//! What a waiter's boxed poll costs. `wait_until_*` returns a nameable `Waiter<'a, O, E>`,
//! which holds the operation as a boxed closure returning a boxed future: one allocation per
//! poll. Measured in one run:
//!
//! * `poll_direct`: one poll's future (the operation plus the acceptor classification the macro
//!   emits), awaited in place: the unboxed baseline;
//! * `poll_boxed`: the same future boxed as the waiter boxes it;
//! * `wait_one_poll`: a whole `#[waitable]` wait that succeeds at the first poll (tracing span,
//!   poll scope, deadline timer, loop), for scale;
//! * `wait_ten_polls` / `stream_ten_polls`: a wait of ten polls (nine `retry`, then `success`)
//!   on a paused clock (the sleeps auto-advance), by `wait` and read as a stream: the
//!   stream's cost per poll;
//! * `wait_ten_polls_recorded`: `wait_ten_polls` with a `metrics` recorder installed (atomic
//!   counters): with `--features waiter-runtime/metrics`, against `wait_ten_polls` in the same
//!   run, the cost of recording; without the feature, nothing is recorded.
//!
//! ```text
//! cargo bench -p waiter-benches --bench waiter_poll -- --warm-up-time 1 --measurement-time 3
//! cargo bench -p waiter-benches --bench waiter_poll --features waiter-runtime/metrics -- --warm-up-time 1 --measurement-time 3
//! ```

#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::future::Future;
use std::hint::black_box;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use futures::StreamExt;
use metrics::{
    Counter, CounterFn, Gauge, Histogram, HistogramFn, Key, KeyName, Metadata, Recorder,
    SharedString, Unit,
};
use waiter_benches::thing::{Error, Thing, ready};
use waiter_runtime::waitable;

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

/// Ready at every tenth call.
struct Slow(AtomicU32);

impl Slow {
    #[waitable(SlowReady: { acceptors: [
        { state: "success", matcher: { output: { path: "status", expected: "ready", comparator: "stringEquals" } } }
    ], minDelay: 1, maxDelay: 1 })]
    async fn get_slow(&self) -> Result<Thing, Error> {
        let n = self.0.fetch_add(1, Ordering::Relaxed);
        Ok(Thing {
            status: if n % 10 == 9 { "ready" } else { "creating" }.into(),
        })
    }
}

/// A recorder of atomic counters (histograms summed), as cheap as a real one gets.
#[derive(Default)]
struct Atomics;

struct Cell(AtomicU64);

impl CounterFn for Cell {
    fn increment(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }
    fn absolute(&self, n: u64) {
        self.0.store(n, Ordering::Relaxed);
    }
}

impl HistogramFn for Cell {
    fn record(&self, value: f64) {
        self.0.fetch_add(value as u64, Ordering::Relaxed);
    }
}

impl Recorder for Atomics {
    fn describe_counter(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_gauge(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_histogram(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn register_counter(&self, _: &Key, _: &Metadata<'_>) -> Counter {
        Counter::from_arc(Arc::new(Cell(AtomicU64::new(0))))
    }
    fn register_gauge(&self, _: &Key, _: &Metadata<'_>) -> Gauge {
        Gauge::noop()
    }
    fn register_histogram(&self, _: &Key, _: &Metadata<'_>) -> Histogram {
        Histogram::from_arc(Arc::new(Cell(AtomicU64::new(0))))
    }
}

/// One poll as the waiter runs it: call, then classify.
async fn one_poll(client: &Client) -> bool {
    let result = client.get_thing("t").await;
    matches!(&result, Ok(t) if t.status == "ready") || matches!(result, Err(Error::NotFound))
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let client = Client;
    let mut group = c.benchmark_group("waiter_poll");
    group.bench_function("poll_direct", |b| {
        b.iter(|| rt.block_on(one_poll(black_box(&client))))
    });
    group.bench_function("poll_boxed", |b| {
        b.iter(|| {
            let fut: Pin<Box<dyn Future<Output = bool> + Send + '_>> =
                Box::pin(one_poll(black_box(&client)));
            rt.block_on(fut)
        })
    });
    group.bench_function("wait_one_poll", |b| {
        b.iter(|| {
            rt.block_on(
                client
                    .wait_until_thing_ready("t")
                    .wait(Duration::from_secs(60)),
            )
            .is_ok()
        })
    });
    group.finish();

    // Ten polls on a paused clock: the sleeps between them auto-advance.
    let paused = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap();
    let slow = Slow(AtomicU32::new(0));
    let mut group = c.benchmark_group("waiter_poll");
    group.bench_function("wait_ten_polls", |b| {
        b.iter(|| {
            let done = paused.block_on(slow.wait_until_slow_ready().wait(Duration::from_secs(600)));
            assert_eq!(done.unwrap().polls, 10);
        })
    });
    group.bench_function("stream_ten_polls", |b| {
        b.iter(|| {
            let polls = paused.block_on(async {
                let mut updates = slow
                    .wait_until_slow_ready()
                    .stream(Duration::from_secs(600));
                let mut n = 0;
                while let Some(update) = updates.next().await {
                    black_box(&update);
                    n += 1;
                }
                n
            });
            assert_eq!(polls, 10);
        })
    });
    let recorder = Atomics;
    group.bench_function("wait_ten_polls_recorded", |b| {
        metrics::with_local_recorder(&recorder, || {
            b.iter(|| {
                let done =
                    paused.block_on(slow.wait_until_slow_ready().wait(Duration::from_secs(600)));
                assert_eq!(done.unwrap().polls, 10);
            })
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
