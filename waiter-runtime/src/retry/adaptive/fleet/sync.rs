//! A member's background thread: a round with the fleet's controller in Redis every 200 ms
//! (sooner after a fresh throttle, never twice in 100 ms), on a connection of its own; the
//! lease each round renews, the local controller when it ends, and one warning per change.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::member::{Counts, FLEET_MARK, Shared};
use super::script::{self, CONSTANTS, Op, Reply, Report};
use crate::retry::adaptive::ClientRateLimiter;

/// A round every this long...
pub(super) const INTERVAL: Duration = Duration::from_millis(200);
/// ... or sooner after a fresh throttle, but never sooner than this after the last one: at
/// most 10 rounds a second.
pub(super) const MIN_GAP: Duration = Duration::from_millis(100);
/// A share holds this long after the round that granted it was sent.
pub(super) const LEASE: Duration = Duration::from_secs(2);
/// Connecting, sending and reading a reply each give up after this long.
pub(super) const TIMEOUT: Duration = Duration::from_millis(300);
/// The least demand a member announces, requests/s (a member that sent nothing yet).
const MIN_DEMAND: f64 = 2.0;
/// A member's demand is read from its callers' last second ([`RecentCounts`]).
const DEMAND_SPAN: Duration = Duration::from_secs(1);
/// The hint is the highest fleet rate answered over the last one to two spans this long.
const HINT_SPAN: Duration = Duration::from_secs(5);
/// Set, with [`FLEET_MARK`], in the send marks of a lease the member cut on its own while
/// Redis did not answer (the count of such cuts below it): never a fleet epoch's mark.
const LOCAL_CUT_MARK: u64 = 1 << 62;
/// A member's own cut under a lease counts the share of its attempts throttled once its
/// round saw this many responses (as the fleet's controller does), else cuts by `beta`.
const MIN_RESPONSES: u64 = 20;

/// Where the member stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stand {
    /// No round answered yet: the local controller runs.
    Starting,
    /// A lease is held: the member paces at its share.
    Leased,
    /// The lease ended, or none was ever had: the local controller runs.
    Local,
}

/// The background thread's state.
pub(super) struct Syncer {
    pub(super) shared: Arc<Shared>,
    pub(super) local: ClientRateLimiter,
    pub(super) client: redis::Client,
    pub(super) tls: bool,
    /// The URL's password, scrubbed from every message.
    pub(super) secret: Option<String>,
    pub(super) signal: Receiver<()>,
    pub(super) keys: [String; 3],
    conn: Option<redis::Connection>,
    sha: String,
    /// Counts taken from the callers and not yet delivered.
    pending: Counts,
    /// The counts of the last second's rounds, delivered or not: the demand's source.
    recent: RecentCounts,
    last_round: Option<Instant>,
    last_delivered: Instant,
    lease_until: Option<Instant>,
    stand: Stand,
    /// The highest fleet rate of the last answered rounds (0: none): what the fleet's state
    /// is made again from if Redis loses it ([`RecentPeak`]).
    hint: RecentPeak,
    /// The members at the last answered round.
    hint_members: u64,
    /// The last epoch known.
    epoch: u64,
    /// The rate the local limiter is pinned at under the lease (`None`: no limit, or no lease).
    pinned: Option<f64>,
    /// The fleet's rate and the rate it was last cut from, at the last answer.
    fleet_rate: Option<f64>,
    last_cut_from: Option<f64>,
    /// Whether a round went unanswered since the last answer (the member stopped probing).
    unanswered: bool,
    /// The member's own cuts under the lease while Redis does not answer: when the last was,
    /// and how many so far (they mark the requests sent after each).
    local_cut_at: Option<Instant>,
    local_cuts: u64,
}

/// What woke the thread.
#[derive(Debug, PartialEq, Eq)]
enum Wake {
    Round,
    /// Every clone of the member was dropped.
    Stop,
}

impl Syncer {
    pub(super) fn new(
        shared: Arc<Shared>,
        local: ClientRateLimiter,
        client: redis::Client,
        secret: Option<String>,
        signal: Receiver<()>,
    ) -> Self {
        let tls = matches!(
            client.get_connection_info().addr(),
            redis::ConnectionAddr::TcpTls { .. }
        );
        let keys = script::keys(&shared.fleet);
        Syncer {
            shared,
            local,
            client,
            tls,
            secret,
            signal,
            keys,
            conn: None,
            sha: redis::Script::new(script::SOURCE).get_hash().to_owned(),
            pending: Counts::default(),
            recent: RecentCounts::new(Instant::now()),
            last_round: None,
            last_delivered: Instant::now(),
            lease_until: None,
            stand: Stand::Starting,
            hint: RecentPeak::default(),
            hint_members: 0,
            epoch: 0,
            pinned: None,
            fleet_rate: None,
            last_cut_from: None,
            unanswered: false,
            local_cut_at: None,
            local_cuts: 0,
        }
    }

