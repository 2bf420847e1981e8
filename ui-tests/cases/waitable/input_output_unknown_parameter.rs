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
}

pub struct Client;

impl Client {
    #[waitable(ThingExists: { acceptors: [{ state: "success", matcher: { inputOutput: { path: "input.nope", expected: "x", comparator: "stringEquals" } } }] })]
    async fn get_thing(&self, name: &str, version: u32) -> Result<Output, NotFound> {
        let _ = (name, version);
        Err(NotFound)
    }
}

fn main() {}
