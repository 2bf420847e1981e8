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
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not implement `Searchable`",
    note = "add `#[derive(waiter_runtime::Searchable)]` to `{Self}` (it reads serde's renames), or implement `waiter_runtime::Searchable` for it"
)]
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

    /// The walk of compiled projections (`items[*].a.b`, `items[].a.b[].c.d`) from one
    /// element: follows `walk`'s names from `self` and pushes what it finds into `sink`, with
    /// static dispatch all the way down for derived types, strings, `Option`, `Vec` and
    /// `serde_json::Value`. The default goes through [`node`](Searchable::node).
    ///
    /// Plumbing of `jmespath!` and `#[derive(Searchable)]`, like the two methods below:
    /// implemented by the derive, forwarded by references and smart pointers; not meant to be
    /// called or implemented by hand.
    #[doc(hidden)]
    #[inline]
    fn __walk<'a>(&'a self, walk: Walk<'_>, sink: &mut Sink<'_, 'a>) {
        walk.node(self.node(), sink)
    }

    /// [`__walk`](Searchable::__walk) on every element of `items`, all at the same level of
    /// the same plan. Derived structs choose the member once for the whole array, and the
    /// member's type chooses its own member once too ([`__walk_in`](Searchable::__walk_in)).
    /// Hidden plumbing (see `__walk`).
    #[doc(hidden)]
    #[inline]
    fn __walk_slice<'a>(items: &'a [Self], walk: Walk<'_>, sink: &mut Sink<'_, 'a>)
    where
        Self: Sized,
    {
        Self::__walk_in(items, Some, walk, sink)
    }

    /// [`__walk`](Searchable::__walk) on `get(p)` for every `p` of `items` (skipping `None`):
    /// the values of one member of an array's elements. Derived structs choose their member
    /// once and loop; `Option` forwards. Hidden plumbing (see `__walk`).
    #[doc(hidden)]
    #[inline]
    fn __walk_in<'a, P, G>(items: &'a [P], get: G, walk: Walk<'_>, sink: &mut Sink<'_, 'a>)
    where
        Self: Sized + 'a,
        G: Fn(&'a P) -> Option<&'a Self>,
    {
        for p in items {
            if let Some(v) = get(p) {
                v.__walk(walk, sink);
            }
        }
    }

    /// Records in `plan`, from level `at`, the members its names resolve to in `self`
    /// ([`Plan::name`], [`Plan::push`]); the default records nothing (walked by name).
    /// Hidden plumbing (see `__walk`).
    #[doc(hidden)]
    #[inline]
    fn __record(&self, plan: &mut Plan, at: usize) {
        let _ = (plan, at);
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

/// The result of a projection being built: borrowed strings pushed as they are (no
/// per-element conversion, check or drop), other results aside with their place.
#[doc(hidden)]
#[derive(Default)]
pub struct Out<'a> {
    strs: Vec<&'a str>,
    /// Results that are not borrowed strings, each with its index among all results.
    others: Vec<(usize, Node<'a>)>,
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
        self.strs.push(s);
    }

    /// Room for `n` more strings.
    #[inline]
    pub fn reserve(&mut self, n: usize) {
        self.strs.reserve(n);
    }

    /// Pushes `node` unless it is null.
    #[inline]
    pub fn push(&mut self, node: Node<'a>) {
        match node {
            Node::Null => {}
            Node::String(Cow::Borrowed(s)) => self.push_str(s),
            other => {
                let at = self.strs.len() + self.others.len();
                self.others.push((at, other));
            }
        }
    }

    /// The array built.
    #[inline]
    pub fn finish(self) -> Node<'a> {
        if self.others.is_empty() {
            return Node::Array(Array::Strs(self.strs));
        }
        let mut all = Vec::with_capacity(self.strs.len() + self.others.len());
        let mut strs = self.strs.into_iter();
        for (at, node) in self.others {
            while all.len() < at {
                match strs.next() {
                    Some(s) => all.push(Node::str(s)),
                    None => break,
                }
            }
            all.push(node);
        }
        all.extend(strs.map(Node::str));
        Node::Array(Array::Owned(all))
    }
}

/// The member chain of a compiled projection, resolved against an array's elements: per level,
/// the member index and the key of the derived type that resolved it (the address of a static
/// of the derived impl). Recorded once per array ([`Searchable::__record`] on its first
/// elements), then read only: every element follows it by index while a level's key matches
/// its type, and by name at a level whose key differs (elements reached through
/// `dyn Searchable` can differ) or past the recorded prefix.
#[doc(hidden)]
pub struct Plan {
    names: &'static [&'static str],
    /// The elements are those of `items[]`: an element that is an array walks its elements.
    flat: bool,
    /// Values reached are projected by the sink's `then` plan (arrays) or followed by it,
    /// rather than pushed.
    spread: bool,
    len: usize,
    steps: [PlanStep; PLAN_MAX],
}

