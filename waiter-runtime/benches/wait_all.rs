//! Waiting on many resources: 10,000 waiters on tokio's paused clock under one deadline, as one
//! `WaitAll` against the baseline a user writes without it, 10,000 independent
//! `Waiter::wait(max_wait)` futures joined by `futures::future::join_all`. Measured in one run:
//!
//! * the figures printed first (one run of each): waiters that succeeded, requests the
//!   service received, the most requests it received in one millisecond, the most polls in
//!   flight at once, the peak heap per waiter (bytes allocated at the busiest request,
//!   counted by a `cap::Cap` global allocator, minus the bytes before the waiters were made,
//!   divided by 10,000), and the time to the last result on the paused clock;
//! * criterion's wall time of each (what the CPU spends: the clock is paused, so the waits
//!   themselves cost nothing).
//!
//! The service: resource `i` is ready at a random time in the first 300 s (seeded, the same for
//! every variant), a poll takes 20 ms (a timer), the deadline is 600 s, the delays are the
//! spec's defaults (2 s to 120 s).
//!
//! ```text
//! cargo bench -p waiter-benches --bench wait_all -- --warm-up-time 1 --measurement-time 3
//! ```

#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::alloc::System;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use cap::Cap;
use criterion::{Criterion, criterion_group, criterion_main};
use tokio::time::Instant;
use waiter_runtime::{ProvideErrorMetadata, Searchable, WaitAll, waitable};

#[global_allocator]
static ALLOCATOR: Cap<System> = Cap::new(System, usize::MAX);

const WAITERS: usize = 10_000;
const MAX_WAIT: Duration = Duration::from_secs(600);
const POLL_TIME: Duration = Duration::from_millis(20);

#[derive(Debug, ProvideErrorMetadata)]
enum Error {
    #[allow(dead_code)] // the bench's service never fails
    Unavailable,
}

#[derive(Debug, Searchable)]
struct Status {
    ready: bool,
}

/// The service and its own counters.
struct Client {
    start: Instant,
    ready_at: Vec<Duration>,
    requests: AtomicU64,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    /// (millisecond, requests in it, most requests in one millisecond)
    burst: Mutex<(u128, u64, u64)>,
    heap_before: usize,
    heap_peak: AtomicUsize,
}

impl Client {
    fn new() -> Self {
        // xorshift64, seeded: the same ready times for every variant.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let ready_at = (0..WAITERS)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                Duration::from_millis(x % 300_000)
            })
            .collect();
        Client {
            start: Instant::now(),
            ready_at,
            requests: AtomicU64::new(0),
            in_flight: AtomicUsize::new(0),
            max_in_flight: AtomicUsize::new(0),
            burst: Mutex::new((0, 0, 0)),
            heap_before: ALLOCATOR.allocated(),
            heap_peak: AtomicUsize::new(0),
        }
    }

    #[waitable(Ready: { acceptors: [{ state: "success", matcher: { output: {
        path: "ready", expected: "true", comparator: "booleanEquals" } } }] })]
    async fn describe(&self, id: usize) -> Result<Status, Error> {
        self.requests.fetch_add(1, Ordering::Relaxed);
        self.heap_peak
            .fetch_max(ALLOCATOR.allocated(), Ordering::Relaxed);
        let now = self.start.elapsed().as_millis();
        {
            let mut burst = self.burst.lock().unwrap();
            if burst.0 == now {
                burst.1 += 1;
            } else {
                *burst = (now, 1, burst.2);
            }
            burst.2 = burst.2.max(burst.1);
        }
        let flying = self.in_flight.fetch_add(1, Ordering::Relaxed) + 1;
        self.max_in_flight.fetch_max(flying, Ordering::Relaxed);
        tokio::time::sleep(POLL_TIME).await;
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
        Ok(Status {
            ready: self.start.elapsed() >= self.ready_at[id],
        })
    }
}

#[derive(Debug, Clone, Copy)]
enum Variant {
    JoinAll,
    WaitAll(usize),
}

impl Variant {
    fn name(self) -> String {
        match self {
            Variant::JoinAll => "join_all of 10,000 waits (baseline)".to_owned(),
            Variant::WaitAll(0) => "WaitAll, concurrency(0) (no limit)".to_owned(),
            Variant::WaitAll(n) => format!("WaitAll, concurrency({n})"),
        }
    }

    /// One run; the number of waiters that succeeded.
    async fn run(self, client: &Client) -> usize {
        match self {
            Variant::JoinAll => {
                let waits = (0..WAITERS).map(|id| client.wait_until_ready(id).wait(MAX_WAIT));
                futures::future::join_all(waits)
                    .await
                    .iter()
                    .filter(|r| r.is_ok())
                    .count()
            }
            Variant::WaitAll(n) => WaitAll::new((0..WAITERS).map(|id| client.wait_until_ready(id)))
                .concurrency(n)
                .wait(MAX_WAIT)
                .await
                .iter()
                .filter(|r| r.is_ok())
                .count(),
        }
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap()
}

const VARIANTS: [Variant; 3] = [Variant::JoinAll, Variant::WaitAll(0), Variant::WaitAll(10)];

fn bench(c: &mut Criterion) {
    let rt = runtime();
    println!(
        "\n{WAITERS} waiters, ready within 300 s, polls of {POLL_TIME:?}, one deadline of {MAX_WAIT:?}"
    );
    println!(
        "{:<38} {:>9} {:>9} {:>12} {:>10} {:>14} {:>11}",
        "variant",
        "succeeded",
        "requests",
        "max per ms",
        "in flight",
        "heap per waiter",
        "last result"
    );
    for variant in VARIANTS {
        let (succeeded, client, last) = rt.block_on(async {
            let client = Client::new();
            let succeeded = variant.run(&client).await;
            let last = client.start.elapsed();
            (succeeded, client, last)
        });
        let heap = client.heap_peak.load(Ordering::Relaxed) - client.heap_before;
        println!(
            "{:<38} {:>9} {:>9} {:>12} {:>10} {:>13}B {:>10.1}s",
            variant.name(),
            succeeded,
            client.requests.load(Ordering::Relaxed),
            client.burst.lock().unwrap().2,
            client.max_in_flight.load(Ordering::Relaxed),
            heap / WAITERS,
            last.as_secs_f64(),
        );
    }
    let mut group = c.benchmark_group("wait_all_10k");
    group.sample_size(10);
    for variant in VARIANTS {
        group.bench_function(variant.name(), |b| {
            b.iter(|| {
                rt.block_on(async {
                    let client = Client::new();
                    variant.run(&client).await
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
