// An `inputOutput` path reads a parameter whose type is not `Searchable`: one error, at the
// path, saying to derive it.
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

#[derive(Clone)]
pub struct Request {
    pub name: String,
}

impl Client {
    #[waitable(ThingExists: { acceptors: [{ state: "success", matcher: { inputOutput: { path: "input.name == output.status", expected: "true", comparator: "booleanEquals" } } }] })]
    async fn get_thing(&self, request: Request) -> Result<Output, NotFound> {
        let _ = request;
        Err(NotFound)
    }
}

fn main() {}
