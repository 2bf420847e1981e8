//! A set taken up across two OS processes (issue 37): the first process waits for six
//! resources of the example service with a checkpointed `WaitAll` and is killed (`SIGKILL`)
//! mid-way; a second one takes the set up from the checkpoint file. Members that had finished
//! are not polled again; the others go on from their own checkpoints, under the first
//! process's deadline. Resumed with the resources in another order, it is refused.

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use waiter_runtime::waiter::{MemberCheckpoint, WaitAllCheckpoint};
use waiter_tests::service::{RunningService, Settle};

/// The child program (`tests/src/bin/checkpointed_set.rs`), built by cargo for this test.
const CHILD: &str = env!("CARGO_BIN_EXE_checkpointed_set");

fn child(service: &RunningService, file: &Path, mode: &str, names: &[&str]) -> Command {
    let mut command = Command::new(CHILD);
    command
        .arg(service.url())
        .arg(file)
        .arg(mode)
        .args(names)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// GET requests per resource, from the service's own log.
fn reads(service: &RunningService) -> HashMap<String, usize> {
    let mut reads = HashMap::new();
    for record in service.request_log() {
        let name = record.path.strip_prefix("/resources/");
        if let (true, Some(name)) = (record.method == "GET", name) {
            *reads.entry(name.to_owned()).or_default() += 1;
        }
    }
    reads
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_set_resumes_whole_in_another_process() {
    let (service, client) = crate::common::service_and_client(37, Settle::Manual).await;
    let names = ["cp-0", "cp-1", "cp-2", "cp-3", "cp-4", "cp-5"];
    for name in names {
        client.create_resource(name, &[]).await.unwrap();
    }
    // Three are ready at once; three are not before the first process dies.
    for name in &names[..3] {
        assert!(service.settle(name));
    }
    let file = std::env::temp_dir().join(format!("waiter-set-{}.json", std::process::id()));
    let _ = std::fs::remove_file(&file);

    let mut first = child(&service, &file, "first", &names).spawn().unwrap();
    let started = Instant::now();
    let saved = loop {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no checkpoint came"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let checkpoint = WaitAllCheckpoint::from_json(&text).unwrap();
        let polled_enough = checkpoint.members[3..]
            .iter()
            .all(|m| matches!(m, MemberCheckpoint::Waiting(c) if c.polls >= 3));
        if polled_enough {
            break checkpoint;
        }
    };
    first.kill().unwrap();
    let _ = first.wait();
    // Read again: the last whole checkpoint the first process wrote before it died.
    let saved =
        WaitAllCheckpoint::from_json(&std::fs::read_to_string(&file).unwrap()).unwrap_or(saved);
    for member in &saved.members[..3] {
        assert!(
            matches!(member, MemberCheckpoint::Finished(_)),
            "{member:?}"
        );
    }
    let polls_before: Vec<u32> = saved.members[3..]
        .iter()
        .map(|m| match m {
            MemberCheckpoint::Waiting(c) => c.polls,
            other => panic!("{other:?}"),
        })
        .collect();
    let reads_before = reads(&service);

    // Another process, the resources in another order: refused, nothing polled.
    let mut reordered = names;
    reordered.swap(3, 4);
    let refused = child(&service, &file, "resume", &reordered)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("set member 3: cannot resume waiter `ResourceActive`: the checkpoint waits on another input"),
        "{stderr}"
    );
    assert_eq!(reads(&service), reads_before);

    // The resources become ready; the second process takes the set up.
    for name in &names[3..] {
        assert!(service.settle(name));
    }
    let resumed = child(&service, &file, "resume", &names).output().unwrap();
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert!(
        resumed.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let lines: Vec<Vec<&str>> = stdout.lines().map(|l| l.split(' ').collect()).collect();
    assert_eq!(lines.len(), 6, "{stdout}");
    for line in &lines[..3] {
        assert_eq!(&line[1..3], ["earlier", "success"], "{stdout}");
    }
    let after = reads(&service);
    for (i, line) in lines[3..].iter().enumerate() {
        assert_eq!(&line[1..3], ["waited", "success"], "{stdout}");
        // The polls count on from the first process's, and the time from its start.
        let polls: u32 = line[3].parse().unwrap();
        assert_eq!(polls, polls_before[i] + 1, "{stdout}");
        let elapsed = Duration::from_millis(line[4].parse().unwrap());
        let MemberCheckpoint::Waiting(own) = &saved.members[3 + i] else {
            unreachable!()
        };
        assert!(elapsed >= own.elapsed, "{elapsed:?} {own:?}");
    }
    // The members that had finished were not polled again; the others once each.
    for (i, name) in names.iter().enumerate() {
        let more = after[*name] - reads_before[*name];
        assert_eq!(more, usize::from(i >= 3), "{name}: {more} more reads");
    }
    let _ = std::fs::remove_file(&file);
}
