//! Compile errors of `#[derive(ProvideErrorMetadata)]`: one case per family of mistakes, each
//! reporting all its errors at the offending tokens. Run with `TRYBUILD=overwrite` to refresh.

#[test]
fn derive_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/retry_ui/*.rs");
    // rustc lists the types implementing the field traits, and the `http` feature adds some.
    if cfg!(feature = "http") {
        t.compile_fail("tests/retry_ui/with_http/*.rs");
    } else {
        t.compile_fail("tests/retry_ui/without_http/*.rs");
    }
}
