//! Helpers called by the code that `jmespath!` and `#[waitable]` emit. Not a public API.
#![allow(missing_docs)]

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashMap;

use serde_json::Number;

pub use super::error::SearchError;
pub use super::expression::Expression;
pub use super::node::{Array, Node, Object};
pub use super::searchable::Searchable;
pub use std::borrow::Cow as __Cow;
pub use std::result::Result as __Result;
pub use std::vec::Vec as __Vec;

/// Errors inside generated code are boxed: results stay the size of a `Node`.
pub type E = Box<SearchError>;
pub type R<'a> = Result<Node<'a>, E>;

/// Unboxes the error at the edge of generated code.
#[inline]
pub fn finish(r: R<'_>) -> Result<Node<'_>, SearchError> {
    r.map_err(|e| *e)
}

// -------------------------------------------------------------------------------- navigation

#[inline(always)]
pub fn field<'a>(node: Node<'a>, name: &str) -> Node<'a> {
    match node {
        Node::Object(o) => o.take(name).unwrap_or(Node::Null),
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

// -------------------------------------------------------------------------------- operators

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
        (Node::Number(a), Node::Number(b)) => match super::node::number_cmp(a, b) {
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

// -------------------------------------------------------------------------------- functions

fn bad(function: &'static str, position: usize, expected: &'static str, got: &Node<'_>) -> E {
    Box::new(SearchError::InvalidType {
        function,
        position,
        expected,
        actual: got.type_name(),
    })
}

fn number_arg(f: &'static str, pos: usize, n: &Node<'_>) -> Result<f64, E> {
    n.as_f64().ok_or_else(|| bad(f, pos, "number", n))
}

fn string_arg<'n, 'a>(f: &'static str, pos: usize, n: &'n Node<'a>) -> Result<&'n str, E> {
    n.as_str().ok_or_else(|| bad(f, pos, "string", n))
}

fn array_arg<'a>(
    f: &'static str,
    pos: usize,
    expected: &'static str,
    n: Node<'a>,
) -> Result<Vec<Node<'a>>, E> {
    match n {
        Node::Array(a) => Ok(a.into_vec()),
        other => Err(bad(f, pos, expected, &other)),
    }
}

fn numbers(f: &'static str, pos: usize, n: Node<'_>) -> Result<Vec<f64>, E> {
    const EXPECTED: &str = "array[number]";
    let items = array_arg(f, pos, EXPECTED, n)?;
    items
        .iter()
        .map(|x| {
            x.as_f64().ok_or_else(|| {
                Box::new(SearchError::InvalidType {
                    function: f,
                    position: pos,
                    expected: EXPECTED,
                    actual: "array",
                })
            })
        })
        .collect()
}

/// Checks that every element is a number, or every element is a string.
fn sortable(f: &'static str, pos: usize, items: &[Node<'_>]) -> Result<(), E> {
    const EXPECTED: &str = "array[number]|array[string]";
    let err = Box::new(SearchError::InvalidType {
        function: f,
        position: pos,
        expected: EXPECTED,
        actual: "array",
    });
    match items.first() {
        None => Ok(()),
        Some(Node::Number(_)) if items.iter().all(|x| matches!(x, Node::Number(_))) => Ok(()),
        Some(Node::String(_)) if items.iter().all(|x| matches!(x, Node::String(_))) => Ok(()),
        _ => Err(err),
    }
}

/// A number that stays a float (`3.0`), as a float result of jmespath.py does: `to_string`
/// writes it so.
fn float(n: f64) -> Node<'static> {
    Number::from_f64(n).map_or(Node::Null, Node::Number)
}

