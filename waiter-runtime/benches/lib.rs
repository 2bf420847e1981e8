//! `waiter-benches`: the fixtures the benches share ([`thing`] for the waiters', [`retry`] for
//! the retriers', [`tasks`] for the limiters shared by many callers), no other code. The package holds waiter-runtime's criterion benchmarks
//! (`cargo bench -p waiter-benches --bench NAME`) and the adaptive-retry simulation
//! (`cargo run --release -p waiter-benches --example adaptive_simulation`), so that their
//! dependencies (criterion, plotters, the baselines) are not dev-dependencies of the published
//! `waiter-runtime`.

pub mod thing {
    //! The operation the waiter benches wait on: a thing that is `ready` at once, with an
    //! error type naming `NotFound` for their `retry` acceptor.

    use std::hint::black_box;

    use waiter_runtime::{ProvideErrorMetadata, Searchable};

    /// The error a `get_thing` operation may return (it never does here).
    #[derive(Debug, ProvideErrorMetadata)]
    pub enum Error {
        /// Named by the waiters' `retry` acceptor.
        NotFound,
    }

    /// The output: its `status` is what the waiters' `success` acceptor reads.
    #[derive(Debug, Searchable)]
    pub struct Thing {
        /// Always `ready`.
        pub status: String,
    }

    /// A thing named `name`, ready at once (`name` kept opaque to the optimiser). Inlined
    /// into each bench as it was when every bench defined it.
    #[inline]
    pub fn ready(name: &str) -> Result<Thing, Error> {
        black_box(name);
        Ok(Thing {
            status: "ready".into(),
        })
    }
}

pub mod retry {
    //! The operation the retry benches retry: it costs nothing, fails a given number of times
    //! with a `503`, then succeeds; and how they time sequential calls.

    use std::hint::black_box;
    use std::time::{Duration, Instant};

    use waiter_runtime::ProvideErrorMetadata;

    /// A `503`.
    #[derive(Debug, ProvideErrorMetadata)]
    #[error_metadata(status = 503)]
    pub struct Unavailable;

    /// Fails `failures` times, then succeeds: the state of one call.
    pub fn operation(
        failures: u32,
    ) -> impl FnMut() -> std::future::Ready<Result<u64, Unavailable>> {
        let mut left = failures;
        move || {
            let fail = left > 0;
            left = left.saturating_sub(1);
            std::future::ready(if fail {
                Err(Unavailable)
            } else {
                Ok(black_box(7))
            })
        }
    }

    /// A current-thread runtime with a timer.
    pub fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
    }

    /// Times `iters` sequential calls inside one `block_on`, so the figure is the call's own
    /// cost.
    pub fn time<F: std::future::Future<Output = u64>>(
        rt: &tokio::runtime::Runtime,
        iters: u64,
        mut call: impl FnMut() -> F,
    ) -> Duration {
        rt.block_on(async {
            let start = Instant::now();
            for _ in 0..iters {
                black_box(call().await);
            }
            start.elapsed()
        })
    }
}

pub mod tasks {
    //! Calls spread over 1000 tokio tasks: the benches of a rate limiter shared by many
    //! callers (`adaptive_acquire`, `fleet_token`).

    use std::future::Future;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    /// How many tasks share the calls.
    pub const TASKS: u64 = 1000;

    /// A client whose calls the tasks make.
    pub trait Call: Send + Sync + 'static {
        /// The `i`th call of a task.
        fn call(&self, i: u64) -> impl Future<Output = ()> + Send + '_;
    }

    /// A runtime of `threads` worker threads (1: a current-thread runtime), with its timer.
    pub fn runtime(threads: usize) -> tokio::runtime::Runtime {
        let mut builder = if threads == 1 {
            tokio::runtime::Builder::new_current_thread()
        } else {
            let mut builder = tokio::runtime::Builder::new_multi_thread();
            builder.worker_threads(threads);
            builder
        };
        builder.enable_time().build().unwrap()
    }

    /// Runs `iters` calls of `client` spread over [`TASKS`] tasks on `rt`; returns the time
    /// they took (scaled to `iters` where the tasks made a few more).
    pub fn measure<C: Call>(rt: &tokio::runtime::Runtime, client: &Arc<C>, iters: u64) -> Duration {
        let per_task = iters.div_ceil(TASKS);
        let client = Arc::clone(client);
        let elapsed = rt.block_on(async move {
            let start = Instant::now();
            let tasks: Vec<_> = (0..TASKS)
                .map(|_| {
                    let client = client.clone();
                    tokio::spawn(async move {
                        for i in 0..per_task {
                            client.call(i).await;
                        }
                    })
                })
                .collect();
            for task in tasks {
                task.await.unwrap();
            }
            start.elapsed()
        });
        elapsed.mul_f64(iters as f64 / (per_task * TASKS) as f64)
    }
}
