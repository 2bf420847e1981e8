//! Waiters for blocking clients (ureq, `reqwest::blocking`, a CLI's or a build tool's own):
//! [`#[waitable]`](crate::waitable) on a plain `fn` returning `Result<O, E>` generates
//! `wait_until_*` functions returning a [`blocking::Waiter`](Waiter), whose
//! [`wait`](Waiter::wait) returns the outcome directly, with no runtime.
//!
//! The same trait value, acceptors, typed paths and `errorType` checks as on an `async fn`, and
//! the same rules: the blocking and the async waiter share one decision core (delays, jitter,
//! acceptors, the last poll's head start, successes in a row, [`PollEvent`]s); only sleeping
//! (the calling thread's) and calling differ. Retries inside the poll follow the same rule
//! ([`Retrier::run_blocking`] inside a poll returns the errors the acceptors name at once),
//! and a [`Retrier`] shares its quota and adaptive rate limiter between blocking and async
//! callers.
//!
//! ```
//! use std::cell::Cell;
//! use std::time::Duration;
//! use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};
//!
//! #[derive(Debug, ProvideErrorMetadata)]
//! enum Error {
//!     #[error_metadata(code = "NotFound")]
//!     NotFound,
//! }
//! #[derive(Debug, Searchable)]
//! struct Thing { status: String }
//!
//! /// A blocking client: its methods return when the response is there.
//! struct Client { polls: std::sync::atomic::AtomicU32 }
//!
//! impl Client {
//!     #[waitable(ThingReady: { acceptors: [
//!         { state: "success", matcher: { output: { path: "status", expected: "ready", comparator: "stringEquals" } } }
//!         { state: "retry", matcher: { errorType: "NotFound" } }
//!     ] })]
//!     fn get_thing(&self, name: &str) -> Result<Thing, Error> {
//!         let _ = name; // a request to your service
//!         match self.polls.fetch_add(1, std::sync::atomic::Ordering::Relaxed) {
//!             0 => Err(Error::NotFound),
//!             1 => Ok(Thing { status: "creating".into() }),
//!             _ => Ok(Thing { status: "ready".into() }),
//!         }
//!     }
//! }
//!
//! let client = Client { polls: 0.into() };
//! let waiter: waiter_runtime::blocking::Waiter<'_, Thing, Error> =
//!     client.wait_until_thing_ready("t1");
//! let done = waiter
//!     .min_delay(Duration::from_millis(1))
//!     .max_delay(Duration::from_millis(5))
//!     .wait(Duration::from_secs(10))
//!     .expect("the thing is ready");
//! assert_eq!((done.polls, done.output().unwrap().status.as_str()), (3, "ready"));
//! ```
//!
//! # Inside an async runtime
//!
//! A blocking wait blocks the thread it runs on, for as long as the wait. On a thread of a tokio
//! runtime, that thread runs nothing else meanwhile (on a current-thread runtime, nothing at
//! all): run blocking waits with `tokio::task::spawn_blocking`, or wait with the async
//! waiter. The blocking forms never wait on tokio's timer nor need a runtime, so they never
//! deadlock on one (their sleeps are the thread's own); where it can be detected, on a thread
//! inside a runtime's `block_on`, they warn once through `tracing`. A blocking call inside a
//! runtime's task cannot be told from one in `spawn_blocking`: it is not warned about.
//!
//! [`PollEvent`]: crate::waiter::PollEvent
//! [`Retrier::run_blocking`]: crate::retry::Retrier::run_blocking
//! [`Retrier`]: crate::retry::Retrier
#![doc = ""]
#![doc = include_str!("../docs/blocking.md")]

mod steer;
mod waiter;

pub use steer::Resumed;
pub use waiter::Waiter;

/// The one warning of a blocking call on a runtime's `block_on` thread, shared with the
/// retrier's blocking calls (it lives beside the blocking caller's timer, which both use).
pub(crate) use crate::timer::warn_if_blocking_a_runtime;
