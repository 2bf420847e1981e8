//! Retries as the AWS SDKs do them: a standard strategy with exponential backoff and full
//! jitter, prioritised retry classifiers, and a retry quota shared by all the calls of a client.
//!
//! * [`RetryConfig`]: attempts, backoff, time budget, [`RetryMode`], [`RetryBehavior`] (the
//!   AWS SDKs' retry behavior 2.1 by default, 2.0 by name);
//! * [`Retrier`]: runs an async operation and retries it (`retrier.run(|| async { ... })`);
//! * [`ClassifyRetry`], [`RetryAction`], [`RetryClassifierPriority`]: decide what is retried
//!   ([the built-in classifiers](classifiers));
//! * [`RetryQuota`], [`RetryToken`]: the token bucket that stops retry storms;
//! * [`RateLimiter`]: the hook the adaptive mode paces attempts through.
//!
//! Errors describe themselves through [`ProvideErrorMetadata`](crate::ProvideErrorMetadata).
//!
//! ```
//! use waiter_runtime::ProvideErrorMetadata;
//! use waiter_runtime::retry::{Retrier, RetryConfig};
//!
//! #[derive(Debug, ProvideErrorMetadata)]
//! enum GetThingError {
//!     #[error_metadata(status = 503)]
//!     Unavailable,
//! }
//!
//! async fn get_thing(name: &str) -> Result<String, GetThingError> {
//!     Ok(name.to_uppercase())
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let retrier = Retrier::new(RetryConfig::standard().max_attempts(5).build());
//! let name = "thing";
//! let out = retrier.run(|| async { get_thing(name).await }).await;
//! assert_eq!(out.unwrap(), "THING");
//! # }
//! ```
#![doc = ""]
#![doc = include_str!("../docs/retry.md")]

mod action;
mod attempt_error;
mod attempt_time;
pub(crate) mod backoff;
mod budget;
mod classifier;
mod classifier_chain;
pub mod classifiers;
mod config;
#[cfg(feature = "http")]
pub mod layer;
pub(crate) mod metrics;
mod quota;
mod rate_limit;
mod report;
mod retrier;

pub use action::{ErrorKind, RetryAction, RetryReason};
pub use attempt_error::{AttemptError, AttemptTimedOut};
pub use attempt_time::{attempt_deadline, attempt_time_left};
pub use budget::{InvalidRetryBudget, RetryBudget};
pub use classifier::{
    ClassifyContext, ClassifyRetry, FnClassifier, RetryClassifierPriority, classifier_fn,
};
pub use classifier_chain::{RetryClassifiers, SharedRetryClassifier, run_classifiers};
pub use classifiers::{
    ErrorCodeClassifier, HttpStatusCodeClassifier, ModeledAsRetryableClassifier,
    ServerPushbackClassifier, TransientErrorClassifier,
};
pub use config::{
    InvalidRetryConfig, Jitter, RetryBehavior, RetryBehaviorParseError, RetryConfig,
    RetryConfigBuilder, RetryMode, RetryModeParseError,
};
pub use quota::{QuotaExhausted, RetryQuota, RetryQuotaBuilder, RetryToken};
pub use rate_limit::RateLimiter;
pub use report::{RetryEvent, RunReport, StopReason};
pub use retrier::{CustomizedRun, Retrier};
pub mod adaptive;
