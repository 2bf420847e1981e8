//! Comparing nodes as JMESPath does: equality (`==`, `PartialEq`, also against a
//! `serde_json::Value`) and the order of numbers and strings (`sort`, `max`, `<`...).

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashMap;

use serde_json::{Number, Value};

use crate::jmespath::view::{Node, Object};

impl Node<'_> {
    /// JMESPath equality: same type and same value; numbers compare by value (`1 == 1.0`),
    /// arrays element-wise, objects member-wise whatever the order. Any depth (no recursion),
    /// linear time.
    pub fn json_eq(&self, other: &Node<'_>) -> bool {
        let mut stack: Vec<(Node<'_>, Node<'_>)> = vec![(self.clone(), other.clone())];
        while let Some((a, b)) = stack.pop() {
            match (a, b) {
                (Node::Null, Node::Null) => {}
                (Node::Bool(a), Node::Bool(b)) if a == b => {}
                (Node::Number(a), Node::Number(b)) if number_eq(&a, &b) => {}
                (Node::String(a), Node::String(b)) if a == b => {}
                (Node::Array(a), Node::Array(b)) => {
                    if a.len() != b.len() {
                        return false;
                    }
                    stack.extend(a.into_vec().into_iter().zip(b.into_vec()));
                }
                (Node::Object(a), Node::Object(b)) => {
                    if a.len() != b.len() {
                        return false;
                    }
                    let b = Members::new(b);
                    for (k, v) in a.into_entries() {
                        match b.get(&k) {
                            Some(w) => stack.push((v, w)),
                            None => return false,
                        }
                    }
                }
                _ => return false,
            }
        }
        true
    }

    /// Ordering used by `sort`, `sort_by`, `max`, `min` and the `<` family: numbers by value,
    /// strings by code point; `None` for any other pair.
    pub fn json_cmp(&self, other: &Node<'_>) -> Option<Ordering> {
        match (self, other) {
            (Node::Number(a), Node::Number(b)) => number_cmp(a, b),
            (Node::String(a), Node::String(b)) => Some(a.as_ref().cmp(b.as_ref())),
            _ => None,
        }
    }
}

fn number_eq(a: &Number, b: &Number) -> bool {
    number_cmp(a, b) == Some(Ordering::Equal)
}

/// Numbers by exact value: integers (64-bit, signed or not) among themselves and against
/// doubles without rounding the integer (`18446744073709551615 > 18446744073709551614`,
/// `9007199254740993 != 9007199254740992.0`), as jmespath.py compares Python numbers.
pub(crate) fn number_cmp(a: &Number, b: &Number) -> Option<Ordering> {
    fn int(n: &Number) -> Option<i128> {
        n.as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from))
    }
    /// An integer against a double: exact when the double is integral (every double of
    /// magnitude 2^53 or more is), else the integer is small enough to be exact as a double.
    fn int_float(i: i128, f: f64) -> Option<Ordering> {
        if f.is_nan() {
            return None;
        }
        if f.fract() == 0.0 && f.abs() < 1.7e38 {
            return Some(i.cmp(&(f as i128)));
        }
        (i as f64).partial_cmp(&f)
    }
    match (int(a), int(b)) {
        (Some(x), Some(y)) => Some(x.cmp(&y)),
        (Some(x), None) => int_float(x, b.as_f64()?),
        (None, Some(y)) => int_float(y, a.as_f64()?).map(Ordering::reverse),
        (None, None) => a.as_f64()?.partial_cmp(&b.as_f64()?),
    }
}

/// Members of an object looked up by name: views look up in place; computed objects with more
/// than a few members get a hash index (so comparing or merging them stays linear).
enum Members<'a> {
    Object(Object<'a>),
    Indexed(HashMap<Cow<'a, str>, Node<'a>>),
}

impl<'a> Members<'a> {
    fn new(o: Object<'a>) -> Self {
        match o {
            Object::Owned(v) if v.len() > 8 => Members::Indexed(v.into_iter().collect()),
            o => Members::Object(o),
        }
    }

    fn get(&self, name: &str) -> Option<Node<'a>> {
        match self {
            Members::Object(o) => o.get(name),
            Members::Indexed(m) => m.get(name).cloned(),
        }
    }
}

/// `node == value` without converting either: any depth (heap stack), linear time.
fn eq_value(node: &Node<'_>, value: &Value) -> bool {
    let mut stack: Vec<(Node<'_>, &Value)> = vec![(node.clone(), value)];
    while let Some((n, v)) = stack.pop() {
        match (n, v) {
            (Node::Null, Value::Null) => {}
            (Node::Bool(a), Value::Bool(b)) if a == *b => {}
            (Node::Number(a), Value::Number(b)) if number_eq(&a, b) => {}
            (Node::String(a), Value::String(b)) if *a == **b => {}
            (Node::Array(a), Value::Array(b)) => {
                if a.len() != b.len() {
                    return false;
                }
                stack.extend(a.into_vec().into_iter().zip(b));
            }
            (Node::Object(a), Value::Object(b)) => {
                if a.len() != b.len() {
                    return false;
                }
                for (k, n) in a.into_entries() {
                    match b.get(&*k) {
                        Some(w) => stack.push((n, w)),
                        None => return false,
                    }
                }
            }
            _ => return false,
        }
    }
    true
}

impl PartialEq for Node<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.json_eq(other)
    }
}

impl PartialEq<Value> for Node<'_> {
    fn eq(&self, other: &Value) -> bool {
        eq_value(self, other)
    }
}

impl PartialEq<Node<'_>> for Value {
    fn eq(&self, other: &Node<'_>) -> bool {
        other == self
    }
}
