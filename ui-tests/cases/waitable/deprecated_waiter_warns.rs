// `deprecated: true` puts `#[deprecated]` on the waiter function; `deny` makes the use an
// error here so that the case records it.
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
    #[waitable(OldWaiter: { deprecated: true, acceptors: [{ state: "success", matcher: { success: true } }] })]
    async fn head_bucket(&self, bucket: &str) -> Result<(), NotFound> {
        let _ = bucket;
        Ok(())
    }
}

fn main() {
    let _ = Client.wait_until_old_waiter("b");
}
