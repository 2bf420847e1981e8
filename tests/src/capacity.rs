//! A loopback HTTP service that serves a fixed capacity, for the retry layers' end-to-end tests
//! and benchmark: a token bucket of `rate` requests per second (holding at most `burst`), every
//! request past it answered `429` with `x-amzn-ErrorType: ThrottlingException` (and a
//! retry-after hint if configured). Replies can also be scripted, one per request, before the
//! bucket takes over. Every request is logged: when it arrived, its path, its body's length.
//!
//! ```
//! use waiter_tests::capacity::{CapacityService, Reply};
//!
//! # #[tokio::main] async fn main() -> std::io::Result<()> {
//! let service = CapacityService::unlimited().await?;
//! service.script([Reply::status(503)]);
//! let url = service.url("/thing");
//! assert_eq!(reqwest::get(&url).await.unwrap().status(), 503);
//! assert_eq!(reqwest::get(&url).await.unwrap().status(), 200);
//! assert_eq!(service.stats().requests, 2);
//! # Ok(()) }
//! ```

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio::time::Instant;

/// One scripted reply: a status and headers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// Headers to send.
    pub headers: Vec<(&'static str, String)>,
    /// How long the answer waits, on top of the service's latency (an upstream that hangs).
    pub delay: Duration,
}

impl Reply {
    /// A reply with this status and no headers.
    pub fn status(status: u16) -> Self {
        Reply {
            status,
            headers: Vec::new(),
            delay: Duration::ZERO,
        }
    }

    /// The same reply, sent `delay` late.
    pub fn delayed(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// `429` with `x-amzn-ErrorType: ThrottlingException`.
    pub fn throttle() -> Self {
        Reply::status(429).header("x-amzn-errortype", "ThrottlingException")
    }

    /// Adds a header.
    pub fn header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }
}

/// What the service saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CapacityStats {
    /// Requests received.
    pub requests: u64,
    /// Requests answered `2xx`.
    pub succeeded: u64,
    /// Requests answered `429` by the bucket.
    pub throttled: u64,
}

/// One request as the service saw it.
#[derive(Debug, Clone)]
pub struct Seen {
    /// When it arrived.
    pub at: Instant,
    /// Its path.
    pub path: String,
    /// Its body's length in bytes.
    pub body_len: usize,
}

#[derive(Debug)]
struct State {
    rate: f64,
    burst: f64,
    tokens: f64,
    refilled: Instant,
    retry_after: Option<Duration>,
    /// Every answer waits this long after the request arrived (the bucket decides at arrival).
    latency: Duration,
    script: VecDeque<Reply>,
    stats: CapacityStats,
    log: Vec<Seen>,
}

/// A running capacity-limited service on `127.0.0.1`; dropping it stops it.
#[derive(Debug)]
pub struct CapacityService {
    addr: SocketAddr,
    state: Arc<Mutex<State>>,
    task: JoinHandle<()>,
}

impl Drop for CapacityService {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl CapacityService {
    /// A service serving `rate` requests per second, `burst` at most at once, answering the
    /// others `429 ThrottlingException` (with `retry_after` as `x-amz-retry-after`, if given).
    pub async fn start(
        rate: f64,
        burst: f64,
        retry_after: Option<Duration>,
    ) -> std::io::Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let addr = listener.local_addr()?;
        let state = Arc::new(Mutex::new(State {
            rate,
            burst,
            tokens: burst,
            refilled: Instant::now(),
            retry_after,
            latency: Duration::ZERO,
            script: VecDeque::new(),
            stats: CapacityStats::default(),
            log: Vec::new(),
        }));
        let task = tokio::spawn(accept_loop(listener, Arc::clone(&state)));
        Ok(CapacityService { addr, state, task })
    }

    /// A service that never throttles (unless scripted to).
    pub async fn unlimited() -> std::io::Result<Self> {
        Self::start(f64::INFINITY, f64::INFINITY, None).await
    }

    /// `http://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Replies for the next requests, in order, before the bucket decides again.
    pub fn script(&self, replies: impl IntoIterator<Item = Reply>) {
        self.lock().script.extend(replies);
    }

    /// Every request's reply from now on: `reply` (until [`clear`](Self::clear)).
    pub fn always(&self, reply: Reply) {
        let mut state = self.lock();
        state.script.clear();
        state.script.extend(std::iter::repeat_n(reply, 1 << 20));
    }

    /// Every answer from now on waits `latency` after its request arrived (the bucket decides
    /// when the request arrives): a service across a network, over loopback.
    pub fn set_latency(&self, latency: Duration) {
        self.lock().latency = latency;
    }

    /// Drops the scripted replies.
    pub fn clear(&self) {
        self.lock().script.clear();
    }

    /// What the service saw so far.
    pub fn stats(&self) -> CapacityStats {
        self.lock().stats
    }

    /// Every request so far.
    pub fn log(&self) -> Vec<Seen> {
        self.lock().log.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

async fn accept_loop(listener: TcpListener, state: Arc<Mutex<State>>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        let _ = stream.set_nodelay(true);
        let state = Arc::clone(&state);
        tokio::spawn(async move {
            let service = service_fn(move |request| handle(Arc::clone(&state), request));
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

async fn handle(
    state: Arc<Mutex<State>>,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let path = request.uri().path().to_owned();
    let body_len = match request.into_body().collect().await {
        Ok(body) => body.to_bytes().len(),
        Err(_) => 0,
    };
    let (reply, latency) = {
        let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
        let latency = state.latency;
        let now = Instant::now();
        state.stats.requests += 1;
        state.log.push(Seen {
            at: now,
            path,
            body_len,
        });
        let reply = match state.script.pop_front() {
            Some(reply) => reply,
            None => {
                let elapsed = now.duration_since(state.refilled).as_secs_f64();
                state.refilled = now;
                if state.rate.is_finite() {
                    state.tokens = (state.tokens + elapsed * state.rate).min(state.burst);
                }
                if state.tokens >= 1.0 {
                    state.tokens -= 1.0;
                    Reply::status(200)
                } else {
                    state.stats.throttled += 1;
                    let mut reply = Reply::throttle();
                    if let Some(after) = state.retry_after {
                        reply = reply.header("x-amz-retry-after", after.as_millis().to_string());
                    }
                    reply
                }
            }
        };
        (reply, latency)
    };
    let latency = latency + reply.delay;
    if !latency.is_zero() {
        tokio::time::sleep(latency).await;
    }
    if (200..300).contains(&reply.status) {
        state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .stats
            .succeeded += 1;
    }
    let mut response = Response::builder().status(reply.status);
    for (name, value) in &reply.headers {
        response = response.header(*name, value);
    }
    Ok(response
        .body(Full::new(Bytes::from_static(b"{}")))
        .unwrap_or_else(|_| Response::new(Full::new(Bytes::new()))))
}
