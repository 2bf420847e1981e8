//! Searchable views over several values at once: `{"input": .., "output": ..}` and named fields.

use super::node::{Node, Object};
use super::searchable::{SearchObject, Searchable};

/// The object `{"input": input, "output": output}` that `inputOutput` matchers search.
///
/// ```
/// use serde_json::json;
/// use waiter_runtime::jmespath;
/// use waiter_runtime::jmespath::InputOutput;
///
/// let input = json!({"groups": ["a", "b"]});
/// let output = json!({"groups": [{"id": "a"}, {"id": "b"}]});
/// let both = InputOutput::new(&input, &output);
/// let same = jmespath!("length(input.groups) == length(output.groups)").search(&both).unwrap();
/// assert_eq!(same, json!(true));
/// ```
#[derive(Clone, Copy)]
pub struct InputOutput<'a> {
    /// The operation's input.
    pub input: &'a dyn Searchable,
    /// The operation's output.
    pub output: &'a dyn Searchable,
}

impl<'a> InputOutput<'a> {
    /// Pairs an input and an output.
    pub fn new(input: &'a dyn Searchable, output: &'a dyn Searchable) -> Self {
        InputOutput { input, output }
    }
}

impl Searchable for InputOutput<'_> {
    fn node(&self) -> Node<'_> {
        Node::Object(Object::View(self))
    }
}

impl SearchObject for InputOutput<'_> {
    fn field(&self, name: &str) -> Option<Node<'_>> {
        match name {
            "input" => Some(self.input.node()),
            "output" => Some(self.output.node()),
            _ => None,
        }
    }
    fn len(&self) -> usize {
        2
    }
    fn for_each_entry<'s>(&'s self, f: &mut dyn FnMut(&'s str, Node<'s>)) {
        f("input", self.input.node());
        f("output", self.output.node());
    }
}

/// An object whose members are borrowed values, such as the parameters of an operation.
///
/// ```
/// use serde_json::json;
/// use waiter_runtime::jmespath;
/// use waiter_runtime::jmespath::Fields;
///
/// let (name, count) = ("orders".to_string(), 3u32);
/// let params = Fields(&[("TableName", &name), ("Count", &count)]);
/// assert_eq!(jmespath!("TableName").search(&params).unwrap(), json!("orders"));
/// assert_eq!(jmespath!("keys(@)").search(&params).unwrap(), json!(["TableName", "Count"]));
/// ```
#[derive(Clone, Copy)]
pub struct Fields<'a>(pub &'a [(&'static str, &'a dyn Searchable)]);

impl Searchable for Fields<'_> {
    fn node(&self) -> Node<'_> {
        Node::Object(Object::View(self))
    }
}

impl SearchObject for Fields<'_> {
    fn field(&self, name: &str) -> Option<Node<'_>> {
        self.0
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.node())
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn for_each_entry<'s>(&'s self, f: &mut dyn FnMut(&'s str, Node<'s>)) {
        for (k, v) in self.0 {
            f(k, v.node());
        }
    }
}
