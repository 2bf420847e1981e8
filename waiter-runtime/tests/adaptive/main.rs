//! Adaptive retries: the client-side rate limiter, its state, the retrier in adaptive mode,
//! botocore as oracle, and a simulated fleet against a rate-limited service.

mod controller;
mod entry_points;
mod limiter;
mod restored_state;
mod retrier;
mod simulation;
