//! The check of one field chain: a walk of the path's steps ([`Op`]) over the described types,
//! in const evaluation, that panics with the message of the first mistake ([`check`]).

use super::super::const_str::bytes_eq;
use super::describe::{Desc, Kind, Member, Wrap};
use super::message::{Fault, Place, fail, leaf_message, message};
use super::state::{At, Need, fits};

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
        if member.hash == hash && bytes_eq(member.name.as_bytes(), name.as_bytes()) {
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
/// call (the path literal). `origin` starts the message: empty for a path written in the code,
/// the model file, waiter and acceptor for one read from a file (whose every token is the
/// attribute's path).
#[track_caller]
pub const fn check(
    root: &'static Desc,
    wraps: &'static [Wrap],
    ops: &[Op],
    need: Option<(Need, &str)>,
    path: &'static str,
    origin: &'static str,
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
                check_need(at, need, what, path, origin);
                (Ok(at), "", "")
            }
        };
        at = match step {
            Ok(next) => next,
            Err(fault) => fail(message(
                fault,
                at.desc,
                name,
                Place {
                    origin,
                    path,
                    prefix,
                },
            )),
        };
        i += 1;
    }
    if let Some((need, what)) = need {
        check_need(at, need, what, path, origin);
    }
}

/// Panics with the message for `path` unless the value read so far is what `need` needs
/// (`what`: what it needs, for the message), at the caller of [`check`] as it does.
#[track_caller]
const fn check_need(at: At, need: Need, what: &str, path: &'static str, origin: &'static str) {
    if !fits(at, need) {
        fail(leaf_message(
            at,
            need,
            what,
            Place {
                origin,
                path,
                prefix: "",
            },
        ));
    }
}
