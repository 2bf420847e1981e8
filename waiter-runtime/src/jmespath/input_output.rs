//! Searchable views over several values at once: `{"input": .., "output": ..}` and named fields.

use std::borrow::Cow;

use super::view::{Node, Object, Searchable};

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

/// The object `{"input": .., "output": ..}`, built per search (two members; the values are
/// views), so that the parameters need not be `Sync`.
impl Searchable for InputOutput<'_> {
    fn node(&self) -> Node<'_> {
        Node::Object(Object::Owned(vec![
            (Cow::Borrowed("input"), self.input.node()),
            (Cow::Borrowed("output"), self.output.node()),
        ]))
    }
    fn follow(&self, path: &[&str]) -> Node<'_> {
        match path.split_first() {
            None => self.node(),
            Some((&"input", rest)) => self.input.follow(rest),
            Some((&"output", rest)) => self.output.follow(rest),
            Some(_) => Node::Null,
        }
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

/// The object of the named values, built per search (the values are views), so that they
/// need not be `Sync`.
impl Searchable for Fields<'_> {
    fn node(&self) -> Node<'_> {
        Node::Object(Object::Owned(
            self.0
                .iter()
                .map(|(k, v)| (Cow::Borrowed(*k), v.node()))
                .collect(),
        ))
    }
    fn follow(&self, path: &[&str]) -> Node<'_> {
        match path.split_first() {
            None => self.node(),
            Some((first, rest)) => match self.0.iter().find(|(k, _)| k == first) {
                Some((_, v)) => v.follow(rest),
                None => Node::Null,
            },
        }
    }
}
