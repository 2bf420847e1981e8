//! End to end, over loopback: the example service (`waiter_tests::service`) and the example
//! client (`waiter_tests::client`), with the waiters, the retries and the HTTP retry layers.
//!
//! One binary: each test module used to link axum, hyper and reqwest on its own.

mod common;

mod acceptors;
mod adaptive;
mod aws_waiters;
mod blocking;
mod checkpoints;
mod demo;
mod http_layers;
mod layer_failures;
mod layer_timeouts_and_budgets;
mod middleware_client;
mod pacing_hints;
mod retries;
mod wait_all;
mod waiters;
mod watching;
