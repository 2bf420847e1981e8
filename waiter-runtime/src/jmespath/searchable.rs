//! [`Searchable`]: the borrowed view of data that compiled JMESPath expressions walk.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::hash::BuildHasher;
use std::rc::Rc;
use std::sync::Arc;
use std::time::SystemTime;

use serde_json::{Map, Number, Value};

use super::node::{Array, Node, Object};

/// Data that a compiled JMESPath expression can search, without converting it first.
///
/// `node` returns the JMESPath view of the value: scalars by value, strings borrowed, arrays and
/// objects as views ([`SearchArray`], [`SearchObject`]) that yield their children on demand. A path
/// that reads one field therefore costs the same whatever the size of the rest of the data.
///
/// The trait is dyn-compatible: `&dyn Searchable` is searchable too.
///
/// # Data model
///
/// The mapping follows the Smithy data model used by waiters:
///
/// | Rust | JMESPath |
/// |---|---|
/// | `bool` | boolean |
/// | integers, `f32`, `f64` | number |
/// | `str`, `String`, `Cow<str>` | string |
/// | unit-only `enum` (derived) | string (the variant's wire name) |
/// | `Option<T>` | `null` when `None`, else `T` |
/// | `Vec<T>`, slices, arrays, `VecDeque`, sets | array |
/// | `HashMap<String, T>`, `BTreeMap<String, T>` | object |
/// | `struct` (derived) | object keyed by wire names (`#[serde(rename)]` honoured) |
/// | `enum` with data (derived) | object with the one member that is set (a Smithy union) |
/// | `SystemTime`, `#[searchable(timestamp)]` | number: seconds since the Unix epoch |
/// | `#[searchable(blob)]` on bytes | string: base64 |
/// | `serde_json::Value` | itself |
/// | any `T: Serialize`, wrapped in [`Serialized`] | its JSON form (converted per search) |
///
/// ```
/// use waiter_runtime::jmespath;
/// use waiter_runtime::jmespath::Searchable;
///
/// #[derive(Searchable)]
/// #[serde(rename_all = "PascalCase")]
/// struct Table { table_status: Status, item_count: u64 }
///
/// #[derive(Searchable)]
/// #[searchable(rename_all = "SCREAMING_SNAKE_CASE")]
/// enum Status { Creating, Active }
///
/// let table = Table { table_status: Status::Active, item_count: 3 };
/// let status = jmespath!("TableStatus").search(&table).unwrap();
/// assert_eq!(status.as_str(), Some("ACTIVE"));
/// assert_eq!(jmespath!("ItemCount > `2`").search(&table).unwrap(), serde_json::json!(true));
/// ```
pub trait Searchable {
    /// The JMESPath view of `self`.
    fn node(&self) -> Node<'_>;

