//! `FleetRateLimiter` (feature `redis`) against a real `redis-server` each test starts on a
//! free loopback port and kills at its end (`waiter_tests::redis_server`): members in one
//! process (each its own background thread and connection, as separate processes have) and
//! in several OS processes, sharing an in-process service of fixed capacity. Real clock: the
//! background threads and Redis's `TIME` run on it; the bounds leave room for a loaded machine.

mod support;

mod faults;
mod metrics;
mod processes;
mod security;
mod shares;
