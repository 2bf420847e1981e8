//! `waiter-benches`: no library code. The package holds waiter-runtime's criterion benchmarks
//! (`cargo bench -p waiter-benches --bench NAME`) and the adaptive-retry simulation
//! (`cargo run --release -p waiter-benches --example adaptive_simulation`), so that their
//! dependencies (criterion, plotters, the baselines) are not dev-dependencies of the published
//! `waiter-runtime`.
