//! The functions that the code `#[derive(Searchable)]` emits calls, besides the evaluation
//! helpers: `#[searchable(serde)]` fields, union variants and `#[serde(flatten)]` fields. Not a
//! public API: reached through the runtime's private module.
#![allow(missing_docs)]

use std::borrow::Cow;

use super::eval::owned_object;
use super::serialized::to_node;
use super::view::{Node, Object};

/// `#[searchable(serde)]` fields: the JSON form of any `Serialize` value, depth bounded as
/// [`Serialized`](crate::jmespath::Serialized)'s.
pub fn serialized<T: serde::Serialize + ?Sized>(value: &T) -> Node<'static> {
    to_node(value)
}

/// One-member object for union (data-carrying enum) variants.
pub fn union<'a>(name: &'static str, value: Node<'a>) -> Node<'a> {
    owned_object(vec![(name, value)])
}

/// The object under a `#[serde(flatten)]` field.
pub fn flat<'a>(node: Node<'a>) -> Option<Object<'a>> {
    match node {
        Node::Object(o) => Some(o),
        _ => None,
    }
}

thread_local! {
    /// How many flattened members deep the lookups running on this thread are.
    static FLATTENED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Runs `f` one flattened member deeper: `None` past [`Node::MAX_DEPTH`] of them (a type that
/// flattens itself, `more: Option<Box<Self>>`, nested deeper than that), whose members are
/// then not looked into, as deeper data is `null` to whole-value operations.
fn flattened<R>(f: impl FnOnce() -> R) -> Option<R> {
    struct Level;
    impl Drop for Level {
        fn drop(&mut self) {
            FLATTENED.with(|depth| depth.set(depth.get() - 1));
        }
    }
    let depth = FLATTENED.with(|depth| {
        let d = depth.get();
        if d < Node::MAX_DEPTH {
            depth.set(d + 1);
        }
        d
    });
    if depth >= Node::MAX_DEPTH {
        return None;
    }
    let _level = Level;
    Some(f())
}

/// The member `name` of a `#[serde(flatten)]` field's value, if it is an object (at most
/// [`Node::MAX_DEPTH`] flattened members deep).
pub fn flat_get<'a>(node: Node<'a>, name: &str) -> Option<Node<'a>> {
    let Node::Object(o) = node else { return None };
    flattened(|| o.get(name)).flatten()
}

/// The members of a `#[serde(flatten)]` field, for `for_each_entry`: names of the parent's plain
/// members (`plain`) and names already given by an earlier flattened member (`seen`, tracked
/// when there are several) are left out. Members with computed names cannot be lent for `'a`
/// and are left out too (they are still found by name).
pub fn flat_entries<'a>(
    o: Option<Object<'a>>,
    plain: &[&str],
    seen: &mut std::collections::HashSet<&'a str>,
    f: &mut dyn FnMut(&'a str, Node<'a>),
) {
    let Some(o) = o else { return };
    let mut emit = |k: &'a str, v: Node<'a>| {
        if !plain.contains(&k) && seen.insert(k) {
            f(k, v)
        }
    };
    flattened(|| match o {
        Object::View(view) => view.for_each_entry(&mut emit),
        Object::Owned(members) => {
            for (k, v) in members {
                if let Cow::Borrowed(k) = k {
                    emit(k, v);
                }
            }
        }
    });
}
