// A trait value nested deeper than 128 levels is one error at the bracket past the limit (the
// parser's recursion is bounded: 10,000 levels give the same error, no stack overflow).
use waiter_runtime::{ProvideErrorMetadata, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    NotFound,
}

pub struct Client;

impl Client {
    #[waitable(Deep: { documentation: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]], acceptors: [{ state: "success", matcher: { success: true } }] })]
    pub async fn get(&self) -> Result<(), Error> {
        Err(Error::NotFound)
    }
}

fn main() {}
