// Recursive and mutually recursive types are checked at every level a path reads.
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

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct Rule {
    pub name: String,
    pub group: Option<Box<Group>>,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct Group {
    pub rules: Vec<Rule>,
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

    #[waitable(RuleSettled: { acceptors: [
        { state: "success", matcher: { output: { path: "Group.Rules[0].Group.Rules[0].Group.Rules[0].Nmae", expected: "x", comparator: "stringEquals" } } }
    ] })]
    pub async fn get_rule(&self, id: String) -> Result<Rule, Error> {
        let _ = id;
        Err(Error::NotFound)
    }
}

fn main() {}
