// One typo in a `#[derive(Searchable)]` attribute is one error: the derive still implements
// `Searchable`, so the waiter searching the type and `jmespath!` searching it report nothing.
use waiter_runtime::{ProvideErrorMetadata, Searchable, jmespath, waitable};

#[derive(Debug, Searchable)]
#[searchable(rename_al = "PascalCase")]
pub struct Output {
    pub status: String,
}

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    #[error_metadata(cod = "Gone")]
    NotFound,
}

#[waitable(ThingExists: { acceptors: [
    { state: "success", matcher: { output: { path: "status", expected: "ok", comparator: "stringEquals" } } }
    { state: "retry", matcher: { errorType: "NotFound" } }
] })]
pub async fn get_thing(name: String) -> Result<Output, Error> {
    Ok(Output { status: name })
}

fn main() {
    let out = Output { status: "ok".into() };
    let _ = jmespath!("status").search(&out);
}
