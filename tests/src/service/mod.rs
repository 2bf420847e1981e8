//! The example service: a small resource API with eventual consistency and fault injection,
//! served over HTTP/1 on `127.0.0.1` (a free port), in-process.
//!
//! | request | answer |
//! |---|---|
//! | `POST /resources` `{"name", "members": [{"name", "role"}]}` | `201` the resource, `CREATING` (`409 ResourceInUseException`, `400 ValidationException`) |
//! | `GET /resources/{name}` | `200` the resource, or `404 NotFound` |
//! | `DELETE /resources/{name}` | `202` the resource, `DELETING`, or `404 NotFound` |
//! | `GET /resources?prefix=p&names=a,b` | `200` `{"resources": [...]}`: those that exist, sorted by name (both filters optional) |
//!
//! A created resource becomes `ACTIVE` (its members too) after a while ([`Settle`]), or
//! `FAILED` with a `statusReason` when its name starts with the failing prefix (`fail-` by
//! default). A deleted one stays `DELETING` for a while, then is gone. Errors are
//! `{"code": "...", "message": "..."}`.
//!
//! Faults ([`Faults`], [`FaultConfig`]): throttling (`429 ThrottlingException`,
//! `503 SlowDown`, with `Retry-After`), `503 ServiceUnavailable`, connection resets, hanging
//! requests, latency; random with seeded shares, or scripted request by request.
//!
//! ```
//! use waiter_tests::service::{ExampleService, Fault, Settle};
//!
//! # #[tokio::main] async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let service = ExampleService::builder().seed(7).settle(Settle::AfterReads(1)).start().await?;
//! service.faults().script([Fault::Throttle]);
//! let url = format!("{}/resources/nothing", service.url());
//! assert_eq!(reqwest::get(&url).await?.status(), 429); // the scripted fault
//! assert_eq!(reqwest::get(&url).await?.status(), 404); // NotFound
//! assert_eq!((service.stats().requests, service.stats().throttled), (2, 1));
//! # Ok(()) }
//! ```

mod faults;
mod model;
mod routes;
mod server;
mod stats;
mod store;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use faults::{Fault, FaultConfig, Faults};
pub use model::{
    CreateResourceRequest, ErrorBody, ListResourcesResponse, Member, MemberSpec, Resource,
    ResourceStatus,
};
pub use stats::{Outcome, RequestRecord, ServiceStats};
pub use store::Settle;

use stats::StatsCell;
use store::Store;

pub(crate) struct Shared {
    store: Mutex<Store>,
    faults: Faults,
    stats: StatsCell,
}

/// Entry point: `ExampleService::builder()...start().await`.
#[derive(Debug)]
pub struct ExampleService;

impl ExampleService {
    /// A builder with the defaults: seed 0, resources settle after 50 to 300 ms, names starting
    /// with `fail-` fail, no faults.
    pub fn builder() -> ServiceBuilder {
        ServiceBuilder {
            seed: 0,
            settle: Settle::After {
                min: Duration::from_millis(50),
                max: Duration::from_millis(300),
            },
            fail_prefix: "fail-".to_owned(),
            faults: FaultConfig::none(),
        }
    }
}

/// Configures and starts an [`ExampleService`].
#[derive(Debug, Clone)]
pub struct ServiceBuilder {
    seed: u64,
    settle: Settle,
    fail_prefix: String,
    faults: FaultConfig,
}

impl ServiceBuilder {
    /// Seeds every random choice of the service (lifecycle delays, faults).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// How long resources stay `CREATING`/`DELETING`.
    pub fn settle(mut self, settle: Settle) -> Self {
        self.settle = settle;
        self
    }

    /// Resources whose name starts with `prefix` end `FAILED` (empty: none fail).
    pub fn fail_names_starting_with(mut self, prefix: impl Into<String>) -> Self {
        self.fail_prefix = prefix.into();
        self
    }

    /// Random fault injection from the start (changeable later through [`RunningService::faults`]).
    pub fn faults(mut self, faults: FaultConfig) -> Self {
        self.faults = faults;
        self
    }

    /// Binds `127.0.0.1:0` and serves in a background task until the handle is dropped.
    pub async fn start(self) -> std::io::Result<RunningService> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            store: Mutex::new(Store::new(self.seed, self.settle, self.fail_prefix)),
            faults: Faults::new(self.faults, self.seed),
            stats: StatsCell::default(),
        });
        let router = routes::router(Arc::clone(&shared));
        let (shutdown, stop) = oneshot::channel();
        let task = tokio::spawn(server::serve(listener, Arc::clone(&shared), router, stop));
        tracing::debug!(%addr, "example service listening");
        Ok(RunningService {
            addr,
            shared,
            shutdown: Some(shutdown),
            task,
        })
    }
}

/// A running [`ExampleService`]: its address, its fault knobs, what it saw.
///
/// Dropping it stops the service and closes its connections.
pub struct RunningService {
    addr: SocketAddr,
    shared: Arc<Shared>,
    shutdown: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl std::fmt::Debug for RunningService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunningService")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl RunningService {
    /// The bound address (`127.0.0.1:<port>`).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The base URL, `http://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The live fault knobs.
    pub fn faults(&self) -> &Faults {
        &self.shared.faults
    }

    /// A snapshot of the counters.
    pub fn stats(&self) -> ServiceStats {
        self.shared.stats.snapshot()
    }

    /// Every request received so far, in order of arrival.
    pub fn request_log(&self) -> Vec<RequestRecord> {
        self.shared.stats.log()
    }

    /// Waits until `pred` holds on the counters, at most `timeout`. `Err` carries the last
    /// snapshot when it timed out.
    pub async fn wait_for_stats(
        &self,
        timeout: Duration,
        pred: impl FnMut(&ServiceStats) -> bool,
    ) -> Result<ServiceStats, ServiceStats> {
        self.shared.stats.wait_for(timeout, pred).await
    }

    /// Moves a `CREATING`/`DELETING` resource on now (for [`Settle::Manual`]; works in any
    /// mode). Returns whether anything changed.
    pub fn settle(&self, name: &str) -> bool {
        self.shared.store.lock().unwrap().settle(name, None)
    }

    /// The resource as the service holds it, without counting a read.
    pub fn resource(&self, name: &str) -> Option<Resource> {
        self.shared.store.lock().unwrap().peek(name)
    }

    /// Stops accepting, closes every connection, and waits for the server task to end.
    pub async fn shutdown(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        let _ = (&mut self.task).await;
    }
}

impl Drop for RunningService {
    fn drop(&mut self) {
        self.task.abort();
    }
}

#[cfg(test)]
mod tests;
