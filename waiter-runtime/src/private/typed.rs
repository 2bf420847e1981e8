//! Typed paths: what `#[derive(Searchable)]` publishes about a type at compile time, and the
//! `const fn` the code of `#[waitable]` and `jmespath!(Type, "..")` evaluates to check a path's
//! field chains against it. Everything here runs in const evaluation: nothing at run time.
//!
//! A derived type implements [`Described`]: a [`Desc`] of its wire members, each with the
//! wrappers around its innermost type (`Option`, `Box` are transparent, `Vec`/slices/sets are
//! [`Wrap::Array`], maps with string keys [`Wrap::Map`]) and a reference to that type's own
//! description, resolved once in the derive, where the field types are concrete. A type that does
//! not implement [`Described`] (a hand-written `Searchable`, a `serde_json::Value`, a generic
//! parameter) is "unknown" through [`Probe`]: anything goes below it.
//!
//! The descriptions form a graph that may be cyclic (`struct Tree { children: Vec<Tree> }`), and
//! constants cannot refer to themselves; so a description is built to a depth: `Described<N>`
//! links its members to their descriptions at depth `N - 1`, and depth zero ([`Z`]) is unknown.
//! A path asks for its root at the depth its member steps need (plus two: a `flatten`ed member
//! costs one level), so each chain is one constant: [`check`] walks it in one evaluation.

use std::marker::PhantomData;

/// What a value is, as far as paths are concerned.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Not known at compile time: anything goes.
    Unknown,
    String,
    Number,
    Boolean,
    Object,
}

/// A layer around a member's innermost type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Wrap {
    Array,
    Map,
}

/// One member of a derived type, by its wire name.
#[derive(Clone, Copy, Debug)]
pub struct Member {
    pub name: &'static str,
    /// The name's hash (64-bit FNV-1a, computed by the macros for a member and for a path's
    /// field alike): a lookup compares it, and the name only on a match.
    pub hash: u64,
    /// The Rust field's name, for "Rust field `state` is `State` on the wire".
    pub rust: &'static str,
    pub wraps: &'static [Wrap],
    /// The innermost type's description.
    pub ty: &'static Desc,
}

/// A type's description.
#[derive(Clone, Copy, Debug)]
pub struct Desc {
    /// The Rust type's name, for messages.
    pub name: &'static str,
    pub kind: Kind,
    pub members: &'static [Member],
    /// The descriptions of `flatten`ed members: their members are this type's. One that is not
    /// a described object (a map, an unknown type) makes any name valid.
    pub flattened: &'static [&'static Desc],
    /// Whether members may exist that are not listed (an untagged variant): an unknown name is
    /// then not an error.
    pub open: bool,
}

impl Desc {
    pub const UNKNOWN: &'static Desc = &Desc::leaf("", Kind::Unknown);

    pub const fn leaf(name: &'static str, kind: Kind) -> Desc {
        Desc {
            name,
            kind,
            members: &[],
            flattened: &[],
            open: false,
        }
    }
}

/// A depth of description: [`Z`] (nothing known) or [`S`]`<N>` (one more level than `N`).
pub trait Depth {
    const ZERO: bool;
    type Pred: Depth;
}

/// Depth zero.
pub struct Z;

/// One level deeper than `N`.
pub struct S<N>(PhantomData<N>);

impl Depth for Z {
    const ZERO: bool = true;
    type Pred = Z;
}

impl<N: Depth> Depth for S<N> {
    const ZERO: bool = false;
    type Pred = N;
}

/// Implemented by `#[derive(Searchable)]` and by the standard leaf types, at every depth.
pub trait Described<N: Depth> {
    const DESC: &'static Desc;
}

/// `Probe::<T, N>::LINK` is `T`'s description at depth `N - 1` when `T` is described (unknown
/// at depth zero), else [`Desc::UNKNOWN`] (through [`Undescribed`], which must be in scope):
/// the inherent constant wins when its bound holds.
pub struct Probe<T: ?Sized, N>(PhantomData<N>, PhantomData<T>);

/// The fallback of [`Probe`].
pub trait Undescribed {
    const LINK: &'static Desc = Desc::UNKNOWN;
}

impl<T: ?Sized, N> Undescribed for Probe<T, N> {}

impl<T: ?Sized + Described<N::Pred>, N: Depth> Probe<T, N> {
    pub const LINK: &'static Desc = link::<T, N>();
}

