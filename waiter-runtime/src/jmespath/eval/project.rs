//! Projections of field chains (`items[*].a.b`, `items[].a.b[].c.d`), walked with a plan so
//! that arrays of derived types dispatch statically (the `walk` module says how).

use crate::jmespath::view::{Array, Node, Out, Plan, Sink, Walk, follow_node};

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
    match node {
        Node::Array(a) => {
            let mut plan = Plan::new(path, true).spread();
            let mut then = Plan::new(then, false);
            let mut sink = Sink::new(Out::new(), Some(&mut then));
            match a {
                Array::View(v) => v.__walk_items(&mut plan, &mut sink),
                a => {
                    let walk = Walk::start(&plan);
                    a.for_each(&mut |el| walk.node(el, &mut sink))
                }
            }
            sink.into_out().finish()
        }
        _ => Node::Null,
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
