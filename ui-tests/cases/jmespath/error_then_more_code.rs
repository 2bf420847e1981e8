// A bad expression is one error: the code after it is not reported unreachable, and the value
// the macro stands for is still an `Expression` (no follow-on type error where it is used).
fn main() {
    let path = waiter_runtime::jmespath!("a == `{\"x\": 1,}`");
    let data = serde_json::json!({"a": 1});
    println!("{}", path.search(&data).is_ok());
}
