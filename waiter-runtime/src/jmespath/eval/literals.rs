//! Literals: strings, numbers, and large JSON literals parsed once.

use std::borrow::Cow;

use serde_json::Number;

use crate::jmespath::view::{Node, Searchable};

/// Where a large literal is kept once parsed (a `static` in the expansion).
pub type LiteralCell = std::sync::OnceLock<serde_json::Value>;

/// A large JSON literal (arrays and objects of many values, integers only), parsed from its
/// text on first use and borrowed from then on: one string in the binary instead of code per
/// value, which compiled in superlinear time. The text is what the macro wrote from the
/// literal it read, so it parses.
pub fn literal_json(cell: &'static LiteralCell, json: &'static str) -> Node<'static> {
    cell.get_or_init(|| serde_json::from_str(json).unwrap_or(serde_json::Value::Null))
        .node()
}

pub fn string(s: &'static str) -> Node<'static> {
    Node::String(Cow::Borrowed(s))
}

pub fn number_i64(n: i64) -> Node<'static> {
    Node::Number(Number::from(n))
}

pub fn number_u64(n: u64) -> Node<'static> {
    Node::Number(Number::from(n))
}

pub fn number_f64(n: f64) -> Node<'static> {
    Number::from_f64(n).map_or(Node::Null, Node::Number)
}
