//! Operators: truthiness, `!`, `==`, `!=` and the order comparisons (numbers only; anything
//! else compares to `null`).

use std::cmp::Ordering;

use crate::jmespath::node::number_cmp;
use crate::jmespath::view::Node;

#[inline]
pub fn truthy(node: &Node<'_>) -> bool {
    node.is_truthy()
}

#[inline]
pub fn not(node: Node<'_>) -> Node<'static> {
    Node::Bool(!node.is_truthy())
}

#[inline]
pub fn eq<'a>(l: &Node<'_>, r: &Node<'_>) -> Node<'a> {
    Node::Bool(l.json_eq(r))
}

#[inline]
pub fn ne<'a>(l: &Node<'_>, r: &Node<'_>) -> Node<'a> {
    Node::Bool(!l.json_eq(r))
}

fn order<'a>(l: &Node<'_>, r: &Node<'_>, ok: fn(Ordering) -> bool) -> Node<'a> {
    match (l, r) {
        (Node::Number(a), Node::Number(b)) => match number_cmp(a, b) {
            Some(o) => Node::Bool(ok(o)),
            None => Node::Null,
        },
        _ => Node::Null,
    }
}

pub fn lt<'a>(l: &Node<'_>, r: &Node<'_>) -> Node<'a> {
    order(l, r, Ordering::is_lt)
}
pub fn le<'a>(l: &Node<'_>, r: &Node<'_>) -> Node<'a> {
    order(l, r, Ordering::is_le)
}
pub fn gt<'a>(l: &Node<'_>, r: &Node<'_>) -> Node<'a> {
    order(l, r, Ordering::is_gt)
}
pub fn ge<'a>(l: &Node<'_>, r: &Node<'_>) -> Node<'a> {
    order(l, r, Ordering::is_ge)
}