    /// Rounds until every clone of the member is dropped, then a last round to leave.
    pub(super) fn run(mut self) {
        while self.wait() == Wake::Round {
            self.round(Op::Sync);
        }
        if self.conn.is_some() {
            self.round(Op::Leave);
        }
    }

    /// Waits for the next round: the tick, or a fresh throttle's signal (not sooner than
    /// `MIN_GAP` after the last round).
    fn wait(&mut self) -> Wake {
        let Some(last) = self.last_round else {
            return Wake::Round;
        };
        let tick = last + INTERVAL;
        let now = Instant::now();
        if now >= tick {
            return Wake::Round;
        }
        match self.signal.recv_timeout(tick - now) {
            Ok(()) => {
                let early = last + MIN_GAP;
                let now = Instant::now();
                if now < early {
                    std::thread::sleep(early - now);
                }
                Wake::Round
            }
            Err(RecvTimeoutError::Timeout) => Wake::Round,
            Err(RecvTimeoutError::Disconnected) => Wake::Stop,
        }
    }

    /// One round: the counts and the demand out, the share and its lease back.
    fn round(&mut self, op: Op) {
        let started = Instant::now();
        self.last_round = Some(started);
        let counts = self.shared.take_counts();
        self.pending.add(counts);
        self.recent.record(started, counts);
        let report = Report {
            op,
            epoch: self.epoch,
            responses: self.pending.responses,
            throttles: self.pending.throttles,
            fresh: self.shared.take_fresh(),
            demand: self.recent.demand(started),
            hint: self.hint.get(),
            hint_members: self.hint_members,
        };
        match self.call(&report) {
            Ok(reply) => {
                self.pending = Counts::default();
                self.last_delivered = started;
                if op == Op::Sync {
                    self.apply(reply, started);
                }
            }
            Err(error) if op == Op::Sync => {
                self.failed(error, started);
                if self.stand == Stand::Leased {
                    self.pace_under_lease(started, report.fresh, counts);
                }
            }
            // Leaving: the heartbeat expires on its own.
            Err(_) => {}
        }
    }

    /// Runs the script: EVALSHA, or EVAL when Redis does not have it (restarted, flushed).
    fn call(&mut self, report: &Report) -> Result<Reply, String> {
        if self.conn.is_none() {
            if self.tls {
                // rustls needs a process-wide crypto provider: ring, unless the application
                // installed one (then this does nothing).
                let _ = rustls::crypto::ring::default_provider().install_default();
            }
            let conn = self
                .client
                .get_connection_with_timeout(TIMEOUT)
                .map_err(|err| self.describe(&err))?;
            let timeouts = conn
                .set_read_timeout(Some(TIMEOUT))
                .and_then(|()| conn.set_write_timeout(Some(TIMEOUT)));
            timeouts.map_err(|err| self.describe(&err))?;
            self.conn = Some(conn);
        }
        let args = report.args(&self.shared.id);
        let invoke = |conn: &mut redis::Connection, eval: bool| {
            let mut cmd = redis::cmd(if eval { "EVAL" } else { "EVALSHA" });
            cmd.arg(if eval {
                script::SOURCE
            } else {
                self.sha.as_str()
            })
            .arg(self.keys.len())
            .arg(&self.keys[..])
            .arg(&args[..]);
            cmd.query::<redis::Value>(conn)
        };
        let conn = self.conn.as_mut().expect("connected above");
        let result = match invoke(conn, false) {
            Err(err)
                if err.kind() == redis::ErrorKind::Server(redis::ServerErrorKind::NoScript) =>
            {
                invoke(conn, true)
            }
            result => result,
        };
        match result {
            Ok(value) => Reply::parse(&value).map_err(|what| format!("Redis answered {what}")),
            Err(err) => {
                if !matches!(err.kind(), redis::ErrorKind::Server(_)) {
                    // A timeout or a broken connection: a reply may still come on it.
                    self.conn = None;
                }
                Err(self.describe(&err))
            }
        }
    }

