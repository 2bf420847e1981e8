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

    /// The one entry point of compiled projections (`items[*].a.b`, `items[].a.b[].c.d`):
    /// follows `walk`'s chain from `self` and pushes what it finds, with static dispatch all the
    /// way down for derived types, strings, `Option`, `Vec` and `serde_json::Value`. The default
    /// goes through [`node`](Searchable::node). Implemented by `#[derive(Searchable)]`;
    /// forwarded by references and smart pointers; not meant to be called or implemented by
    /// hand.
    #[doc(hidden)]
    #[inline]
    fn __walk<'a>(&'a self, walk: Walk<'_, 'a>) {
        walk.node(self.node())
    }
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

/// The result of a projection being built: borrowed strings while every result is one (no
/// per-element conversion or drop), nodes from the first result that is not.
#[doc(hidden)]
#[derive(Default)]
pub struct Out<'a> {
    strs: Vec<&'a str>,
    nodes: Vec<Node<'a>>,
}

impl<'a> Out<'a> {
    /// An empty result.
    #[inline]
    pub fn new() -> Self {
        Out::default()
    }

    /// Pushes a string borrowed from the data.
    #[inline(always)]
    pub fn push_str(&mut self, s: &'a str) {
        if self.nodes.is_empty() {
            self.strs.push(s);
        } else {
            self.nodes.push(Node::str(s));
        }
    }

    /// Pushes `node` unless it is null.
    #[inline]
    pub fn push(&mut self, node: Node<'a>) {
        match node {
            Node::Null => {}
            Node::String(Cow::Borrowed(s)) => self.push_str(s),
            other => {
                if self.nodes.is_empty() {
                    self.nodes.reserve(self.strs.len() + 1);
                    self.nodes.extend(self.strs.drain(..).map(Node::str));
                }
                self.nodes.push(other);
            }
        }
    }

    /// The array built.
    #[inline]
    pub fn finish(self) -> Node<'a> {
        if self.nodes.is_empty() {
            Node::Array(Array::Strs(self.strs))
        } else {
            Node::Array(Array::Owned(self.nodes))
        }
    }
}

/// What [`Searchable::__walk`] does with a value: follow the path (from position `at`); then,
/// without `then`, push the result; with `then`, flatten the result (`[]`) and push `then`
/// followed from each of its elements. When `flat` (and `at` is 0), the value is itself an
/// element of a flatten (`items[]`): an array walks each of its elements instead.
///
/// Over an array, the first element's walk records which member each name resolved to (a
/// plan: per level, the member index and the key of the derived type that resolved it); the
/// other elements follow the plan by index while each level's key matches, and by name at a
/// level whose key differs (elements reached through `dyn Searchable` can differ).
///
/// Two words (passed in registers): the walk's state lives in a [`Cx`] shared by all levels.
#[doc(hidden)]
pub struct Walk<'w, 'a> {
    cx: &'w mut Cx<'a>,
    at: usize,
}

/// The state of a walk over one array (see [`Walk`]).
#[doc(hidden)]
pub struct Cx<'a> {
    path: &'static [&'static str],
    then: Option<&'static [&'static str]>,
    flat: bool,
    /// The first element of an array is being walked: resolved names are recorded.
    recording: bool,
    key: usize,
    /// 0 for the outer array, 1 for the arrays inside its elements (the compiled code nests
    /// at most that deep; deeper arrays get a context of their own).
    level: usize,
    /// The plan of the array walked now, and the plan of the other level.
    active: Plan,
    other: Plan,
    out: Out<'a>,
}

#[derive(Clone, Copy, Default)]
struct PlanStep {
    key: usize,
    index: usize,
}

/// The member chain resolved on an array's first element.
#[derive(Default)]
struct Plan {
    steps: [PlanStep; PLAN_MAX],
    len: usize,
}

/// The longest member chain an array plan records.
const PLAN_MAX: usize = 6;

/// The next step of a walk through a derived struct: see [`Walk::step`].
#[doc(hidden)]
pub enum Step<'w, 'a> {
    /// No name left: the struct itself is reached.
    Here(Walk<'w, 'a>),
    /// The plan says: member number `.0`.
    Member(usize, Walk<'w, 'a>),
    /// Match the name `.0` against the members, then call [`Walk::resolved`] (or
    /// [`Walk::field`] when no member has that name).
    Name(&'static str, Walk<'w, 'a>),
}

impl<'a> Cx<'a> {
    /// `items[*].a.b` (`path` = `a.b`), collecting into `out`.
    #[inline]
    pub fn new(path: &'static [&'static str], out: Out<'a>) -> Self {
        Cx {
            path,
            then: None,
            flat: false,
            recording: false,
            key: 0,
            level: 0,
            active: Plan::default(),
            other: Plan::default(),
            out,
        }
    }

