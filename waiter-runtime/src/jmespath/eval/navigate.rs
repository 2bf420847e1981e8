//! Navigation: fields, indexes, slices, `[]` and `*`, the element loops of projections, and
//! multi-selects of field chains.

use std::borrow::Cow;

use super::{E, R};
use crate::jmespath::error::SearchError;
use crate::jmespath::view::{Array, Node, Object, follow_node};

#[inline(always)]
pub fn field<'a>(node: Node<'a>, name: &str) -> Node<'a> {
    match node {
        // A `match`, not `unwrap_or(Node::Null)`: no drop of the unused default.
        Node::Object(o) => match o.take(name) {
            Some(n) => n,
            None => Node::Null,
        },
        _ => Node::Null,
    }
}

#[inline]
pub fn index<'a>(node: Node<'a>, index: i64) -> Node<'a> {
    match node {
        Node::Array(a) => {
            let len = a.len() as i64;
            let i = if index < 0 { len + index } else { index };
            if i < 0 || i >= len {
                Node::Null
            } else {
                match a {
                    Array::Owned(mut v) => v.swap_remove(i as usize),
                    a => a.get(i as usize).unwrap_or(Node::Null),
                }
            }
        }
        _ => Node::Null,
    }
}

/// A slice of an array; `null` for anything else (a step of 0 is an error only on an array, as
/// in jmespath.py: slicing a non-array gives `null` before the step is looked at).
pub fn slice<'a>(node: Node<'a>, start: Option<i64>, stop: Option<i64>, step: i64) -> R<'a> {
    let a = match node {
        Node::Array(a) => a,
        _ => return Ok(Node::Null),
    };
    if step == 0 {
        return Err(Box::new(SearchError::InvalidValue {
            reason: "slice step cannot be 0",
        }));
    }
    let len = a.len() as i64;
    let adjust = |v: i64| -> i64 {
        if v < 0 {
            let v = v.saturating_add(len);
            if v < 0 {
                if step < 0 { -1 } else { 0 }
            } else {
                v
            }
        } else if v >= len {
            if step < 0 { len - 1 } else { len }
        } else {
            v
        }
    };
    let from = start.map_or(if step < 0 { len - 1 } else { 0 }, adjust);
    let to = stop.map_or(if step < 0 { -1 } else { len }, adjust);
    // Elements are taken from a vector: indexing a set's view walks it (O(n) per element).
    let items = a.into_vec();
    let mut out = Vec::new();
    let mut i = from;
    while (step > 0 && i < to) || (step < 0 && i > to) {
        if let Some(n) = <[Node<'a>]>::get(&items, i as usize) {
            out.push(n.clone());
        }
        i = match i.checked_add(step) {
            Some(i) => i,
            None => break,
        };
    }
    Ok(Node::Array(Array::Owned(out)))
}

/// `[]` applied to a value: arrays lose one level of nesting; anything else is `null`.
pub fn flatten(node: Node<'_>) -> Node<'_> {
    match node {
        Node::Array(a) => {
            let mut out = Vec::with_capacity(a.len());
            a.for_each(&mut |el| match el {
                Node::Array(inner) => inner.for_each(&mut |x| out.push(x)),
                other => out.push(other),
            });
            Node::Array(Array::Owned(out))
        }
        _ => Node::Null,
    }
}

/// `*` applied to an object: its values; anything else is `null`.
pub fn object_values(node: Node<'_>) -> Node<'_> {
    match node {
        Node::Object(o) => Node::Array(Array::Owned(
            o.into_entries().into_iter().map(|(_, v)| v).collect(),
        )),
        _ => Node::Null,
    }
}

/// Calls `sink` on each element when `node` is an array; says whether it was one.
#[inline]
pub fn each<'a>(node: Node<'a>, sink: impl FnMut(Node<'a>) -> Result<(), E>) -> Result<bool, E> {
    match node {
        Node::Array(a) => a.try_for_each(sink).map(|()| true),
        _ => Ok(false),
    }
}

/// One element of a flatten: arrays give their elements, anything else itself.
#[inline]
pub fn flat_step<'a>(
    el: Node<'a>,
    sink: &mut impl FnMut(Node<'a>) -> Result<(), E>,
) -> Result<(), E> {
    match el {
        Node::Array(a) => a.try_for_each(sink),
        other => sink(other),
    }
}

/// Like [`each`], on the result of following `path` from each element.
#[inline]
pub fn each_follow<'a>(
    node: Node<'a>,
    path: &[&str],
    mut sink: impl FnMut(Node<'a>) -> Result<(), E>,
) -> Result<bool, E> {
    match node {
        Node::Array(Array::View(v)) => {
            let mut result = Ok(());
            v.for_each_follow(path, &mut |n| {
                if result.is_ok() {
                    result = sink(n);
                }
            });
            result.map(|()| true)
        }
        // Owned elements, or strings (an empty projection result is `Array::Strs`).
        Node::Array(a) => {
            a.try_for_each(|n| sink(follow_node(n, path)))?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// Like [`flat_step`], following `path` from each resulting element.
#[inline]
pub fn flat_step_follow<'a>(
    el: Node<'a>,
    path: &[&str],
    sink: &mut impl FnMut(Node<'a>) -> Result<(), E>,
) -> Result<(), E> {
    match el {
        Node::Array(_) => each_follow(el, path, sink).map(|_| ()),
        other => sink(follow_node(other, path)),
    }
}

pub fn owned_array(items: Vec<Node<'_>>) -> Node<'_> {
    Node::Array(Array::Owned(items))
}

pub fn owned_object<'a>(members: Vec<(&'static str, Node<'a>)>) -> Node<'a> {
    Node::Object(Object::Owned(
        members
            .into_iter()
            .map(|(k, v)| (Cow::Borrowed(k), v))
            .collect(),
    ))
}

/// `[a.b, c, ...]` whose elements are all field chains: one table, not code per element (so a
/// wide multi-select compiles in linear time); `null` on `null`.
pub fn select_list<'a>(node: Node<'a>, paths: &[&[&str]]) -> Node<'a> {
    if node.is_null() {
        return Node::Null;
    }
    owned_array(
        paths
            .iter()
            .map(|path| follow_node(node.clone(), path))
            .collect(),
    )
}

/// `{k: a.b, ...}` whose values are all field chains (each key once: the macro keeps the last
/// of duplicates), as [`select_list`].
pub fn select_hash<'a>(node: Node<'a>, members: &[(&'static str, &[&str])]) -> Node<'a> {
    if node.is_null() {
        return Node::Null;
    }
    owned_object(
        members
            .iter()
            .map(|(key, path)| (*key, follow_node(node.clone(), path)))
            .collect(),
    )
}