    /// A client error as it may be shown: the URL's password never in it.
    fn describe(&self, err: &redis::RedisError) -> String {
        super::error::scrub(&err.to_string(), self.secret.as_deref())
    }

    /// A round answered: the share pinned, the lease renewed.
    fn apply(&mut self, reply: Reply, sent: Instant) {
        self.lease_until = Some(sent + LEASE);
        self.local_cut_at = None;
        self.unanswered = false;
        self.fleet_rate = reply.rate;
        self.last_cut_from = reply.last_cut_from;
        if let Some(rate) = reply.rate {
            self.hint.record(rate, sent);
            self.hint_members = reply.members;
        }
        self.pinned = reply.share.map(|share| share.max(CONSTANTS.floor));
        self.local.pin(self.pinned, crate::retry::backoff::random());
        let mark = FLEET_MARK | reply.epoch;
        if self.shared.mark.0.swap(mark, Ordering::AcqRel) != mark {
            // Throttles counted as fresh were sent in another epoch (or by the local
            // controller): not this epoch's.
            self.shared.take_fresh();
        }
        self.epoch = reply.epoch;
        self.shared.set_status(|status| {
            status.leased = true;
            status.share = reply.share;
            status.fleet_rate = reply.rate;
            status.members = reply.members;
        });
        crate::retry::metrics::fleet_share(&self.shared.fleet, reply.share, reply.members);
        let was = std::mem::replace(&mut self.stand, Stand::Leased);
        let (fleet, server, member) = (&self.shared.fleet, &self.shared.server, &self.shared.id);
        match was {
            Stand::Starting => tracing::warn!(
                fleet = fleet.as_str(),
                server = server.as_str(),
                member = member.as_str(),
                share = ?reply.share,
                members = reply.members,
                "fleet rate limiter: joined the fleet, lease held (pacing at its share of the fleet's rate)"
            ),
            Stand::Local => tracing::warn!(
                fleet = fleet.as_str(),
                server = server.as_str(),
                member = member.as_str(),
                share = ?reply.share,
                members = reply.members,
                "fleet rate limiter: Redis answers again, rejoined the fleet (lease held; the local controller stops)"
            ),
            Stand::Leased => {}
        }
    }

    /// A round failed: the share holds until the lease ends, then the local controller runs.
    fn failed(&mut self, error: String, now: Instant) {
        let expired = self.lease_until.is_none_or(|until| now >= until);
        let (fleet, server, member) = (&self.shared.fleet, &self.shared.server, &self.shared.id);
        let change = match self.stand {
            Stand::Leased if expired => {
                // The local controller from the last share, each member at its own point of
                // the climb back to it.
                self.local.release(crate::retry::backoff::random());
                self.shared.mark.0.store(0, Ordering::Release);
                self.pinned = None;
                "lease expired without an answer from Redis: running the local controller from the last share until Redis answers"
            }
            Stand::Starting => "Redis does not answer: running the local controller until it does",
            _ => {
                tracing::debug!(
                    fleet = fleet.as_str(),
                    member = member.as_str(),
                    error = error.as_str(),
                    "fleet rate limiter: a round without an answer"
                );
                return;
            }
        };
        self.stand = Stand::Local;
        self.shared.set_status(|status| status.leased = false);
        let fallbacks = self.fallback();
        tracing::warn!(
            fleet = fleet.as_str(),
            server = server.as_str(),
            member = member.as_str(),
            error = error.as_str(),
            fallbacks,
            "fleet rate limiter: {change}"
        );
    }

