//! `waiter-benches`: the fixture the waiter benches share ([`thing`]), no other code. The package holds waiter-runtime's criterion benchmarks
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
