//! One mistake, one error: what trybuild's `.stderr` files cannot show, since rustc's rendered
//! output hides repeated diagnostics but counts them ("could not compile .. due to 18 previous
//! errors"), and a JSON consumer (an IDE, `cargo build --message-format=json`) sees every one.
//!
//! Each case is a crate written at test time outside the workspace, depending on the workspace's
//! `waiter-runtime` by path, built with `cargo check --message-format=json` into trybuild's
//! target directory (so the dependencies trybuild built are reused), and its diagnostics with a
//! span are counted by level. The cases are the trybuild cases of the same mistakes.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `(errors, warnings)` of `main.rs` built as a binary crate.
fn diagnostics(name: &str, main: &str) -> (usize, usize) {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = manifest.parent().expect("ui-tests is in the workspace");
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let dir = tmp.join("error-counts").join(name);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let runtime = workspace.join("waiter-runtime");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"error-count-{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
             publish = false\n\n[dependencies]\nwaiter-runtime = {{ path = {runtime:?} }}\n\
             tokio = {{ version = \"1\", features = [\"full\"] }}\n\n[workspace]\n",
        ),
    )
    .unwrap();
    std::fs::copy(workspace.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join("src/main.rs"), main).unwrap();
    // What the cases `include!`.
    std::fs::create_dir_all(dir.join("src/shared")).unwrap();
    for file in std::fs::read_dir(manifest.join("cases/waitable/shared")).unwrap() {
        let file = file.unwrap().path();
        std::fs::copy(
            &file,
            dir.join("src/shared").join(file.file_name().unwrap()),
        )
        .unwrap();
    }
    let target = tmp
        .parent()
        .expect("the target directory")
        .join("tests/trybuild");
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["check", "--quiet", "--message-format=json"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("compiler-message") || out.status.success(),
        "cargo check failed without diagnostics: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (mut errors, mut warnings) = (0, 0);
    for line in stdout.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if v["reason"] != "compiler-message" || v["target"]["name"] != format!("error-count-{name}")
        {
            continue;
        }
        let message = &v["message"];
        if message["spans"].as_array().is_none_or(|s| s.is_empty()) {
            continue; // "aborting due to ..", counts
        }
        match message["level"].as_str() {
            Some("error") => errors += 1,
            Some("warning") => warnings += 1,
            _ => {}
        }
    }
    (errors, warnings)
}

/// A ui case's source.
fn case(path: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("cases")
            .join(path),
    )
    .expect("the case exists")
}

#[test]
fn a_member_that_is_not_searchable_is_one_error() {
    // One per member, at its type; it was 8 per member of a struct (one per use the derive
    // makes of it), 16 for these two.
    let main = case("jmespath/derive_member_not_searchable.rs");
    assert_eq!(diagnostics("member-not-searchable", &main), (2, 0));
}

#[test]
fn codes_hidden_by_a_transparent_variant_warn_once_per_waitable() {
    // Three `errorType`s in two waiters, one warning (made an error by the case's `deny`).
    let main = case("waitable/error_type_behind_transparent_unknown.rs");
    assert_eq!(diagnostics("transparent-warns-once", &main), (1, 0));
}

#[test]
fn a_waiter_repeated_on_one_type_is_one_error() {
    // The same pasted waiter on an async and a blocking method of one type: one error at the
    // second `#[waitable]` (rustc gave three, one naming a const the user never wrote). Needs
    // Rust 1.88's span locations, which the toolchain here has.
    let main = case("waitable/same_waiter_blocking_and_async.rs");
    assert_eq!(diagnostics("same-waiter-one-type", &main), (1, 0));
}
