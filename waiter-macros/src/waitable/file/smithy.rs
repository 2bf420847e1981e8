//! A Smithy model's `smithy.waiters#waitable` trait value into the node tree the pasted form is
//! read from ([`read`](crate::waitable::read) then reads it as it reads a paste), every node at
//! the attribute's path.

use proc_macro2::Span;
use syn::LitStr;

use crate::jmespath::ast::Literal;
use crate::waitable::node::{Member, Node, NodeKind};

/// The trait value as a node tree whose every token is at `span`.
pub(super) fn node(value: &Literal, span: Span) -> Node {
    let kind = match value {
        Literal::Null => NodeKind::Null,
        Literal::Bool(b) => NodeKind::Bool(*b),
        Literal::Number(n) => NodeKind::Number(n.to_string()),
        Literal::String(s) => NodeKind::String(LitStr::new(s, span)),
        Literal::Array(items) => NodeKind::Array(items.iter().map(|v| node(v, span)).collect()),
        Literal::Object(members) => NodeKind::Object(
            members
                .iter()
                .map(|(key, v)| Member {
                    key: key.clone(),
                    key_span: span,
                    value: node(v, span),
                })
                .collect(),
        ),
    };
    Node { kind, span }
}