    /// Follows a chain of member names (`a.b.c` is `&["a", "b", "c"]`) from this value.
    ///
    /// The default walks [`node`](Searchable::node) field by field. Derived types override it to
    /// match each name against their members directly, without building the intermediate
    /// nodes; compiled expressions call it for field chains.
    #[inline]
    fn follow(&self, path: &[&str]) -> Node<'_> {
        if path.is_empty() {
            self.node()
        } else {
            follow_node(self.node(), path)
        }
    }
    /// Pushes the result of [`follow`](Searchable::follow) onto `out` unless it is null (the
    /// body of a projection). Derived types override it to build the result in place.
    #[inline]
    fn follow_into<'a>(&'a self, path: &[&str], out: &mut Vec<Node<'a>>) {
        let n = self.follow(path);
        if !n.is_null() {
            out.push(n);
        }
    }

    /// Resolves a prefix of `path` against the static type, once per array: writes into `plan`
    /// one member index per resolved name and returns how many names it resolved (0 when the
    /// type does not know its members statically). Implemented by `#[derive(Searchable)]`;
    /// not meant to be called or overridden by hand.
    #[doc(hidden)]
    #[inline]
    fn __plan(path: &[&str], plan: &mut [u16]) -> usize
    where
        Self: Sized,
    {
        let _ = (path, plan);
        0
    }

    /// [`follow`](Searchable::follow) along a plan from [`__plan`](Searchable::__plan):
    /// `plan[i]` is the member index of `path[i]`, so each element of an array matches integers
    /// instead of member names. `slot` is null on entry; the result is written into it in place
    /// (no temporary copied into the output array); returns whether it is not null. Implemented by `#[derive(Searchable)]` and
    /// the leaf types; not meant to be called or overridden by hand.
    #[doc(hidden)]
    #[inline]
    fn __follow_planned<'a>(&'a self, plan: &[u16], path: &[&str], slot: &mut Node<'a>) -> bool
    where
        Self: Sized,
    {
        let _ = plan;
        fill(slot, self.follow(path))
    }

    /// [`__follow_planned`](Searchable::__follow_planned) when `plan` resolved the whole
    /// path: only member indices are matched, no name is left to check. Implemented by
    /// `#[derive(Searchable)]` and the leaf types; not meant to be called or overridden by hand.
    #[doc(hidden)]
    #[inline]
    fn __follow_resolved<'a>(&'a self, plan: &[u16], slot: &mut Node<'a>) -> bool
    where
        Self: Sized,
    {
        let _ = plan;
        fill(slot, self.node())
    }

    /// One step of `items[].a.b[].c.d` after `items[]`: follows `path` (the member indices in
    /// `plan` resolved) from `self`, then extends `out` as `[].c.d` does with `then`. Arrays
    /// reached by `path` project `then` over their elements with static dispatch. Implemented by
    /// `#[derive(Searchable)]` and the array types; not meant to be called or overridden by hand.
    #[doc(hidden)]
    #[inline]
    fn __follow_planned_extend<'a>(
        &'a self,
        plan: &[u16],
        path: &[&str],
        then: &mut Then<'_>,
        out: &mut Vec<Node<'a>>,
    ) where
        Self: Sized,
    {
        let _ = plan;
        flat_extend_follow(self.follow(path), then.path, out)
    }

    /// One element of `items[]` in `items[].a.b[].c.d`: an array splices its elements, anything
    /// else takes [`__follow_planned_extend`](Searchable::__follow_planned_extend). Derived
    /// structs (never arrays) override it; not meant to be called or overridden by hand.
    #[doc(hidden)]
    #[inline]
    fn __flat_follow_extend<'a>(
        &'a self,
        plan: &[u16],
        path: &[&str],
        then: &mut Then<'_>,
        out: &mut Vec<Node<'a>>,
    ) where
        Self: Sized,
    {
        let _ = plan;
        flat_follow_extend(self.node(), path, then.path, out)
    }
}

/// `[].c.d` applied to one value: arrays project `then` over their elements, anything else
/// follows `then` itself; non-null results are pushed.
#[inline]
pub fn flat_extend_follow<'a>(node: Node<'a>, then: &[&str], out: &mut Vec<Node<'a>>) {
    match node {
        Node::Array(Array::View(v)) => v.extend_follow(then, out),
        Node::Array(Array::Owned(items)) => {
            for n in items {
                let n = follow_node(n, then);
                if !n.is_null() {
                    out.push(n);
                }
            }
        }
        other => {
            let n = follow_node(other, then);
            if !n.is_null() {
                out.push(n);
            }
        }
    }
}

/// One element `el` of `items[]` in `items[].a.b[].c.d`: arrays splice their elements.
pub fn flat_follow_extend<'a>(el: Node<'a>, path: &[&str], then: &[&str], out: &mut Vec<Node<'a>>) {
    match el {
        Node::Array(a) => a.for_each(&mut |x| flat_extend_follow(follow_node(x, path), then, out)),
        other => flat_extend_follow(follow_node(other, path), then, out),
    }
}

