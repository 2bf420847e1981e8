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
//!
//! The parts: `describe` (the descriptions), `state` (where a check is, and what a path's end
//! needs), `chain` (the check of one field chain) and `message` (what a failed check says).

mod chain;
mod describe;
mod message;
mod state;

pub use chain::{Op, check};
pub use describe::{Depth, Desc, Described, Kind, Member, Probe, S, Undescribed, Wrap, Z};
pub use state::Need;
