//! Typed paths: what `#[derive(Searchable)]` publishes about a type at compile time, and the
//! `const fn`s the code of `#[waitable]` and `jmespath!(Type, "..")` evaluates to check a path's
//! field chains against it. Everything here runs in const evaluation: nothing at run time.
//!
//! A derived type implements [`Described`] (its wire members, each with the wrappers around its
//! innermost type: `Option`, `Box` are transparent, `Vec`/slices/sets are [`Wrap::Array`], maps
//! with string keys [`Wrap::Map`]) and `MemberAt<I>` for each member index `I` (the innermost
//! type). A type that does not implement [`Described`] (a hand-written `Searchable`, a
//! `serde_json::Value`, a generic) is "unknown" through [`Probe`]: anything goes below it.
//! A path is walked one member at a time on concrete types, so recursive types work.

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
    /// The Rust field's name, for "Rust field `state` is `State` on the wire".
    pub rust: &'static str,
    pub wraps: &'static [Wrap],
}

/// A type's description.
#[derive(Clone, Copy, Debug)]
pub struct Desc {
    /// The Rust type's name, for messages.
    pub name: &'static str,
    pub kind: Kind,
    pub members: &'static [Member],
    /// Whether members may exist that are not listed (`flatten`ed fields): an unknown name is
    /// then not an error.
    pub open: bool,
}

impl Desc {
    pub const UNKNOWN: Desc = Desc::leaf("", Kind::Unknown);

    pub const fn leaf(name: &'static str, kind: Kind) -> Desc {
        Desc {
            name,
            kind,
            members: &[],
            open: false,
        }
    }
}

/// Implemented by `#[derive(Searchable)]` and by the standard leaf types.
pub trait Described {
    const DESC: Desc;
}

/// The innermost type of member `I`. `usize::MAX` is "unknown" and `SAME` "this type again"
/// (a map or array layer was consumed), for every type.
pub trait MemberAt<const I: usize> {
    type Ty: ?Sized;
}

/// The member index meaning "unknown below here".
pub const UNKNOWN: usize = usize::MAX;
/// The member index meaning "the same type" (a wrapper was consumed).
pub const SAME: usize = usize::MAX - 1;

/// A type about which nothing is known.
pub struct Unknown;

impl<T: ?Sized> MemberAt<UNKNOWN> for T {
    type Ty = Unknown;
}

impl<T: ?Sized> MemberAt<SAME> for T {
    type Ty = T;
}

/// `Probe::<T>::DESC` is `T::DESC` when `T: Described`, else [`Desc::UNKNOWN`] (through
/// [`Undescribed`], which must be in scope): the inherent constant wins when its bound holds.
pub struct Probe<T: ?Sized>(PhantomData<T>);

/// The fallback of [`Probe`].
pub trait Undescribed {
    const DESC: Desc = Desc::UNKNOWN;
}

impl<T: ?Sized> Undescribed for Probe<T> {}

impl<T: ?Sized + Described> Probe<T> {
    pub const DESC: Desc = T::DESC;
}

macro_rules! leaves {
    ($kind:ident: $($ty:ty),*) => {$(
        impl Described for $ty {
            const DESC: Desc = Desc::leaf(stringify!($ty), Kind::$kind);
        }
    )*};
}

