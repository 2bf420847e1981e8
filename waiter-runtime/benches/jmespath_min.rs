//! The rows of `jmespath_eval` that compare `Reservations[].Instances[].State.Name` with a
//! hand-written loop, measured for a noisy machine: the two alternate in short batches and each
//! keeps its fastest batch (other processes only ever add time), so the ratio of the minimums
//! moves little between runs where criterion's medians move by ±30%.
//!
//! Run: `cargo run --release -p waiter-benches --example jmespath_min`; with
//! `JMESPATH_MIN_PROFILE=N` it only runs the compiled search over N instances, with
//! `JMESPATH_MIN_PROFILE=hand:N` only the hand loop (for `perf`, or `valgrind --tool=callgrind`,
//! whose instruction counts do not depend on the machine's load). `jmespath_min.sh` runs it the
//! way `BENCHMARKS.md` reports it: against another commit's build, alternately, with the load
//! and the instruction counts.

#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Instant;

use waiter_runtime::__private_v0_1::all_string_equals;
use waiter_runtime::jmespath;
use waiter_runtime::jmespath::Expression;

#[path = "jmespath_data.rs"]
#[allow(dead_code)]
mod data;

use data::{hand_structs, hand_value, output, shared};

const NAMES: Expression = jmespath!("Reservations[].Instances[].State.Name");

/// Nanoseconds per call of `f`, over a batch of `iters` calls.
fn batch(f: &mut dyn FnMut(), iters: u32) -> f64 {
    let t = Instant::now();
    for _ in 0..iters {
        f();
    }
    t.elapsed().as_nanos() as f64 / f64::from(iters)
}

/// The fastest batch of `ours` and of `hand`, alternating `rounds` times (after a warm-up).
fn pair(rounds: u32, iters: u32, ours: &mut dyn FnMut(), hand: &mut dyn FnMut()) -> (f64, f64) {
    for _ in 0..rounds / 4 {
        batch(ours, iters);
        batch(hand, iters);
    }
    let (mut a, mut b) = (f64::MAX, f64::MAX);
    for _ in 0..rounds {
        a = a.min(batch(ours, iters));
        b = b.min(batch(hand, iters));
    }
    (a, b)
}

fn main() {
    if let Ok(profile) = std::env::var("JMESPATH_MIN_PROFILE") {
        let (hand, n) = match profile.strip_prefix("hand:") {
            Some(n) => (true, n),
            None => (false, profile.as_str()),
        };
        let n: usize = n.parse().expect("JMESPATH_MIN_PROFILE=N or hand:N");
        let structs = output(n);
        for _ in 0..50_000_000 / n {
            if hand {
                black_box(hand_structs(black_box(&structs)));
            } else {
                black_box(NAMES.search(black_box(&structs)).unwrap());
            }
        }
        return;
    }
    println!("rows: compiled / hand-written loop, minimum ns per call (ratio)");
    for n in [10usize, 100, 1000] {
        let structs = output(n);
        let arcs = shared(output(n));
        let value = serde_json::to_value(&structs).unwrap();
        let iters = (100_000 / n) as u32;
        let (c, h) = pair(
            200,
            iters,
            &mut || {
                black_box(NAMES.search(black_box(&structs)).unwrap());
            },
            &mut || {
                black_box(hand_structs(black_box(&structs)));
            },
        );
        println!("structs/{n}: {c:.0} / {h:.0} ns ({:.2}x)", c / h);
        let (a, c2) = pair(
            200,
            iters,
            &mut || {
                black_box(NAMES.search(black_box(&arcs)).unwrap());
            },
            &mut || {
                black_box(NAMES.search(black_box(&structs)).unwrap());
            },
        );
        println!(
            "arc_structs/{n} vs structs: {a:.0} / {c2:.0} ns ({:.2}x)",
            a / c2
        );
        let (c, h) = pair(
            100,
            iters / 10 + 1,
            &mut || {
                black_box(NAMES.search(black_box(&value)).unwrap());
            },
            &mut || {
                black_box(hand_value(black_box(&value)));
            },
        );
        println!("value/{n}: {c:.0} / {h:.0} ns ({:.2}x)", c / h);
        let (c, h) = pair(
            200,
            iters,
            &mut || {
                let r = NAMES.search(black_box(&structs));
                black_box(all_string_equals(&r, "running"));
            },
            &mut || {
                let names = hand_structs(black_box(&structs));
                black_box(!names.is_empty() && names.iter().all(|s| *s == "running"));
            },
        );
        println!("comparator/{n}: {c:.0} / {h:.0} ns ({:.2}x)", c / h);
    }
}
