//! Waiting and retrying against remote services, correctly and cheaply.
//!
//! * [`waitable`]: the Smithy waiters model on any hand-written async client, through one
//!   attribute whose argument is the `@waitable` trait value pasted from a Smithy model.
//!   JMESPath paths are parsed, type-checked and compiled into Rust at macro time.
//! * [`WaitAll`]: many waiters under one deadline, one result per waiter in input order, with
//!   a bound on the polls in flight, fail-fast and progress.
//! * [`jmespath!`]: the JMESPath compiler on its own.
//! * [`retry`]: the retry machinery the AWS SDKs use: standard and adaptive strategies,
//!   prioritised retry classifiers and a shared retry quota.
//! * [`blocking`]: the same waiters for blocking clients (`#[waitable]` on a plain `fn`), and
//!   [`Retrier::run_blocking`](retry::Retrier::run_blocking).
//! * [`timer`]: waiters and retries run on any executor (tokio's timer inside tokio,
//!   futures-timer's elsewhere), or on a timer you supply.
//! * [`poll_scope`]: what a retry layer knows inside a waiter's poll (which errors the waiter's
//!   acceptors name, its deadline), so that retries and waiters work together.
//!
//! # The manual
//!
//! Each chapter lives with the item it is about:
//!
//! * [Use it in your crate](#use-it-in-your-crate) (below): dependencies, the features, your
//!   error type;
//! * [`waitable`]: the attribute, pasting a waiter from a Smithy model, the compile-time checks
//!   and typed paths;
//! * [`waiter`]: what a waiter does (workflow, delays, deadline, options, retries inside polls),
//!   waiting on many resources with [`WaitAll`], and what a wait hands back, poll by poll
//!   ([`PollEvent`](waiter::PollEvent)) and at the end ([`FinalPoll`]);
//! * [`jmespath`](mod@jmespath): the compiler, the data model, and where we are stricter than
//!   JMESPath;
//! * [`error_metadata`](mod@error_metadata): how errors describe themselves (`errorType`,
//!   retries);
//! * [`retry`]: the standard strategy, retry behavior 2.1 and 2.0, the quota, the classifiers;
//!   `retry::layer` (feature `http`): retries on reqwest-middleware and tower clients;
//!   [`retry::adaptive`]: client-side rate limiting;
//! * [`blocking`]: blocking clients; [`timer`]: other executors and timers of your own;
//! * [`poll_scope`]: how retries and waiters work together.
//!
//! # Quick start
//!
//! With the dependencies of [Use it in your crate](#use-it-in-your-crate) (below), derive
//! [`Searchable`](trait@Searchable) on the outputs the waiters' paths read and
//! [`ProvideErrorMetadata`](trait@ProvideErrorMetadata) on the error the `errorType` matchers
//! read, paste the `@waitable` trait on the operation, and call `wait_until_*` with the longest
//! you are willing to wait:
//!
//! ```
//! use std::time::Duration;
//! use waiter_runtime::{ProvideErrorMetadata, Searchable, Waiter, waitable};
//!
//! #[derive(Debug, Searchable)]
//! #[serde(rename_all = "PascalCase")]
//! struct DescribeTableOutput { table_status: String }
//!
//! #[derive(Debug, ProvideErrorMetadata)]
//! enum CloudError { ResourceNotFound }
//!
//! struct Client;
//!
//! impl Client {
//!     #[waitable(TableExists: { acceptors: [
//!         { state: "success", matcher: { output: { path: "TableStatus", expected: "ACTIVE", comparator: "stringEquals" } } }
//!         { state: "retry", matcher: { errorType: "ResourceNotFound" } }
//!     ] })]
//!     async fn describe_table(&self, name: &str) -> Result<DescribeTableOutput, CloudError> {
//!         let _ = name; // a request to your service
//!         Ok(DescribeTableOutput { table_status: "ACTIVE".into() })
//!     }
//! }
//!
//! #[tokio::main]
//! async fn main() {
//!     let client = Client;
//!     let waiter: Waiter<'_, DescribeTableOutput, CloudError> = client.wait_until_table_exists("orders");
//!     let done = waiter.wait(Duration::from_secs(300)).await.expect("the table exists");
//!     assert_eq!(done.output().unwrap().table_status, "ACTIVE");
//! }
//! ```
//!
//! A mistake in the trait value, a JMESPath path or a path that cannot match its comparator is
//! a compile error at the offending token, all of them in one pass (see [`waitable`]).
#![doc = ""]
#![doc = include_str!("docs/getting_started.md")]
#![forbid(unsafe_code)]

