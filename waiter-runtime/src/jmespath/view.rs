//! The types a search sees, defined together because each names the others: [`Node`], one
//! JMESPath value, whose [`Array`] and [`Object`] variants hold views of the data
//! ([`SearchArray`], [`SearchObject`]); [`Searchable`], the trait of data that yields nodes; and
//! the hidden walk types ([`Out`], [`Plan`], [`Walk`], [`Sink`]) that the traits' hidden methods
//! take and that hold nodes.
//!
//! Only the definitions (and [`follow_node`], which the traits' default methods call) are here.
//! What the types do is in the modules that depend on this one: `node` (reading, converting and
//! comparing a node, and writing it as JSON text), `walk` (the walk of compiled projections) and
//! `impls_std` (the standard types' impls).

use std::borrow::Cow;

use serde_json::Number;

/// A JMESPath value that borrows from the data being searched.
///
/// Reading a field of a [`Searchable`] value yields a `Node` that points into
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
/// | any `T: Serialize`, wrapped in [`Serialized`](super::Serialized) | its JSON form (converted per search) |
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

    /// [`__walk`](Searchable::__walk) on every element of every array of `arrays`, all at
    /// the same level of the same plan (the inner arrays of `items[].a.b[].c.d` once the plan
    /// is recorded): derived structs choose the member once for all the arrays, and the
    /// member's type its own once too ([`__walk_in_arrays`](Searchable::__walk_in_arrays)), so
    /// that no dispatch is repeated per array. The arrays come from a `dyn FnMut` (the next
    /// array, or `None`): one type per element type, whatever produced them, which bounds the
    /// generic depth of recursive types, and one small function per producer (a `dyn Iterator`
    /// of iterator adaptors compiled five methods of each adaptor per member of every derived
    /// struct, and doubled a derive-heavy crate's build time). Hidden plumbing (see `__walk`).
    #[doc(hidden)]
    #[inline]
    fn __walk_arrays<'a>(
        arrays: &mut dyn FnMut() -> Option<&'a [Self]>,
        walk: Walk<'_>,
        sink: &mut Sink<'_, 'a>,
    ) where
        Self: Sized + 'a,
    {
        Self::__walk_in_arrays(arrays, Some, walk, sink)
    }

    /// [`__walk_in`](Searchable::__walk_in) on every array of `arrays`: the values of one
    /// member of the elements of many arrays. Derived structs choose their member once for all
    /// of them; `Option` forwards. Hidden plumbing (see `__walk`).
    #[doc(hidden)]
    #[inline]
    fn __walk_in_arrays<'a, P, G>(
        arrays: &mut dyn FnMut() -> Option<&'a [P]>,
        get: G,
        walk: Walk<'_>,
        sink: &mut Sink<'_, 'a>,
    ) where
        Self: Sized + 'a,
        P: 'a,
        G: Fn(&'a P) -> Option<&'a Self>,
    {
        while let Some(items) = arrays() {
            Self::__walk_in(items, &get, walk, sink);
        }
    }

    /// `self[].a.b[].c.d` (the walk of `plan` on every element, `sink` holding `[].c.d`) when
    /// `self` is an array; `false`, with nothing walked, when it is not (the projection is
    /// null). `Vec` walks its elements with static dispatch; the default goes through
    /// [`node`](Searchable::node). Hidden plumbing (see `__walk`).
    #[doc(hidden)]
    #[inline]
    fn __walk_as_items<'a>(&'a self, plan: &mut Plan, sink: &mut Sink<'_, 'a>) -> bool {
        walk_node_items(Some(self.node()), plan, sink)
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

/// `node[].a.b[].c.d` (the walk of `plan` on every element, `sink` holding `[].c.d`) when
/// `node` is an array: views of the data walk themselves ([`SearchArray::__walk_items`]),
/// arrays the expression built go element by element. `false` when it is no array.
#[doc(hidden)]
#[inline]
pub fn walk_node_items<'a>(
    node: Option<Node<'a>>,
    plan: &mut Plan,
    sink: &mut Sink<'_, 'a>,
) -> bool {
    match node {
        Some(Node::Array(Array::View(v))) => {
            v.__walk_items(plan, sink);
            true
        }
        Some(Node::Array(a)) => {
            let walk = Walk::start(plan);
            a.for_each(&mut |el| walk.node(el, sink));
            true
        }
        _ => false,
    }
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

    /// [`Searchable::__walk_as_items`] on the member named `name` (`false` when there is none,
    /// or it is no array): `name[].a.b[].c.d` from this object, in one call. Derived structs
    /// walk their member with static dispatch; not meant to be called or implemented by hand.
    #[doc(hidden)]
    fn __walk_member_items<'a>(
        &'a self,
        name: &str,
        plan: &mut Plan,
        sink: &mut Sink<'_, 'a>,
    ) -> bool {
        walk_node_items(self.field(name), plan, sink)
    }

    /// Follows a non-empty chain of member names from this object (see [`Searchable::follow`]).
    fn follow(&self, path: &[&str]) -> Node<'_> {
        match path.split_first() {
            Some((first, rest)) => follow_node(self.field(first).unwrap_or(Node::Null), rest),
            None => Node::Null,
        }
    }
}

/// The result of a projection being built: borrowed strings pushed as they are (no
/// per-element conversion, check or drop), other results aside with their place.
#[doc(hidden)]
#[derive(Default)]
pub struct Out<'a> {
    pub(super) strs: Vec<&'a str>,
    /// Results that are not borrowed strings, each with its index among all results.
    pub(super) others: Vec<(usize, Node<'a>)>,
}

/// The member chain of a compiled projection, resolved against an array's elements: per level,
/// the member index and the key of the derived type that resolved it (the address of a static
/// of the derived impl). Recorded once per array ([`Searchable::__record`] on its first
/// elements), then read only: every element follows it by index while a level's key matches
/// its type, and by name at a level whose key differs (elements reached through
/// `dyn Searchable` can differ) or past the recorded prefix.
#[doc(hidden)]
pub struct Plan {
    pub(super) names: &'static [&'static str],
    /// The elements are those of `items[]`: an element that is an array walks its elements.
    pub(super) flat: bool,
    /// Values reached are projected by the sink's `then` plan (arrays) or followed by it,
    /// rather than pushed.
    pub(super) spread: bool,
    pub(super) len: usize,
    pub(super) steps: [PlanStep; PLAN_MAX],
}

/// One recorded level of a [`Plan`]: the key of the derived type that resolved the level's name,
/// and the index of the member it names.
#[derive(Clone, Copy, Default)]
pub(super) struct PlanStep {
    pub(super) key: usize,
    pub(super) index: usize,
}

/// The longest member chain a plan records.
pub(super) const PLAN_MAX: usize = 6;

/// Where [`Searchable::__walk`] is: the plan of the array walked and the level reached in its
/// names. Two words, passed in registers; the plan is read only while elements are walked.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Walk<'p> {
    pub(super) plan: &'p Plan,
    pub(super) at: usize,
}

/// What a walk writes: the output, and the plan of the names followed from the arrays reached
/// (`[].c.d` of `items[].a.b[].c.d`; `None` when values reached are pushed).
#[doc(hidden)]
pub struct Sink<'s, 'a> {
    pub(super) out: Out<'a>,
    pub(super) then: Option<&'s mut Plan>,
}
