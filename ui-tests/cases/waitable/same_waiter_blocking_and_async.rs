// The same pasted waiter on a blocking method and an async method of one type: both would
// generate `wait_until_stream_exists` and `STREAM_EXISTS_WAITER` in the same impl. One error,
// at the second `#[waitable]`, saying how to have both forms; the first keeps its waiter, so
// its callers compile.
use waiter_runtime::{ProvideErrorMetadata, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    NotFound,
}

pub struct Client;

impl Client {
    #[waitable(StreamExists: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    pub async fn describe_stream(&self, name: &str) -> Result<(), Error> {
        let _ = name;
        Ok(())
    }

    #[waitable(StreamExists: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    pub fn describe_stream_blocking(&self, name: &str) -> Result<(), Error> {
        let _ = name;
        Ok(())
    }
}

pub async fn caller() {
    let done = Client
        .wait_until_stream_exists("orders")
        .wait(std::time::Duration::from_secs(60))
        .await
        .unwrap();
    let _: u32 = done.polls;
}

fn main() {}
