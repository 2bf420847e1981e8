//! Compile errors of `jmespath!` and `#[derive(Searchable)]`: spans and messages.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/jmespath_ui/*.rs");
}
