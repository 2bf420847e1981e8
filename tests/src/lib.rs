//! The example service and client shared by the demo and the end-to-end tests.
//!
//! * [`service`]: a small resource API with eventual consistency and fault injection, served
//!   over real TCP on `127.0.0.1`, in-process.
//! * [`client`]: a reqwest client for it, written the way a user would.
//! * [`blocking_client`]: a blocking client for it (ureq by default), with waiters on plain `fn`s.
//! * [`demo`]: the scenario of `cargo run --example demo`.
//! * [`report`]: the demo's plain-text output (poll lines, the summary table).
//! * [`middleware_client`]: the same client on `reqwest-middleware` with the retry middleware.
//! * [`capacity`]: a service serving a fixed capacity, for the retry layers' tests and benchmark.
//! * [`redis_server`]: a `redis-server` of its own, for the fleet tests and example.

#![forbid(unsafe_code)]

pub mod blocking_client;
pub mod capacity;
pub mod client;
pub mod demo;
pub mod middleware_client;
pub mod redis_server;
pub mod report;
pub mod service;

/// The README's code blocks, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
