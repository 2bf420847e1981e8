//! [`Node`]: one JMESPath value, borrowed from the searched data where it can be.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::{Map, Number, Value};

use super::error::SearchError;
use super::searchable::{SearchArray, SearchObject};

/// A JMESPath value that borrows from the data being searched.
///
/// Reading a field of a [`Searchable`](super::Searchable) value yields a `Node` that points into
/// the original data: nothing else is converted. Values computed by the expression (projections,
/// multi-selects, function results) are owned by the node.
///
/// A `Node` is `Send + Sync`: views into the data require it to be `Sync` (see
/// [`SearchArray`], [`SearchObject`]), so a search result can be held across `.await` in a task
/// spawned on a multi-threaded runtime.
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
///
/// # Depth
///
/// Operations on a whole value ([`to_value`](Node::to_value), `Display`, the JMESPath function
/// `to_string`, [`Expression::search_value`](super::Expression::search_value)) recurse into it
/// up to [`Node::MAX_DEPTH`] levels of arrays and objects: deeper data gives
/// [`SearchError::TooDeep`](super::SearchError::TooDeep) from a search, and `null` in place of
/// the too-deep part from the infallible conversions (`to_value`, `into_value`, `Display`).
/// Equality (`==` in expressions, `PartialEq`) has no limit: it walks with a heap stack.
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
///
/// Non-exhaustive: representations may be added (match with a `_` arm, or use the methods).
#[derive(Clone)]
#[non_exhaustive]
pub enum Array<'a> {
    /// An array in the searched data (a `Vec`, a slice, a JSON array...).
    View(&'a dyn SearchArray),
    /// An array built by the expression.
    Owned(Vec<Node<'a>>),
    /// Strings borrowed from the data, built by the expression (a projection of string leaves
    /// such as `Reservations[].Instances[].State.Name`): no per-element conversion or drop.
    Strs(Vec<&'a str>),
}

/// The object variant of a [`Node`]: a view into the data, or members computed by the expression.
///
/// Non-exhaustive: representations may be added (match with a `_` arm, or use the methods).
#[derive(Clone)]
#[non_exhaustive]
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

pub(crate) fn number_eq(a: &Number, b: &Number) -> bool {
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
pub(crate) enum Members<'a> {
    Object(Object<'a>),
    Indexed(HashMap<Cow<'a, str>, Node<'a>>),
}

impl<'a> Members<'a> {
    pub(crate) fn new(o: Object<'a>) -> Self {
        match o {
            Object::Owned(v) if v.len() > 8 => Members::Indexed(v.into_iter().collect()),
            o => Members::Object(o),
        }
    }

    pub(crate) fn get(&self, name: &str) -> Option<Node<'a>> {
        match self {
            Members::Object(o) => o.get(name),
            Members::Indexed(m) => m.get(name).cloned(),
        }
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

/// Compact JSON, as `serde_json` writes it, at most [`Node::MAX_DEPTH`] levels deep (deeper parts
/// are written `null`).
fn write_json(node: &Node<'_>, depth: usize, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match node {
        Node::Null => f.write_str("null"),
        Node::Bool(b) => write!(f, "{b}"),
        Node::Number(n) => write!(f, "{n}"),
        Node::String(s) => write_str(s, f),
        Node::Array(Array::Strs(v)) => {
            f.write_str("[")?;
            for (i, s) in v.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write_str(s, f)?;
            }
            f.write_str("]")
        }
        Node::Array(_) | Node::Object(_) if depth >= Node::MAX_DEPTH => f.write_str("null"),
        Node::Array(a) => {
            f.write_str("[")?;
            let mut result = Ok(());
            let mut first = true;
            a.clone().for_each(&mut |n| {
                if result.is_ok() {
                    if !first {
                        result = f.write_str(",");
                    }
                    first = false;
                    result = result.and_then(|()| write_json(&n, depth + 1, f));
                }
            });
            result?;
            f.write_str("]")
        }
        Node::Object(o) => {
            f.write_str("{")?;
            // Keys in the order `to_value` gives them (a `serde_json::Map`).
            let mut entries = o.clone().into_entries();
            sort_like_map(&mut entries);
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write_str(k, f)?;
                f.write_str(":")?;
                write_json(v, depth + 1, f)?;
            }
            f.write_str("}")
        }
    }
}

/// A JSON string literal, escaped as `serde_json` does.
fn write_str(s: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str("\"")?;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let esc = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\n' => "\\n",
            '\r' => "\\r",
            '\t' => "\\t",
            '\u{8}' => "\\b",
            '\u{c}' => "\\f",
            c if (c as u32) < 0x20 => "",
            _ => continue,
        };
        f.write_str(&s[start..i])?;
        if esc.is_empty() {
            write!(f, "\\u{:04x}", c as u32)?;
        } else {
            f.write_str(esc)?;
        }
        start = i + c.len_utf8();
    }
    f.write_str(&s[start..])?;
    f.write_str("\"")
}

/// Orders members as a `serde_json::Map` does: sorted, unless `serde_json`'s `preserve_order`
/// feature is on somewhere in the build (then in insertion order).
fn sort_like_map(entries: &mut [(Cow<'_, str>, Node<'_>)]) {
    static SORTED: OnceLock<bool> = OnceLock::new();
    let sorted = *SORTED.get_or_init(|| {
        let mut m = Map::new();
        m.insert("b".to_owned(), Value::Null);
        m.insert("a".to_owned(), Value::Null);
        m.keys().next().is_some_and(|k| k == "a")
    });
    if sorted {
        entries.sort_by(|a, b| a.0.cmp(&b.0));
    }
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

/// Formats the node as compact JSON, as `serde_json` formats [`to_value`](Node::to_value).
impl fmt::Display for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_json(self, 0, f)
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
