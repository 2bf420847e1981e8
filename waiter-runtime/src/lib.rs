//! Waiting and retrying against remote services, correctly and cheaply.
//!
//! * [`waitable`]: the Smithy waiters model on any hand-written async client, through one
//!   attribute whose argument is the `@waitable` trait value pasted from a Smithy model.
//!   JMESPath paths are parsed, type-checked and compiled into Rust at macro time.
//! * [`jmespath!`]: the JMESPath compiler on its own.
//! * [`retry`]: the retry machinery the AWS SDKs use: standard and adaptive strategies,
//!   prioritised retry classifiers and a shared retry quota.

#![forbid(unsafe_code)]

pub mod error_metadata;
pub mod jmespath;
pub mod retry;
pub mod waiter;

pub use error_metadata::ProvideErrorMetadata;
pub use waiter::{FinalPoll, Waiter, WaiterError};
/// Derives [`ProvideErrorMetadata`](trait@ProvideErrorMetadata) for an error enum or struct;
/// the attributes are documented in [`error_metadata`](mod@error_metadata).
pub use waiter_macros::ProvideErrorMetadata;
pub use jmespath::Searchable;
pub use waiter_macros::{jmespath, waitable};
