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
//! callers. [`Waiter::iter`] gives the wait poll by poll (each poll's own result, then the
//! end), as `Waiter::stream` does for an async caller.
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

use crate::waiter::acceptor::Polled;
use crate::waiter::options::Options;

#[cfg(test)]
mod agreement_tests;
mod driver;
mod iter;
mod not_a_future;
mod steer;
mod waiter;

pub use iter::WaiterIter;
pub use steer::Resumed;

/// One blocking poll.
pub(crate) type BlockingPoller<'a, O, E> = Box<dyn FnMut() -> Polled<O, E> + Send + 'a>;

/// A blocking waiter ready to run: set options, then call [`wait`](Self::wait) with the maximum
/// time you are willing to wait. [`#[waitable]`](crate::waitable) on a plain `fn` returns one
/// (see the [module](self) docs); it takes the same options as the async
/// [`Waiter`](crate::Waiter), and does nothing until `wait` is called.
///
/// **At the deadline.** A blocking poll cannot be cancelled: a poll still running at the
/// deadline is allowed to finish. Its result is used if it decides (a `success` or `failure`
/// acceptor, an error no acceptor matches); otherwise the wait ends as
/// [`ExceededMaxWait`](crate::WaiterError::ExceededMaxWait) with it, and no other poll follows. So
/// the wait ends at most one poll's duration after `max_wait`: bound it with your client's
/// request timeout (ureq's `timeout_global`, `reqwest::blocking`'s `timeout`). Retries inside
/// the poll never start past the deadline, nor wait for the adaptive rate limiter past it (a
/// poll's first attempt does wait for its token: it has no error to return before it; the
/// limiter's lowest rate is a token every 2 s), and the last poll starts early enough to
/// answer, as in the async waiter. The clock is the system's.
#[must_use = "a blocking waiter does nothing until `.wait(max_wait)`"]
pub struct Waiter<'a, O, E, Obs = ()> {
    // Private to this module and its children (`waiter`, `steer`), which drive it.
    options: Options,
    poller: BlockingPoller<'a, O, E>,
    observer: Obs,
}

/// The one warning of a blocking call on a runtime's `block_on` thread, shared with the
/// retrier's blocking calls (it lives beside the blocking caller's timer, which both use).
pub(crate) use crate::timer::warn_if_blocking_a_runtime;
