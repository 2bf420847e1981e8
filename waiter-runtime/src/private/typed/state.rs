//! Where a check is in the described types ([`At`]: the innermost type, its wrappers not
//! consumed yet, the projections around it), and what the end of a path must be ([`Need`],
//! checked by [`fits`]).

use super::describe::{Desc, Kind, Wrap};

/// Where a walk is: the innermost type's description, the wrappers of the current value not
/// consumed yet, and how many projections made the result a list.
#[derive(Clone, Copy, Debug)]
pub(super) struct At {
    pub(super) desc: &'static Desc,
    pub(super) wraps: &'static [Wrap],
    pub(super) used: usize,
    pub(super) projections: usize,
    pub(super) unknown: bool,
}

impl At {
    pub(super) const fn unknown(self) -> At {
        At {
            desc: Desc::UNKNOWN,
            wraps: &[],
            used: 0,
            projections: self.projections,
            unknown: true,
        }
    }

    pub(super) const fn next_wrap(&self) -> Option<Wrap> {
        if self.used < self.wraps.len() {
            Some(self.wraps[self.used])
        } else {
            None
        }
    }

    pub(super) const fn consume(self) -> At {
        At {
            used: self.used + 1,
            ..self
        }
    }
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
pub(super) const fn is_list(at: At) -> bool {
    at.projections > 0 || matches!(at.next_wrap(), Some(Wrap::Array))
}

/// Whether the value at `at` is an object: a map outermost, or a structure.
pub(super) const fn is_object(at: At) -> bool {
    at.projections == 0
        && match at.next_wrap() {
            Some(wrap) => matches!(wrap, Wrap::Map),
            None => matches!(at.desc.kind, Kind::Object),
        }
}

/// The value's shape at `at`: how many lists around it, and whether a map.
pub(super) const fn shape(at: At) -> (usize, bool) {
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
pub(super) const fn fits(at: At, need: Need) -> bool {
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
