// Awaiting the waiter without `.wait(max_wait)`: one error saying to write
// `.wait(Duration::from_secs(300)).await` (rustc still adds its own "remove the `.await`",
// which the note contradicts), and the code after the `.await` reports nothing more.
use waiter_runtime::{ProvideErrorMetadata, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    NotFound,
}

#[waitable(ThingExists: { acceptors: [{ state: "success", matcher: { success: true } }] })]
pub async fn get_thing(name: String) -> Result<(), Error> {
    let _ = name;
    Ok(())
}

pub async fn caller() {
    let done = wait_until_thing_exists("a".into()).await.unwrap();
    let _: u32 = done.polls;
}

fn main() {}
