//! [`Searchable`] for the standard library's types and `serde_json`'s: scalars, strings,
//! `Option`, smart pointers and references, lists, sets and maps (the table on [`Searchable`]).
//! Strings, `Option`, `Vec` and `serde_json::Value` also implement the hidden walk of compiled
//! projections (see the `walk` module), so that projections over them dispatch statically.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::hash::BuildHasher;
use std::rc::Rc;
use std::sync::Arc;
use std::time::SystemTime;

use serde_json::{Map, Number, Value};

use super::data_model::timestamp;
use super::view::{Array, Node, Object, Plan, SearchArray, SearchObject, Searchable, Sink, Walk};
use super::walk::{walk_arrays, walk_items};

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
        timestamp(self)
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
    fn __walk_in_arrays<'a, P, G>(
        arrays: &mut dyn FnMut() -> Option<&'a [P]>,
        get: G,
        walk: Walk<'_>,
        sink: &mut Sink<'_, 'a>,
    ) where
        Self: 'a,
        P: 'a,
        G: Fn(&'a P) -> Option<&'a Self>,
    {
        T::__walk_in_arrays(arrays, |p| get(p).and_then(Option::as_ref), walk, sink)
    }
    #[inline]
    fn __walk_as_items<'a>(&'a self, plan: &mut Plan, sink: &mut Sink<'_, 'a>) -> bool {
        match self {
            Some(v) => v.__walk_as_items(plan, sink),
            None => false,
        }
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
            fn __walk_as_items<'a>(&'a self, plan: &mut Plan, sink: &mut Sink<'_, 'a>) -> bool {
                (**self).__walk_as_items(plan, sink)
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
            #[inline]
            fn __walk_as_items<'a>(&'a self, plan: &mut Plan, sink: &mut Sink<'_, 'a>) -> bool {
                walk_items(self.as_slice(), plan, sink);
                true
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
                        if !then.spread {
                            // At most one result per element of all the arrays: one
                            // allocation for all of them, not one per array or per doubling.
                            let total = items.iter().filter_map(&get).map(|v| v.len()).sum();
                            sink.out.reserve(total);
                        }
                        let mut parents = items.iter();
                        let mut arrays = || {
                            for p in &mut parents {
                                if let Some(v) = get(p) {
                                    return Some(v.as_slice());
                                }
                            }
                            None
                        };
                        walk_arrays(&mut arrays, then, sink);
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
            /// [`__walk_in`](Searchable::__walk_in) over many arrays of parents: the arrays
            /// of all of them are walked by one `then` plan too.
            #[inline]
            fn __walk_in_arrays<'a, P, G>(
                arrays: &mut dyn FnMut() -> Option<&'a [P]>,
                get: G,
                walk: Walk<'_>,
                sink: &mut Sink<'_, 'a>,
            ) where
                Self: 'a,
                P: 'a,
                G: Fn(&'a P) -> Option<&'a Self>,
            {
                // The parents flattened and their values taken (flat_map/filter_map by hand:
                // adaptors behind a `dyn` compile several methods each); the rest, generic in
                // `T` only, is compiled once per element type, not once per derived member.
                let mut parents = [].iter();
                let mut values = || loop {
                    for p in &mut parents {
                        if let Some(v) = get(p) {
                            return Some(v);
                        }
                    }
                    parents = arrays()?.iter();
                };
                walk_vecs(&mut values, walk, sink);
            }
        }
    )*};
}

list!(Vec<T>);

/// [`Searchable::__walk_in_arrays`] of `Vec<T>` once the parents' vectors come one by one:
/// all their elements walked by one `then` plan ([`walk_arrays`]) when the walk spreads into
/// them, each vector walked whole otherwise.
fn walk_vecs<'a, T: Searchable + Sync + 'a>(
    values: &mut dyn FnMut() -> Option<&'a Vec<T>>,
    walk: Walk<'_>,
    sink: &mut Sink<'_, 'a>,
) {
    if walk.spreads() {
        if let Some(then) = sink.then.take() {
            let mut arrays = || values().map(Vec::as_slice);
            walk_arrays(&mut arrays, then, sink);
            sink.then = Some(then);
            return;
        }
    }
    while let Some(v) = values() {
        v.__walk(walk, sink);
    }
}

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
