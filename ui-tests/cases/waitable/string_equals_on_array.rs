// `stringEquals` on a list: the error says which comparators compare lists.
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
    #[waitable(ThingExists: { acceptors: [{ state: "success", matcher: { output: { path: "items[]", expected: "x", comparator: "stringEquals" } } }] })]
    async fn get_thing(&self, name: &str) -> Result<Output, NotFound> {
        let _ = name;
        Err(NotFound)
    }
}

fn main() {}
