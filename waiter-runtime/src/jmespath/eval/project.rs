//! Projections of field chains (`items[*].a.b`, `items[].a.b[].c.d`), walked with a plan so
//! that arrays of derived types dispatch statically (the `walk` module says how).

use super::navigate::field;
use crate::jmespath::view::{Array, Node, Object, Out, Plan, Sink, follow_node, walk_node_items};

/// `items[*].a.b`: the non-null results of following `path` from each element of `node`, or
/// null when `node` is no array. Arrays of derived structs run with static dispatch throughout.
#[inline]
pub fn project_follow<'a>(node: Node<'a>, path: &'static [&'static str]) -> Node<'a> {
    match node {
        Node::Array(Array::View(v)) => {
            let mut plan = Plan::new(path, false);
            let mut sink = Sink::new(Out::new(), None);
            v.__walk_items(&mut plan, &mut sink);
            sink.into_out().finish()
        }
        Node::Array(a) => {
            let mut out = Out::new();
            a.for_each(&mut |n| out.push(follow_node(n, path)));
            out.finish()
        }
        _ => Node::Null,
    }
}

/// `items[].a.b[].c.d` (`path` = `a.b`, `then` = `c.d`) from the value of `items`, or null when
/// it is no array. Arrays of derived structs run with static dispatch throughout.
#[inline]
pub fn project_flat_follow_flat<'a>(
    node: Node<'a>,
    path: &'static [&'static str],
    then: &'static [&'static str],
) -> Node<'a> {
    flat_follow_flat(path, then, |plan, sink| {
        walk_node_items(Some(node), plan, sink)
    })
}

/// `name[].a.b[].c.d` from `node`: [`project_flat_follow_flat`] of `field(node, name)`, with
/// the member walked in place when `node` is an object of the data (a derived struct walks
/// its member with static dispatch: no node built for it, no call through its view).
#[inline]
pub fn project_member_flat_follow_flat<'a>(
    node: Node<'a>,
    name: &str,
    path: &'static [&'static str],
    then: &'static [&'static str],
) -> Node<'a> {
    match node {
        Node::Object(Object::View(o)) => flat_follow_flat(path, then, |plan, sink| {
            o.__walk_member_items(name, plan, sink)
        }),
        node => project_flat_follow_flat(field(node, name), path, then),
    }
}

/// The plans and sink of `[].a.b[].c.d`, given to `walk`, which says whether it found an
/// array (else the projection is null).
#[inline(always)]
fn flat_follow_flat<'a>(
    path: &'static [&'static str],
    then: &'static [&'static str],
    walk: impl FnOnce(&mut Plan, &mut Sink<'_, 'a>) -> bool,
) -> Node<'a> {
    let mut plan = Plan::new(path, true).spread();
    let mut then = Plan::new(then, false);
    let mut sink = Sink::new(Out::new(), Some(&mut then));
    if walk(&mut plan, &mut sink) {
        sink.into_out().finish()
    } else {
        Node::Null
    }
}

/// `[].c.d` applied to one value `el`: arrays project `then` over their elements, anything else
/// follows `then` itself; non-null results are pushed.
#[inline]
pub fn flat_extend_follow<'a>(el: Node<'a>, then: &[&str], out: &mut Out<'a>) {
    match el {
        Node::Array(a) => a.for_each(&mut |x| out.push(follow_node(x, then))),
        other => out.push(follow_node(other, then)),
    }
}
