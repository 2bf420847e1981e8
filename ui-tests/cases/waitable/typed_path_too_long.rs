// A typed path reads at most 48 members one below the other (each is a level of the
// compile-time description; near 62, rustc's query depth limit overflows with no span):
// past that, an error at the path that says what to do (in a waiter: stop the check above the
// deep part, not `jmespath!` without its type, which is no help there).
use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    NotFound,
}

#[derive(Debug, Searchable)]
pub struct Tree {
    pub name: String,
    pub child: Option<Box<Tree>>,
}

pub struct Client;

impl Client {
    #[waitable(Deep: { acceptors: [{ state: "success", matcher: { output: { path: "child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.child.name", expected: "x", comparator: "stringEquals" } } }] })]
    pub async fn get(&self) -> Result<Tree, Error> {
        Err(Error::NotFound)
    }
}

fn main() {}
