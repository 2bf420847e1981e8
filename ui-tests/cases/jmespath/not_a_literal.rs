fn main() {
    let expr = "a.b";
    let _ = waiter_runtime::jmespath!(expr);
}
