// A recursive type is checked at every level a path reads.
use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    NotFound,
}

#[derive(Debug, Searchable)]
pub struct Tree {
    pub name: String,
    pub children: Vec<Tree>,
}

pub struct Client;

impl Client {
    #[waitable(TreeGrown: { acceptors: [
        { state: "success", matcher: { output: { path: "children[].children[].children[].nmae", expected: "leaf", comparator: "anyStringEquals" } } }
    ] })]
    pub async fn get_tree(&self, id: String) -> Result<Tree, Error> {
        let _ = id;
        Err(Error::NotFound)
    }
}

fn main() {}