/// The longest member chain resolved statically per array (longer chains resolve their first
/// `PLAN_MAX` names statically, the rest dynamically).
pub(crate) const PLAN_MAX: usize = 8;

/// Writes `node` into `slot`, which holds null (so there is nothing to drop): the write of a
/// planned walk's result, without a call to `Node`'s drop glue per element. Returns whether
/// `node` is not null.
#[inline(always)]
pub fn fill<'a>(slot: &mut Node<'a>, node: Node<'a>) -> bool {
    debug_assert!(slot.is_null());
    let found = !node.is_null();
    std::mem::forget(std::mem::replace(slot, node));
    found
}

/// The fallback of a planned walk that met an index it does not know (never for derived code),
/// or a member that is converted (blob, timestamp...): out of line, so the planned loops stay
/// small.
#[cold]
#[inline(never)]
pub fn follow_cold<'a, T: Searchable + ?Sized>(
    value: &'a T,
    path: &[&str],
    slot: &mut Node<'a>,
) -> bool {
    fill(slot, value.follow(path))
}

/// Like [`follow_cold`] from a converted member's node.
#[cold]
#[inline(never)]
pub fn follow_node_cold<'a>(node: Node<'a>, path: &[&str], slot: &mut Node<'a>) -> bool {
    fill(slot, follow_node(node, path))
}

/// Follows `path` from `node`: objects viewed in place use [`SearchObject::follow`].
#[inline]
pub fn follow_node<'a>(node: Node<'a>, path: &[&str]) -> Node<'a> {
    let Some((first, rest)) = path.split_first() else {
        return node;
    };
    match node {
        Node::Object(Object::View(o)) => o.follow(path),
        Node::Object(o) => follow_node(o.take(first).unwrap_or(Node::Null), rest),
        _ => Node::Null,
    }
}

/// An array in the searched data, read element by element.
pub trait SearchArray {
    /// Number of elements.
    fn len(&self) -> usize;

    /// Whether there is no element.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element at `index`, or `None` past the end.
    fn get(&self, index: usize) -> Option<Node<'_>>;

    /// Calls `f` on every element in order (override when indexing is not O(1)).
    fn for_each<'a>(&'a self, f: &mut dyn FnMut(Node<'a>)) {
        for i in 0..self.len() {
            if let Some(n) = self.get(i) {
                f(n);
            }
        }
    }

    /// Calls `f` on the result of following `path` from every element, in order.
    fn for_each_follow<'a>(&'a self, path: &[&str], f: &mut dyn FnMut(Node<'a>)) {
        self.for_each(&mut |n| f(follow_node(n, path)));
    }

    /// Pushes onto `out` the non-null results of following `path` from every element: the
    /// projection `items[*].a.b` in one call.
    fn extend_follow<'a>(&'a self, path: &[&str], out: &mut Vec<Node<'a>>) {
        self.for_each_follow(path, &mut |n| {
            if !n.is_null() {
                out.push(n);
            }
        });
    }

    /// `[].a.b[].c.d` over this array (`path` = `a.b`, `then` = `c.d`) into `out`, the way
    /// `Reservations[].Instances[].State.Name` reads. Slices of a static element type resolve
    /// each chain once and walk the elements with static dispatch; not meant to be called or
    /// overridden by hand.
    #[doc(hidden)]
    fn __extend_flat_follow_extend<'a>(
        &'a self,
        path: &[&str],
        then: &[&str],
        out: &mut Vec<Node<'a>>,
    ) {
        self.for_each(&mut |el| flat_follow_extend(el, path, then, out));
    }
}

/// An object in the searched data, read member by member.
pub trait SearchObject {
    /// The member named `name` (its wire name), or `None` when there is no such member.
    fn field(&self, name: &str) -> Option<Node<'_>>;

    /// Number of members.
    fn len(&self) -> usize;

