//! A fleet of processes sharing one service's capacity: the adaptive controller's state in
//! Redis ([`FleetRateLimiter`], feature `redis`). The chapter "A fleet sharing one limiter" of
//! the [module](super) docs says how it works.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::SyncSender;

use super::hook::Ready;
use super::{ClientRateLimiter, Sent, Ticket};

mod error;
mod member;
mod script;
mod sync;

pub use error::FleetError;
pub use member::FleetStatus;
use member::{FLEET_MARK, Shared};

/// One member of a fleet of processes (or of clients in one process) that share a service's
/// capacity: an adaptive [`RateLimiter`](crate::retry::RateLimiter) whose controller lives in
/// Redis (or Valkey), one for the whole fleet (feature `redis`).
///
/// The fleet's rate follows CUBIC, cut once per fleet congestion event, decided atomically in
/// Redis on Redis's clock; the rate is split max-min fair by demand between the members with
/// a live heartbeat. Each member paces its requests locally at its share with the same token
/// bucket and line as [`ClientRateLimiter`], renewed by a background thread every 200 ms as
/// a lease: nothing a request does waits for Redis. When Redis does not answer (down, slow,
/// restarted empty, holding garbage), the member keeps its share as its ceiling until its
/// lease ends (2 s), pacing under it after its own throttles, then runs [`ClientRateLimiter`]'s
/// own controller ([`Tuning::DEFAULT`](super::Tuning::DEFAULT)) from there, and rejoins when
/// Redis answers. No call ever fails because of Redis.
///
/// [`new`](Self::new) checks its arguments and returns at once (the thread connects in the
/// background). Clones are one member; when the last is dropped the member leaves the
/// fleet. The URL's password is never shown: not in `Debug`, logs, metrics nor errors.
///
/// ```
/// use std::sync::Arc;
/// use waiter_runtime::retry::adaptive::FleetRateLimiter;
/// use waiter_runtime::retry::{Retrier, RetryConfig};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // Every process of the fleet names the same Redis and fleet. (Nothing listens on port 1
/// // here: the member runs its local controller, and calls go on.)
/// let fleet = FleetRateLimiter::new("redis://127.0.0.1:1/0", "orders-table")?;
/// let retrier = Retrier::new(RetryConfig::adaptive().build()).with_rate_limiter(Arc::new(fleet));
/// let out = retrier.run(|| async { Ok::<_, std::io::Error>("stored") }).await;
/// assert_eq!(out?, "stored");
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct FleetRateLimiter {
    /// The pacing: the same limiter as a single client's, its rate pinned at the member's
    /// share while a lease is held.
    local: ClientRateLimiter,
    member: Arc<Member>,
}

/// What the clones of a member share; dropping it stops the background thread.
struct Member {
    shared: Arc<Shared>,
    /// Wakes the background thread after a fresh throttle; dropped, it stops the thread.
    signal: SyncSender<()>,
}

impl FleetRateLimiter {
    /// A new member of the fleet `fleet` whose controller is in the Redis at `url`
    /// (`redis://[user:password@]host[:port][/db]`, `rediss://` for TLS with the system's
    /// root certificates, `redis+unix:///path`). Returns at once: a background thread
    /// connects and keeps the member's share; until its first answer the member runs its
    /// local controller.
    ///
    /// # Errors
    ///
    /// A [`FleetError`] when the fleet's name could leave its key namespace (empty, over 200
    /// bytes, a control character, `{`, `}` or `*`) or the URL does not parse. Redis being
    /// unreachable is no error: the member works without it.
    pub fn new(url: &str, fleet: &str) -> Result<FleetRateLimiter, FleetError> {
        error::check_name(fleet)?;
        let target = error::parse_url(url)?;
        let client = redis::Client::open(target.info).map_err(|err| FleetError::InvalidUrl {
            reason: error::scrub(&err.to_string(), target.secret.as_deref()),
        })?;
        let id = format!(
            "{}-{:012x}",
            std::process::id(),
            (crate::retry::backoff::random() * (1u64 << 48) as f64) as u64
        );
        let shared = Arc::new(Shared::new(fleet, id, target.shown));
        let local = ClientRateLimiter::new();
        let (signal, wake) = std::sync::mpsc::sync_channel(1);
        let syncer = sync::Syncer::new(
            Arc::clone(&shared),
            local.clone(),
            client,
            target.secret,
            wake,
        );
        let name: String = format!("fleet {fleet}").chars().take(15).collect();
        if let Err(err) = std::thread::Builder::new()
            .name(name)
            .spawn(move || syncer.run())
        {
            // The member still works: its local controller paces it.
            tracing::warn!(
                fleet,
                error = %err,
                "fleet rate limiter: no background thread: running the local controller only"
            );
        }
        Ok(FleetRateLimiter {
            local,
            member: Arc::new(Member { shared, signal }),
        })
    }

