//! The `tracing` spans and events of waits and retries.
//!
//! Alone in their test binary: tracing caches each callsite's interest process-wide, and a
//! test thread without a subscriber that reaches the callsites first (as the other tests do,
//! in parallel) could have them cached as uninteresting. Every test here installs one.

#[path = "../support/retry.rs"]
mod support;

mod retries;
mod waits;
