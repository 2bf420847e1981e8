//! Retries: the configuration, the classifiers, the backoff, the quota, the retrier's loop,
//! the retry layers' view of transport errors, and standard retry behaviors 2.1 and 2.0
//! against botocore as oracle.

#[path = "../support/retry.rs"]
mod support;

mod attempt_timeouts;
mod backoff;
mod budget_and_limiter;
mod classifiers;
mod config;
mod current_thread;
mod extremes;
mod layer_errors;
mod oracle;
mod quota;
mod retrier;
mod retry_budget;
