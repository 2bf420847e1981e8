// A blocking waiter (the operation is a plain `fn`) awaited: one error saying to call
// `.wait(max_wait)` without `.await` (rustc's "remove the `.await`" agrees), naming the public
// `waiter_runtime::blocking::Waiter`, and the code after the `.await` reports nothing more.
use waiter_runtime::{ProvideErrorMetadata, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    NotFound,
}

pub struct Client;

impl Client {
    #[waitable(StreamExists: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    pub fn describe_stream(&self, name: &str) -> Result<(), Error> {
        let _ = name;
        Ok(())
    }
}

pub async fn caller() {
    let done = Client.wait_until_stream_exists("orders").await.unwrap();
    let _: u32 = done.polls;
}

fn main() {}
