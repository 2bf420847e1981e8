//! `cargo run --example demo`: the whole product against a real HTTP service.
//!
//! Starts the example service on `127.0.0.1` (resources are `CREATING` for 0.5 to 3 s, names
//! starting with `fail-` end `FAILED`, a quarter of all requests are throttled with
//! `Retry-After`), then, with the example client (adaptive retries, waiters pasted from
//! Smithy): creates resources and waits for them concurrently, printing a line per poll; waits
//! for all of them with one list call; deletes them and waits for the deletions; prints a
//! summary table.
//!
//! The delays between polls follow the Smithy spec's algorithm with smaller bounds, set
//! through each waiter's builder (`min_delay(100 ms)`, `max_delay(1 s)`), so the demo takes
//! seconds rather than minutes. The scenario lives in `waiter_tests::demo`; an end-to-end test
//! runs it too.

use waiter_tests::demo::{self, DemoOptions};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let report = demo::run(DemoOptions::default(), |line| println!("{line}")).await?;
    println!("\n{report}");
    Ok(())
}
