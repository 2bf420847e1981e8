// Awaiting a `WaitAll` without `.wait(max_wait)`: one error saying to write
// `.wait(Duration::from_secs(600)).await`, as for a lone waiter (rustc still adds its own
// "remove the `.await`", which the note contradicts: see `waiter/forgot_wait.rs`), and the
// code after the `.await` reports nothing more.
use waiter_runtime::{ProvideErrorMetadata, WaitAll, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    NotFound,
}

#[waitable(InstanceRunning: { acceptors: [{ state: "success", matcher: { success: true } }] })]
pub async fn describe_instance(id: String) -> Result<(), Error> {
    let _ = id;
    Ok(())
}

pub async fn caller() {
    let ids = ["i-1", "i-2"];
    let results = WaitAll::new(ids.iter().map(|id| wait_until_instance_running(id.to_string()))).await;
    let _: usize = results.len();
}

fn main() {}
