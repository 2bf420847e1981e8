// An `errorType` matcher on an operation whose error is a `String`: the advice is to return an
// error type of your own, not to derive on `String`.
use waiter_runtime::waitable;

pub struct Client;

impl Client {
    #[waitable(BucketExists: { acceptors: [{ state: "success", matcher: { success: true } }, { state: "retry", matcher: { errorType: "NotFound" } }] })]
    async fn head_bucket(&self, bucket: &str) -> Result<(), String> {
        let _ = bucket;
        Ok(())
    }
}

fn main() {}
