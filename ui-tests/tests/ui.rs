//! Every compile-time rule has one case in `cases/`, with the expected diagnostics committed
//! beside it: `cases/waitable/` for `#[waitable]` (`cases/model_files/` for its model files),
//! `cases/jmespath/` for `jmespath!` and
//! `#[derive(Searchable)]`, `cases/error_metadata/` for `#[derive(ProvideErrorMetadata)]`.
//!
//! The cases build against `waiter-runtime` with its default features whatever features the
//! workspace is tested with, so the expected output does not depend on the command line.
//! Regenerate with `TRYBUILD=overwrite cargo test -p waiter-ui-tests`.

#[test]
fn waitable() {
    trybuild::TestCases::new().compile_fail("cases/waitable/*.rs");
}

#[test]
fn jmespath() {
    trybuild::TestCases::new().compile_fail("cases/jmespath/*.rs");
}

/// `#[waitable(botocore = "..")]` and `smithy = ".."`: paths are relative to the crate's
/// manifest directory, which for a trybuild case is trybuild's project directory
/// (`<target>/tests/trybuild/waiter-ui-tests/`), not this crate's: the fixture models of
/// `models/` are copied there first. The missing file's message shows the absolute path it
/// tried, under the target directory (trybuild writes the workspace as `$WORKSPACE`): a target
/// directory outside the workspace changes that one line.
#[test]
fn model_files() {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory");
    let project = target.join("tests/trybuild/waiter-ui-tests/models");
    std::fs::create_dir_all(&project).unwrap();
    for file in std::fs::read_dir(manifest.join("models")).unwrap() {
        let file = file.unwrap().path();
        std::fs::copy(&file, project.join(file.file_name().unwrap())).unwrap();
    }
    trybuild::TestCases::new().compile_fail("cases/model_files/*.rs");
}

#[test]
fn error_metadata() {
    trybuild::TestCases::new().compile_fail("cases/error_metadata/*.rs");
}
