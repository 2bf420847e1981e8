//! `cargo run --example demo`: the whole product against a real HTTP service.
//!
//! Starts the example service on `127.0.0.1` (resources are `CREATING` for 0.5 to 3 s, names
//! starting with `fail-` end `FAILED`, a quarter of all requests are throttled with
//! `Retry-After`), then, with the example client (adaptive retries, waiters pasted from
//! Smithy): creates resources and waits for all of them with one `WaitAll` (one deadline, at
//! most 4 polls in flight), printing a line per poll under a live progress bar; waits for all
//! of them with one list call; deletes them and waits for the deletions; prints a summary
//! table.
//!
//! On a terminal the progress bar is `indicatif`'s, drawn on stderr with the poll lines above
//! it. When stderr is not a terminal (CI logs, a pipe), there is no bar: the same lines, plus
//! a progress line (`3 of 5 done (2 succeeded, 1 failed), 2 polls in flight, 1.2s`) each time
//! a waiter finishes.
//!
//! The delays between polls follow the Smithy spec's algorithm with smaller bounds, set
//! through each waiter's builder (`min_delay(100 ms)`, `max_delay(1 s)`), so the demo takes
//! seconds rather than minutes. The scenario lives in `waiter_tests::demo`; an end-to-end test
//! runs it too.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use waiter_runtime::waiter::WaitAllProgress;
use waiter_tests::demo::{self, DemoOptions};

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let terminal = std::io::stderr().is_terminal();
    // Hidden until the `WaitAll` starts; hidden again when it is done.
    let bar = ProgressBar::hidden().with_style(
        ProgressStyle::with_template("{spinner} {elapsed:>3} [{bar:30}] {pos}/{len} done  {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let lines = bar.clone();
    let log = move |line: &str| {
        if lines.is_hidden() {
            println!("{line}");
        } else {
            lines.println(line);
        }
    };
    let mut done = None;
    let progress = move |p: &WaitAllProgress| {
        if !terminal {
            if done != Some(p.done()) {
                done = Some(p.done());
                println!("progress: {p}");
            }
            return;
        }
        if bar.is_hidden() && p.pending > 0 {
            bar.set_draw_target(ProgressDrawTarget::stderr());
            bar.enable_steady_tick(Duration::from_millis(100));
        }
        bar.set_length(p.total as u64);
        bar.set_position(p.done() as u64);
        bar.set_message(format!(
            "{} succeeded, {} failed, {} polling",
            p.succeeded, p.failed, p.in_flight
        ));
        if p.pending == 0 {
            bar.finish_and_clear();
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
    };
    let report = demo::run_with_progress(DemoOptions::default(), log, progress).await?;
    println!("\n{report}");
    Ok(())
}