leaves!(String: String, str, char, std::borrow::Cow<'_, str>);
leaves!(Number: u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64);
leaves!(Boolean: bool);

/// Where a walk is: the member just read (for the type-level step), the wrappers of the
/// current value not consumed yet, and how many projections made the result a list.
#[derive(Clone, Copy, Debug)]
pub struct At {
    pub member: usize,
    pub wraps: &'static [Wrap],
    pub used: usize,
    pub projections: usize,
    pub unknown: bool,
    /// The step that led here failed (its message is computed again, only then).
    pub fault: bool,
}

/// The root of a path: the searched type itself.
pub const ROOT: At = At {
    member: SAME,
    wraps: &[],
    used: 0,
    projections: 0,
    unknown: false,
    fault: false,
};

/// The root of a path whose type has wrappers (a `Vec<String>` parameter).
pub const fn root(wraps: &'static [Wrap]) -> At {
    At { wraps, ..ROOT }
}

impl At {
    const fn unknown(self) -> At {
        At {
            member: UNKNOWN,
            wraps: &[],
            used: 0,
            projections: self.projections,
            unknown: true,
            fault: false,
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
            member: SAME,
            used: self.used + 1,
            ..self
        }
    }

    /// The step's type-level index, or `UNKNOWN` once unknown.
    pub const fn index(self) -> usize {
        if self.unknown { UNKNOWN } else { self.member }
    }
}

/// A compile-time message: a fixed buffer written in const.
pub struct Msg {
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

    pub const fn as_str(&self) -> &str {
        let (bytes, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(bytes) {
            Ok(s) => s,
            Err(_) => "(message cut inside a character)",
        }
    }
}

/// Where a step is in the path, for messages: the path and the prefix read so far.
#[derive(Clone, Copy)]
pub struct Place {
    pub path: &'static str,
    pub prefix: &'static str,
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
const fn distance(a: &[u8], b: &[u8]) -> usize {
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

const fn no_member(desc: &Desc, name: &str, place: Place) -> Msg {
    let mut m = head(place)
        .push("`")
        .push(desc.name)
        .push("` has no member \"")
        .push(name)
        .push("\"");
    // The Rust field written instead of its wire name.
    let mut i = 0;
    while i < desc.members.len() {
        let member = desc.members[i];
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
    while i < desc.members.len() {
        let d = distance(desc.members[i].name.as_bytes(), name.as_bytes());
        if d < best {
            best = d;
            best_i = i;
        }
        i += 1;
    }
    if best <= 2 || (best <= name.len() / 3 && best != usize::MAX) {
        m = m
            .push("; did you mean \"")
            .push(desc.members[best_i].name)
            .push("\"?");
    } else if !desc.members.is_empty() {
        m = m.push("; its members are");
        let mut i = 0;
        while i < desc.members.len() && i < 12 {
            m = m.push(if i == 0 { " \"" } else { ", \"" });
            m = m.push(desc.members[i].name).push("\"");
            i += 1;
        }
    }
    tail(m, place)
}

/// The result of a step: the new position, or the error and the position to go on from
/// (unknown, so that one mistake is one error).
pub struct Step {
    pub at: At,
    pub error: Option<Msg>,
}

impl Step {
    /// Where the walk goes on from: the step's position, marked when it failed.
    pub const fn at(&self) -> At {
        At {
            fault: self.error.is_some(),
            ..self.at
        }
    }
}

const fn ok(at: At) -> Step {
    Step { at, error: None }
}

const fn fail(at: At, msg: Msg) -> Step {
    Step {
        at: at.unknown(),
        error: Some(msg),
    }
}

/// `.name` on the value at `at`, whose innermost type is described by `desc`.
pub const fn field(desc: &Desc, at: At, name: &str, place: Place) -> Step {
    if at.unknown {
        return ok(at);
    }
    match at.next_wrap() {
        Some(Wrap::Map) => ok(at.consume()),
        Some(Wrap::Array) => fail(
            at,
            tail(
                head(place)
                    .push("a list has no member \"")
                    .push(name)
                    .push("\": project over its elements with `[].")
                    .push(name)
                    .push("`"),
                place,
            ),
        ),
        None => match desc.kind {
            Kind::Unknown => ok(at.unknown()),
            Kind::Object => {
                let mut i = 0;
                while i < desc.members.len() {
                    if eq(desc.members[i].name.as_bytes(), name.as_bytes()) {
                        return ok(At {
                            member: i,
                            wraps: desc.members[i].wraps,
                            used: 0,
                            projections: at.projections,
                            unknown: false,
                            fault: false,
                        });
                    }
                    i += 1;
                }
                if desc.open {
                    ok(at.unknown())
                } else {
                    fail(at, no_member(desc, name, place))
                }
            }
            kind => fail(
                at,
                tail(
                    head(place)
                        .push("`")
                        .push(desc.name)
                        .push("` is ")
                        .push(kind_name(kind))
                        .push(": it has no member \"")
                        .push(name)
                        .push("\""),
                    place,
                ),
            ),
        },
    }
}

/// A list operation on a value that is not a list (nor a wrapper of one): an unknown value lets
/// it through, anything else fails with `what` after "`Name` is a (kind)".
const fn not_a_list(desc: &Desc, at: At, place: Place, what: &'static str) -> Step {
    match desc.kind {
        Kind::Unknown => ok(at.unknown()),
        kind => fail(
            at,
            tail(
                head(place)
                    .push("`")
                    .push(desc.name)
                    .push("` is ")
                    .push(kind_name(kind))
                    .push(what),
                place,
            ),
        ),
    }
}

/// `[]`, `[*]`, `[n]` or a slice on the value at `at`: its elements. `project` says whether the
/// result is a projection (a list of what follows).
pub const fn elements(desc: &Desc, at: At, project: bool, place: Place) -> Step {
    if at.unknown {
        return ok(at);
    }
    match at.next_wrap() {
        Some(Wrap::Array) => {
            let mut next = at.consume();
            if project {
                next.projections += 1;
            }
            ok(next)
        }
        Some(Wrap::Map) => fail(
            at,
            tail(
                head(place).push("a map is not a list: use `*` for its values (`*.name`)"),
                place,
            ),
        ),
        None => not_a_list(
            desc,
            at,
            place,
            ", not a list: `[]` and `[n]` apply to lists",
        ),
    }
}

/// `*` on the value at `at`: a map's values, or an object's (of unknown type).
pub const fn values(desc: &Desc, at: At, place: Place) -> Step {
    if at.unknown {
        return ok(at);
    }
    match at.next_wrap() {
        Some(Wrap::Map) => {
            let mut next = at.consume();
            next.projections += 1;
            ok(next)
        }
        Some(Wrap::Array) => fail(
            at,
            tail(
                head(place)
                    .push("`*` projects the values of an object or map; this is a list: use `[*]`"),
                place,
            ),
        ),
        None => match desc.kind {
            Kind::Object | Kind::Unknown => {
                let mut next = at.unknown();
                next.projections += 1;
                ok(next)
            }
            kind => fail(
                at,
                tail(
                    head(place)
                        .push("`")
                        .push(desc.name)
                        .push("` is ")
                        .push(kind_name(kind))
                        .push(": `*` projects the values of an object or map"),
                    place,
                ),
            ),
        },
    }
}

/// What a comparator or a `message` needs of a path's result.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// `stringEquals`: a string.
    String,
    /// `booleanEquals`: a boolean.
    Boolean,
    /// `allStringEquals`, `anyStringEquals`: a list of strings.
    Strings,
    /// `message`: a string or a list of strings.
    Message,
    /// A function argument that must be a list, a string or an object (`length`).
    Sized,
}

/// The leaf check: the value at `at` (innermost type `desc`) against `need`.
pub const fn leaf(desc: &Desc, at: At, need: Need, what: &str, place: Place) -> Option<Msg> {
    if at.unknown || matches!(desc.kind, Kind::Unknown) {
        return None;
    }
    // The value's shape: `projections` lists around the remaining wrappers around the kind.
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
    let fits = match need {
        Need::String => lists == 0 && !map && matches!(desc.kind, Kind::String),
        Need::Boolean => lists == 0 && !map && matches!(desc.kind, Kind::Boolean),
        Need::Strings => lists == 1 && !map && matches!(desc.kind, Kind::String),
        Need::Message => lists <= 1 && !map && matches!(desc.kind, Kind::String),
        Need::Sized => lists > 0 || map || !matches!(desc.kind, Kind::Number | Kind::Boolean),
    };
    if fits {
        return None;
    }
    let mut m = head(place).push(what).push(", but it reads ");
    if map {
        m = m.push("a map");
    } else {
        let mut n = 0;
        while n < lists {
            m = m.push(if n == 0 { "a list of " } else { "lists of " });
            n += 1;
        }
        m = m.push(kind_name(desc.kind));
    }
    m = m.push(" (`").push(desc.name).push("`)");
    if matches!(need, Need::String) && lists == 1 && matches!(desc.kind, Kind::String) {
        m = m.push(
            "; to compare every element use \"allStringEquals\", to find one \"anyStringEquals\"",
        );
    }
    Some(tail(
        m,
        Place {
            prefix: "",
            ..place
        },
    ))
}

/// `x[]` on the value at `at`: a list, whose list elements are merged into it. With `p`
/// projections around the value: `p == 0` makes the value's list the result (and merges a list
/// of lists), `p == 1` merges the elements that are lists, `p >= 2` merges the two outer lists.
pub const fn flatten(desc: &Desc, at: At, place: Place) -> Step {
    if at.unknown {
        return ok(at);
    }
    if at.projections >= 2 {
        return ok(At {
            member: SAME,
            projections: at.projections - 1,
            ..at
        });
    }
    if at.projections == 1 {
        return match at.next_wrap() {
            Some(Wrap::Array) => ok(at.consume()),
            _ => ok(At { member: SAME, ..at }),
        };
    }
    match at.next_wrap() {
        Some(Wrap::Array) => {
            let mut next = at.consume();
            next.projections = 1;
            if matches!(next.next_wrap(), Some(Wrap::Array)) {
                next = next.consume();
            }
            ok(next)
        }
        Some(Wrap::Map) => fail(
            at,
            tail(
                head(place).push("`[]` flattens a list; this is a map: use `*` for its values"),
                place,
            ),
        ),
        None => not_a_list(desc, at, place, ", not a list: `[]` flattens lists"),
    }
}
