// An unknown member key is a warning, as in Smithy; `deny` turns it into an error here so
// that the case fails and its diagnostic is recorded.
#![deny(deprecated)]

use waiter_runtime::waitable;

#[derive(Debug)]
pub struct NotFound;

impl waiter_runtime::ProvideErrorMetadata for NotFound {
    fn code(&self) -> Option<&str> {
        Some("NotFound")
    }
}

pub struct Client;

impl Client {
    #[waitable(ThingExists: { description: "Waits until a thing has been created", acceptors: [{ state: "success", matcher: { success: true }, reason: "x" }] })]
    async fn head_bucket(&self, bucket: &str) -> Result<(), NotFound> {
        let _ = bucket;
        Ok(())
    }
}

fn main() {}