    /// Whether there is no member.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `f` on every member, in the object's order.
    fn for_each_entry<'a>(&'a self, f: &mut dyn FnMut(&'a str, Node<'a>));

    /// Follows a non-empty chain of member names from this object (see [`Searchable::follow`]).
    fn follow(&self, path: &[&str]) -> Node<'_> {
        match path.split_first() {
            Some((first, rest)) => follow_node(self.field(first).unwrap_or(Node::Null), rest),
            None => Node::Null,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// scalars

impl Searchable for bool {
    fn node(&self) -> Node<'_> {
        Node::Bool(*self)
    }
}

macro_rules! number {
    ($($t:ty),*) => {$(
        impl Searchable for $t {
            fn node(&self) -> Node<'_> {
                Node::Number(Number::from(*self))
            }
        }
    )*};
}
number!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl Searchable for f64 {
    fn node(&self) -> Node<'_> {
        Number::from_f64(*self).map_or(Node::Null, Node::Number)
    }
}

impl Searchable for f32 {
    fn node(&self) -> Node<'_> {
        f64::from(*self).node().into_owned()
    }
}

impl Searchable for str {
    fn node(&self) -> Node<'_> {
        Node::str(self)
    }
}

/// Owned and borrowed strings are leaves: a planned walk ends at them.
macro_rules! string_leaf {
    ($($ty:ty),*) => {$(
        impl Searchable for $ty {
            fn node(&self) -> Node<'_> {
                Node::str(self)
            }
            #[inline]
            fn __follow_planned<'a>(&'a self, _: &[u16], path: &[&str], slot: &mut Node<'a>) -> bool {
                path.is_empty() && fill(slot, Node::String(Cow::Borrowed(self)))
            }
            #[inline]
            fn __follow_resolved<'a>(&'a self, _: &[u16], slot: &mut Node<'a>) -> bool {
                fill(slot, Node::String(Cow::Borrowed(self)))
            }
        }
    )*};
}

string_leaf!(String, Cow<'_, str>);

impl Searchable for () {
    fn node(&self) -> Node<'_> {
        Node::Null
    }
}

/// Seconds since the Unix epoch (negative before it), with sub-second precision.
impl Searchable for SystemTime {
    fn node(&self) -> Node<'_> {
        super::data_model::timestamp(self)
    }
}

impl Searchable for Value {
    fn node(&self) -> Node<'_> {
        match self {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(*b),
            Value::Number(n) => Node::Number(n.clone()),
            Value::String(s) => Node::str(s),
            Value::Array(a) => Node::Array(Array::View(a)),
            Value::Object(o) => Node::Object(Object::View(o)),
        }
    }
}

impl Searchable for Map<String, Value> {
    fn node(&self) -> Node<'_> {
        Node::Object(Object::View(self))
    }
}

impl SearchObject for Map<String, Value> {
    fn field(&self, name: &str) -> Option<Node<'_>> {
        self.get(name).map(Searchable::node)
    }
    fn len(&self) -> usize {
        Map::len(self)
    }
    fn for_each_entry<'a>(&'a self, f: &mut dyn FnMut(&'a str, Node<'a>)) {
        for (k, v) in self {
            f(k, v.node());
        }
    }
}

impl Searchable for Node<'_> {
    fn node(&self) -> Node<'_> {
        self.clone()
    }
}

// ---------------------------------------------------------------------------------------------
// wrappers

