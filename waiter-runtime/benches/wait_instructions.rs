//! Instructions per wait, counted by valgrind (deterministic, unlike time on a shared machine):
//! runs `N` waits of one kind, so that `callgrind` counts of `N` and of `0` differ by `N` waits.
//!
//! Kinds: `one` (an async wait that succeeds at its first poll), `ten` (an async wait of ten
//! polls on a paused clock), `blocking` (a blocking wait of one poll).
//!
//! ```text
//! cargo bench -p waiter-benches --bench wait_instructions --no-run
//! BIN=$(ls -t target/release/deps/wait_instructions-* | grep -v '\.d$' | head -1)
//! for n in 0 2000; do valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.$n $BIN $n one; done
//! callgrind_annotate /tmp/cg.0 | grep 'PROGRAM TOTALS'; callgrind_annotate /tmp/cg.2000 | grep 'PROGRAM TOTALS'
//! ```

#![allow(missing_docs)]

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

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

    #[waitable(BlockingReady: { acceptors: [
        { state: "success", matcher: { output: { path: "status", expected: "ready", comparator: "stringEquals" } } }
    ] })]
    fn get_thing_now(&self, name: &str) -> Result<Thing, Error> {
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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u32 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(0);
    let kind = args.get(2).map_or("one", String::as_str);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap();
    let client = Client;
    let slow = Slow(AtomicU32::new(0));
    for _ in 0..n {
        match kind {
            "one" => {
                let done = rt.block_on(
                    client
                        .wait_until_thing_ready("t")
                        .wait(Duration::from_secs(60)),
                );
                assert_eq!(done.unwrap().polls, 1);
            }
            "ten" => {
                let done = rt.block_on(slow.wait_until_slow_ready().wait(Duration::from_secs(600)));
                assert_eq!(done.unwrap().polls, 10);
            }
            "blocking" => {
                let done = client
                    .wait_until_blocking_ready("t")
                    .wait(Duration::from_secs(60));
                assert_eq!(done.unwrap().polls, 1);
            }
            other => panic!("unknown kind {other}"),
        }
    }
}
