//! `#[waitable(botocore = "..")]` reads a model file at build time: editing the file rebuilds
//! the crate (the expansion includes the file with `include_bytes!`, so the compiler's dep-info
//! names it and Cargo sees it change).
//!
//! A crate written at test time outside the workspace, depending on the workspace's
//! `waiter-runtime` by path, is run, its model file edited, and run again: the second run must
//! see the edit. It builds into trybuild's target directory, as `error_counts.rs` does, so that
//! the dependencies are built once.

use std::path::{Path, PathBuf};
use std::process::Command;

const MAIN: &str = r#"
use waiter_runtime::{ProvideErrorMetadata, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    NotFound,
}

#[waitable(botocore = "models/waiters-2.json")]
pub fn get_thing(name: &str) -> Result<(), Error> {
    let _ = name;
    Ok(())
}

fn main() {
    println!("min_delay {}", GET_THING_WAITER_DELAY.as_secs());
}

const GET_THING_WAITER_DELAY: std::time::Duration = THING_EXISTS_WAITER.min_delay;
"#;

fn model(delay: u32) -> String {
    format!(
        r#"{{"version": 2, "waiters": {{"ThingExists": {{"operation": "GetThing", "delay": {delay},
        "maxAttempts": 10, "acceptors": [{{"matcher": "status", "expected": 200, "state": "success"}}]}}}}}}"#
    )
}

fn run(dir: &Path) -> String {
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory")
        .join("tests/trybuild");
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["run", "--quiet"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "the crate builds and runs: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

#[test]
fn editing_the_model_file_rebuilds_the_crate() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = manifest.parent().expect("ui-tests is in the workspace");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("model-file-rebuild");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("models")).unwrap();
    let runtime = workspace.join("waiter-runtime");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"model-file-rebuild\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
             publish = false\n\n[dependencies]\nwaiter-runtime = {{ path = {runtime:?} }}\n\n\
             [workspace]\n",
        ),
    )
    .unwrap();
    std::fs::copy(workspace.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join("src/main.rs"), MAIN).unwrap();
    std::fs::write(dir.join("models/waiters-2.json"), model(5)).unwrap();
    assert_eq!(run(&dir), "min_delay 5");
    // The same length, another content: only the file's modification time and bytes differ.
    std::fs::write(dir.join("models/waiters-2.json"), model(7)).unwrap();
    assert_eq!(run(&dir), "min_delay 7");
}
