//! The waiter loop, its delays and its results.
//!
//! [`Waiter`] runs the Smithy waiter workflow: poll (the first poll is immediate), find the
//! first acceptor that matches, stop on `success` or `failure`, stop on an error no acceptor
//! matches, otherwise sleep for the spec's backoff (see [`Waiter::wait`]) and poll again,
//! until the caller's maximum wait passes. `#[waitable]` builds a [`Waiter`] for each waiter of
//! a Smithy `@waitable` trait; everything the macro emits per waiter is a small classification
//! function, the rest is here, generic.
//!
//! [`WaitAll`] waits for many waiters under one deadline, one result per waiter in input
//! order, with a concurrency limit, fail-fast and progress.
//!
//! Each poll runs inside a [`PollScope`](crate::poll_scope::PollScope): the retry layer
//! inside it returns at once the errors the waiter's acceptors name and retries the others.
#![doc = ""]
#![doc = include_str!("../docs/waiters.md")]
#![doc = ""]
#![doc = include_str!("../docs/wait_all.md")]
#![doc = ""]
#![doc = include_str!("../docs/final_poll.md")]
#![doc = ""]
#![doc = include_str!("../docs/watching.md")]
#![cfg_attr(feature = "metrics", doc = "")]
#![cfg_attr(feature = "metrics", doc = include_str!("../docs/watching_metrics.md"))]

pub(crate) mod delay;
pub(crate) mod input;

pub(crate) mod matchers;

pub(crate) mod acceptor;
pub(crate) mod checkpoint;
mod forgot_wait;
pub(crate) mod machine;
mod map;
mod metadata;
pub(crate) mod metrics;
mod observer;
pub(crate) mod options;
mod outcome;
mod output_status;
pub(crate) mod poller;
mod resume;
mod run;
mod stream;
pub(crate) mod transient;
mod wait_all;

pub use acceptor::AcceptorState;
pub use checkpoint::{CheckpointError, WaitCheckpoint};
pub use input::{InputDigest, InputIdentity};
pub use metadata::{AcceptorDescription, Comparator, MatcherDescription, WaiterMetadata};
pub use observer::{PollEvent, PollObserver};
pub use outcome::{FinalPoll, WaiterError};
pub use output_status::OutputStatus;
pub use resume::Resumed;
pub use run::Waiter;
pub use stream::{WaitUpdate, WaiterStream};
pub use transient::TransientPollErrors;
pub use wait_all::{
    Ended, MemberCheckpoint, MemberOutcome, ResumedResult, ResumedWaitAll, WaitAll, WaitAllChange,
    WaitAllCheckpoint, WaitAllCheckpoints, WaitAllProgress, WaitAllStream, WaitResult,
};