    /// `items[].a.b[].c.d` (`path` = `a.b`, `then` = `c.d`), collecting into `out`.
    #[inline]
    pub fn flat(
        path: &'static [&'static str],
        then: &'static [&'static str],
        out: Out<'a>,
    ) -> Self {
        Cx {
            then: Some(then),
            flat: true,
            ..Cx::new(path, out)
        }
    }

    /// The walk of one element.
    #[inline(always)]
    pub fn walk(&mut self) -> Walk<'_, 'a> {
        Walk { cx: self, at: 0 }
    }

    /// What was collected.
    #[inline]
    pub fn into_out(self) -> Out<'a> {
        self.out
    }
}

impl<'w, 'a> Walk<'w, 'a> {
    /// The same walk for another value.
    #[inline(always)]
    pub fn reborrow(&mut self) -> Walk<'_, 'a> {
        Walk {
            cx: self.cx,
            at: self.at,
        }
    }

    /// The names left to follow.
    #[inline(always)]
    pub fn path(&self) -> &'static [&'static str] {
        self.cx.path.get(self.at..).unwrap_or(&[])
    }

    /// One level down a derived struct whose key is `key` (the address of a static of the
    /// derived impl): by the plan's index when the plan has this level for this type, else by
    /// name.
    #[inline(always)]
    pub fn step(self, key: &'static &'static str) -> Step<'w, 'a> {
        let key = key as *const &str as usize;
        let at = self.at;
        let cx = self.cx;
        // The plan covers a prefix of the path: within it, the index if the type matches.
        if let Some(s) = cx.active.steps[..cx.active.len].get(at) {
            if s.key == key {
                let index = s.index;
                return Step::Member(index, Walk { cx, at: at + 1 });
            }
        }
        let Some(first) = cx.path.get(at).copied() else {
            return Step::Here(Walk { cx, at });
        };
        if cx.recording {
            cx.key = key;
        }
        Step::Name(first, Walk { cx, at: at + 1 })
    }

    /// After [`Step::Name`]: the name is member number `index` (recorded when planning).
    #[inline(always)]
    pub fn resolved(self, index: usize) -> Self {
        let cx = &mut *self.cx;
        if cx.recording && cx.active.len + 1 == self.at && self.at <= PLAN_MAX {
            cx.active.steps[self.at - 1] = PlanStep { key: cx.key, index };
            cx.active.len = self.at;
        }
        self
    }

    /// After [`Step::Name`]: no plain member has the name (flattened members, or none): the
    /// object's dynamic view answers (the plan stops before this level).
    #[inline]
    pub fn field(self, o: &'a dyn SearchObject, name: &str) {
        self.node(o.field(name).unwrap_or(Node::Null))
    }

    /// The walk from the member `path()[0]` of an object that is not derived (by name).
    #[inline(always)]
    pub fn member(self) -> Self {
        Walk {
            cx: self.cx,
            at: self.at + 1,
        }
    }

    /// Any value, through its node (out of line: the planned walks stay small enough to
    /// inline into the loop over an array).
    #[inline(never)]
    pub fn node(self, node: Node<'a>) {
        let cx = self.cx;
        match node {
            Node::Array(a) if cx.flat && self.at == 0 => {
                let mut inner = Cx {
                    flat: false,
                    ..Cx::new(cx.path, std::mem::take(&mut cx.out))
                };
                inner.then = cx.then;
                a.for_each(&mut |el| inner.walk().node(el));
                cx.out = inner.out;
            }
            node => {
                let found = follow_node(node, cx.path.get(self.at..).unwrap_or(&[]));
                match cx.then {
                    None => cx.out.push(found),
                    Some(then) => match found {
                        Node::Null => {}
                        Node::Array(a) => {
                            a.for_each(&mut |el| cx.out.push(follow_node(el, then)));
                        }
                        other => cx.out.push(follow_node(other, then)),
                    },
                }
            }
        }
    }

    /// A string of the data.
    #[inline(always)]
    pub fn str(self, s: &'a str) {
        let cx = self.cx;
        if self.at >= cx.path.len() {
            match cx.then {
                None | Some([]) => cx.out.push_str(s),
                Some(_) => {}
            }
        }
    }

    /// An object of the data viewed in place, reached (no name left to follow).
    #[inline]
    pub fn object(self, o: &'a dyn SearchObject) {
        self.node(Node::Object(Object::View(o)))
    }

    /// An array of the data, `items` viewed as `view` (out of line, once per array).
    #[inline(never)]
    pub fn array<T: Searchable>(self, items: &'a [T], view: &'a dyn SearchArray) {
        let cx = self.cx;
        let (inner, then) = if cx.flat && self.at == 0 {
            // An element of `items[]` that is an array: its elements, same path and `then`.
            (cx.path, cx.then)
        } else if self.at >= cx.path.len() {
            match cx.then {
                None => return cx.out.push(Node::Array(Array::View(view))),
                // `[].c.d` over the array reached.
                Some(then) => (then, None),
            }
        } else {
            return;
        };
        if cx.level > 0 {
            // Deeper than the compiled code nests: walk with a context of its own.
            let mut deeper = Cx::new(inner, std::mem::take(&mut cx.out));
            deeper.then = then;
            walk_items(items, &mut deeper);
            cx.out = deeper.out;
            return;
        }
        let saved = (cx.path, cx.then, cx.flat, cx.recording);
        cx.then = then;
        cx.path = inner;
        cx.flat = false;
        cx.recording = false;
        cx.level = 1;
        std::mem::swap(&mut cx.active, &mut cx.other);
        walk_items(items, cx);
        std::mem::swap(&mut cx.active, &mut cx.other);
        cx.level = 0;
        (cx.path, cx.then, cx.flat, cx.recording) = saved;
    }
}