#[derive(Clone, Copy, Default)]
struct PlanStep {
    key: usize,
    index: usize,
}

/// The longest member chain a plan records.
const PLAN_MAX: usize = 6;

/// How many elements of an array may record its plan before the others walk with what it has
/// (the first elements can stop early: a `None` member, a flattened member).
const RECORD_TRIES: usize = 4;

impl Plan {
    /// An empty plan for `names`.
    #[inline]
    pub fn new(names: &'static [&'static str], flat: bool) -> Self {
        Plan {
            names,
            flat,
            spread: false,
            len: 0,
            steps: [PlanStep::default(); PLAN_MAX],
        }
    }

    /// The same plan, for a walk whose values reached are projected by the sink's `then`.
    #[inline]
    pub fn spread(self) -> Self {
        Plan {
            spread: true,
            ..self
        }
    }

    /// A fresh plan for the same names, walking the elements of an element of `items[]`.
    #[inline]
    fn unflat(&self) -> Self {
        Plan {
            spread: self.spread,
            ..Plan::new(self.names, false)
        }
    }

    /// Whether every name the plan can hold is resolved.
    #[inline(always)]
    fn complete(&self) -> bool {
        self.len == self.names.len().min(PLAN_MAX)
    }

    /// For [`Searchable::__record`]: the name at level `at`, when the plan records it (the
    /// levels before are recorded, and there is room).
    #[inline]
    pub fn name(&self, at: usize) -> Option<&'static str> {
        if self.len == at && at < PLAN_MAX {
            self.names.get(at).copied()
        } else {
            None
        }
    }

    /// For [`Searchable::__record`]: the name at level `len` is member number `index` of the
    /// type whose key is `key`.
    #[inline]
    pub fn push(&mut self, key: &'static &'static str, index: usize) {
        if self.len < PLAN_MAX {
            self.steps[self.len] = PlanStep {
                key: key as *const &str as usize,
                index,
            };
            self.len += 1;
        }
    }
}

/// Where [`Searchable::__walk`] is: the plan of the array walked and the level reached in its
/// names. Two words, passed in registers; the plan is read only while elements are walked.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Walk<'p> {
    plan: &'p Plan,
    at: usize,
}

/// What a walk writes: the output, and the plan of the names followed from the arrays reached
/// (`[].c.d` of `items[].a.b[].c.d`; `None` when values reached are pushed).
#[doc(hidden)]
pub struct Sink<'s, 'a> {
    out: Out<'a>,
    then: Option<&'s mut Plan>,
}

impl<'s, 'a> Sink<'s, 'a> {
    /// A sink pushing onto `out`; with `then`, arrays reached are projected by it.
    #[inline]
    pub fn new(out: Out<'a>, then: Option<&'s mut Plan>) -> Self {
        Sink { out, then }
    }

    /// What was collected.
    #[inline]
    pub fn into_out(self) -> Out<'a> {
        self.out
    }
}

impl<'p> Walk<'p> {
    /// The walk of an element of the array planned by `plan`.
    #[inline(always)]
    pub fn start(plan: &'p Plan) -> Self {
        Walk { plan, at: 0 }
    }

    /// The member index the plan has at this level for the derived type whose key is `key`
    /// (`None`: walk by name).
    #[inline(always)]
    pub fn member(self, key: &'static &'static str) -> Option<usize> {
        let plan = self.plan;
        if self.at < plan.len {
            let s = plan.steps[self.at];
            if s.key == key as *const &str as usize {
                return Some(s.index);
            }
        }
        None
    }

    /// One level down.
    #[inline(always)]
    pub fn next(self) -> Self {
        Walk {
            plan: self.plan,
            at: self.at + 1,
        }
    }

    /// Whether an array reached here is projected by the sink's `then` plan (the end of the
    /// names of a spreading plan, not an element of `items[]` itself).
    #[inline(always)]
    fn spreads(self) -> bool {
        let plan = self.plan;
        plan.spread && self.at >= plan.names.len() && !(plan.flat && self.at == 0)
    }

