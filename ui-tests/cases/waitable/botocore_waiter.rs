// A waiter copied from botocore's `waiters-2.json` is recognised: one error saying what it is
// and what to paste instead.
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
    #[waitable("ThingExists": {
        "delay": 15,
        "operation": "GetThing",
        "maxAttempts": 40,
        "acceptors": [
            { "expected": "ok", "matcher": "path", "state": "success", "argument": "status" }
        ]
    })]
    async fn get_thing(&self, name: &str) -> Result<Output, NotFound> {
        let _ = name;
        Err(NotFound)
    }
}

fn main() {}
