use waiter_runtime::waitable;

#[derive(Debug)]
pub struct NotFound;

impl waiter_runtime::ProvideErrorMetadata for NotFound {
    fn code(&self) -> Option<&str> {
        Some("NotFound")
    }
}

#[derive(Debug, waiter_runtime::Searchable)]
pub struct Bucket {
    pub a: bool,
}

pub struct Client;

impl Client {
    #[waitable(BucketExists: { acceptors: [{ state: "success", matcher: { output: { path: "a", expected: "yes", comparator: "booleanEquals" } } }] })]
    async fn head_bucket(&self, bucket: &str) -> Result<Bucket, NotFound> {
        let _ = bucket;
        Ok(Bucket { a: true })
    }
}

fn main() {}