pub fn fn_abs(n: Node<'_>) -> R<'static> {
    if let Node::Number(num) = &n {
        if let Some(i) = num.as_i64() {
            return Ok(number_u64(i.unsigned_abs()));
        }
        if num.is_u64() {
            return Ok(Node::Number(num.clone()));
        }
    }
    Ok(float(number_arg("abs", 0, &n)?.abs()))
}

pub fn fn_avg(n: Node<'_>) -> R<'static> {
    let nums = numbers("avg", 0, n)?;
    if nums.is_empty() {
        return Ok(Node::Null);
    }
    Ok(float(float_sum(&nums) / nums.len() as f64))
}

pub fn fn_ceil(n: Node<'_>) -> R<'static> {
    if let Node::Number(num) = &n {
        if num.is_i64() || num.is_u64() {
            return Ok(Node::Number(num.clone()));
        }
    }
    Ok(Node::from_f64(number_arg("ceil", 0, &n)?.ceil()))
}

pub fn fn_floor(n: Node<'_>) -> R<'static> {
    if let Node::Number(num) = &n {
        if num.is_i64() || num.is_u64() {
            return Ok(Node::Number(num.clone()));
        }
    }
    Ok(Node::from_f64(number_arg("floor", 0, &n)?.floor()))
}

pub fn fn_contains<'a>(subject: Node<'a>, search: Node<'a>) -> R<'a> {
    match subject {
        Node::Array(a) => {
            let mut found = false;
            a.for_each(&mut |x| found = found || x.json_eq(&search));
            Ok(Node::Bool(found))
        }
        Node::String(s) => Ok(Node::Bool(search.as_str().is_some_and(|n| s.contains(n)))),
        other => Err(bad("contains", 0, "array|string", &other)),
    }
}

pub fn fn_ends_with<'a>(subject: Node<'a>, suffix: Node<'a>) -> R<'a> {
    let s = string_arg("ends_with", 0, &subject)?;
    let x = string_arg("ends_with", 1, &suffix)?;
    Ok(Node::Bool(s.ends_with(x)))
}

pub fn fn_starts_with<'a>(subject: Node<'a>, prefix: Node<'a>) -> R<'a> {
    let s = string_arg("starts_with", 0, &subject)?;
    let x = string_arg("starts_with", 1, &prefix)?;
    Ok(Node::Bool(s.starts_with(x)))
}

pub fn fn_join<'a>(glue: Node<'a>, items: Node<'a>) -> R<'a> {
    let g = string_arg("join", 0, &glue)?;
    let items = array_arg("join", 1, "array[string]", items)?;
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        let s = item.as_str().ok_or_else(|| {
            Box::new(SearchError::InvalidType {
                function: "join",
                position: 1,
                expected: "array[string]",
                actual: "array",
            })
        })?;
        if i > 0 {
            out.push_str(g);
        }
        out.push_str(s);
    }
    Ok(Node::String(Cow::Owned(out)))
}

pub fn fn_keys(n: Node<'_>) -> R<'_> {
    match n {
        Node::Object(o) => Ok(owned_array(
            o.into_entries()
                .into_iter()
                .map(|(k, _)| Node::String(k))
                .collect(),
        )),
        other => Err(bad("keys", 0, "object", &other)),
    }
}

pub fn fn_values(n: Node<'_>) -> R<'_> {
    match n {
        Node::Object(o) => Ok(owned_array(
            o.into_entries().into_iter().map(|(_, v)| v).collect(),
        )),
        other => Err(bad("values", 0, "object", &other)),
    }
}

pub fn fn_length(n: Node<'_>) -> R<'static> {
    let len = match &n {
        Node::String(s) => s.chars().count(),
        Node::Array(a) => a.len(),
        Node::Object(o) => o.len(),
        other => return Err(bad("length", 0, "string|array|object", other)),
    };
    Ok(number_u64(len as u64))
}

pub fn fn_map<'a>(mut f: impl FnMut(Node<'a>) -> R<'a>, items: Node<'a>) -> R<'a> {
    let items = array_arg("map", 1, "array", items)?;
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        out.push(f(item)?);
    }
    Ok(owned_array(out))
}

fn extreme<'a>(f: &'static str, n: Node<'a>, want: Ordering) -> R<'a> {
    let items = array_arg(f, 0, "array[number]|array[string]", n)?;
    sortable(f, 0, &items)?;
    let mut best: Option<Node<'a>> = None;
    for item in items {
        best = match best {
            Some(b) if item.json_cmp(&b) != Some(want) => Some(b),
            _ => Some(item),
        };
    }
    Ok(best.unwrap_or(Node::Null))
}

pub fn fn_max(n: Node<'_>) -> R<'_> {
    extreme("max", n, Ordering::Greater)
}

pub fn fn_min(n: Node<'_>) -> R<'_> {
    extreme("min", n, Ordering::Less)
}

/// Evaluates the key expression of `sort_by`/`max_by`/`min_by` on every element, checking that
/// the keys are all numbers or all strings.
fn keyed<'a>(
    f: &'static str,
    items: Node<'a>,
    mut key: impl FnMut(Node<'a>) -> R<'a>,
) -> Result<Vec<(Node<'a>, Node<'a>)>, E> {
    let items = array_arg(f, 0, "array", items)?;
    let mut out = Vec::with_capacity(items.len());
    let mut first: Option<&'static str> = None;
    for item in items {
        let k = key(item.clone())?;
        let t = k.type_name();
        let ok = match first {
            None => matches!(t, "number" | "string"),
            Some(f0) => f0 == t,
        };
        if !ok {
            return Err(Box::new(SearchError::InvalidType {
                function: f,
                position: 1,
                expected: match first {
                    Some("number") => "expression->number",
                    Some(_) => "expression->string",
                    None => "expression->number|expression->string",
                },
                actual: t,
            }));
        }
        first.get_or_insert(t);
        out.push((item, k));
    }
    Ok(out)
}

pub fn fn_max_by<'a>(items: Node<'a>, key: impl FnMut(Node<'a>) -> R<'a>) -> R<'a> {
    let keyed = keyed("max_by", items, key)?;
    Ok(pick(keyed, Ordering::Greater))
}

pub fn fn_min_by<'a>(items: Node<'a>, key: impl FnMut(Node<'a>) -> R<'a>) -> R<'a> {
    let keyed = keyed("min_by", items, key)?;
    Ok(pick(keyed, Ordering::Less))
}

fn pick<'a>(keyed: Vec<(Node<'a>, Node<'a>)>, want: Ordering) -> Node<'a> {
    let mut best: Option<(Node<'a>, Node<'a>)> = None;
    for (item, k) in keyed {
        best = match best {
            Some(b) if k.json_cmp(&b.1) != Some(want) => Some(b),
            _ => Some((item, k)),
        };
    }
    best.map_or(Node::Null, |b| b.0)
}

pub fn fn_sort_by<'a>(items: Node<'a>, key: impl FnMut(Node<'a>) -> R<'a>) -> R<'a> {
    let mut keyed = keyed("sort_by", items, key)?;
    keyed.sort_by(|a, b| a.1.json_cmp(&b.1).unwrap_or(Ordering::Equal));
    Ok(owned_array(
        keyed.into_iter().map(|(item, _)| item).collect(),
    ))
}

pub fn fn_sort(n: Node<'_>) -> R<'_> {
    let mut items = array_arg("sort", 0, "array[number]|array[string]", n)?;
    sortable("sort", 0, &items)?;
    items.sort_by(|a, b| a.json_cmp(b).unwrap_or(Ordering::Equal));
    Ok(owned_array(items))
}

pub fn fn_merge(objects: Vec<Node<'_>>) -> R<'_> {
    // Later members win; each key is looked up in a hash index (linear in the members).
    let mut out: Vec<(Cow<'_, str>, Node<'_>)> = Vec::new();
    let mut at: HashMap<Cow<'_, str>, usize> = HashMap::new();
    for (i, o) in objects.into_iter().enumerate() {
        match o {
            Node::Object(o) => {
                for (k, v) in o.into_entries() {
                    match at.get(&k) {
                        Some(&j) => out[j].1 = v,
                        None => {
                            at.insert(k.clone(), out.len());
                            out.push((k, v));
                        }
                    }
                }
            }
            other => return Err(bad("merge", i, "object", &other)),
        }
    }
    Ok(Node::Object(Object::Owned(out)))
}

pub fn fn_not_null(args: Vec<Node<'_>>) -> R<'_> {
    Ok(args
        .into_iter()
        .find(|n| !n.is_null())
        .unwrap_or(Node::Null))
}

pub fn fn_reverse(n: Node<'_>) -> R<'_> {
    match n {
        Node::String(s) => Ok(Node::String(Cow::Owned(s.chars().rev().collect()))),
        Node::Array(a) => {
            let mut v = a.into_vec();
            v.reverse();
            Ok(owned_array(v))
        }
        other => Err(bad("reverse", 0, "array|string", &other)),
    }
}

/// The sum: exact for integers (as jmespath.py's), a float as soon as one element is a float.
pub fn fn_sum(n: Node<'_>) -> R<'static> {
    let ints: Option<Vec<i128>> = match &n {
        Node::Array(a) => a
            .clone()
            .into_vec()
            .iter()
            .map(|x| match x {
                Node::Number(num) => num
                    .as_i64()
                    .map(i128::from)
                    .or_else(|| num.as_u64().map(i128::from)),
                _ => None,
            })
            .collect(),
        _ => None,
    };
    if let Some(total) = ints.and_then(|v| v.into_iter().try_fold(0i128, i128::checked_add)) {
        if let Ok(i) = i64::try_from(total) {
            return Ok(number_i64(i));
        }
        if let Ok(u) = u64::try_from(total) {
            return Ok(number_u64(u));
        }
    }
    let nums = numbers("sum", 0, n)?;
    Ok(float(float_sum(&nums)))
}

/// A float sum from `0.0`, as Python's `sum` from `0` (`sum([-0.0])` is `0.0`; Rust's `Sum`
/// starts from `-0.0`).
fn float_sum(nums: &[f64]) -> f64 {
    nums.iter().fold(0.0, |a, b| a + b)
}

pub fn fn_to_array(n: Node<'_>) -> R<'_> {
    match n {
        Node::Array(_) => Ok(n),
        other => Ok(owned_array(vec![other])),
    }
}

/// `to_string`: strings as they are, anything else as compact JSON written as jmespath.py
/// writes it (Python's `json.dumps(value, separators=(',', ':'))`): members in the object's
/// order, non-ASCII characters as `\uXXXX` escapes, floats as Python's `repr` (`1.0`, `1e+16`).
pub fn fn_to_string(n: Node<'_>) -> R<'_> {
    match n {
        Node::String(_) => Ok(n),
        other => {
            let mut out = String::new();
            py_json(&other, 0, &mut out).map_err(Box::new)?;
            Ok(Node::String(Cow::Owned(out)))
        }
    }
}

fn py_json(node: &Node<'_>, depth: usize, out: &mut String) -> Result<(), SearchError> {
    use std::fmt::Write as _;
    match node {
        Node::Null => out.push_str("null"),
        Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Node::Number(n) => match n.as_f64() {
            Some(f) if !(n.is_i64() || n.is_u64()) => py_float(f, out),
            _ => {
                let _ = write!(out, "{n}");
            }
        },
        Node::String(s) => py_str(s, out),
        Node::Array(_) | Node::Object(_) if depth >= Node::MAX_DEPTH => {
            return Err(SearchError::TooDeep {
                limit: Node::MAX_DEPTH,
            });
        }
        Node::Array(a) => {
            out.push('[');
            for (i, x) in a.clone().into_vec().iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                py_json(x, depth + 1, out)?;
            }
            out.push(']');
        }
        Node::Object(o) => {
            out.push('{');
            for (i, (k, v)) in o.clone().into_entries().iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                py_str(k, out);
                out.push(':');
                py_json(v, depth + 1, out)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

/// A JSON string as Python's `json.dumps` writes it (`ensure_ascii`): everything outside
/// printable ASCII escaped, characters beyond the BMP as a surrogate pair.
fn py_str(s: &str, out: &mut String) {
    use std::fmt::Write as _;
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{u:04x}");
                }
            }
        }
    }
    out.push('"');
}

/// A float as Python's `repr`: the shortest digits that round-trip, positional for exponents
/// -4..=15 (`1000.0`, `0.0001`), else scientific with a signed two-digit exponent (`1e+16`,
/// `1.5e-05`).
fn py_float(f: f64, out: &mut String) {
    use std::fmt::Write as _;
    let sci = format!("{f:e}"); // shortest round-trip digits: `-1.5e-5`, `1e16`, `-0e0`
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    out.push_str(sign);
    if (-4..=15).contains(&exp) {
        let point = exp + 1; // digits before the decimal point
        if point <= 0 {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-point) as usize));
            out.push_str(&digits);
        } else if point as usize >= digits.len() {
            out.push_str(&digits);
            out.extend(std::iter::repeat_n('0', point as usize - digits.len()));
            out.push_str(".0");
        } else {
            out.push_str(&digits[..point as usize]);
            out.push('.');
            out.push_str(&digits[point as usize..]);
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    }
}

pub fn fn_to_number(n: Node<'_>) -> R<'_> {
    match n {
        Node::Number(_) => Ok(n),
        // `-0` is the integer 0 (as jmespath.py reads it); serde_json reads it as the float -0.0.
        Node::String(s) if &*s == "-0" => Ok(number_i64(0)),
        Node::String(s) => Ok(match s.parse::<Number>() {
            Ok(num) => Node::Number(num),
            Err(_) => Node::Null,
        }),
        _ => Ok(Node::Null),
    }
}

pub fn fn_type(n: Node<'_>) -> R<'static> {
    Ok(string(n.type_name()))
}

/// What `__jmespath_verdict!` yields.
#[derive(Debug, Clone, Copy)]
pub enum Verdict {
    Compiled(Expression),
    Rejected {
        kind: &'static str,
        message: &'static str,
    },
}

/// `#[searchable(serde)]` fields: the JSON form of any `Serialize` value, depth bounded as
/// [`Serialized`](super::Serialized)'s.
pub fn serialized<T: serde::Serialize + ?Sized>(value: &T) -> Node<'static> {
    super::serialized::to_node(value)
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

pub use super::data_model::{AsBlob, AsTimestamp};
pub use super::searchable::{Out, Plan, SearchArray, SearchObject, Sink, Walk, follow_node};
pub use std::option::Option as __Option;

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
