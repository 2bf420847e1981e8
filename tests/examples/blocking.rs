//! `cargo run --example blocking`: waiters and retries on a blocking ureq client, no async in
//! sight.
//!
//! Starts the example service on `127.0.0.1` (on a tokio runtime of its own, in the
//! background: resources are `CREATING` for 0.2 to 1 s, names starting with `fail-` end
//! `FAILED`, a fifth of all requests are throttled with `Retry-After`), then, on the main
//! thread, with the blocking example client (`waiter_tests::blocking_client`: ureq 3, every
//! call through `Retrier::run_blocking`, waiters pasted from Smithy on a plain `fn`): creates
//! three resources, waits for each with `wait_until_resource_ready(..).wait(..)`, printing a
//! line per poll, deletes the ones that became `ACTIVE` and waits until they are gone.
//! Throttled requests are retried inside the polls (a poll line says `2 attempts`); the waiters
//! have no throttling acceptors. Delays are the spec's algorithm with short bounds
//! (`min_delay(100 ms)`, `max_delay(500 ms)`), so the run takes a few seconds.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use waiter_runtime::WaiterError;
use waiter_runtime::retry::{Retrier, RetryConfig};
use waiter_runtime::waiter::PollEvent;
use waiter_tests::blocking_client::BlockingResourceClient;
use waiter_tests::service::{ExampleService, FaultConfig, Settle};

const RESOURCES: [&str; 3] = ["web", "db", "fail-cache"];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let started = Instant::now();
    // The service is async (axum); it runs on its own runtime's threads. The client below
    // blocks the main thread, as a CLI or a build script would.
    let runtime = tokio::runtime::Runtime::new()?;
    let service = runtime.block_on(
        ExampleService::builder()
            .seed(11)
            .settle(Settle::After {
                min: Duration::from_millis(200),
                max: Duration::from_millis(1000),
            })
            .faults(FaultConfig {
                retry_after: Some(Duration::from_millis(50)),
                ..FaultConfig::throttling(0.2)
            })
            .start(),
    )?;
    println!(
        "example service at {} (a fifth of all requests throttled)\n",
        service.url()
    );

    let retries = Arc::new(AtomicU32::new(0));
    let counted = Arc::clone(&retries);
    let retrier =
        Retrier::new(RetryConfig::standard().max_attempts(5).build()).on_retry(move |_| {
            counted.fetch_add(1, Ordering::Relaxed);
        });
    let client = BlockingResourceClient::new(service.url()).with_retrier(retrier);
    let print_poll = |e: &PollEvent| println!("    {e}");

    for name in RESOURCES {
        let created = client.create_resource(name)?;
        println!("created {name} ({})", created.status);
    }

    let mut active = Vec::new();
    for name in RESOURCES {
        println!("waiting for {name}:");
        let waited = client
            .wait_until_resource_ready(name)
            .min_delay(Duration::from_millis(100))
            .max_delay(Duration::from_millis(500))
            .on_poll(print_poll)
            .wait(Duration::from_secs(20));
        match waited {
            Ok(done) => {
                println!("  {name} is {}", done.output().map_or("?", |r| &r.status));
                active.push(name);
            }
            Err(WaiterError::FailureState { message, .. }) => {
                println!(
                    "  {name} failed: {}",
                    message.as_deref().unwrap_or("no reason")
                );
            }
            Err(e) => return Err(e.into()),
        }
    }

    for name in &active {
        client.delete_resource(name)?;
        println!("deleting {name}:");
        client
            .wait_until_resource_gone(name)
            .min_delay(Duration::from_millis(100))
            .max_delay(Duration::from_millis(500))
            .on_poll(print_poll)
            .wait(Duration::from_secs(20))?;
        println!("  {name} is gone");
    }

    let stats = service.stats();
    println!(
        "\n{} requests, {} throttled by the service, {} retried by the client; done in {:.1}s",
        stats.requests,
        stats.throttled,
        retries.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
