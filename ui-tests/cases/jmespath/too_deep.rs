// An expression nested deeper than 128 levels (here 130 parentheses) is one error, at the
// token past the limit, saying what to do; `waiter-macros`' unit tests cover every kind of
// nesting, and `tests/large_inputs.rs` that what the limit accepts compiles.
fn main() {
    let _ = waiter_runtime::jmespath!("((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((a))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))");
}