/// `cx`'s walk on every element of `items`: the first element records a plan, the others
/// follow it. The plan is kept for the next arrays of the same walk (all the inner arrays of
/// `items[].a.b[].c.d`): keys make that safe even when their element types differ.
#[inline]
fn walk_items<'a, T: Searchable>(items: &'a [T], cx: &mut Cx<'a>) {
    let recording = cx.recording;
    let mut rest = items;
    if cx.active.len == 0 && !cx.path.is_empty() {
        let Some((first, others)) = items.split_first() else {
            return;
        };
        cx.recording = true;
        first.__walk(cx.walk());
        rest = others;
    }
    cx.recording = false;
    for el in rest {
        el.__walk(cx.walk());
    }
    cx.recording = recording;
}

/// An array in the searched data, read element by element.
///
/// `Sync`, so that search results ([`Node`]) are `Send + Sync`.
pub trait SearchArray: Sync {
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

    /// [`Searchable::__walk`] on every element: a compiled projection over this array, in one
    /// call. Arrays of a static element type walk it with static dispatch; not meant to be
    /// called or implemented by hand.
    #[doc(hidden)]
    fn __walk_items<'a>(&'a self, cx: &mut Cx<'a>) {
        self.for_each(&mut |el| cx.walk().node(el));
    }
}

/// An object in the searched data, read member by member.
///
/// `Sync`, so that search results ([`Node`]) are `Send + Sync`.
pub trait SearchObject: Sync {
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
    #[inline(always)]
    fn __walk<'a>(&'a self, walk: Walk<'_, 'a>) {
        walk.str(self)
    }
}

/// Owned and borrowed strings are leaves: a projection pushes them as they are.
macro_rules! string_leaf {
    ($($ty:ty),*) => {$(
        impl Searchable for $ty {
            fn node(&self) -> Node<'_> {
                Node::str(self)
            }
            #[inline(always)]
            fn __walk<'a>(&'a self, walk: Walk<'_, 'a>) {
                walk.str(self)
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
    #[inline]
    fn follow(&self, path: &[&str]) -> Node<'_> {
        let mut v = self;
        for name in path {
            match v {
                Value::Object(o) => match o.get(*name) {
                    Some(x) => v = x,
                    None => return Node::Null,
                },
                _ => return Node::Null,
            }
        }
        v.node()
    }
    #[inline]
    fn __walk<'a>(&'a self, walk: Walk<'_, 'a>) {
        match self {
            Value::Array(a) => walk.array(a, a),
            Value::Object(o) => match walk.path().first() {
                Some(first) => {
                    if let Some(v) = o.get(*first) {
                        v.__walk(walk.member())
                    }
                }
                None => walk.object(o),
            },
            Value::String(s) => walk.str(s),
            other => walk.node(other.node()),
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
    #[inline(always)]
    fn __walk<'a>(&'a self, walk: Walk<'_, 'a>) {
        if let Some(v) = self {
            v.__walk(walk)
        }
    }
}

/// Smart pointers and references search as what they point to, projections included (the
/// hidden walk is forwarded, so `Vec<Box<T>>` keeps the static dispatch of `Vec<T>`).
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
            #[inline(always)]
            fn __walk<'a>(&'a self, walk: Walk<'_, 'a>) {
                (**self).__walk(walk)
            }
        }
    )*};
}