    /// The name to follow at this level, or `None` when the value itself is reached.
    #[inline(always)]
    pub fn name(self) -> Option<&'static str> {
        self.plan.names.get(self.at).copied()
    }

    /// After [`name`](Walk::name) and [`next`](Walk::next): no plain member has the name
    /// (flattened members, or none): the object's dynamic view answers.
    #[inline]
    pub fn field<'a>(self, o: &'a dyn SearchObject, name: &str, s: &mut Sink<'_, 'a>) {
        if let Some(n) = o.field(name) {
            self.node(n, s)
        }
    }

    /// Any value, through its node (out of line: the planned walks stay small enough to
    /// inline into the loop over an array).
    #[inline(never)]
    pub fn node<'a>(self, node: Node<'a>, s: &mut Sink<'_, 'a>) {
        let plan = self.plan;
        match node {
            Node::Array(a) if plan.flat && self.at == 0 => {
                // An element of `items[]` that is an array: its elements (one level only).
                let inner = plan.unflat();
                a.for_each(&mut |el| Walk::start(&inner).node(el, s));
            }
            node => {
                let found = follow_node(node, plan.names.get(self.at..).unwrap_or(&[]));
                match &s.then {
                    None => s.out.push(found),
                    Some(then) => {
                        let then = then.names;
                        match found {
                            Node::Null => {}
                            Node::Array(a) => {
                                let out = &mut s.out;
                                a.for_each(&mut |el| out.push(follow_node(el, then)));
                            }
                            other => s.out.push(follow_node(other, then)),
                        }
                    }
                }
            }
        }
    }

    /// A string of the data.
    #[inline(always)]
    pub fn str<'a>(self, v: &'a str, s: &mut Sink<'_, 'a>) {
        let plan = self.plan;
        if self.at >= plan.names.len() {
            if !plan.spread {
                s.out.push_str(v)
            } else if let Some(then) = &s.then {
                // A string followed by names: nothing (unless there are none).
                if then.names.is_empty() {
                    s.out.push_str(v)
                }
            }
        }
    }

    /// An object of the data viewed in place, reached (no name left to follow).
    #[inline]
    pub fn object<'a>(self, o: &'a dyn SearchObject, s: &mut Sink<'_, 'a>) {
        self.node(Node::Object(Object::View(o)), s)
    }

    /// An array of the data, `items` viewed as `view` (out of line, once per array).
    #[inline(never)]
    pub fn array<'a, T: Searchable>(
        self,
        items: &'a [T],
        view: &'a dyn SearchArray,
        s: &mut Sink<'_, 'a>,
    ) {
        let plan = self.plan;
        if plan.flat && self.at == 0 {
            // An element of `items[]` that is an array: its elements (one level only).
            let mut inner = plan.unflat();
            walk_items(items, &mut inner, s);
        } else if self.at >= plan.names.len() {
            match s.then.take() {
                None => s.out.push(Node::Array(Array::View(view))),
                // `[].c.d` over the array reached.
                Some(then) => {
                    walk_items(items, then, s);
                    s.then = Some(then);
                }
            }
        }
    }
}

