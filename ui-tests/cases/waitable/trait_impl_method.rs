// #[waitable] on a method of a trait impl: the waiter function cannot be added to a trait impl,
// and is the only item a method without a visibility gets, so the mistake is one error.
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

pub trait Things {
    async fn get_thing(&self, name: &str) -> Result<Output, NotFound>;
}

impl Things for Client {
    #[waitable(ThingExists: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    async fn get_thing(&self, name: &str) -> Result<Output, NotFound> {
        let _ = name;
        Err(NotFound)
    }
}

fn main() {}