// The derives' `::waiter_runtime` paths, in this crate's own unit tests.
#[cfg(test)]
extern crate self as waiter_runtime;

pub mod blocking;
pub mod error_metadata;
pub mod jmespath;
pub mod metrics;
pub mod poll_scope;
pub mod retry;
pub mod timer;
pub mod waiter;

#[doc(hidden)]
#[path = "private/mod.rs"]
pub mod __private_v0_1;

#[doc(no_inline)]
pub use error_metadata::ProvideErrorMetadata;
#[doc(no_inline)]
pub use jmespath::Searchable;
#[doc(no_inline)]
pub use waiter::{FinalPoll, OutputStatus, WaitAll, Waiter, WaiterError};
/// Derives [`ProvideErrorMetadata`](trait@ProvideErrorMetadata) for an error enum or struct;
/// the attributes are documented in [`error_metadata`](mod@error_metadata).
pub use waiter_macros::ProvideErrorMetadata;
/// Compiles a JMESPath expression into Rust while your code compiles.
///
/// `jmespath!("expr")` is an [`Expression`](jmespath::Expression) (a `const`-compatible value):
/// `.search(&data)` evaluates it against anything [`Searchable`] (`serde_json::Value`, your
/// `#[derive(Searchable)]` types, standard collections...) and returns a borrowed
/// [`Node`](jmespath::Node), convertible to `serde_json::Value`, or a
/// [`SearchError`](jmespath::SearchError) (`invalid-type`, `invalid-value`).
///
/// The expression is parsed and checked at compile time: a syntax error, an unknown function,
/// a wrong number of arguments, an argument whose type is known to be wrong (a literal), or a
/// field read from a literal that is not an object is a compile error on the string literal,
/// with the column inside the expression. The whole JMESPath language and every built-in
/// function are supported; the official compliance suite passes.
///
/// ```
/// use serde_json::json;
/// use waiter_runtime::jmespath;
///
/// let output = json!({"Table": {"TableStatus": "ACTIVE", "ItemCount": 3}});
/// assert_eq!(jmespath!("Table.TableStatus").search(&output).unwrap(), json!("ACTIVE"));
///
/// let busy = jmespath!("length(Items[?Status != 'done']) > `0`");
/// assert_eq!(busy.search(&json!({"Items": [{"Status": "done"}]})).unwrap(), json!(false));
/// ```
///
/// ```compile_fail
/// // error: unknown function `lenght()`; did you mean `length`? (at column 1 of the expression)
/// let e = waiter_runtime::jmespath!("lenght(Items)");
/// ```
///
/// With a type first, `jmespath!(Type, "path")`, the path's field chains are checked against
/// what `#[derive(Searchable)]` publishes about `Type`, as `#[waitable]` checks its paths:
///
/// ```compile_fail
/// use waiter_runtime::{Searchable, jmespath};
/// #[derive(Searchable)]
/// #[serde(rename_all = "PascalCase")]
/// struct Instance { state: String }
/// // error: path "Status": `Instance` has no member "Status"; did you mean "State"?
/// let e = jmespath!(Instance, "Status");
/// ```
///
/// `crate = "path"` first names the runtime crate when it is re-exported under another name.
///
/// See the [`jmespath`](mod@jmespath) module for the data model and the derive.
pub use waiter_macros::jmespath;
#[doc = include_str!("waiter/waitable.md")]
#[doc = ""]
#[doc = include_str!("docs/pasting.md")]
#[doc = ""]
#[doc = include_str!("docs/compile_errors.md")]
pub use waiter_macros::waitable;
