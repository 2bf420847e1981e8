//! The waiter: its workflow and delays, the Smithy spec's examples, and how it works with the
//! retries of the operation it polls.

mod at_the_deadline;
mod checkpoint_binding;
mod checkpoints;
mod hanging_attempts;
mod loop_rules;
#[cfg(feature = "metrics")]
mod metrics;
mod not_a_future;
mod poll_retries;
mod retrier_in_polls;
mod retry_at_deadline;
mod spec_examples;
mod stream;
mod transient_errors;
mod with_retries;
