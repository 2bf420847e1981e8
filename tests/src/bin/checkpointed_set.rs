//! One process of a deploy tool waiting for its resources with a checkpointed `WaitAll`, for
//! the end-to-end test that takes a set up across two OS processes
//! (`tests/tests/e2e/checkpoints.rs`).
//!
//! ```text
//! checkpointed_set <service-url> <checkpoint-file> first  <name>...   # waits, saving its checkpoint after every change
//! checkpointed_set <service-url> <checkpoint-file> resume <name>...   # takes the set up from the file
//! ```
//!
//! `first` writes the set's checkpoint (JSON) to the file after every change of the set,
//! through a temporary file and a rename, so that a process killed at any moment leaves a
//! whole checkpoint. `resume` reads it, resumes the set with the same waiters and prints one
//! line per member: `<index> earlier <outcome> <polls>` or `<index> waited <outcome> <polls>
//! <elapsed-ms>`; a checkpoint it cannot take up is printed to stderr, exit code 2.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use waiter_runtime::WaitAll;
use waiter_runtime::waiter::{
    ResumedResult, WaitAllCheckpoint, WaitAllCheckpoints, WaitAllProgress,
};
use waiter_tests::client::ResourceClient;

const MAX_WAIT: Duration = Duration::from_secs(120);

/// Writes `json` to `path` whole: a temporary file, then a rename.
fn save(path: &Path, json: &str) {
    let temp = path.with_extension("tmp");
    if std::fs::write(&temp, json).is_ok() {
        let _ = std::fs::rename(&temp, path);
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [url, file, mode, names @ ..] = &args[..] else {
        eprintln!("usage: checkpointed_set <service-url> <checkpoint-file> first|resume <name>...");
        return ExitCode::from(64);
    };
    let file = PathBuf::from(file);
    let client = ResourceClient::new(url.clone());
    let waiters = || {
        names.iter().map(|name| {
            client
                .wait_until_resource_active(name)
                .min_delay(Duration::from_millis(20))
                .max_delay(Duration::from_millis(40))
        })
    };
    let checkpoints = WaitAllCheckpoints::new();
    let saving = checkpoints.clone();
    let set = WaitAll::new(waiters())
        .checkpoints(&checkpoints)
        .on_progress(move |_: &WaitAllProgress| {
            if let Some(checkpoint) = saving.checkpoint() {
                save(&file, &checkpoint.to_json());
            }
        });
    match mode.as_str() {
        "first" => {
            let results = set.wait(MAX_WAIT).await;
            println!("{} done", results.len());
            ExitCode::SUCCESS
        }
        "resume" => {
            let text = match std::fs::read_to_string(&args[1]) {
                Ok(text) => text,
                Err(error) => {
                    eprintln!("{error}");
                    return ExitCode::from(2);
                }
            };
            let resumed = WaitAllCheckpoint::from_json(&text).and_then(|c| set.resume(&c));
            let resumed = match resumed {
                Ok(resumed) => resumed,
                Err(error) => {
                    eprintln!("{error}");
                    return ExitCode::from(2);
                }
            };
            for (index, result) in resumed.wait().await.iter().enumerate() {
                match result {
                    ResumedResult::Earlier(outcome) => {
                        println!(
                            "{index} earlier {} {}",
                            outcome.ended.as_str(),
                            outcome.polls
                        )
                    }
                    ResumedResult::Waited(Ok(done)) => println!(
                        "{index} waited success {} {}",
                        done.polls,
                        done.elapsed.as_millis()
                    ),
                    ResumedResult::Waited(Err(error)) => {
                        println!(
                            "{index} waited failed {}",
                            error.to_string().replace('\n', " ")
                        )
                    }
                }
            }
            ExitCode::SUCCESS
        }
        other => {
            eprintln!("unknown mode {other}");
            ExitCode::from(64)
        }
    }
}
