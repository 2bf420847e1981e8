use waiter_runtime::waitable;

#[waitable(BucketExists: { acceptors: [{ state: "success", matcher: { success: true } }] })]
pub struct Client;

fn main() {}
