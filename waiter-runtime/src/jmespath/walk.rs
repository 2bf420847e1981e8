//! The walk of compiled projections: how `items[*].a.b` and `items[].a.b[].c.d` visit arrays of
//! derived types with static dispatch, one member choice per array rather than per element.
//!
//! # A walk of `a[].b[].c`
//!
//! Take `#[derive(Searchable)]` types `Root { a: Vec<A> }`, `A { b: Vec<B> }`, `B { c: String }`.
//! `jmespath!("a[].b[].c")` compiles to one call, `project_member_flat_follow_flat(@, "a",
//! &["b"], &["c"])` (in `eval::project`; `project_flat_follow_flat` when the array is not a
//! member of the input):
//!
//! 1. **Plans.** It builds two [`Plan`]s: the outer one for the names followed from each element
//!    of `a[]` (`["b"]`), *flat* (an element of `a` that is itself an array walks its elements)
//!    and *spread* (the values reached, the `b` arrays, are projected further rather than
//!    pushed); the inner one, `then`, for the names followed from each element of those arrays
//!    (`["c"]`). A [`Sink`] holds the output ([`Out`]) and `then`.
//! 2. **The outer array.** The root's `SearchObject::__walk_member_items("a", ..)` (one call
//!    through the root's view) finds member `a`, a `Vec<A>`, whose `__walk_as_items` calls
//!    [`walk_items`] with the outer plan (an array reached otherwise is walked through its view,
//!    `SearchArray::__walk_items`). The first element records the plan:
//!    `A::__record(plan, 0)` finds `b` among `A`'s members and pushes (the key of `A`, the index
//!    of `b`): a key is the address of a static of the derived impl. The plan is then complete and
//!    read only; `A::__walk_slice(&a[..], Walk::start(&plan), sink)` checks the key once
//!    ([`Walk::member`]) and chooses member `b` once for the whole slice.
//! 3. **The member's type.** `b`'s type, `Vec<B>`, gets every element's `b` at once
//!    (`Vec::__walk_in`, at level 1 of the outer plan): its names are done and the plan spreads,
//!    so it takes `then` out of the sink and hands the `b` vectors to [`walk_arrays`]: the first
//!    records `then` ([`walk_items`]), then one `B::__walk_arrays` walks all the others with it,
//!    choosing `B`'s member once for all of them (keys make one plan for many arrays safe even
//!    if their element types differed).
//! 4. **The leaves.** `B::__walk_slice` chooses member `c` once; `String::__walk` calls
//!    [`Walk::str`], which pushes the borrowed `&str` onto [`Out`]: no conversion, check or drop
//!    per element.
//! 5. **The result.** [`Out::finish`] gives `Node::Array(Array::Strs(..))`, the strings borrowed
//!    from the data (results that are not borrowed strings are kept aside with their place and
//!    merged in order into an `Array::Owned`).
//!
//! Every element is visited once, no `Node` is built for `a`, `A` or `B`, and the only dynamic
//! call is the one into the root's view. Where the plan does not fit, the walk goes by name: a level whose key
//! differs (elements behind `dyn Searchable`), names past [`PLAN_MAX`], elements after
//! [`RECORD_TRIES`] that could not record (a `None` member stops early). `serde_json::Value`
//! walks itself by name; any other type goes through its `node()` ([`Walk::node`]).
//!
//! # The parts
//!
//! * The hidden methods of [`Searchable`]: `__walk(&'a self, Walk, &mut Sink<'_, 'a>)` walks one
//!   value and `__record(&self, &mut Plan, at)` resolves names into a plan; both are
//!   dyn-compatible, so references, `Box`, `Rc`, `Arc` and `dyn Searchable` forward them.
//!   `__walk_slice(&[Self], ..)` and `__walk_in(&[P], get, ..)` (`where Self: Sized`) walk many
//!   values at one level: a derived struct chooses its member once, and its member's type chooses
//!   its own once too (`Option` forwards `__walk_in`, `Vec` takes the `then` plan once for all its
//!   arrays), so two levels cost no per-element dispatch; below that `__walk_in` walks element by
//!   element, which bounds the generic depth (recursive types included).
//!   `__walk_arrays(&mut dyn FnMut() -> Option<&[Self]>, ..)` and `__walk_in_arrays(.., get, ..)`
//!   do the same over many arrays at once (the inner arrays of a flattening projection), so
//!   that the member choices are made once for all of them, not once per array; the arrays
//!   come from a `dyn FnMut`, one type whatever produced them (recursive types again), and
//!   each producer is one small closure, not a chain of iterator adaptors (their methods,
//!   compiled per member of every derived struct, doubled a derive-heavy crate's build).
//! * [`SearchArray`]'s hidden `__walk_items(&mut Plan, &mut Sink)`: the one call a compiled
//!   projection makes into an array of the data; [`SearchObject`]'s hidden
//!   `__walk_member_items(name, ..)`, the one call into an object whose member is the array
//!   (derived structs walk the member in place: `Searchable::__walk_as_items`, which `Vec`
//!   implements with [`walk_items`]). `Vec`'s `__walk_in` reserves the output for all its
//!   arrays at once (at most one result per element), so `a[].b[].c` allocates once.
//! * [`Plan`]: the names, and per level recorded the member index and the key of the derived type
//!   that resolved it. [`Walk`]: the plan by shared reference and the level reached (two words,
//!   passed in registers). [`Sink`]: the output and the `then` plan, taken out while an inner array
//!   is walked.
//!
//! The types are defined in the `view` module (the traits name them); their behaviour is here.

use std::borrow::Cow;

use super::view::{
    Array, Node, Object, Out, PLAN_MAX, Plan, PlanStep, SearchArray, SearchObject, Searchable,
    Sink, Walk, follow_node,
};

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
    #[inline(always)]
    pub fn finish(self) -> Node<'a> {
        if self.others.is_empty() {
            return Node::Array(Array::Strs(self.strs));
        }
        self.merge()
    }

    /// The array built, with results that are not borrowed strings (out of line).
    #[inline(never)]
    fn merge(self) -> Node<'a> {
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
    pub(super) fn spreads(self) -> bool {
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

/// The walk of `plan` on every element of every array of `arrays` (the inner arrays of
/// `items[].a.b[].c.d`, the output already reserved for all of them where their parents were
/// one array): the first arrays record the plan ([`walk_items`]); once it is complete, one
/// [`Searchable::__walk_arrays`] walks all the others, each level's member chosen once for
/// all of them rather than once per array.
#[inline]
pub(crate) fn walk_arrays<'a, T: Searchable + 'a>(
    arrays: &mut dyn FnMut() -> Option<&'a [T]>,
    plan: &mut Plan,
    s: &mut Sink<'_, 'a>,
) {
    while !plan.complete() {
        let Some(items) = arrays() else {
            return;
        };
        walk_items(items, plan, s);
    }
    // Often the one array was the first: then there is nothing to choose a member for.
    let Some(next) = arrays() else {
        return;
    };
    let mut next = Some(next);
    let mut rest = || match next.take() {
        Some(items) => Some(items),
        None => arrays(),
    };
    T::__walk_arrays(&mut rest, Walk::start(plan), s);
}
