use waiter_runtime::waitable;

#[derive(Debug)]
pub struct PlainError;

pub struct Client;

impl Client {
    #[waitable(BucketExists: { acceptors: [{ state: "success", matcher: { success: true } }, { state: "retry", matcher: { errorType: "NotFound" } }] })]
    async fn head_bucket(&self, bucket: &str) -> Result<(), PlainError> {
        let _ = bucket;
        Ok(())
    }
}

fn main() {}
