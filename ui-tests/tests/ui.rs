//! Every compile-time rule has one case in `cases/`, with the expected diagnostics committed
//! beside it: `cases/waitable/` for `#[waitable]`, `cases/jmespath/` for `jmespath!` and
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

#[test]
fn error_metadata() {
    trybuild::TestCases::new().compile_fail("cases/error_metadata/*.rs");
}
