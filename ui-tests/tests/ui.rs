//! Every compile-time rule of `#[waitable]` has one case in `cases/`, with the expected
//! diagnostics committed beside it. Regenerate with `TRYBUILD=overwrite cargo test -p waiter-ui-tests`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("cases/*.rs");
}
