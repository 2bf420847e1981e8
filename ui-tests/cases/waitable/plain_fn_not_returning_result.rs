// `#[waitable]` goes on a plain `fn` as on an `async fn` (a blocking waiter), but the
// operation must still return `Result<O, E>`: acceptors match on its output and its error.
use waiter_runtime::waitable;

pub struct Client;

impl Client {
    #[waitable(BucketExists: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    fn head_bucket(&self, bucket: &str) -> bool {
        let _ = bucket;
        true
    }
}

fn main() {}
