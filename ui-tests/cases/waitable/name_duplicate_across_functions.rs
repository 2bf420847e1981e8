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
    #[waitable(BucketExists: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    pub async fn head_bucket(&self, bucket: &str) -> Result<(), NotFound> {
        let _ = bucket;
        Ok(())
    }

    #[waitable(BUCKETEXISTS: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    pub async fn get_bucket(&self, bucket: &str) -> Result<(), NotFound> {
        let _ = bucket;
        Ok(())
    }
}

fn main() {}
