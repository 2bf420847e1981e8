//! The waiter loop, its delays and its results.
//!
//! PLACEHOLDER beyond [`context`]: the waiter loop is built by the waiter issue.

pub mod context;
