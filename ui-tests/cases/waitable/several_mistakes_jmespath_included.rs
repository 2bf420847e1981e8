// Several mistakes in one attribute, two of them in JMESPath paths: every error in one pass.
use waiter_runtime::waitable;

#[derive(Debug)]
pub struct NotFound;

impl waiter_runtime::ProvideErrorMetadata for NotFound {
    fn code(&self) -> Option<&str> {
        Some("NotFound")
    }
}

#[derive(Debug, waiter_runtime::Searchable)]
pub struct Output {
    pub status: String,
    pub items: Vec<String>,
    pub ready: bool,
}

pub struct Client;

impl Client {
    #[waitable(thingExists: { acceptors: [
        { state: "success", matcher: { output: { path: "lenght(items) > `0`", expected: "true", comparator: "booleanEquals" } } }
        { state: "failure", matcher: { output: { path: "status", expected: "x", comparator: "booleanEquals" } } }
        { state: "retry", matcher: { output: { path: "items[", expected: "x", comparator: "stringEquals" } } }
    ], minDelay: 0 })]
    async fn get_thing(&self, name: &str) -> Result<Output, NotFound> {
        let _ = name;
        Err(NotFound)
    }
}

fn main() {}
