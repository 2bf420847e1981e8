//! `Reservations[].Instances[].State.Name` over 10, 100 and 1000 instances, as
//! `serde_json::Value` and as derived structs: our compiled expression, the `jmespath` crate
//! (expression compiled once, data converted per call, as a user of that crate does) and a
//! hand-written loop. Plus a single-field path on small and large outputs.
//!
//! Run: `cargo bench -p waiter-benches --bench jmespath_eval -- --warm-up-time 1 --measurement-time 3`

#![allow(missing_docs)] // criterion_group! emits an undocumented public fn

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use serde_json::Value;
use std::hint::black_box;
use waiter_runtime::jmespath;
use waiter_runtime::jmespath::Expression;

#[path = "jmespath_data.rs"]
mod data;

use data::{hand_structs, hand_value, output, shared};

const NAMES: Expression = jmespath!("Reservations[].Instances[].State.Name");
const TOKEN: Expression = jmespath!("NextToken");
const MERGE: Expression = jmespath!("merge(@, @)");

fn bench(c: &mut Criterion) {
    let theirs = ::jmespath::compile(NAMES.source()).unwrap();
    let mut g = c.benchmark_group("jmespath_eval");
    for n in [10usize, 100, 1000] {
        let structs = output(n);
        let value = serde_json::to_value(&structs).unwrap();
        assert_eq!(
            NAMES.search(&structs).unwrap(),
            NAMES.search(&value).unwrap()
        );
        assert_eq!(hand_structs(&structs).len(), n);
        assert_eq!(hand_value(&value).len(), n);

        g.bench_with_input(BenchmarkId::new("compiled/structs", n), &structs, |b, d| {
            b.iter(|| black_box(NAMES.search(black_box(d)).unwrap()))
        });
        g.bench_with_input(BenchmarkId::new("hand/structs", n), &structs, |b, d| {
            b.iter(|| black_box(hand_structs(black_box(d))))
        });
        g.bench_with_input(
            BenchmarkId::new("jmespath_crate/structs", n),
            &structs,
            |b, d| b.iter(|| black_box(theirs.search(black_box(d)).unwrap())),
        );
        g.bench_with_input(BenchmarkId::new("compiled/value", n), &value, |b, d| {
            b.iter(|| black_box(NAMES.search(black_box(d)).unwrap()))
        });
        g.bench_with_input(BenchmarkId::new("hand/value", n), &value, |b, d| {
            b.iter(|| black_box(hand_value(black_box(d))))
        });
        g.bench_with_input(
            BenchmarkId::new("jmespath_crate/value", n),
            &value,
            |b, d| b.iter(|| black_box(theirs.search(black_box(d)).unwrap())),
        );
        let arcs = shared(output(n));
        assert_eq!(NAMES.search(&arcs).unwrap(), NAMES.search(&value).unwrap());
        g.bench_with_input(
            BenchmarkId::new("compiled/arc_structs", n),
            &arcs,
            |b, d| b.iter(|| black_box(NAMES.search(black_box(d)).unwrap())),
        );
        // The waiter comparator on the projection (an `allStringEquals` acceptor), against the
        // hand-written check over the hand-written loop's names.
        g.bench_with_input(
            BenchmarkId::new("comparator/compiled", n),
            &structs,
            |b, d| {
                b.iter(|| {
                    let r = NAMES.search(black_box(d));
                    black_box(waiter_runtime::__private_v0_1::all_string_equals(
                        &r, "running",
                    ))
                })
            },
        );
        g.bench_with_input(BenchmarkId::new("comparator/hand", n), &structs, |b, d| {
            b.iter(|| {
                let names = hand_structs(black_box(d));
                black_box(!names.is_empty() && names.iter().all(|s| *s == "running"))
            })
        });
        if n != 100 {
            g.bench_with_input(
                BenchmarkId::new("single_field/structs", n),
                &structs,
                |b, d| b.iter(|| black_box(TOKEN.search(black_box(d)).unwrap())),
            );
            g.bench_with_input(BenchmarkId::new("single_field/value", n), &value, |b, d| {
                b.iter(|| black_box(TOKEN.search(black_box(d)).unwrap()))
            });
        }
    }
    // `merge(@, @)` over an object of 100,000 keys, against building the same map by hand.
    let keys: serde_json::Map<String, Value> = (0..100_000)
        .map(|i| (format!("k{i}"), Value::from(i)))
        .collect();
    let big = Value::Object(keys);
    g.sample_size(10);
    g.bench_with_input(
        BenchmarkId::new("merge_100k/compiled", 100_000),
        &big,
        |b, d| b.iter(|| black_box(MERGE.search(black_box(d)).unwrap())),
    );
    g.bench_with_input(
        BenchmarkId::new("merge_100k/hand", 100_000),
        &big,
        |b, d| {
            b.iter(|| {
                let o = black_box(d).as_object().unwrap();
                let mut m: std::collections::HashMap<&str, &Value> =
                    o.iter().map(|(k, v)| (k.as_str(), v)).collect();
                m.extend(o.iter().map(|(k, v)| (k.as_str(), v)));
                black_box(m)
            })
        },
    );
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