impl<T: Searchable> Searchable for Option<T> {
    fn node(&self) -> Node<'_> {
        match self {
            Some(v) => v.node(),
            None => Node::Null,
        }
    }
    #[inline]
    fn follow(&self, path: &[&str]) -> Node<'_> {
        match self {
            Some(v) => v.follow(path),
            None => Node::Null,
        }
    }
    #[inline]
    fn follow_into<'a>(&'a self, path: &[&str], out: &mut Vec<Node<'a>>) {
        if let Some(v) = self {
            v.follow_into(path, out)
        }
    }
    #[inline]
    fn __plan(path: &[&str], plan: &mut [u16]) -> usize {
        T::__plan(path, plan)
    }
    #[inline]
    fn __follow_planned<'a>(&'a self, plan: &[u16], path: &[&str], slot: &mut Node<'a>) -> bool {
        match self {
            Some(v) => v.__follow_planned(plan, path, slot),
            None => false,
        }
    }
    #[inline]
    fn __follow_resolved<'a>(&'a self, plan: &[u16], slot: &mut Node<'a>) -> bool {
        match self {
            Some(v) => v.__follow_resolved(plan, slot),
            None => false,
        }
    }
    #[inline]
    fn __follow_planned_extend<'a>(
        &'a self,
        plan: &[u16],
        path: &[&str],
        then: &mut Then<'_>,
        out: &mut Vec<Node<'a>>,
    ) {
        if let Some(v) = self {
            v.__follow_planned_extend(plan, path, then, out)
        }
    }
    #[inline]
    fn __flat_follow_extend<'a>(
        &'a self,
        plan: &[u16],
        path: &[&str],
        then: &mut Then<'_>,
        out: &mut Vec<Node<'a>>,
    ) {
        if let Some(v) = self {
            v.__flat_follow_extend(plan, path, then, out)
        }
    }
}

/// Smart pointers and references search as what they point to.
macro_rules! forward_searchable {
    ($($ty:ty),*) => {$(
        impl<T: Searchable + ?Sized> Searchable for $ty {
            fn node(&self) -> Node<'_> {
                (**self).node()
            }
            #[inline]
            fn follow(&self, path: &[&str]) -> Node<'_> {
                (**self).follow(path)
            }
            #[inline]
            fn follow_into<'a>(&'a self, path: &[&str], out: &mut Vec<Node<'a>>) {
                (**self).follow_into(path, out)
            }
        }
    )*};
}

forward_searchable!(&T, &mut T, Box<T>, Rc<T>, Arc<T>);

/// The projection of `path` over `items`, with `plan` (from `T::__plan(path)`) resolved.
#[inline]
fn extend_planned<'a, T: Searchable>(
    items: &'a [T],
    plan: &[u16],
    path: &[&str],
    out: &mut Vec<Node<'a>>,
) {
    // Each element yields at most one node, written in place into its own null slot (no
    // temporary copied into the vector); the nulls left, if any, are squeezed out after.
    let start = out.len();
    out.extend(std::iter::repeat_n((), items.len()).map(|()| Node::Null));
    let mut found = 0;
    if plan.len() == path.len() {
        for (v, slot) in items.iter().zip(&mut out[start..]) {
            found += usize::from(v.__follow_resolved(plan, slot));
        }
    } else {
        for (v, slot) in items.iter().zip(&mut out[start..]) {
            found += usize::from(v.__follow_planned(plan, path, slot));
        }
    }
    if found < items.len() {
        let mut kept = start;
        for i in start..out.len() {
            if !out[i].is_null() {
                out.swap(kept, i);
                kept += 1;
            }
        }
        out.truncate(kept);
    }
}

/// The trailing chain of `items[].a.b[].c.d` (`c.d`), with its plan resolved on first use and
/// reused for every inner array of one outer array (they all have the same element type).
#[doc(hidden)]
pub struct Then<'p> {
    path: &'p [&'p str],
    plan: [u16; PLAN_MAX],
    resolved: Option<usize>,
}