// The description one level down is read in a second function: the constants a function
// names are evaluated when it is called, so depth zero stops the recursion here.
const fn link<T: ?Sized + Described<N::Pred>, N: Depth>() -> &'static Desc {
    if N::ZERO {
        Desc::UNKNOWN
    } else {
        described::<T, N::Pred>()
    }
}

const fn described<T: ?Sized + Described<M>, M: Depth>() -> &'static Desc {
    T::DESC
}

macro_rules! leaves {
    ($kind:ident: $($ty:ty),*) => {$(
        impl<N: Depth> Described<N> for $ty {
            const DESC: &'static Desc = &Desc::leaf(stringify!($ty), Kind::$kind);
        }
    )*};
}

leaves!(String: String, str, char, std::borrow::Cow<'_, str>);
leaves!(Number: u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64);
leaves!(Boolean: bool);

/// Why a step failed: what its message says (written only for a failed step, by [`message`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Fault {
    /// `.name` on a list.
    ListHasNoMember,
    /// `.name` on an object without that member.
    NoMember,
    /// `.name` on a string, number or boolean.
    NotAnObject,
    /// `[]` or `[n]` on a map.
    MapIndexed,
    /// `[]` or `[n]` on a string, number, boolean or object.
    NotAList,
    /// `*` on a list.
    StarOnList,
    /// `*` on a string, number or boolean.
    StarOnScalar,
    /// `x[]` on a map.
    FlattenMap,
    /// `x[]` on a string, number, boolean or object.
    FlattenScalar,
}

/// Where a walk is: the innermost type's description, the wrappers of the current value not
/// consumed yet, and how many projections made the result a list.
#[derive(Clone, Copy, Debug)]
struct At {
    desc: &'static Desc,
    wraps: &'static [Wrap],
    used: usize,
    projections: usize,
    unknown: bool,
}

impl At {
    const fn unknown(self) -> At {
        At {
            desc: Desc::UNKNOWN,
            wraps: &[],
            used: 0,
            projections: self.projections,
            unknown: true,
        }
    }

    const fn next_wrap(&self) -> Option<Wrap> {
        if self.used < self.wraps.len() {
            Some(self.wraps[self.used])
        } else {
            None
        }
    }

    const fn consume(self) -> At {
        At {
            used: self.used + 1,
            ..self
        }
    }
}

/// A compile-time message: a fixed buffer written in const.
struct Msg {
    buf: [u8; 512],
    len: usize,
}

impl Msg {
    const fn new() -> Msg {
        Msg {
            buf: [0; 512],
            len: 0,
        }
    }

    const fn push(mut self, s: &str) -> Msg {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() && self.len < self.buf.len() {
            self.buf[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
        self
    }

    const fn as_str(&self) -> &str {
        let (bytes, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(bytes) {
            Ok(s) => s,
            Err(_) => "(message cut inside a character)",
        }
    }
}

/// Where a step is in the path, for messages: the path and the prefix read so far.
#[derive(Clone, Copy)]
struct Place {
    path: &'static str,
    prefix: &'static str,
}

const fn head(place: Place) -> Msg {
    Msg::new().push("path \"").push(place.path).push("\": ")
}

const fn tail(m: Msg, place: Place) -> Msg {
    if place.prefix.is_empty() {
        m
    } else {
        m.push(" (at \"").push(place.prefix).push("\")")
    }
}

const fn eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn lower(b: u8) -> u8 {
    if b.is_ascii_uppercase() { b + 32 } else { b }
}

/// Levenshtein distance, ASCII case-insensitive, of names up to 63 bytes (longer: far).
pub(crate) const fn distance(a: &[u8], b: &[u8]) -> usize {
    if a.len() >= 64 || b.len() >= 64 {
        return usize::MAX;
    }
    let mut prev = [0usize; 64];
    let mut cur = [0usize; 64];
    let mut j = 0;
    while j <= b.len() {
        prev[j] = j;
        j += 1;
    }
    let mut i = 1;
    while i <= a.len() {
        cur[0] = i;
        let mut j = 1;
        while j <= b.len() {
            let cost = if lower(a[i - 1]) == lower(b[j - 1]) {
                0
            } else {
                1
            };
            let mut best = prev[j] + 1;
            if cur[j - 1] + 1 < best {
                best = cur[j - 1] + 1;
            }
            if prev[j - 1] + cost < best {
                best = prev[j - 1] + cost;
            }
            cur[j] = best;
            j += 1;
        }
        prev = cur;
        i += 1;
    }
    prev[b.len()]
}

const fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Unknown => "anything",
        Kind::String => "a string",
        Kind::Number => "a number",
        Kind::Boolean => "a boolean",
        Kind::Object => "an object",
    }
}

/// The plural of [`kind_name`], after "a list of".
const fn kinds_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Unknown => "anything",
        Kind::String => "strings",
        Kind::Number => "numbers",
        Kind::Boolean => "booleans",
        Kind::Object => "objects",
    }
}

