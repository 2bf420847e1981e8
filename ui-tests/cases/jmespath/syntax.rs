fn main() {
    let _ = waiter_runtime::jmespath!("Reservations[].Instances[.State");
}
