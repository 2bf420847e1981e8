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
    Number(Number),
    String(String),
    Array(Vec<Literal>),
    Object(BTreeMap<String, Literal>),
}

/// A JSON number, as serde_json keeps it (without `arbitrary_precision`).
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Number {
    PosInt(u64),
    NegInt(i64),
    Float(f64),
}

impl Number {
    pub(crate) fn as_i64(self) -> Option<i64> {
        match self {
            Number::PosInt(u) => i64::try_from(u).ok(),
            Number::NegInt(i) => Some(i),
            Number::Float(_) => None,
        }
    }

    pub(crate) fn as_u64(self) -> Option<u64> {
        match self {
            Number::PosInt(u) => Some(u),
            _ => None,
        }
    }

    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Number::PosInt(u) => u as f64,
            Number::NegInt(i) => i as f64,
            Number::Float(f) => f,
        }
    }

    pub(crate) fn is_integer(self) -> bool {
        !matches!(self, Number::Float(_))
    }
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::PosInt(u) => write!(f, "{u}"),
            Number::NegInt(i) => write!(f, "{i}"),
            // `{:?}` is the shortest text that reads back as the same `f64` (with `.0` or an
            // exponent), which every JSON reader takes.
            Number::Float(x) => write!(f, "{x:?}"),
        }
    }
}

impl Literal {
    pub(crate) fn as_array(&self) -> Option<&[Literal]> {
        match self {
            Literal::Array(items) => Some(items),
            _ => None,
        }
    }
}

impl Ast {
    /// The position of the node in the expression (in characters).
    pub(crate) fn offset(&self) -> usize {
        match self {
            Ast::Comparison { offset, .. }
            | Ast::Condition { offset, .. }
            | Ast::Identity { offset }
            | Ast::Expref { offset, .. }
            | Ast::Flatten { offset, .. }
            | Ast::Field { offset, .. }
            | Ast::Index { offset, .. }
            | Ast::Literal { offset, .. }
            | Ast::MultiList { offset, .. }
            | Ast::MultiHash { offset, .. }
            | Ast::Not { offset, .. }
            | Ast::Projection { offset, .. }
            | Ast::ObjectValues { offset, .. }
            | Ast::And { offset, .. }
            | Ast::Or { offset, .. }
            | Ast::Slice { offset, .. }
            | Ast::Subexpr { offset, .. }
            | Ast::Function { offset, .. } => *offset,
        }
    }

    /// `a.b.c` (or `a | b`) as `["a", "b", "c"]`: a tree of sub-expressions whose leaves are
    /// all fields; a single field too. Without recursion (a chain may be any length).
    pub(crate) fn field_chain(&self) -> Option<Vec<String>> {
        // Right to left: the chain nests on its left, so a non-field step is met first.
        let mut names = Vec::new();
        let mut todo = vec![self];
        while let Some(node) = todo.pop() {
            match node {
                Ast::Field { name, .. } => names.push(name.clone()),
                Ast::Subexpr { lhs, rhs, .. } => {
                    todo.push(lhs);
                    todo.push(rhs);
                }
                _ => return None,
            }
        }
        names.reverse();
        Some(names)
    }

    /// The operands of a chain `a || b || c` (or `&&`, per `self`'s kind), left to right;
    /// `[self]` for anything else. Without recursion: the chain nests on its left.
    pub(crate) fn operands(&self) -> Vec<&Ast> {
        let same = |a: &Ast| {
            std::mem::discriminant(a) == std::mem::discriminant(self)
                && matches!(a, Ast::Or { .. } | Ast::And { .. })
        };
        let mut rights = Vec::new();
        let mut cur = self;
        while same(cur) {
            match cur {
                Ast::Or { lhs, rhs, .. } | Ast::And { lhs, rhs, .. } => {
                    rights.push(&**rhs);
                    cur = lhs;
                }
                _ => unreachable!("same kind"),
            }
        }
        rights.push(cur);
        rights.reverse();
        rights
    }

    /// The children of this node with the levels each adds to the depth (see
    /// `parse::MAX_DEPTH`): 0 for the left operand of a chain of `||` or `&&` that continues
    /// it, 1 otherwise (a field chain is one level: `parse::too_deep` sees to it).
    pub(crate) fn levels_below(&self) -> Vec<(&Ast, usize)> {
        match self {
            Ast::Or { lhs, rhs, .. } => {
                vec![
                    (&**lhs, usize::from(!matches!(**lhs, Ast::Or { .. }))),
                    (rhs, 1),
                ]
            }
            Ast::And { lhs, rhs, .. } => {
                vec![
                    (&**lhs, usize::from(!matches!(**lhs, Ast::And { .. }))),
                    (rhs, 1),
                ]
            }
            Ast::Comparison { lhs, rhs, .. }
            | Ast::Projection { lhs, rhs, .. }
            | Ast::Subexpr { lhs, rhs, .. } => vec![(lhs, 1), (rhs, 1)],
            Ast::Condition {
                predicate, then, ..
            } => vec![(predicate, 1), (then, 1)],
            Ast::Expref { ast: node, .. }
            | Ast::Flatten { node, .. }
            | Ast::Not { node, .. }
            | Ast::ObjectValues { node, .. } => vec![(node, 1)],
            Ast::Function { args: items, .. }
            | Ast::MultiList {
                elements: items, ..
            } => items.iter().map(|a| (a, 1)).collect(),
            Ast::MultiHash { elements, .. } => elements.iter().map(|kv| (&kv.value, 1)).collect(),
            Ast::Identity { .. }
            | Ast::Field { .. }
            | Ast::Index { .. }
            | Ast::Literal { .. }
            | Ast::Slice { .. } => Vec::new(),
        }
    }

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
