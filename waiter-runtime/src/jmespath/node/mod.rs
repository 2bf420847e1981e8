//! What a [`Node`] (defined in the `view` module, with the views it holds) can do: read its
//! arrays and objects, read it as a scalar, and convert it to and from `serde_json::Value`.
//! Comparing nodes is in `compare`, writing one as JSON text in `json_text`.

use std::borrow::Cow;

use serde_json::{Map, Number, Value};

use super::error::SearchError;
use super::view::{Array, Node, Object};

mod compare;
mod json_text;

pub(crate) use compare::number_cmp;
pub(crate) use json_text::write_python_json;

impl<'a> Array<'a> {
    /// Number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        match self {
            Array::View(v) => v.len(),
            Array::Owned(v) => v.len(),
            Array::Strs(v) => v.len(),
        }
    }

    /// Whether the array has no element.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element at `index`, if any.
    ///
    /// O(1) for arrays of the data held in `Vec`s, slices and JSON arrays; sets walk to the
    /// element (use [`for_each`](Array::for_each) or [`into_vec`](Array::into_vec) to visit all).
    #[inline]
    pub fn get(&self, index: usize) -> Option<Node<'a>> {
        match self {
            Array::View(v) => v.get(index),
            Array::Owned(v) => <[Node<'a>]>::get(v, index).cloned(),
            Array::Strs(v) => <[&str]>::get(v, index).map(|s| Node::str(s)),
        }
    }

    /// The elements, in order.
    pub fn into_vec(self) -> Vec<Node<'a>> {
        match self {
            Array::View(v) => {
                let mut out = Vec::with_capacity(v.len());
                v.for_each(&mut |n| out.push(n));
                out
            }
            Array::Owned(v) => v,
            Array::Strs(v) => v.into_iter().map(Node::str).collect(),
        }
    }

    /// Calls `f` on each element, in order.
    #[inline]
    pub fn for_each(self, f: &mut dyn FnMut(Node<'a>)) {
        match self {
            Array::View(v) => v.for_each(f),
            Array::Owned(v) => v.into_iter().for_each(f),
            Array::Strs(v) => v.into_iter().for_each(|s| f(Node::str(s))),
        }
    }

    /// Calls `f` on each element until it returns an error.
    #[inline]
    pub fn try_for_each<E>(self, mut f: impl FnMut(Node<'a>) -> Result<(), E>) -> Result<(), E> {
        match self {
            Array::View(v) => {
                let mut result = Ok(());
                v.for_each(&mut |n| {
                    if result.is_ok() {
                        result = f(n);
                    }
                });
                result
            }
            Array::Owned(v) => v.into_iter().try_for_each(f),
            Array::Strs(v) => v.into_iter().try_for_each(|s| f(Node::str(s))),
        }
    }
}

impl<'a> Object<'a> {
    /// Number of members.
    #[inline]
    pub fn len(&self) -> usize {
        match self {
            Object::View(v) => v.len(),
            Object::Owned(v) => v.len(),
        }
    }

    /// Whether the object has no member.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The member named `name`, if any.
    #[inline]
    pub fn get(&self, name: &str) -> Option<Node<'a>> {
        match self {
            Object::View(v) => v.field(name),
            Object::Owned(v) => v.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()),
        }
    }

    /// The member named `name`, moved out of the object.
    #[inline(always)]
    pub fn take(self, name: &str) -> Option<Node<'a>> {
        match self {
            Object::View(v) => v.field(name),
            Object::Owned(v) => v.into_iter().find(|(k, _)| k == name).map(|(_, v)| v),
        }
    }

    /// The members, in the object's order.
    pub fn into_entries(self) -> Vec<(Cow<'a, str>, Node<'a>)> {
        match self {
            Object::View(v) => {
                let mut out = Vec::with_capacity(v.len());
                v.for_each_entry(&mut |k, n| out.push((Cow::Borrowed(k), n)));
                out
            }
            Object::Owned(v) => v,
        }
    }
}

impl<'a> Node<'a> {
    /// A string node borrowing `s`.
    #[inline]
    pub fn str(s: &'a str) -> Self {
        Node::String(Cow::Borrowed(s))
    }

    /// A number node; `NaN` and infinities become `null` (JSON has no such numbers).
    ///
    /// Integral values within ±2⁵³ are stored as integers, so `sum([1, 2])` is `3`, not `3.0`.
    pub fn from_f64(n: f64) -> Self {
        if n.fract() == 0.0 && n.abs() <= 9_007_199_254_740_992.0 {
            Node::Number(Number::from(n as i64))
        } else {
            Number::from_f64(n).map_or(Node::Null, Node::Number)
        }
    }

    /// The deepest nesting of arrays and objects that whole-value operations walk (see
    /// [Depth](Node#depth)): 256, twice what `serde_json` parses by default.
    pub const MAX_DEPTH: usize = 256;

