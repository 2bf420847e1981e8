//! `jmespath!` and `#[derive(Searchable)]`: the language, the compile-time checks, the data
//! model over Rust types, deep data, and differential tests against the `jmespath` crate.

mod compiling;
mod deep_and_large_data;
mod deep_serde;
mod derive;
mod derived_walks;
mod differential;
mod member_projections;
mod no_abort;
mod projection_plans;
mod random;
mod search;
mod send;
mod static_checks;

/// Where the property tests keep their regressions: beside their source file
/// (`random.rs` → `random.proptest-regressions`). proptest's default looks for the nearest
/// `main.rs` and would put them in `tests/proptest-regressions/`, away from their tests.
fn beside_the_source() -> Option<Box<dyn proptest::test_runner::FailurePersistence>> {
    Some(Box::new(
        proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
    ))
}
