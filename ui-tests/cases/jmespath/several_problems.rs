fn main() {
    // Every problem is reported in one pass, each pointing at the literal.
    let _ = waiter_runtime::jmespath!("lenght(Items) > `0` || abs('x') || sort_by(Items, Name)");
}
