//! Blocking waiters (`#[waitable]` on a plain `fn`, `blocking::Waiter`) and blocking retries
//! (`Retrier::run_blocking`): the async rules on the calling thread, one quota and one rate
//! limiter shared with async callers. Real clock, small durations: a blocked thread has no
//! paused clock; lower bounds are exact, upper bounds leave room for a loaded machine.

mod at_the_deadline;
mod attempt_time;
mod both_forms;
mod iter;
mod retries;
mod steer;
mod waiter;
