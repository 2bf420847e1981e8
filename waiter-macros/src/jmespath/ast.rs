//! The syntax tree of a JMESPath expression, owned by the compiler.
//!
//! The shapes follow the `jmespath` crate's AST (which the parser produced until it was
//! dropped from the macro's dependencies), with indices and slice bounds as `i64` (the
//! runtime's `index`/`slice` take `i64`) and literal values as [`Literal`]. `offset` is the
//! position (in characters) in the expression, for messages.
//!
//! Dropping a tree is iterative ([`Drop`] below), so a long chain never recurses.

use std::collections::BTreeMap;

/// A JMESPath expression.
#[derive(Clone, PartialEq, Debug)]
pub(crate) enum Ast {
    /// `lhs <comparator> rhs`.
    Comparison {
        offset: usize,
        comparator: Comparator,
        lhs: Box<Ast>,
        rhs: Box<Ast>,
    },
    /// `then` when `predicate` is truthy, else null (the body of a filter).
    Condition {
        offset: usize,
        predicate: Box<Ast>,
        then: Box<Ast>,
    },
    /// `@`.
    Identity { offset: usize },
    /// `&ast`.
    Expref { offset: usize, ast: Box<Ast> },
    /// `node[]` (its left side).
    Flatten { offset: usize, node: Box<Ast> },
    /// `name(args...)`.
    Function {
        offset: usize,
        name: String,
        args: Vec<Ast>,
    },
    /// `name`.
    Field { offset: usize, name: String },
    /// `[idx]`.
    Index { offset: usize, idx: i64 },
    /// `` `json` `` or `'raw string'`.
    Literal { offset: usize, value: Literal },
    /// `[a, b, ...]`.
    MultiList { offset: usize, elements: Vec<Ast> },
    /// `{k: v, ...}`.
    MultiHash {
        offset: usize,
        elements: Vec<KeyValuePair>,
    },
    /// `!node`.
    Not { offset: usize, node: Box<Ast> },
    /// `rhs` applied to each element of `lhs`.
    Projection {
        offset: usize,
        lhs: Box<Ast>,
        rhs: Box<Ast>,
    },
    /// `node.*` (its left side).
    ObjectValues { offset: usize, node: Box<Ast> },
    /// `lhs && rhs`.
    And {
        offset: usize,
        lhs: Box<Ast>,
        rhs: Box<Ast>,
    },
    /// `lhs || rhs`.
    Or {
        offset: usize,
        lhs: Box<Ast>,
        rhs: Box<Ast>,
    },
    /// `[start:stop:step]`.
    Slice {
        offset: usize,
        start: Option<i64>,
        stop: Option<i64>,
        step: i64,
    },
    /// `lhs.rhs` or `lhs | rhs`.
    Subexpr {
        offset: usize,
        lhs: Box<Ast>,
        rhs: Box<Ast>,
    },
}

/// One `key: value` of a multi-select hash.
#[derive(Clone, PartialEq, Debug)]
pub(crate) struct KeyValuePair {
    pub key: String,
    pub value: Ast,
}

/// The operator of a [`Ast::Comparison`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Comparator {
    Equal,
    NotEqual,
    LessThan,
    LessThanEqual,
    GreaterThan,
    GreaterThanEqual,
}

/// A literal JSON value. Object members are sorted by key (the order the expansion builds them
/// in); a key written twice keeps its last value, as in JSON.
#[derive(Clone, PartialEq, Debug)]
pub(crate) enum Literal {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(String),
    Array(Vec<Literal>),
    Object(BTreeMap<String, Literal>),
}

impl Literal {
    pub(crate) fn as_array(&self) -> Option<&[Literal]> {
        match self {
            Literal::Array(items) => Some(items),
            _ => None,
        }
    }
}

impl From<serde_json::Value> for Literal {
    fn from(v: serde_json::Value) -> Literal {
        use serde_json::Value as V;
        // serde_json stops at 128 levels (its recursion limit), so this recursion is bounded.
        match v {
            V::Null => Literal::Null,
            V::Bool(b) => Literal::Bool(b),
            V::Number(n) => Literal::Number(n),
            V::String(s) => Literal::String(s),
            V::Array(items) => Literal::Array(items.into_iter().map(Literal::from).collect()),
            V::Object(members) => Literal::Object(
                members
                    .into_iter()
                    .map(|(k, v)| (k, Literal::from(v)))
                    .collect(),
            ),
        }
    }
}

impl Ast {
    /// The children of this node, moved out (leaves nothing to drop recursively).
    fn take_children(&mut self, out: &mut Vec<Ast>) {
        let leaf = || Ast::Identity { offset: 0 };
        let mut take = |b: &mut Box<Ast>| out.push(std::mem::replace(&mut **b, leaf()));
        match self {
            Ast::Comparison { lhs, rhs, .. }
            | Ast::Projection { lhs, rhs, .. }
            | Ast::And { lhs, rhs, .. }
            | Ast::Or { lhs, rhs, .. }
            | Ast::Subexpr { lhs, rhs, .. } => {
                take(lhs);
                take(rhs);
            }
            Ast::Condition {
                predicate, then, ..
            } => {
                take(predicate);
                take(then);
            }
            Ast::Expref { ast: node, .. }
            | Ast::Flatten { node, .. }
            | Ast::Not { node, .. }
            | Ast::ObjectValues { node, .. } => take(node),
            Ast::Function { args: items, .. }
            | Ast::MultiList {
                elements: items, ..
            } => out.append(items),
            Ast::MultiHash { elements, .. } => out.extend(elements.drain(..).map(|kv| kv.value)),
            Ast::Identity { .. }
            | Ast::Field { .. }
            | Ast::Index { .. }
            | Ast::Literal { .. }
            | Ast::Slice { .. } => {}
        }
    }
}

impl Drop for Ast {
    fn drop(&mut self) {
        let mut stack = Vec::new();
        self.take_children(&mut stack);
        while let Some(mut node) = stack.pop() {
            node.take_children(&mut stack);
            // `node` now has only leaves below it: its drop ends at once.
        }
    }
}
