//! Everything the code of `#[waitable]`, `jmespath!` and the derives calls. Not a public API:
//! it changes without notice between versions (its name carries the version, so that two
//! versions of the runtime in one build cannot be confused).
#![allow(missing_docs)]

use std::future::Future;

pub use crate::error_metadata::ProvideErrorMetadata;
/// Helpers the code of `jmespath!` and `#[derive(Searchable)]` calls.
pub mod jmespath {
    pub use crate::jmespath::data_model::{AsBlob, AsTimestamp};
    pub use crate::jmespath::derive_support::{flat, flat_entries, flat_get, serialized, union};
    pub use crate::jmespath::eval::*;
    pub use crate::jmespath::view::{
        Out, Plan, SearchArray, SearchObject, Sink, Walk, follow_node, walk_node_items,
    };
    pub use std::option::Option as __Option;
}
pub use crate::jmespath::expression::EvalFn;
pub use crate::jmespath::{Fields, InputOutput, Searchable};
pub use crate::waiter::OutputStatus;
pub use crate::waiter::acceptor::{AcceptorState, Matched, Polled};
pub use crate::waiter::matchers::{
    ErrorCode, ErrorStatus, all_string_equals, any_string_equals, boolean_equals, error_type,
    failure_message, shape_name, status, string_equals, success,
};
pub use crate::waiter::poller::{PollParam, ResultParts};
pub use crate::waiter::{Waiter, WaiterMetadata};
pub use waiter_macros::__jmespath_verdict;

mod checks;
mod const_str;
mod error_codes;
mod input;
pub mod typed;
pub use checks::{
    BlockingWaitGiven, ForeignErrorCode, InputSearchable, MaxWaitGiven, OutputSearchable,
    SetMaxWaitGiven, WithoutMaxWait, foreign_error_type, searchable_input,
};
pub use error_codes::{
    DerivedErrorCodes, ErrorCodes, KnownCode, UnknownErrorCodes, codeless, error_type_hint,
    first_error_type_hint,
};
pub use input::{
    IdentifyArgument, InputDigest, Probe, UnidentifiedArgument, bind_blocking_input, bind_input,
};

/// Builds the waiter a `wait_until_*` function returns from a closure starting one poll.
#[inline]
pub fn waiter<'a, O, E, F, Fut>(metadata: WaiterMetadata, poll: F) -> Waiter<'a, O, E>
where
    F: FnMut() -> Fut + Send + 'a,
    Fut: Future<Output = Polled<O, E>> + Send + 'a,
{
    Waiter::from_poller(metadata, crate::waiter::poller::box_poller(poll))
}

/// Builds the blocking waiter a `wait_until_*` function of a plain `fn` returns from a closure
/// making one poll.
#[inline]
pub fn blocking_waiter<'a, O, E, F>(
    metadata: WaiterMetadata,
    poll: F,
) -> crate::blocking::Waiter<'a, O, E>
where
    F: FnMut() -> Polled<O, E> + Send + 'a,
{
    crate::blocking::Waiter::from_poller(metadata, Box::new(poll))
}

/// The body of a `wait_until_*` function whose `#[waitable]` has errors: the function keeps
/// its signature so that its callers compile, and the errors are the attribute's alone.
#[cold]
pub fn unreachable_waiter<'a, O, E>() -> Waiter<'a, O, E> {
    unreachable!("#[waitable] reported errors at compile time")
}

/// [`unreachable_waiter`] for a plain `fn`'s waiters.
#[cold]
pub fn unreachable_blocking_waiter<'a, O, E>() -> crate::blocking::Waiter<'a, O, E> {
    unreachable!("#[waitable] reported errors at compile time")
}
