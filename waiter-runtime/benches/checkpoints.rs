//! What checkpoints cost (issue 37): one waiter's and a set's of 10,000 members, taken, written
//! as JSON, read back and resumed; and what a set pays per poll to record them. Printed first:
//! the JSON's size. Measured in one run:
//!
//! * `take`: `PollEvent::checkpoint()` (a copy of the event's state, the wall-clock start);
//! * `to_json` / `from_json`: one checkpoint written and read (every field checked);
//! * `resume`: `Waiter::resume` (format, waiter, definition, input, values, deadline);
//! * `set_checkpoint_10000`, `set_to_json_10000`, `set_from_json_10000`: a set of 10,000
//!   members, about 1,400 finished and the others waiting;
//! * `set_wait_1000` / `set_wait_1000_recorded`: a set of 1,000 waiters of about ten polls each on a
//!   paused clock, without and with `WaitAll::checkpoints` (the recording's cost per poll).
//!
//! ```text
//! cargo bench -p waiter-benches --bench checkpoints -- --warm-up-time 1 --measurement-time 3
//! ```

#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::hint::black_box;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use waiter_benches::thing::{Error, Thing};
use waiter_runtime::waiter::{
    MemberCheckpoint, PollEvent, WaitAllCheckpoint, WaitAllCheckpoints, WaitCheckpoint,
};
use waiter_runtime::{WaitAll, waitable};

/// Ready at every tenth call.
struct Slow(AtomicU32);

impl Slow {
    #[waitable(StreamExists: { acceptors: [
        { state: "success", matcher: { output: { path: "status", expected: "ready", comparator: "stringEquals" } } }
        { state: "retry", matcher: { errorType: "NotFound" } }
    ], minDelay: 1, maxDelay: 1 })]
    async fn describe_stream(&self, name: &str) -> Result<Thing, Error> {
        let n = self.0.fetch_add(1, Ordering::Relaxed);
        let _ = name;
        Ok(Thing {
            status: if n % 10 == 9 { "ready" } else { "creating" }.into(),
        })
    }
}

fn paused() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap()
}

/// The event of a wait's first poll, named like an ARN.
fn first_event(rt: &tokio::runtime::Runtime, slow: &Slow) -> PollEvent {
    let mut first = None;
    let _ = rt.block_on(
        slow.wait_until_stream_exists("arn:aws:kinesis:eu-west-1:123456789012:stream/orders")
            .on_poll(|e: &PollEvent| {
                first.get_or_insert(*e);
            })
            .wait(Duration::from_secs(600)),
    );
    first.unwrap()
}

/// A set's checkpoint of 10,000 members, about 1,400 of them finished (printed), the others waiting.
fn set_checkpoint(rt: &tokio::runtime::Runtime) -> WaitAllCheckpoint {
    let slow = Slow(AtomicU32::new(0));
    let names: Vec<String> = (0..10_000).map(|i| format!("stream-{i}")).collect();
    let checkpoints = WaitAllCheckpoints::new();
    let set = WaitAll::new(names.iter().map(|n| slow.wait_until_stream_exists(n)))
        .concurrency(0)
        .checkpoints(&checkpoints)
        .wait(Duration::from_secs(600));
    // Each member is ready at its tenth poll overall (a shared counter): some finish early.
    let _ = rt.block_on(async { tokio::time::timeout(Duration::from_millis(1_500), set).await });
    let checkpoint = checkpoints.checkpoint().unwrap();
    let finished = checkpoint
        .members
        .iter()
        .filter(|m| matches!(m, MemberCheckpoint::Finished(_)))
        .count();
    println!("set of 10,000: {finished} finished");
    checkpoint
}

fn bench(c: &mut Criterion) {
    let rt = paused();
    let slow = Slow(AtomicU32::new(0));
    let event = first_event(&rt, &slow);
    let checkpoint = event.checkpoint().unwrap();
    let json = checkpoint.to_json();
    println!("one checkpoint: {} bytes of JSON", json.len());
    let mut group = c.benchmark_group("checkpoint");
    group.bench_function("take", |b| b.iter(|| black_box(&event).checkpoint()));
    group.bench_function("to_json", |b| b.iter(|| black_box(&checkpoint).to_json()));
    group.bench_function("from_json", |b| {
        b.iter(|| WaitCheckpoint::from_json(black_box(&json)).unwrap())
    });
    group.bench_function("resume", |b| {
        b.iter(|| {
            slow.wait_until_stream_exists("arn:aws:kinesis:eu-west-1:123456789012:stream/orders")
                .resume(black_box(&checkpoint))
                .is_ok()
        })
    });
    group.finish();

    let set = set_checkpoint(&rt);
    let set_json = set.to_json();
    println!(
        "set of 10,000: {} bytes of JSON ({} per member)",
        set_json.len(),
        set_json.len() / 10_000
    );
    // The handle a running set records into, with the same members.
    let names: Vec<String> = (0..10_000).map(|i| format!("stream-{i}")).collect();
    let handle = WaitAllCheckpoints::new();
    let running = WaitAll::new(names.iter().map(|n| slow.wait_until_stream_exists(n)))
        .concurrency(0)
        .checkpoints(&handle)
        .wait(Duration::from_secs(600));
    let _ =
        rt.block_on(async { tokio::time::timeout(Duration::from_millis(1_500), running).await });
    let mut group = c.benchmark_group("checkpoint");
    group.sample_size(10);
    group.bench_function("set_checkpoint_10000", |b| b.iter(|| handle.checkpoint()));
    group.bench_function("set_to_json_10000", |b| {
        b.iter(|| black_box(&set).to_json())
    });
    group.bench_function("set_from_json_10000", |b| {
        b.iter(|| WaitAllCheckpoint::from_json(black_box(&set_json)).unwrap())
    });
    group.finish();

    // What recording costs a running set: 1,000 waiters of ten polls each.
    let mut group = c.benchmark_group("checkpoint");
    group.sample_size(10);
    let names: Vec<String> = (0..1_000).map(|i| format!("stream-{i}")).collect();
    let run = |record: bool| {
        let slow = Slow(AtomicU32::new(0));
        let waiters = names.iter().map(|n| slow.wait_until_stream_exists(n));
        let handle = WaitAllCheckpoints::new();
        let set = WaitAll::new(waiters).concurrency(0);
        let set = if record {
            set.checkpoints(&handle)
        } else {
            set
        };
        let results = rt.block_on(set.wait(Duration::from_secs(600)));
        assert_eq!(results.len(), 1_000);
    };
    group.bench_function("set_wait_1000", |b| b.iter(|| run(false)));
    group.bench_function("set_wait_1000_recorded", |b| b.iter(|| run(true)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
