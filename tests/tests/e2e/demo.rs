//! The demo's scenario (`cargo run --example demo`), with short delays, checked row by row.

use std::time::Duration;

use waiter_tests::demo::{self, DemoOptions, RESOURCES, WaitOutcome};
use waiter_tests::service::{FaultConfig, Settle};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_survives_throttling_and_reports_every_wait() {
    let options = DemoOptions {
        seed: 7,
        settle: Settle::After {
            min: Duration::from_millis(50),
            max: Duration::from_millis(300),
        },
        faults: FaultConfig {
            throttle: 0.10,
            slow_down: 0.05,
            retry_after: Some(Duration::from_millis(20)),
            ..FaultConfig::none()
        },
        max_attempts: 8,
        min_delay: Duration::from_millis(10),
        max_delay: Duration::from_millis(50),
        max_wait: Duration::from_secs(30),
        concurrency: 3,
    };
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let sink = std::sync::Arc::clone(&lines);
    let report = demo::run(options, move |line| {
        sink.lock().unwrap().push(line.to_owned())
    })
    .await
    .unwrap();

    let n = RESOURCES.len();
    assert_eq!(report.rows.len(), 2 * n + 2, "{report}");
    for row in &report.rows[..n] {
        assert_eq!(row.waiter, "ResourceActive");
        if row.resource.starts_with("fail-") {
            let WaitOutcome::Failure(Some(message)) = &row.outcome else {
                panic!("{report}")
            };
            assert!(message.starts_with("provisioning failed"), "{message}");
        } else {
            assert_eq!(row.outcome, WaitOutcome::Success, "{report}");
        }
        assert!(row.polls >= 1);
    }
    assert_eq!(
        (report.rows[n].resource.as_str(), &report.rows[n].outcome),
        ("web-*", &WaitOutcome::Success)
    );
    assert!(
        matches!(report.rows[n + 1].outcome, WaitOutcome::Failure(Some(_))),
        "{report}"
    );
    for row in &report.rows[n + 2..] {
        assert_eq!(
            (row.waiter, &row.outcome),
            ("ResourceDeleted", &WaitOutcome::Success),
            "{report}"
        );
    }

    // One line per poll, and the table accounts for every throttling answer the service sent.
    let polls: u32 = report.rows.iter().map(|r| r.polls).sum();
    let poll_lines = lines
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.contains(" poll "))
        .count();
    assert_eq!(poll_lines as u32, polls);
    // The waiters have no throttling acceptors: throttled polls were retried inside the poll,
    // and the poll lines say so.
    assert!(
        lines
            .lock()
            .unwrap()
            .iter()
            .any(|l| l.contains(" attempts, ")),
        "no poll line reports retries inside it"
    );
    // The deletions are read as streams: each of their lines starts with the status in the
    // poll's response (`DELETING`), or `gone` for the last one (`NotFound`).
    let lines = lines.lock().unwrap();
    let deletion_polls: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("ResourceDeleted poll "))
        .collect();
    assert_eq!(
        deletion_polls.len() as u32,
        report.rows[n + 2..].iter().map(|r| r.polls).sum::<u32>()
    );
    assert!(
        deletion_polls
            .iter()
            .all(|l| l.contains(" DELETING  ResourceDeleted")
                || l.contains(" gone      ResourceDeleted")),
        "{deletion_polls:#?}"
    );
    let throttles: u32 = report.rows.iter().map(|r| r.throttles).sum();
    assert_eq!(u64::from(throttles), report.service.throttled, "{report}");
    let text = report.to_string();
    assert!(text.contains("resource") && text.contains("throttles") && text.contains("done in"));
}

/// The README's sample of the demo's output ("The demo's output ends like this") has the
/// shape of what `cargo run --example demo` prints (`DemoOptions::default()`, seconds): every
/// line of it, numbers, durations and resource names aside (a poll line's parenthesis,
/// retries and rate-limiter waits, aside too: `PollEvent`'s `Display` has its own tests), is
/// a line of a run's output or report.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_readmes_sample_of_the_demos_output_has_its_shape() {
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let sink = std::sync::Arc::clone(&lines);
    let report = demo::run(DemoOptions::default(), move |line| {
        sink.lock().unwrap().push(line.to_owned())
    })
    .await
    .unwrap();
    let lines = lines.lock().unwrap();
    let report = report.to_string();
    let readme = include_str!("../../../README.md");
    let start = readme
        .find("The demo's output ends like this")
        .expect("the README shows the demo's output");
    let block = &readme[start..];
    let block = &block[block.find("```text\n").expect("a text block") + 8..];
    let block = &block[..block.find("```").expect("the block ends")];
    let printed: Vec<String> = lines
        .iter()
        .map(String::as_str)
        .chain(report.lines())
        .map(shape)
        .collect();
    let mut checked = 0;
    for line in block
        .lines()
        .filter(|l| !l.trim().is_empty() && l.trim() != "...")
    {
        let expected = shape(line);
        assert!(
            printed.contains(&expected),
            "the README's demo line\n  {line}\nhas no line of that shape in the demo's output:\n{}",
            printed.join("\n")
        );
        checked += 1;
    }
    assert!(checked >= 10, "{block}");
}

/// A line with its numbers as `#`, its durations as `#t`, its resource numbers, the
/// parenthesis that closes a poll line and runs of spaces folded.
fn shape(line: &str) -> String {
    let line = match (line.contains(" poll "), line.rfind(" (")) {
        (true, Some(at)) if line.ends_with(')') => &line[..at],
        _ => line,
    };
    let mut line = line.to_owned();
    for (name, _) in RESOURCES {
        line = line.replace(name, "<resource>");
    }
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_ascii_digit() {
            out.push(c);
            continue;
        }
        while chars
            .peek()
            .is_some_and(|c| c.is_ascii_digit() || *c == '.')
        {
            chars.next();
        }
        let rest: String = chars.clone().take(3).collect();
        let unit = ["ms", "µs", "ns", "s"].into_iter().find(|unit| {
            rest.starts_with(unit)
                && !rest[unit.len()..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphabetic)
        });
        match unit {
            Some(unit) => {
                for _ in 0..unit.chars().count() {
                    chars.next();
                }
                out.push_str("#t");
            }
            None => out.push('#'),
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}
