//! Adaptive retry: client-side rate limiting with CUBIC, as the AWS SDKs do it.
//!
//! Turned on with `RetryConfig::adaptive()`; standard mode stays the default. Every attempt
//! first takes a token from a [`ClientRateLimiter`] shared by all the calls of a client. The
//! limiter is off until the first throttling response; from then on its fill rate follows
//! CUBIC: cut to `beta x` the rate in effect on a throttle, then climbing back along
//! `C (t - t0 - K)^3 + w_max`, never above twice the measured transmit rate (the SDKs:
//! `beta = 0.7`, `C = 0.4`; our default: 0.75 and 0.2).
//!
//! # Our controller and the SDKs'
//!
//! The AWS SDKs' controller cuts the rate on every throttling response. With a service a few
//! tens of milliseconds away, some 20 requests are in flight when the client overshoots, their
//! throttles come back together and cut the rate `0.7^20`: one client of 100 callers keeps
//! 0.35 to 0.42 of the service's capacity, ours 0.94 (BENCHMARKS.md, "A fleet of clients",
//! simulated). Fleets of independent clients sharing one service (processes of one account)
//! are throttled less with ours (50 clients: 4.5 to 4.9 % of requests, the SDKs' 6.7 %) and
//! share it evenly (Jain's index 0.96 or more). The default, [`Tuning::DEFAULT`], keeps the
//! SDKs' structure and adds, each a [`Tuning`] field measured alone in BENCHMARKS.md:
//!
//! * **one cut per congestion event** ([`Tuning::one_cut_per_event`]): a throttle cuts only
//!   if its request was sent after the last cut (the [`Retrier`](crate::retry::Retrier)
//!   reports when each attempt was sent: [`ClientRateLimiter::sent`]), `w_max` being the rate
//!   before the cut, **with a recovery period** ([`Tuning::recovery_period`]): nor does one
//!   sent before the first response to a request sent after the cut (the overshoot emptied
//!   the service's bucket; RFC 9002's recovery period);
//! * **a slower climb when throttled often** ([`Tuning::throttle_share_target`],
//!   [`Tuning::max_stretch`]): a client more than 2 % of whose responses are throttles (one
//!   of many clients of a service, each probing its limit) climbs back after a cut up to
//!   twice as slowly; a client alone with its service is throttled far less and unaffected;
//! * **smaller cuts, a gentler climb** (`beta` 0.75, `scale_constant` 0.2);
//! * **smooth pacing** ([`Tuning::burst_seconds`]): the bucket holds 50 ms of tokens, not a
//!   second's, and waiting callers are served in order, woken when the rate changes;
//! * **the paced cold start** ([`ColdStart::Observed`]): a throttle that comes before a whole
//!   half-second of traffic has been measured cuts the rate to `beta x` the rate the service
//!   was seen to admit (or, if it admitted nothing yet, the rate the client sent at), where
//!   the SDKs cut it to the 0.5/s floor (see [`RateLimiterState::on_response`]).
//!
//! Three more are opt-in, measured there and not better in that simulation: CUBIC's fast
//! convergence ([`Tuning::fast_convergence`], RFC 9438 section 4.7), a rate measured over
//! several responses ([`Tuning::rate_min_responses`]) and a cut from the fill rate when
//! callers waited for tokens ([`Tuning::cut_from_fill_rate`]).
//!
//! [`Tuning::AWS`] is the SDKs' algorithm and constants with only the paced cold start;
//! [`Tuning::SDK`] is botocore's `ClientRateLimiter` value for value, for users and tests that
//! must match an SDK.
//!
//! [`RateLimiterState`] is the whole algorithm as a plain value driven by explicit timestamps,
//! so it can be tested against the SDKs' published tables and simulated at any speed; inside
//! it, three private pieces, tested in this module against those tables and botocore's own
//! classes: the transmit rate (responses per second, counted in half-second buckets and
//! smoothed), CUBIC (the rate after a throttle and its growth after successes) and the token
//! bucket (fill rate, capacity, never negative); the congestion events (the send marks,
//! recovery periods and throttle share) are a fourth. [`Tuning`] holds the constants.
//!
//! [`ClientRateLimiter`] shares a [`RateLimiterState`] between tasks and threads, on tokio's
//! clock for async callers (so tests run it on the paused clock) and the system's for blocking
//! ones ([`Retrier::run_blocking`](crate::retry::Retrier::run_blocking), whose thread would
//! never see a paused clock move).
//!
//! ```
//! use std::sync::Arc;
//! use waiter_runtime::ProvideErrorMetadata;
//! use waiter_runtime::retry::adaptive::{ClientRateLimiter, Tuning};
//! use waiter_runtime::retry::{Retrier, RetryConfig};
//!
//! #[derive(Debug, ProvideErrorMetadata)]
//! enum PutItemError {
//!     #[error_metadata(code = "ProvisionedThroughputExceededException", status = 400)]
//!     Throttled,
//! }
//!
//! # #[tokio::main(flavor = "current_thread", start_paused = true)]
//! # async fn main() {
//! // Adaptive mode: the retrier builds its own limiter, shared by its clones.
//! let retrier = Retrier::new(RetryConfig::adaptive().build());
//! let out = retrier.run(|| async { Ok::<_, PutItemError>("stored") }).await;
//! assert_eq!(out.unwrap(), "stored");
//!
//! // Or one limiter for several retriers, here with an opt-in floor under the rate for a
//! // table provisioned at 100 writes/s (see `Tuning`).
//! let limiter = ClientRateLimiter::with_tuning(Tuning { min_fill_rate: 80.0, ..Tuning::AWS })
//!     .expect("a valid tuning");
//! let writes = Retrier::new(RetryConfig::adaptive().build())
//!     .with_rate_limiter(Arc::new(limiter.clone()));
//! let _ = writes.run(|| async { Err::<(), _>(PutItemError::Throttled) }).await;
//! assert!(limiter.state().is_enabled());
//! assert_eq!(limiter.state().fill_rate(), 80.0);
//! # }
//! ```
#![doc = ""]
#![doc = include_str!("../../docs/adaptive.md")]
#![cfg_attr(feature = "redis", doc = "")]
#![cfg_attr(feature = "redis", doc = include_str!("../../docs/fleet.md"))]

mod bucket;
mod cubic;
mod events;
#[cfg(feature = "redis")]
mod fleet;
mod hook;
mod limiter;
mod state;
mod transmit;
mod tuning;

#[cfg(test)]
mod tests;

pub(crate) use bucket::TokenBucket;
pub(crate) use cubic::Cubic;
pub use events::Sent;
#[cfg(feature = "redis")]
pub use fleet::{FleetError, FleetRateLimiter, FleetStatus};
pub use limiter::{Acquire, ClientRateLimiter, Ticket};
pub use state::{InvalidRate, InvalidSteadyState, RateLimiterState};
pub(crate) use transmit::TransmitRate;
pub use tuning::{ColdStart, InvalidTuning, Tuning};
