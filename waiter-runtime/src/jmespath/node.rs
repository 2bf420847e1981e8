//! [`Node`]: one JMESPath value, borrowed from the searched data where it can be.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

use serde_json::{Map, Number, Value};

use super::searchable::{SearchArray, SearchObject};

/// A JMESPath value that borrows from the data being searched.
///
/// Reading a field of a [`Searchable`](super::Searchable) value yields a `Node` that points into
/// the original data: nothing else is converted. Values computed by the expression (projections,
/// multi-selects, function results) are owned by the node.
///
/// Convert a node to JSON with [`Node::to_value`] or `serde_json::Value::from(node)`; compare it
/// with a `serde_json::Value` directly.
///
/// ```
/// use serde_json::json;
/// use waiter_runtime::jmespath;
///
/// let data = json!({"a": {"b": [1, 2, 3]}});
/// let node = jmespath!("a.b[1]").search(&data).unwrap();
/// assert_eq!(node, json!(2));
/// assert_eq!(node.type_name(), "number");
/// assert_eq!(serde_json::Value::from(node), json!(2));
/// ```
#[derive(Clone)]
pub enum Node<'a> {
    /// `null`: a missing field, `None`, or an explicit null.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number (JMESPath has a single number type).
    Number(Number),
    /// A string.
    String(Cow<'a, str>),
    /// An array.
    Array(Array<'a>),
    /// An object.
    Object(Object<'a>),
}

/// The array variant of a [`Node`]: a view into the data, or values computed by the expression.
#[derive(Clone)]
pub enum Array<'a> {
    /// An array in the searched data (a `Vec`, a slice, a JSON array...).
    View(&'a dyn SearchArray),
    /// An array built by the expression.
    Owned(Vec<Node<'a>>),
}

/// The object variant of a [`Node`]: a view into the data, or members computed by the expression.
#[derive(Clone)]
pub enum Object<'a> {
    /// An object in the searched data (a struct, a map, a JSON object...).
    View(&'a dyn SearchObject),
    /// An object built by the expression, in insertion order with unique keys.
    Owned(Vec<(Cow<'a, str>, Node<'a>)>),
}

impl<'a> Array<'a> {
    /// Number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        match self {
            Array::View(v) => v.len(),
            Array::Owned(v) => v.len(),
        }
    }

    /// Whether the array has no element.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element at `index`, if any.
    #[inline]
    pub fn get(&self, index: usize) -> Option<Node<'a>> {
        match self {
            Array::View(v) => v.get(index),
            Array::Owned(v) => <[Node<'a>]>::get(v, index).cloned(),
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
        }
    }

    /// Calls `f` on each element, in order.
    #[inline]
    pub fn for_each(self, f: &mut dyn FnMut(Node<'a>)) {
        match self {
            Array::View(v) => v.for_each(f),
            Array::Owned(v) => v.into_iter().for_each(f),
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

    /// An owned node holding a copy of `value`.
    pub fn from_value(value: Value) -> Node<'static> {
        match value {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(b),
            Value::Number(n) => Node::Number(n),
            Value::String(s) => Node::String(Cow::Owned(s)),
            Value::Array(a) => {
                Node::Array(Array::Owned(a.into_iter().map(Node::from_value).collect()))
            }
            Value::Object(o) => Node::Object(Object::Owned(
                o.into_iter()
                    .map(|(k, v)| (Cow::Owned(k), Node::from_value(v)))
                    .collect(),
            )),
        }
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

    /// A deep copy as a `serde_json::Value`.
    pub fn to_value(&self) -> Value {
        self.clone().into_value()
    }

    /// Converts the node into a `serde_json::Value`.
    pub fn into_value(self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(b),
            Node::Number(n) => Value::Number(n),
            Node::String(s) => Value::String(s.into_owned()),
            Node::Array(a) => {
                Value::Array(a.into_vec().into_iter().map(Node::into_value).collect())
            }
            Node::Object(o) => {
                let mut map = Map::new();
                for (k, v) in o.into_entries() {
                    map.insert(k.into_owned(), v.into_value());
                }
                Value::Object(map)
            }
        }
    }

    /// A node that owns all its data (no borrow left).
    pub fn into_owned(self) -> Node<'static> {
        Node::from_value(self.into_value())
    }

    /// JMESPath equality: same type and same value; numbers compare by value (`1 == 1.0`),
    /// arrays element-wise, objects member-wise whatever the order.
    pub fn json_eq(&self, other: &Node<'_>) -> bool {
        match (self, other) {
            (Node::Null, Node::Null) => true,
            (Node::Bool(a), Node::Bool(b)) => a == b,
            (Node::Number(a), Node::Number(b)) => number_eq(a, b),
            (Node::String(a), Node::String(b)) => a == b,
            (Node::Array(a), Node::Array(b)) => {
                a.len() == b.len()
                    && (0..a.len()).all(|i| match (a.get(i), b.get(i)) {
                        (Some(x), Some(y)) => x.json_eq(&y),
                        _ => false,
                    })
            }
            (Node::Object(a), Node::Object(b)) => {
                if a.len() != b.len() {
                    return false;
                }
                a.clone()
                    .into_entries()
                    .iter()
                    .all(|(k, v)| b.get(k).is_some_and(|w| v.json_eq(&w)))
            }
            _ => false,
        }
    }

    /// Ordering used by `sort`, `sort_by`, `max`, `min` and the `<` family: numbers by value,
    /// strings by code point; `None` for any other pair.
    pub fn json_cmp(&self, other: &Node<'_>) -> Option<Ordering> {
        match (self, other) {
            (Node::Number(a), Node::Number(b)) => a.as_f64()?.partial_cmp(&b.as_f64()?),
            (Node::String(a), Node::String(b)) => Some(a.as_ref().cmp(b.as_ref())),
            _ => None,
        }
    }
}

pub(crate) fn number_eq(a: &Number, b: &Number) -> bool {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return x == y;
    }
    if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
        return x == y;
    }
    a.as_f64() == b.as_f64()
}

impl PartialEq for Node<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.json_eq(other)
    }
}

impl PartialEq<Value> for Node<'_> {
    fn eq(&self, other: &Value) -> bool {
        self.json_eq(&Node::from_value(other.clone()))
    }
}

impl PartialEq<Node<'_>> for Value {
    fn eq(&self, other: &Node<'_>) -> bool {
        other == self
    }
}

impl From<Node<'_>> for Value {
    fn from(node: Node<'_>) -> Value {
        node.into_value()
    }
}

impl fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Formats the node as compact JSON.
impl fmt::Display for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_value(), f)
    }
}

impl fmt::Debug for Array<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&Node::Array(self.clone()), f)
    }
}

impl fmt::Debug for Object<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&Node::Object(self.clone()), f)
    }
}