impl<'p> Then<'p> {
    fn new(path: &'p [&'p str]) -> Self {
        Then {
            path,
            plan: [0; PLAN_MAX],
            resolved: None,
        }
    }

    /// The chain.
    #[inline]
    pub fn path(&self) -> &'p [&'p str] {
        self.path
    }

    /// Projects the chain over `items`, resolving its plan for `T` on first use.
    #[inline]
    fn extend<'a, T: Searchable>(&mut self, items: &'a [T], out: &mut Vec<Node<'a>>) {
        let n = match self.resolved {
            Some(n) => n,
            None => {
                let n = T::__plan(self.path, &mut self.plan);
                self.resolved = Some(n);
                n
            }
        };
        extend_planned(items, &self.plan[..n], self.path, out)
    }
}

// ---------------------------------------------------------------------------------------------
// lists and sets

impl<T: Searchable> SearchArray for [T] {
    fn len(&self) -> usize {
        <[T]>::len(self)
    }
    fn get(&self, index: usize) -> Option<Node<'_>> {
        <[T]>::get(self, index).map(Searchable::node)
    }
    fn for_each<'a>(&'a self, f: &mut dyn FnMut(Node<'a>)) {
        for v in self {
            f(v.node());
        }
    }
    fn for_each_follow<'a>(&'a self, path: &[&str], f: &mut dyn FnMut(Node<'a>)) {
        for v in self {
            f(v.follow(path));
        }
    }
    fn extend_follow<'a>(&'a self, path: &[&str], out: &mut Vec<Node<'a>>) {
        // Member names are matched once here, not once per element.
        let mut buf = [0u16; PLAN_MAX];
        let n = T::__plan(path, &mut buf);
        extend_planned(self, &buf[..n], path, out)
    }
    fn __extend_flat_follow_extend<'a>(
        &'a self,
        path: &[&str],
        then: &[&str],
        out: &mut Vec<Node<'a>>,
    ) {
        let mut buf = [0u16; PLAN_MAX];
        let n = T::__plan(path, &mut buf);
        let plan = &buf[..n];
        let mut then = Then::new(then);
        for v in self {
            v.__flat_follow_extend(plan, path, &mut then, out);
        }
    }
}

macro_rules! list {
    ($($t:ty),*) => {$(
        impl<T: Searchable> SearchArray for $t {
            fn len(&self) -> usize {
                self.as_slice().len()
            }
            fn get(&self, index: usize) -> Option<Node<'_>> {
                self.as_slice().get(index).map(Searchable::node)
            }
            fn for_each<'a>(&'a self, f: &mut dyn FnMut(Node<'a>)) {
                for v in self.as_slice() {
                    f(v.node());
                }
            }
            fn for_each_follow<'a>(&'a self, path: &[&str], f: &mut dyn FnMut(Node<'a>)) {
                for v in self.as_slice() {
                    f(v.follow(path));
                }
            }
            fn extend_follow<'a>(&'a self, path: &[&str], out: &mut Vec<Node<'a>>) {
                self.as_slice().extend_follow(path, out)
            }
            fn __extend_flat_follow_extend<'a>(
                &'a self,
                path: &[&str],
                then: &[&str],
                out: &mut Vec<Node<'a>>,
            ) {
                self.as_slice().__extend_flat_follow_extend(path, then, out)
            }
        }
        impl<T: Searchable> Searchable for $t {
            fn node(&self) -> Node<'_> {
                Node::Array(Array::View(self))
            }
            #[inline]
            fn __follow_planned_extend<'a>(
                &'a self,
                _: &[u16],
                path: &[&str],
                then: &mut Then<'_>,
                out: &mut Vec<Node<'a>>,
            ) {
                // A member of an array is null; the array itself projects `then` statically.
                if path.is_empty() {
                    then.extend(self.as_slice(), out)
                }
            }
        }
    )*};
}

/// Slices are unsized, so their view is a list of element views (one allocation, no deep copy).
impl<T: Searchable> Searchable for [T] {
    fn node(&self) -> Node<'_> {
        Node::Array(Array::Owned(self.iter().map(Searchable::node).collect()))
    }
}

list!(Vec<T>);