/// How many members a path can name in `desc`: its own and its `flatten`ed members'.
const fn member_count(desc: &'static Desc) -> usize {
    let mut n = desc.members.len();
    let mut i = 0;
    while i < desc.flattened.len() {
        if matches!(desc.flattened[i].kind, Kind::Object) {
            n += member_count(desc.flattened[i]);
        }
        i += 1;
    }
    n
}

/// The `k`th of the [`member_count`] members of `desc`.
const fn nth_member(desc: &'static Desc, k: usize) -> &'static Member {
    if k < desc.members.len() {
        return &desc.members[k];
    }
    let mut k = k - desc.members.len();
    let mut i = 0;
    loop {
        let flat = desc.flattened[i];
        if matches!(flat.kind, Kind::Object) {
            let n = member_count(flat);
            if k < n {
                return nth_member(flat, k);
            }
            k -= n;
        }
        i += 1;
    }
}

const fn no_member(desc: &'static Desc, name: &str, place: Place) -> Msg {
    let mut m = head(place)
        .push("`")
        .push(desc.name)
        .push("` has no member \"")
        .push(name)
        .push("\"");
    let count = member_count(desc);
    // The Rust field written instead of its wire name.
    let mut i = 0;
    while i < count {
        let member = nth_member(desc, i);
        if eq(member.rust.as_bytes(), name.as_bytes()) {
            m = m
                .push("; Rust field `")
                .push(member.rust)
                .push("` is \"")
                .push(member.name)
                .push("\" on the wire");
            return tail(m, place);
        }
        i += 1;
    }
    // The closest wire name, when close.
    let mut best = usize::MAX;
    let mut best_i = 0;
    let mut i = 0;
    while i < count {
        let d = distance(nth_member(desc, i).name.as_bytes(), name.as_bytes());
        if d < best {
            best = d;
            best_i = i;
        }
        i += 1;
    }
    if best <= 2 || (best <= name.len() / 3 && best != usize::MAX) {
        m = m
            .push("; did you mean \"")
            .push(nth_member(desc, best_i).name)
            .push("\"?");
    } else if count > 0 {
        m = m.push("; its members are");
        let mut i = 0;
        while i < count && i < 12 {
            m = m.push(if i == 0 { " \"" } else { ", \"" });
            m = m.push(nth_member(desc, i).name).push("\"");
            i += 1;
        }
    }
    tail(m, place)
}

/// A member found by name: in the type, in one of its `flatten`ed members, or not found in a
/// type that accepts any name.
enum Found {
    Member(&'static Member),
    Any,
    Missing,
}

const fn lookup(desc: &'static Desc, hash: u64, name: &str) -> Found {
    let mut i = 0;
    while i < desc.members.len() {
        let member = &desc.members[i];
        if member.hash == hash && eq(member.name.as_bytes(), name.as_bytes()) {
            return Found::Member(member);
        }
        i += 1;
    }
    let mut any = desc.open;
    let mut i = 0;
    while i < desc.flattened.len() {
        let flat = desc.flattened[i];
        if matches!(flat.kind, Kind::Object) {
            match lookup(flat, hash, name) {
                Found::Missing => {}
                found => return found,
            }
        } else {
            any = true;
        }
        i += 1;
    }
    if any { Found::Any } else { Found::Missing }
}

/// `.name` (whose hash is `hash`, see [`Member::hash`]) on the value at `at`.
const fn field(at: At, hash: u64, name: &str) -> Result<At, Fault> {
    if at.unknown {
        return Ok(at);
    }
    match at.next_wrap() {
        Some(Wrap::Map) => Ok(at.consume()),
        Some(Wrap::Array) => Err(Fault::ListHasNoMember),
        None => match at.desc.kind {
            Kind::Unknown => Ok(at.unknown()),
            Kind::Object => match lookup(at.desc, hash, name) {
                Found::Member(member) => Ok(At {
                    desc: member.ty,
                    wraps: member.wraps,
                    used: 0,
                    projections: at.projections,
                    unknown: false,
                }),
                Found::Any => Ok(at.unknown()),
                Found::Missing => Err(Fault::NoMember),
            },
            _ => Err(Fault::NotAnObject),
        },
    }
}

/// `[]`, `[*]`, `[n]` or a slice on the value at `at`: its elements. `project` says whether the
/// result is a projection (a list of what follows).
const fn elements(at: At, project: bool) -> Result<At, Fault> {
    if at.unknown {
        return Ok(at);
    }
    match at.next_wrap() {
        Some(Wrap::Array) => {
            let mut next = at.consume();
            if project {
                next.projections += 1;
            }
            Ok(next)
        }
        Some(Wrap::Map) => Err(Fault::MapIndexed),
        None => match at.desc.kind {
            Kind::Unknown => Ok(at.unknown()),
            _ => Err(Fault::NotAList),
        },
    }
}

/// `*` on the value at `at`: a map's values, or an object's (of unknown type).
const fn values(at: At) -> Result<At, Fault> {
    if at.unknown {
        return Ok(at);
    }
    match at.next_wrap() {
        Some(Wrap::Map) => {
            let mut next = at.consume();
            next.projections += 1;
            Ok(next)
        }
        Some(Wrap::Array) => Err(Fault::StarOnList),
        None => match at.desc.kind {
            Kind::Object | Kind::Unknown => {
                let mut next = at.unknown();
                next.projections += 1;
                Ok(next)
            }
            _ => Err(Fault::StarOnScalar),
        },
    }
}

/// `x[]` on the value at `at`: a list, whose list elements are merged into it. With `p`
/// projections around the value: `p == 0` makes the value's list the result (and merges a list
/// of lists), `p == 1` merges the elements that are lists, `p >= 2` merges the two outer lists.
const fn flatten(at: At) -> Result<At, Fault> {
    if at.unknown {
        return Ok(at);
    }
    if at.projections >= 2 {
        return Ok(At {
            projections: at.projections - 1,
            ..at
        });
    }
    if at.projections == 1 {
        return Ok(match at.next_wrap() {
            Some(Wrap::Array) => at.consume(),
            _ => at,
        });
    }
    match at.next_wrap() {
        Some(Wrap::Array) => {
            let mut next = at.consume();
            next.projections = 1;
            if matches!(next.next_wrap(), Some(Wrap::Array)) {
                next = next.consume();
            }
            Ok(next)
        }
        Some(Wrap::Map) => Err(Fault::FlattenMap),
        None => match at.desc.kind {
            Kind::Unknown => Ok(at.unknown()),
            _ => Err(Fault::FlattenScalar),
        },
    }
}

/// "`Name` is a string" (its kind).
const fn scalar(m: Msg, desc: &Desc) -> Msg {
    m.push("`")
        .push(desc.name)
        .push("` is ")
        .push(kind_name(desc.kind))
}

/// The message of a failed step: `fault`, met reading `name` (for `.name`) from the value at
/// `at` (innermost type `desc`).
const fn message(fault: Fault, desc: &'static Desc, name: &str, place: Place) -> Msg {
    let m = match fault {
        Fault::ListHasNoMember => head(place)
            .push("a list has no member \"")
            .push(name)
            .push("\": project over its elements with `[].")
            .push(name)
            .push("`"),
        Fault::NoMember => return no_member(desc, name, place),
        Fault::NotAnObject => scalar(head(place), desc)
            .push(": it has no member \"")
            .push(name)
            .push("\""),
        Fault::MapIndexed => {
            head(place).push("a map is not a list: use `*` for its values (`*.name`)")
        }
        Fault::NotAList => {
            scalar(head(place), desc).push(", not a list: `[]` and `[n]` apply to lists")
        }
        Fault::StarOnList => head(place)
            .push("`*` projects the values of an object or map; this is a list: use `[*]`"),
        Fault::StarOnScalar => {
            scalar(head(place), desc).push(": `*` projects the values of an object or map")
        }
        Fault::FlattenMap => {
            head(place).push("`[]` flattens a list; this is a map: use `*` for its values")
        }
        Fault::FlattenScalar => scalar(head(place), desc).push(", not a list: `[]` flattens lists"),
    };
    tail(m, place)
}

/// What a comparator, a `message` or a function argument needs of a path's result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Need {
    /// `stringEquals`: a string.
    String,
    /// `booleanEquals`: a boolean.
    Boolean,
    /// `allStringEquals`, `anyStringEquals`, `join`'s second argument: a list of strings.
    Strings,
    /// `message`: a string or a list of strings.
    Message,
    /// A function argument that must be a list, a string or an object (`length`).
    Sized,
    /// A function argument that must be a number (`abs`, `ceil`, `floor`).
    Number,
    /// A function argument that must be a string (`starts_with`, `ends_with`, `join`'s first).
    Text,
    /// A function argument that must be a list (`sort_by`, `max_by`, `min_by`, `map`'s second).
    List,
    /// A function argument that must be an object or a map (`keys`, `values`, `merge`).
    Object,
    /// A function argument that must be a list or a string (`contains`' first, `reverse`).
    ListOrString,
    /// A function argument that must be a list of numbers (`avg`, `sum`).
    Numbers,
    /// A function argument that must be a list of numbers or of strings (`max`, `min`, `sort`).
    Sortable,
    /// `stringEquals` on a path the macro knows to give a list (a projection), whose elements it
    /// cannot see: never fits; the message names the list's elements when they are described.
    StringOnList,
    /// `booleanEquals` on such a path.
    BooleanOnList,
}

/// Whether the value at `at` is a list: a projection's result, or a list outermost.
const fn is_list(at: At) -> bool {
    at.projections > 0 || matches!(at.next_wrap(), Some(Wrap::Array))
}

/// Whether the value at `at` is an object: a map outermost, or a structure.
const fn is_object(at: At) -> bool {
    at.projections == 0
        && match at.next_wrap() {
            Some(wrap) => matches!(wrap, Wrap::Map),
            None => matches!(at.desc.kind, Kind::Object),
        }
}

/// The value's shape at `at`: how many lists around it, and whether a map.
const fn shape(at: At) -> (usize, bool) {
    let mut lists = at.projections;
    let mut i = at.used;
    let mut map = false;
    while i < at.wraps.len() {
        match at.wraps[i] {
            Wrap::Array => lists += 1,
            Wrap::Map => map = true,
        }
        i += 1;
    }
    (lists, map)
}

/// The leaf check: whether the value at `at` is what `need` needs.
const fn fits(at: At, need: Need) -> bool {
    if matches!(need, Need::StringOnList | Need::BooleanOnList) {
        return false;
    }
    let kind = at.desc.kind;
    if at.unknown || matches!(kind, Kind::Unknown) {
        return true;
    }
    let (lists, map) = shape(at);
    match need {
        Need::String => lists == 0 && !map && matches!(kind, Kind::String),
        Need::Boolean => lists == 0 && !map && matches!(kind, Kind::Boolean),
        Need::Strings => lists == 1 && !map && matches!(kind, Kind::String),
        Need::Message => lists <= 1 && !map && matches!(kind, Kind::String),
        Need::Sized => lists > 0 || map || !matches!(kind, Kind::Number | Kind::Boolean),
        Need::Number => lists == 0 && !map && matches!(kind, Kind::Number),
        Need::Text => lists == 0 && !map && matches!(kind, Kind::String),
        Need::List => is_list(at),
        Need::Object => is_object(at),
        Need::ListOrString => is_list(at) || (lists == 0 && !map && matches!(kind, Kind::String)),
        Need::Numbers => lists == 1 && !map && matches!(kind, Kind::Number),
        Need::Sortable => lists == 1 && !map && matches!(kind, Kind::Number | Kind::String),
        Need::StringOnList | Need::BooleanOnList => false,
    }
}

/// The message of a leaf that does not fit (see [`fits`]); `what` says what `need` needs.
const fn leaf_message(at: At, need: Need, what: &str, place: Place) -> Msg {
    if matches!(need, Need::StringOnList | Need::BooleanOnList) {
        return on_list_message(at, need, what, place);
    }
    let (desc, (lists, map)) = (at.desc, shape(at));
    let mut m = head(place).push(what).push(", but it reads ");
    if map {
        m = m.push("a map");
    } else {
        let mut n = 0;
        while n < lists {
            m = m.push(if n == 0 { "a list of " } else { "lists of " });
            n += 1;
        }
        m = m.push(if lists == 0 {
            kind_name(desc.kind)
        } else {
            kinds_name(desc.kind)
        });
    }
    m = m.push(" (`").push(desc.name).push("`)");
    if matches!(need, Need::String) && lists == 1 && matches!(desc.kind, Kind::String) {
        m = m.push(
            "; to compare every element use \"allStringEquals\", to find one \"anyStringEquals\"",
        );
    }
    if matches!(need, Need::Boolean) && lists == 0 && !map && matches!(desc.kind, Kind::String) {
        m = m.push("; to compare a string use \"stringEquals\"");
    }
    m
}

/// The message of `stringEquals` or `booleanEquals` on a path that gives a list: what the list
/// holds when the walk knows it ("a list of strings (`String`)"), else "a list".
const fn on_list_message(at: At, need: Need, what: &str, place: Place) -> Msg {
    let (desc, (lists, map)) = (at.desc, shape(at));
    let mut m = head(place).push(what).push(", but it reads a list");
    if !at.unknown && !map && !matches!(desc.kind, Kind::Unknown) && lists > 0 {
        let mut n = 1;
        while n < lists {
            m = m.push(" of lists");
            n += 1;
        }
        m = m
            .push(" of ")
            .push(kinds_name(desc.kind))
            .push(" (`")
            .push(desc.name)
            .push("`)");
    }
    if matches!(need, Need::StringOnList) {
        m = m.push(
            "; to compare every element use \"allStringEquals\", to find one \"anyStringEquals\"",
        );
    }
    m
}

/// Panics with `m` (a failed check): the one formatted panic, compiled once here. The error
/// points at the caller of [`check`] (the path literal), both being `#[track_caller]`.
#[track_caller]
const fn fail(m: Msg) -> ! {
    panic!("{}", m.as_str())
}

/// One step of a field chain.
#[derive(Clone, Copy, Debug)]
pub enum Op {
    /// `.name`; `prefix` is the expression up to it, for messages.
    Field {
        name: &'static str,
        hash: u64,
        prefix: &'static str,
    },
    /// `[n]` (false) or the elements of a projection (true).
    Elements(bool),
    /// `*`: the values of a map or object.
    Values,
    /// `x[]`.
    Flatten,
    /// What follows reads one element of the projections so far (a function argument or a
    /// comparison operand inside a filter or a projection): the projections are forgotten.
    Scope,
    /// The value read so far must be what the [`Need`] needs (a chain that a longer one starts
    /// with, checked in its walk); with what it needs, for the message.
    Need(Need, &'static str),
}

/// Checks one field chain of `path` (its steps `ops`) from a root described by `root`, with
/// the root's own wrappers `wraps`, and its result against `need` (with what it needs, for the
/// message): panics with the message of the first mistake, which is then a compile error at the
/// call (the path literal).
#[track_caller]
pub const fn check(
    root: &'static Desc,
    wraps: &'static [Wrap],
    ops: &[Op],
    need: Option<(Need, &str)>,
    path: &'static str,
) {
    let mut at = At {
        desc: root,
        wraps,
        used: 0,
        projections: 0,
        unknown: false,
    };
    let mut i = 0;
    while i < ops.len() {
        let (step, name, prefix) = match ops[i] {
            Op::Field { name, hash, prefix } => (field(at, hash, name), name, prefix),
            Op::Elements(project) => (elements(at, project), "", ""),
            Op::Values => (values(at), "", ""),
            Op::Flatten => (flatten(at), "", ""),
            Op::Scope => (
                Ok(At {
                    projections: 0,
                    ..at
                }),
                "",
                "",
            ),
            Op::Need(need, what) => {
                if !fits(at, need) {
                    fail(leaf_message(at, need, what, Place { path, prefix: "" }));
                }
                (Ok(at), "", "")
            }
        };
        at = match step {
            Ok(next) => next,
            Err(fault) => fail(message(fault, at.desc, name, Place { path, prefix })),
        };
        i += 1;
    }
    if let Some((need, what)) = need {
        if !fits(at, need) {
            fail(leaf_message(at, need, what, Place { path, prefix: "" }));
        }
    }
}
