//! What a waiter's boxed poll costs. `wait_until_*` returns a nameable `Waiter<'a, O, E>`,
//! which holds the operation as a boxed closure returning a boxed future: one allocation per
//! poll. Measured in one run:
//!
//! * `poll_direct`: one poll's future (the operation plus the acceptor classification the macro
//!   emits), awaited in place: the unboxed baseline;
//! * `poll_boxed`: the same future boxed as the waiter boxes it;
//! * `wait_one_poll`: a whole `#[waitable]` wait that succeeds at the first poll (tracing span,
//!   poll scope, deadline timer, loop), for scale.
//!
//! ```text
//! cargo bench -p waiter-benches --bench waiter_poll -- --warm-up-time 1 --measurement-time 3
//! ```

#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::future::Future;
use std::hint::black_box;
use std::pin::Pin;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
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
}

criterion_group!(benches, bench);
criterion_main!(benches);
