//! The messages of failed checks, written in const into a fixed buffer ([`Msg`]), and the one
//! panic that turns a message into a compile error at the path ([`fail`]).

use super::super::const_str::{bytes_eq, distance};
use super::describe::{Desc, Kind, member_count, nth_member};
use super::state::{At, Need, shape};

/// Why a step failed: what its message says (written only for a failed step, by [`message`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Fault {
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

/// A compile-time message: a fixed buffer written in const.
pub(super) struct Msg {
    buf: [u8; 1024],
    len: usize,
}

impl Msg {
    const fn new() -> Msg {
        Msg {
            buf: [0; 1024],
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
pub(super) struct Place {
    /// Where the path comes from, when it is read from a model file (else empty).
    pub(super) origin: &'static str,
    pub(super) path: &'static str,
    pub(super) prefix: &'static str,
}

pub(super) const fn head(place: Place) -> Msg {
    Msg::new()
        .push(place.origin)
        .push("path \"")
        .push(place.path)
        .push("\": ")
}

pub(super) const fn tail(m: Msg, place: Place) -> Msg {
    if place.prefix.is_empty() {
        m
    } else {
        m.push(" (at \"").push(place.prefix).push("\")")
    }
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

pub(super) const fn no_member(desc: &'static Desc, name: &str, place: Place) -> Msg {
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
        if bytes_eq(member.rust.as_bytes(), name.as_bytes()) {
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

/// "`Name` is a string" (its kind).
const fn scalar(m: Msg, desc: &Desc) -> Msg {
    m.push("`")
        .push(desc.name)
        .push("` is ")
        .push(kind_name(desc.kind))
}

/// The message of a failed step: `fault`, met reading `name` (for `.name`) from the value at
/// `at` (innermost type `desc`).
pub(super) const fn message(fault: Fault, desc: &'static Desc, name: &str, place: Place) -> Msg {
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

/// The message of a leaf that does not fit (see [`fits`]); `what` says what `need` needs.
pub(super) const fn leaf_message(at: At, need: Need, what: &str, place: Place) -> Msg {
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
pub(super) const fn fail(m: Msg) -> ! {
    panic!("{}", m.as_str())
}