    /// A round failed under a lease: the share stays the member's ceiling until the lease
    /// ends, but with no controller to cut the fleet, the member paces under it:
    /// * at the first unanswered round, if the fleet was probing above the rate it was last
    ///   cut from (its estimate of the capacity), the member stops probing: it paces at its
    ///   share of that rate;
    /// * after throttles of requests sent since the last cut (the fleet's, or its own), it
    ///   cuts its pace as the fleet's controller would have (to `beta x` what was admitted),
    ///   at most once per recovery period.
    ///
    /// The fleet's next answer pins the share again. Without this, a fleet that Redis left
    /// while it probed above the capacity sent that much, throttled, until the leases ended
    /// (1.66 % throttled during an outage of 10 s, against 0.56 % for an uncoordinated fleet,
    /// in one run of three). Returns whether the pace changed.
    fn pace_under_lease(&mut self, now: Instant, fresh: u64, counts: Counts) -> bool {
        let Some(share) = self.pinned else {
            // No limit yet: nothing to pace under; the lease's end starts the local controller.
            return false;
        };
        let mut pace = share;
        let first = !std::mem::replace(&mut self.unanswered, true);
        match (self.fleet_rate, self.last_cut_from) {
            (Some(rate), Some(estimate)) if first && rate > estimate => {
                pace = share * estimate / rate;
            }
            _ => {}
        }
        let recovering = self
            .local_cut_at
            .is_some_and(|at| now.saturating_duration_since(at) < CONSTANTS.recovery);
        if fresh > 0 && !recovering {
            let throttled = if counts.responses >= MIN_RESPONSES {
                (counts.throttles as f64 / counts.responses as f64).min(0.5)
            } else {
                0.0
            };
            pace = pace.min(share * CONSTANTS.beta * (1.0 - throttled));
            self.local_cut_at = Some(now);
            self.local_cuts += 1;
            // Throttles of requests sent before this cut start no other.
            let mark = FLEET_MARK | LOCAL_CUT_MARK | (self.local_cuts & (LOCAL_CUT_MARK - 1));
            self.shared.mark.0.store(mark, Ordering::Release);
            self.shared.take_fresh();
        }
        let pace = pace.max(CONSTANTS.floor);
        if pace >= share {
            return false;
        }
        self.pinned = Some(pace);
        self.local.pin(self.pinned, crate::retry::backoff::random());
        tracing::debug!(
            fleet = self.shared.fleet.as_str(),
            member = self.shared.id.as_str(),
            share,
            pace,
            "fleet rate limiter: Redis does not answer: pacing under the lease's share"
        );
        true
    }

    /// Counts a fallback to the local controller; returns how many so far.
    fn fallback(&self) -> u64 {
        crate::retry::metrics::fleet_fallback(&self.shared.fleet);
        let mut fallbacks = 0;
        self.shared.set_status(|status| {
            status.fallbacks += 1;
            fallbacks = status.fallbacks;
        });
        fallbacks
    }
}

/// The counts of a member's rounds over the last second (its last [`DEMAND_SPAN`]), from
/// which it reads its demand. One round of 200 ms is too short: a member sending 5
/// requests/s sees one response in a round or none, and its demand would swing from round
/// to round between 6.25/s and [`MIN_DEMAND`] (a fleet of 100 such members used 0.91 of the
/// capacity in the fleet simulation, against 0.98 with the last second's rounds).
#[derive(Debug)]
struct RecentCounts {
    /// Each round's counts, with when they were taken.
    rounds: VecDeque<(Instant, Counts)>,
    /// When the first round kept began (the round before it was taken).
    since: Instant,
}

impl RecentCounts {
    fn new(now: Instant) -> Self {
        RecentCounts {
            rounds: VecDeque::new(),
            since: now,
        }
    }

    /// The counts a round took at `at`; the rounds older than [`DEMAND_SPAN`] are dropped.
    fn record(&mut self, at: Instant, counts: Counts) {
        self.rounds.push_back((at, counts));
        while let Some(&(first, _)) = self.rounds.front() {
            if at.saturating_duration_since(first) <= DEMAND_SPAN {
                break;
            }
            self.since = first;
            self.rounds.pop_front();
        }
    }

    /// The rate the member asks for at `now`: `None` (as much as it gets) when its callers
    /// waited for tokens (at least half of its attempts, and two), else what it sent, with a
    /// quarter more to grow, at least [`MIN_DEMAND`]. A member whose callers send less than
    /// its share rarely waits (a caller a little early); one whose callers want more waits on
    /// nearly every attempt.
    fn demand(&self, now: Instant) -> Option<f64> {
        let mut total = Counts::default();
        for (_, counts) in &self.rounds {
            total.add(*counts);
        }
        if total.waited >= 2 && total.waited.saturating_mul(2) >= total.responses {
            return None;
        }
        let secs = now
            .saturating_duration_since(self.since)
            .as_secs_f64()
            .max(0.05);
        Some((total.responses as f64 / secs * 1.25).max(MIN_DEMAND))
    }
}

/// The highest of the fleet rates answered over the last 5 to 10 s (two spans of
/// [`HINT_SPAN`]). The rate answered last may be just after a cut, at `beta` of the fleet's
/// estimate of the capacity: a fleet made again from it (Redis restarted empty) starts that
/// far under the capacity and crosses it late, where CUBIC's curve is steep, and overshoots
/// (3 to 4 % throttled for seconds after Redis's return, measured). The highest of the last
/// seconds is near the estimate itself.
#[derive(Debug, Default)]
struct RecentPeak {
    /// The highest rate of the span in progress, and of the one before it.
    current: f64,
    previous: f64,
    /// When the span in progress began (`None`: no rate yet).
    since: Option<Instant>,
}

