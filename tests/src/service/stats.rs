//! What the service saw: counters, a request log, and a way to wait for a condition on them.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// How the service answered one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Answered by the API (any status, including `404`).
    Answered(u16),
    /// `429 ThrottlingException` or `503 SlowDown`.
    Throttled,
    /// `503 ServiceUnavailable`.
    Unavailable,
    /// Connection reset.
    Reset,
    /// Left hanging.
    Hung,
}

/// One request the service received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestRecord {
    /// When the request arrived.
    pub at: Instant,
    /// HTTP method.
    pub method: String,
    /// Request path.
    pub path: String,
    /// What the service did with it.
    pub outcome: Outcome,
}

/// Counters of a running service. A snapshot: take another to see later changes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServiceStats {
    /// Requests received (all outcomes).
    pub requests: u64,
    /// Requests answered with a throttling error (`429`, `503 SlowDown`).
    pub throttled: u64,
    /// Requests answered `503 ServiceUnavailable`.
    pub unavailable: u64,
    /// Connections reset on purpose.
    pub resets: u64,
    /// Requests left hanging.
    pub hung: u64,
    /// Hanging requests whose client went away (the connection closed, the handler was dropped).
    pub hung_cancelled: u64,
    /// TCP connections accepted.
    pub connections_opened: u64,
    /// TCP connections that ended (closed by either side).
    pub connections_closed: u64,
}

#[derive(Debug, Default)]
pub(crate) struct StatsCell {
    stats: Mutex<ServiceStats>,
    log: Mutex<Vec<RequestRecord>>,
    changed: Notify,
}

impl StatsCell {
    pub(crate) fn update(&self, f: impl FnOnce(&mut ServiceStats)) {
        f(&mut self.stats.lock().unwrap());
        self.changed.notify_waiters();
    }

    pub(crate) fn record(&self, method: &str, path: &str, outcome: Outcome) {
        self.log.lock().unwrap().push(RequestRecord {
            at: Instant::now(),
            method: method.to_owned(),
            path: path.to_owned(),
            outcome,
        });
        self.update(|s| {
            s.requests += 1;
            match outcome {
                Outcome::Answered(_) => {}
                Outcome::Throttled => s.throttled += 1,
                Outcome::Unavailable => s.unavailable += 1,
                Outcome::Reset => s.resets += 1,
                Outcome::Hung => s.hung += 1,
            }
        });
    }

    pub(crate) fn snapshot(&self) -> ServiceStats {
        self.stats.lock().unwrap().clone()
    }

    pub(crate) fn log(&self) -> Vec<RequestRecord> {
        self.log.lock().unwrap().clone()
    }

    /// Waits until `pred` holds on the stats, at most `timeout`; returns the last snapshot
    /// either way (`Err` on timeout).
    pub(crate) async fn wait_for(
        &self,
        timeout: Duration,
        mut pred: impl FnMut(&ServiceStats) -> bool,
    ) -> Result<ServiceStats, ServiceStats> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let notified = self.changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let now = self.snapshot();
            if pred(&now) {
                return Ok(now);
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                let last = self.snapshot();
                return if pred(&last) { Ok(last) } else { Err(last) };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[tokio::test]
    async fn wait_for_sees_later_updates() {
        let cell = Arc::new(StatsCell::default());
        let writer = Arc::clone(&cell);
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(10)).await;
            writer.record("GET", "/resources/a", Outcome::Hung);
            writer.update(|s| s.hung_cancelled += 1);
        });
        let got = cell
            .wait_for(Duration::from_secs(5), |s| s.hung_cancelled == 1)
            .await
            .unwrap();
        assert_eq!((got.requests, got.hung, got.hung_cancelled), (1, 1, 1));
        assert_eq!(cell.log().len(), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn wait_for_times_out_with_the_last_snapshot() {
        let cell = StatsCell::default();
        cell.record("GET", "/", Outcome::Throttled);
        let err = cell
            .wait_for(Duration::from_secs(1), |s| s.requests == 2)
            .await
            .unwrap_err();
        assert_eq!((err.requests, err.throttled), (1, 1));
    }
}
