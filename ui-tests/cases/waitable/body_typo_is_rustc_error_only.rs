// A typo in the operation's body is rustc's error alone: the attribute never parses the body,
// and the waiter function still exists for its callers.
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
    #[waitable(ThingExists: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    async fn get_thing(&self, name: &str) -> Result<Output, NotFound> {
        let _ = nmae;
        Err(NotFound)
    }
}

async fn caller(client: &Client) {
    let _ = client.wait_until_thing_exists("a").wait(std::time::Duration::from_secs(1)).await;
}

fn main() {
    let _ = caller;
}
