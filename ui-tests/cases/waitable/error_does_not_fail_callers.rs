// One mistake in the attribute is one error: the waiter function still exists with its
// signature, so the code calling it reports nothing more.
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
    #[waitable(ThingExists: { acceptors: [{ state: "sucess", matcher: { success: true } }] })]
    async fn get_thing(&self, name: &str) -> Result<Output, NotFound> {
        let _ = name;
        Err(NotFound)
    }
}

async fn caller(client: &Client) -> Option<String> {
    let done = client
        .wait_until_thing_exists("a")
        .wait(std::time::Duration::from_secs(10))
        .await
        .ok()?;
    done.output().map(|o| o.status.clone())
}

fn main() {
    let _ = caller;
}
