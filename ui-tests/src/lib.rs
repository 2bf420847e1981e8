//! trybuild compile-fail cases live in `cases/`; `tests/ui.rs` runs them.