    /// An owned node holding a copy of `value` (parts deeper than [`Node::MAX_DEPTH`] are
    /// `null`; they are dropped without recursion, so any depth is fine).
    pub fn from_value(value: Value) -> Node<'static> {
        from_value_at(value, 0)
    }

    /// Whether the node is `null`.
    #[inline]
    pub fn is_null(&self) -> bool {
        matches!(self, Node::Null)
    }

    /// The JMESPath type name: `null`, `boolean`, `number`, `string`, `array` or `object`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Node::Null => "null",
            Node::Bool(_) => "boolean",
            Node::Number(_) => "number",
            Node::String(_) => "string",
            Node::Array(_) => "array",
            Node::Object(_) => "object",
        }
    }

    /// JMESPath truthiness: false, null, empty strings, arrays and objects are false; the rest
    /// (every number included) is true.
    #[inline]
    pub fn is_truthy(&self) -> bool {
        match self {
            Node::Null => false,
            Node::Bool(b) => *b,
            Node::Number(_) => true,
            Node::String(s) => !s.is_empty(),
            Node::Array(a) => !a.is_empty(),
            Node::Object(o) => !o.is_empty(),
        }
    }

    /// The string, if the node is one.
    #[inline]
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, if the node is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Node::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number as `f64`, if the node is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Node::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    /// The array, if the node is one.
    pub fn as_array(&self) -> Option<&Array<'a>> {
        match self {
            Node::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The object, if the node is one.
    pub fn as_object(&self) -> Option<&Object<'a>> {
        match self {
            Node::Object(o) => Some(o),
            _ => None,
        }
    }

    /// A deep copy as a `serde_json::Value` (parts deeper than [`Node::MAX_DEPTH`] are `null`;
    /// [`try_to_value`](Node::try_to_value) says so instead).
    pub fn to_value(&self) -> Value {
        self.clone().into_value()
    }

    /// Converts the node into a `serde_json::Value` (parts deeper than [`Node::MAX_DEPTH`] are
    /// `null`; [`try_into_value`](Node::try_into_value) says so instead).
    pub fn into_value(self) -> Value {
        into_value_at(self, 0, &mut false)
    }

    /// A deep copy as a `serde_json::Value`, or [`SearchError::TooDeep`] past
    /// [`Node::MAX_DEPTH`] levels.
    pub fn try_to_value(&self) -> Result<Value, SearchError> {
        self.clone().try_into_value()
    }

    /// Converts the node into a `serde_json::Value`, or [`SearchError::TooDeep`] past
    /// [`Node::MAX_DEPTH`] levels.
    pub fn try_into_value(self) -> Result<Value, SearchError> {
        let mut cut = false;
        let v = into_value_at(self, 0, &mut cut);
        if cut {
            Err(SearchError::TooDeep {
                limit: Node::MAX_DEPTH,
            })
        } else {
            Ok(v)
        }
    }

    /// A node that owns all its data (no borrow left).
    pub fn into_owned(self) -> Node<'static> {
        Node::from_value(self.into_value())
    }
}

fn from_value_at(value: Value, depth: usize) -> Node<'static> {
    match value {
        Value::Null => Node::Null,
        Value::Bool(b) => Node::Bool(b),
        Value::Number(n) => Node::Number(n),
        Value::String(s) => Node::String(Cow::Owned(s)),
        _ if depth >= Node::MAX_DEPTH => {
            drop_iteratively(value);
            Node::Null
        }
        Value::Array(a) => Node::Array(Array::Owned(
            a.into_iter().map(|v| from_value_at(v, depth + 1)).collect(),
        )),
        Value::Object(o) => Node::Object(Object::Owned(
            o.into_iter()
                .map(|(k, v)| (Cow::Owned(k), from_value_at(v, depth + 1)))
                .collect(),
        )),
    }
}

/// Drops `value` without recursion, however deep it is (a `Value` drops itself recursively):
/// its arrays and objects are emptied onto a heap stack first.
fn drop_iteratively(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(members) => stack.extend(members.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

fn into_value_at(node: Node<'_>, depth: usize, cut: &mut bool) -> Value {
    match node {
        Node::Null => Value::Null,
        Node::Bool(b) => Value::Bool(b),
        Node::Number(n) => Value::Number(n),
        Node::String(s) => Value::String(s.into_owned()),
        Node::Array(Array::Strs(v)) => {
            Value::Array(v.into_iter().map(|s| Value::String(s.to_owned())).collect())
        }
        Node::Array(_) | Node::Object(_) if depth >= Node::MAX_DEPTH => {
            *cut = true;
            Value::Null
        }
        Node::Array(a) => Value::Array(
            a.into_vec()
                .into_iter()
                .map(|n| into_value_at(n, depth + 1, cut))
                .collect(),
        ),
        Node::Object(o) => {
            let mut map = Map::new();
            for (k, v) in o.into_entries() {
                map.insert(k.into_owned(), into_value_at(v, depth + 1, cut));
            }
            Value::Object(map)
        }
    }
}

impl From<Node<'_>> for Value {
    fn from(node: Node<'_>) -> Value {
        node.into_value()
    }
}