impl RecentPeak {
    /// A fleet rate answered at `at`.
    fn record(&mut self, rate: f64, at: Instant) {
        match self.since.map(|since| at.saturating_duration_since(since)) {
            Some(age) if age < HINT_SPAN => self.current = self.current.max(rate),
            age => {
                // The span in progress ends; the one before is kept only if it just ended.
                self.previous = match age {
                    Some(age) if age < 2 * HINT_SPAN => self.current,
                    _ => 0.0,
                };
                self.current = rate;
                self.since = Some(at);
            }
        }
    }

    /// The highest rate of the last one to two spans (0: none).
    fn get(&self) -> f64 {
        self.current.max(self.previous)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A member with no Redis to reach (nothing listens on port 1), its background thread
    /// not started: the test runs its rounds' steps itself.
    fn member() -> (Syncer, std::sync::mpsc::SyncSender<()>) {
        let shared = Arc::new(Shared::new("f", "m".into(), "redis://127.0.0.1:1/".into()));
        let client = redis::Client::open("redis://127.0.0.1:1/").expect("a valid URL");
        let (signal, wake) = std::sync::mpsc::sync_channel(1);
        let syncer = Syncer::new(shared, ClientRateLimiter::new(), client, None, wake);
        (syncer, signal)
    }

    fn pinned_rate(syncer: &Syncer) -> f64 {
        syncer.local.state().fill_rate()
    }

    #[test]
    fn throttled_under_a_lease_without_redis_the_member_paces_under_its_share() {
        let (mut syncer, _signal) = member();
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        // The fleet at 1,000/s, last cut from 1,000/s: not probing.
        let reply = |share: f64, last_cut_from: f64| Reply {
            share: Some(share),
            epoch: 7,
            members: 10,
            rate: Some(share * 10.0),
            last_cut_from: Some(last_cut_from),
        };
        syncer.apply(reply(100.0, 1000.0), at(0));
        assert_eq!(pinned_rate(&syncer), 100.0);
        let fleet_mark = syncer.shared.lease_mark();
        assert_eq!(fleet_mark, Some(FLEET_MARK | 7));
        let few = Counts {
            responses: 5,
            throttles: 1,
            waited: 0,
        };

        // A round lost without fresh throttles: the share holds.
        assert!(!syncer.pace_under_lease(at(200), 0, few));
        assert_eq!(pinned_rate(&syncer), 100.0);
        // With one: cut by beta (too few responses to count the throttled share), and the
        // requests sent from now on carry a mark of their own.
        assert!(syncer.pace_under_lease(at(400), 1, few));
        assert!((pinned_rate(&syncer) - 90.0).abs() < 1e-9);
        let cut_mark = syncer.shared.lease_mark().expect("still leased");
        assert_ne!(Some(cut_mark), fleet_mark);
        assert_eq!(cut_mark & FLEET_MARK, FLEET_MARK);
        // Not again within the recovery period...
        assert!(!syncer.pace_under_lease(at(800), 3, few));
        assert!((pinned_rate(&syncer) - 90.0).abs() < 1e-9);
        // ... then from what was admitted: a fifth of 40 responses throttled.
        let many = Counts {
            responses: 40,
            throttles: 8,
            waited: 0,
        };
        assert!(syncer.pace_under_lease(at(900), 2, many));
        assert!((pinned_rate(&syncer) - 90.0 * 0.9 * 0.8).abs() < 1e-9);
        assert_ne!(syncer.shared.lease_mark(), Some(cut_mark));

        // Redis answers again: the fleet's share, its epoch's mark, a cut may come at once.
        syncer.apply(reply(100.0, 1000.0), at(1000));
        assert_eq!(pinned_rate(&syncer), 100.0);
        assert_eq!(syncer.shared.lease_mark(), fleet_mark);
        assert!(syncer.pace_under_lease(at(1100), 1, few));
        assert!((pinned_rate(&syncer) - 90.0).abs() < 1e-9);

        // The fleet probing at 1,000/s above the 800/s it was last cut from: the first round
        // lost, the member paces at its share of 800/s; a throttle then cuts from there.
        syncer.apply(reply(100.0, 800.0), at(1200));
        assert!(syncer.pace_under_lease(at(1400), 0, few));
        assert!((pinned_rate(&syncer) - 80.0).abs() < 1e-9);
        assert!(!syncer.pace_under_lease(at(1600), 0, few));
        assert!((pinned_rate(&syncer) - 80.0).abs() < 1e-9);
        assert!(syncer.pace_under_lease(at(1800), 1, few));
        assert!((pinned_rate(&syncer) - 72.0).abs() < 1e-9);

        // Never under the floor.
        syncer.apply(reply(0.52, 1000.0), at(2000));
        assert!(syncer.pace_under_lease(at(2200), 1, few));
        assert_eq!(pinned_rate(&syncer), CONSTANTS.floor);
        assert!(!syncer.pace_under_lease(at(2800), 1, few));
        assert_eq!(pinned_rate(&syncer), CONSTANTS.floor);

        // No limit yet (the fleet never congested): nothing to pace under.
        syncer.apply(
            Reply {
                share: None,
                epoch: 0,
                members: 10,
                rate: None,
                last_cut_from: None,
            },
            at(3000),
        );
        assert!(!syncer.pace_under_lease(at(3200), 5, many));
    }

    #[test]
    fn a_lease_that_ends_starts_the_local_controller_on_the_climb_back_to_the_share() {
        let beta = crate::retry::adaptive::Tuning::DEFAULT.beta;
        let mut rates = Vec::new();
        for phase in [0.0, 0.25, 0.5, 0.75, 1.0] {
            let local = ClientRateLimiter::new();
            local.pin(Some(100.0), 0.5);
            local.release(phase);
            rates.push(local.state().fill_rate());
        }
        // Just cut from the share at phase 0, back at it at phase 1, never above it.
        assert!((rates[0] - beta * 100.0).abs() < 1e-6, "{rates:?}");
        assert!((rates[4] - 100.0).abs() < 1e-6, "{rates:?}");
        assert!(rates.windows(2).all(|w| w[0] < w[1]), "{rates:?}");
    }

    #[test]
    fn the_demand_is_read_from_the_last_second() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let round = |responses, waited| Counts {
            responses,
            throttles: 0,
            waited,
        };
        let mut recent = RecentCounts::new(start);
        assert_eq!(recent.demand(start), Some(MIN_DEMAND));
        // About 4 requests/s, one response a round or none: what was sent and a quarter
        // more, steady from round to round (a single round would swing from 2 to 6.25/s).
        for (i, responses) in [1, 0, 1, 1, 0, 2, 1, 0, 1, 1].into_iter().enumerate() {
            let now = at(200 * (i as u64 + 1));
            recent.record(now, round(responses, 0));
            if i >= 4 {
                let demand = recent.demand(now).expect("a demand");
                assert!((3.5..=7.5).contains(&demand), "round {i}: {demand}");
            }
        }
        // Callers that waited on most attempts over the second: as much as it gets...
        for i in 0..5 {
            recent.record(at(2200 + 200 * i), round(1, 1));
        }
        assert_eq!(recent.demand(at(3000)), None);
        // ... and a second later, callers that no longer wait: what they send.
        for i in 0..6 {
            recent.record(at(3200 + 200 * i), round(4, 0));
        }
        let demand = recent.demand(at(4200)).expect("a demand");
        assert!((demand - 25.0).abs() < 1.0, "{demand}");
        // Nothing sent for a second: the least demand.
        for i in 0..6 {
            recent.record(at(4400 + 200 * i), round(0, 0));
        }
        assert_eq!(recent.demand(at(5400)), Some(MIN_DEMAND));
    }

    #[test]
    fn the_hint_is_the_highest_rate_of_the_last_5_to_10_s() {
        let start = Instant::now();
        let at = |secs: f64| start + Duration::from_secs_f64(secs);
        let mut peak = RecentPeak::default();
        assert_eq!(peak.get(), 0.0);
        peak.record(500.0, at(0.0));
        peak.record(450.0, at(0.2)); // just after a cut
        assert_eq!(peak.get(), 500.0);
        peak.record(460.0, at(5.0)); // a new span: the last one's peak kept
        assert_eq!(peak.get(), 500.0);
        peak.record(470.0, at(9.8));
        assert_eq!(peak.get(), 500.0);
        peak.record(480.0, at(10.0)); // the first span is over
        assert_eq!(peak.get(), 480.0);
        peak.record(300.0, at(30.0)); // after a silence: the old peaks are stale
        assert_eq!(peak.get(), 300.0);
    }
}
