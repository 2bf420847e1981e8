//! Metrics through the [`metrics`](https://docs.rs/metrics) facade (feature `metrics`): the
//! names, units, labels and help texts of what the waiters and the retrier record. Install any
//! recorder (`metrics-exporter-prometheus`, an OpenTelemetry bridge...) and they arrive there;
//! without the feature nothing is recorded and nothing is compiled in, and with it but no
//! recorder the facade's no-op recorder takes the calls (`BENCHMARKS.md`, "Metrics", measures
//! both).
//!
//! Each metric is described to the recorder (its help text and unit, the table's last
//! columns: what a Prometheus exporter prints as `# HELP` and in the unit suffix) once per
//! process, the first time the waiters or the retrier record anything. A recorder installed
//! after that first recording missed the descriptions: call `describe()` once it is installed.
//!
#![doc = include_str!("docs/metrics.md")]
//!
//! Each domain records and describes its own metrics (`waiter/metrics.rs`,
//! `retry/metrics.rs`); this page is their one table.

/// Describes every metric of the table above (help text and unit) to the recorder installed
/// now: for a recorder installed after the waiters or the retrier first recorded something
/// (before that, the first recording describes them).
///
/// ```
/// # fn install_exporter() {}
/// install_exporter(); // e.g. metrics_exporter_prometheus::PrometheusBuilder::new().install()
/// waiter_runtime::metrics::describe();
/// ```
#[cfg(feature = "metrics")]
pub fn describe() {
    crate::waiter::metrics::describe();
    crate::retry::metrics::describe();
}
