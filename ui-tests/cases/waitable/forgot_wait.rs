// Awaiting the waiter without `.wait(max_wait)`: rustc says a `Waiter` is not a future and
// suggests removing the `.await` (the README warns about this suggestion: call `.wait(..)`).
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
    let _ = wait_until_thing_exists("a".into()).await;
}

fn main() {}