    /// The fleet's name.
    pub fn fleet(&self) -> &str {
        &self.member.shared.fleet
    }

    /// Where the member stands now.
    pub fn status(&self) -> FleetStatus {
        self.member.shared.status()
    }

    /// Waits for a token, in line with the member's other callers (see
    /// [`ClientRateLimiter::acquire`]).
    fn pace(&self, ticket: Option<u64>) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        if self.local.try_acquire() {
            return Box::pin(Ready);
        }
        // An attempt that waited: the member's demand is what it gets, or more.
        self.member.shared.waited.fetch_add(1, Ordering::Relaxed);
        match ticket {
            Some(ticket) => Box::pin(self.local.acquire_with(Ticket::from_raw(ticket))),
            None => Box::pin(self.local.acquire()),
        }
    }
}

impl fmt::Debug for FleetRateLimiter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shared = &self.member.shared;
        f.debug_struct("FleetRateLimiter")
            .field("fleet", &shared.fleet)
            .field("member", &shared.id)
            .field("redis", &shared.server)
            .field("status", &shared.status())
            .finish_non_exhaustive()
    }
}

/// The retrier's hook: every attempt paced at the member's share (or by its local controller),
/// every response counted for the fleet's next round.
impl crate::retry::RateLimiter for FleetRateLimiter {
    fn acquire(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        self.pace(None)
    }

    fn call_started(&self) -> u64 {
        crate::retry::RateLimiter::call_started(&self.local)
    }

    fn acquire_for(&self, ticket: u64) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        self.pace(Some(ticket))
    }

    fn on_response(&self, throttled: bool) {
        self.on_attempt_response(self.attempt_sent(), throttled);
    }

    /// Under a lease, the fleet's epoch (with a bit that tells it from the local controller's
    /// marks); otherwise the local controller's mark.
    fn attempt_sent(&self) -> u64 {
        match self.member.shared.lease_mark() {
            Some(mark) => mark,
            None => self.local.sent().raw(),
        }
    }

    fn on_attempt_response(&self, sent: u64, throttled: bool) {
        let shared = &*self.member.shared;
        shared.responses.0.fetch_add(1, Ordering::Relaxed);
        match shared.lease_mark() {
            Some(mark) => {
                if throttled {
                    shared.throttles.fetch_add(1, Ordering::Relaxed);
                    if sent == mark {
                        // Sent since the fleet's last cut: may start an event; say so now.
                        shared.fresh.fetch_add(1, Ordering::Relaxed);
                        // Full: a signal is already waiting; disconnected: no thread.
                        let _ = self.member.signal.try_send(());
                    }
                }
            }
            None => {
                if throttled {
                    shared.throttles.fetch_add(1, Ordering::Relaxed);
                }
                // A request sent under the last lease counts as sent now.
                let sent = if sent & FLEET_MARK != 0 {
                    self.local.sent()
                } else {
                    Sent::from_raw(sent)
                };
                self.local.on_response_to(sent, throttled);
            }
        }
    }
}