impl<T: Searchable, const N: usize> SearchArray for [T; N] {
    fn len(&self) -> usize {
        N
    }
    fn get(&self, index: usize) -> Option<Node<'_>> {
        self.as_slice().get(index).map(Searchable::node)
    }
}

impl<T: Searchable, const N: usize> Searchable for [T; N] {
    fn node(&self) -> Node<'_> {
        Node::Array(Array::View(self))
    }
}

impl<T: Searchable> SearchArray for VecDeque<T> {
    fn len(&self) -> usize {
        VecDeque::len(self)
    }
    fn get(&self, index: usize) -> Option<Node<'_>> {
        VecDeque::get(self, index).map(Searchable::node)
    }
}

impl<T: Searchable> Searchable for VecDeque<T> {
    fn node(&self) -> Node<'_> {
        Node::Array(Array::View(self))
    }
}

macro_rules! set {
    ($t:ident $(, $bound:path)* $(; $s:ident)?) => {
        impl<T: Searchable $(+ $bound)* $(, $s: BuildHasher)?> SearchArray for $t<T $(, $s)?> {
            fn len(&self) -> usize {
                $t::len(self)
            }
            fn get(&self, index: usize) -> Option<Node<'_>> {
                self.iter().nth(index).map(Searchable::node)
            }
            fn for_each<'a>(&'a self, f: &mut dyn FnMut(Node<'a>)) {
                for v in self {
                    f(v.node());
                }
            }
        }
        impl<T: Searchable $(+ $bound)* $(, $s: BuildHasher)?> Searchable for $t<T $(, $s)?> {
            fn node(&self) -> Node<'_> {
                Node::Array(Array::View(self))
            }
        }
    };
}
set!(BTreeSet);
set!(HashSet; S);

// ---------------------------------------------------------------------------------------------
// maps

macro_rules! map {
    ($t:ident $(; $s:ident)?) => {
        impl<K, T $(, $s)?> SearchObject for $t<K, T $(, $s)?>
        where
            K: std::borrow::Borrow<str> + Ord + std::hash::Hash,
            T: Searchable,
            $($s: BuildHasher,)?
        {
            fn field(&self, name: &str) -> Option<Node<'_>> {
                self.get(name).map(Searchable::node)
            }
            fn len(&self) -> usize {
                $t::len(self)
            }
            fn for_each_entry<'a>(&'a self, f: &mut dyn FnMut(&'a str, Node<'a>)) {
                for (k, v) in self {
                    f(k.borrow(), v.node());
                }
            }
        }
        impl<K, T $(, $s)?> Searchable for $t<K, T $(, $s)?>
        where
            K: std::borrow::Borrow<str> + Ord + std::hash::Hash,
            T: Searchable,
            $($s: BuildHasher,)?
        {
            fn node(&self) -> Node<'_> {
                Node::Object(Object::View(self))
            }
        }
    };
}
map!(BTreeMap);
map!(HashMap; S);

// ---------------------------------------------------------------------------------------------
// the Serialize opt-in

/// Makes any `T: serde::Serialize` searchable, for types that cannot derive [`Searchable`].
///
/// The value is converted to a `serde_json::Value` on every search (the one case where the whole
/// data is converted); prefer `#[derive(Searchable)]` on your own types. A value that fails to
/// serialize searches as `null`.
///
/// ```
/// use waiter_runtime::jmespath;
/// use waiter_runtime::jmespath::Serialized;
///
/// #[derive(serde::Serialize)]
/// struct Foreign { state: &'static str }
///
/// let value = Foreign { state: "ready" };
/// let view = Serialized(&value);
/// let found = jmespath!("state").search(&view).unwrap();
/// assert_eq!(found.as_str(), Some("ready"));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Serialized<T>(pub T);

impl<T: serde::Serialize> Searchable for Serialized<T> {
    fn node(&self) -> Node<'_> {
        Node::from_value(serde_json::to_value(&self.0).unwrap_or(Value::Null))
    }
}