forward_searchable!(&T, &mut T, Box<T>, Rc<T>, Arc<T>);

// ---------------------------------------------------------------------------------------------
// lists and sets

impl<T: Searchable + Sync> SearchArray for [T] {
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
    #[inline]
    fn __walk_items<'a>(&'a self, cx: &mut Cx<'a>) {
        walk_items(self, cx)
    }
}

macro_rules! list {
    ($($t:ty),*) => {$(
        impl<T: Searchable + Sync> SearchArray for $t {
            fn len(&self) -> usize {
                self.as_slice().len()
            }
            fn get(&self, index: usize) -> Option<Node<'_>> {
                self.as_slice().get(index).map(Searchable::node)
            }
            fn for_each<'a>(&'a self, f: &mut dyn FnMut(Node<'a>)) {
                self.as_slice().for_each(f)
            }
            fn for_each_follow<'a>(&'a self, path: &[&str], f: &mut dyn FnMut(Node<'a>)) {
                self.as_slice().for_each_follow(path, f)
            }
            #[inline]
            fn __walk_items<'a>(&'a self, cx: &mut Cx<'a>) {
                self.as_slice().__walk_items(cx)
            }
        }
        impl<T: Searchable + Sync> Searchable for $t {
            fn node(&self) -> Node<'_> {
                Node::Array(Array::View(self))
            }
            #[inline]
            fn __walk<'a>(&'a self, walk: Walk<'_, 'a>) {
                walk.array(self.as_slice(), self)
            }
        }
    )*};
}

list!(Vec<T>);

impl<T: Searchable + Sync, const N: usize> SearchArray for [T; N] {
    fn len(&self) -> usize {
        N
    }
    fn get(&self, index: usize) -> Option<Node<'_>> {
        self.as_slice().get(index).map(Searchable::node)
    }
    fn for_each<'a>(&'a self, f: &mut dyn FnMut(Node<'a>)) {
        self.as_slice().for_each(f)
    }
    fn __walk_items<'a>(&'a self, cx: &mut Cx<'a>) {
        self.as_slice().__walk_items(cx)
    }
}

impl<T: Searchable + Sync, const N: usize> Searchable for [T; N] {
    fn node(&self) -> Node<'_> {
        Node::Array(Array::View(self))
    }
    #[inline]
    fn __walk<'a>(&'a self, walk: Walk<'_, 'a>) {
        walk.array(self.as_slice(), self)
    }
}

/// Slices are unsized, so their view is a list of element views (one allocation, no deep copy).
impl<T: Searchable> Searchable for [T] {
    fn node(&self) -> Node<'_> {
        Node::Array(Array::Owned(self.iter().map(Searchable::node).collect()))
    }
}

impl<T: Searchable + Sync> SearchArray for VecDeque<T> {
    fn len(&self) -> usize {
        VecDeque::len(self)
    }
    fn get(&self, index: usize) -> Option<Node<'_>> {
        VecDeque::get(self, index).map(Searchable::node)
    }
    fn for_each<'a>(&'a self, f: &mut dyn FnMut(Node<'a>)) {
        for v in self {
            f(v.node());
        }
    }
}

impl<T: Searchable + Sync> Searchable for VecDeque<T> {
    fn node(&self) -> Node<'_> {
        Node::Array(Array::View(self))
    }
}

macro_rules! set {
    ($t:ident $(, $bound:path)* $(; $s:ident)?) => {
        impl<T: Searchable + Sync $(+ $bound)* $(, $s: BuildHasher + Sync)?> SearchArray for $t<T $(, $s)?> {
            fn len(&self) -> usize {
                $t::len(self)
            }
            /// Walks to the element: O(index). Whole-array operations use `for_each`.
            fn get(&self, index: usize) -> Option<Node<'_>> {
                self.iter().nth(index).map(Searchable::node)
            }
            fn for_each<'a>(&'a self, f: &mut dyn FnMut(Node<'a>)) {
                for v in self {
                    f(v.node());
                }
            }
            fn __walk_items<'a>(&'a self, cx: &mut Cx<'a>) {
                for v in self {
                    v.__walk(cx.walk());
                }
            }
        }
        impl<T: Searchable + Sync $(+ $bound)* $(, $s: BuildHasher + Sync)?> Searchable for $t<T $(, $s)?> {
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
            K: std::borrow::Borrow<str> + Ord + std::hash::Hash + Sync,
            T: Searchable + Sync,
            $($s: BuildHasher + Sync,)?
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
            K: std::borrow::Borrow<str> + Ord + std::hash::Hash + Sync,
            T: Searchable + Sync,
            $($s: BuildHasher + Sync,)?
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