/// The walk of `plan` on every element of `items`: the first elements record the plan while
/// it is incomplete, the others follow it ([`Searchable::__walk_slice`]: derived types choose
/// the member once for the whole array). A plan is kept across arrays (all the inner arrays of
/// `items[].a.b[].c.d` share one): keys make that safe even when their element types differ.
#[inline]
pub(crate) fn walk_items<'a, T: Searchable>(items: &'a [T], plan: &mut Plan, s: &mut Sink<'_, 'a>) {
    if !plan.spread {
        // At most one result per element: one allocation, not one per doubling.
        s.out.reserve(items.len());
    }
    let mut rest = items;
    let mut tries = 0;
    while !plan.complete() && tries < RECORD_TRIES {
        let Some((first, others)) = rest.split_first() else {
            return;
        };
        plan.len = 0;
        first.__record(plan, 0);
        if plan.complete() {
            // The first element walks with the others.
            break;
        }
        first.__walk(Walk::start(plan), s);
        rest = others;
        tries += 1;
    }
    T::__walk_slice(rest, Walk::start(plan), s);
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

    /// [`Searchable::__walk`] on every element, with `plan`: a compiled projection over this
    /// array, in one call. Arrays of a static element type walk it with static dispatch; not
    /// meant to be called or implemented by hand.
    #[doc(hidden)]
    fn __walk_items<'a>(&'a self, plan: &mut Plan, sink: &mut Sink<'_, 'a>) {
        let walk = Walk::start(plan);
        self.for_each(&mut |el| walk.node(el, sink));
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
    fn __walk<'a>(&'a self, walk: Walk<'_>, sink: &mut Sink<'_, 'a>) {
        walk.str(self, sink)
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
            fn __walk<'a>(&'a self, walk: Walk<'_>, sink: &mut Sink<'_, 'a>) {
                walk.str(self, sink)
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
    fn __walk<'a>(&'a self, walk: Walk<'_>, sink: &mut Sink<'_, 'a>) {
        match self {
            Value::Array(a) => walk.array(a, a, sink),
            Value::Object(o) => match walk.name() {
                Some(name) => {
                    if let Some(v) = o.get(name) {
                        v.__walk(walk.next(), sink)
                    }
                }
                None => walk.object(o, sink),
            },
            Value::String(s) => walk.str(s, sink),
            Value::Null => {}
            other => walk.node(other.node(), sink),
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
    fn __walk<'a>(&'a self, walk: Walk<'_>, sink: &mut Sink<'_, 'a>) {
        if let Some(v) = self {
            v.__walk(walk, sink)
        }
    }
    #[inline]
    fn __walk_in<'a, P, G>(items: &'a [P], get: G, walk: Walk<'_>, sink: &mut Sink<'_, 'a>)
    where
        Self: 'a,
        G: Fn(&'a P) -> Option<&'a Self>,
    {
        T::__walk_in(items, |p| get(p).and_then(Option::as_ref), walk, sink)
    }
    #[inline]
    fn __record(&self, plan: &mut Plan, at: usize) {
        if let Some(v) = self {
            v.__record(plan, at)
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
            fn __walk<'a>(&'a self, walk: Walk<'_>, sink: &mut Sink<'_, 'a>) {
                (**self).__walk(walk, sink)
            }
            #[inline]
            fn __record(&self, plan: &mut Plan, at: usize) {
                (**self).__record(plan, at)
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
    fn __walk_items<'a>(&'a self, plan: &mut Plan, sink: &mut Sink<'_, 'a>) {
        walk_items(self, plan, sink)
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
            fn __walk_items<'a>(&'a self, plan: &mut Plan, sink: &mut Sink<'_, 'a>) {
                walk_items(self.as_slice(), plan, sink)
            }
        }
        impl<T: Searchable + Sync> Searchable for $t {
            fn node(&self) -> Node<'_> {
                Node::Array(Array::View(self))
            }
            #[inline]
            fn __walk<'a>(&'a self, walk: Walk<'_>, sink: &mut Sink<'_, 'a>) {
                walk.array(self.as_slice(), self, sink)
            }
            /// The arrays of one member of an array's elements (`items[].a.b[].c.d`): the
            /// `[].c.d` plan is taken once for all of them.
            #[inline]
            fn __walk_in<'a, P, G>(
                items: &'a [P],
                get: G,
                walk: Walk<'_>,
                sink: &mut Sink<'_, 'a>,
            ) where
                Self: 'a,
                G: Fn(&'a P) -> Option<&'a Self>,
            {
                if walk.spreads() {
                    if let Some(then) = sink.then.take() {
                        for p in items {
                            if let Some(v) = get(p) {
                                walk_items(v.as_slice(), then, sink);
                            }
                        }
                        sink.then = Some(then);
                        return;
                    }
                }
                for p in items {
                    if let Some(v) = get(p) {
                        v.__walk(walk, sink);
                    }
                }
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
    fn __walk_items<'a>(&'a self, plan: &mut Plan, sink: &mut Sink<'_, 'a>) {
        walk_items(self.as_slice(), plan, sink)
    }
}

impl<T: Searchable + Sync, const N: usize> Searchable for [T; N] {
    fn node(&self) -> Node<'_> {
        Node::Array(Array::View(self))
    }
    #[inline]
    fn __walk<'a>(&'a self, walk: Walk<'_>, sink: &mut Sink<'_, 'a>) {
        walk.array(self.as_slice(), self, sink)
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
            fn __walk_items<'a>(&'a self, plan: &mut Plan, sink: &mut Sink<'_, 'a>) {
                // Elements are walked by name (a set is not a slice to plan over).
                let walk = Walk::start(plan);
                for v in self {
                    v.__walk(walk, sink);
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
/// serialize searches as `null`. The conversion stops at [`Node::MAX_DEPTH`] levels of arrays
/// and objects, as [`Node::from_value`] does (deeper parts are `null`, and are not serialized),
/// and at four times that many nested options and newtypes: deep data cannot overflow the stack.
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
        super::serialized::to_node(&self.0)
    }
}
