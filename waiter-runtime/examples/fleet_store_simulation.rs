//! A fleet sharing one limiter, on paper: the fleet's controller, the very script
//! `FleetRateLimiter` runs in Redis (`waiter-runtime/src/retry/adaptive/fleet/controller.lua`),
//! run here by a Lua 5.1 interpreter (mlua, Redis's Lua version) over an in-memory model of
//! the Redis commands it calls, with a store `--latency` away (0.2, 1 or 5 ms each way and
//! back), on tokio's paused clock; and members modelled after `FleetRateLimiter`'s:
//! * a round every 200 ms, sooner after a fresh throttle but never within 100 ms; each
//!   request marked with the fleet's epoch;
//! * the demand read from the last second's rounds: as much as it gets when its callers
//!   waited for tokens, else what they sent and a quarter more;
//! * its callers paced by a token bucket of 50 ms at its share, set as `ClientRateLimiter`'s
//!   `pin` sets it (the tokens until then counted at the old rate; the callers in line woken);
//! * each caller calling through a retrier as the real runs' do (3 attempts, a throttle
//!   retried after a full-jitter backoff of 1 s, then 2 s).
//!
//! The service is the fleet simulation's: a token bucket (a tenth of a second's worth at
//! once) answering after 40 to 50 ms.
//!
//! It gives what cannot be run on one machine: 1,000 members, each one caller, against 5,000
//! requests/s, for 60 simulated seconds, at each store latency; with 10 and 100 members (100
//! callers in all against 500 requests/s, the real runs' setting) for comparison. Per row:
//! the share of requests throttled and the capacity used (successes over the capacity
//! offered) from 5 s in to the halving at 30 s (equal demand), and from 3 s after it to the
//! end; Jain's index of the members' successes, the members' rate min / max, the rounds per
//! member per second, and the seconds to settle after the capacity halves (5 s running at
//! most 1.25 x and at least 0.8 x the new capacity). `FLEET_SIM_SERIES=1` prints each second
//! (sent, admitted, throttled; the fleet's rate, epoch and members at its last round; the
//! members' shares summed and the callers in a backoff).
//!
//! ```text
//! cargo run --release -p waiter-benches --example fleet_store_simulation [-- --members 1000 --latency-ms 1]
//! ```

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::time::Duration;

use mlua::{Lua, Value as LuaValue};
use tokio::sync::Notify;
use tokio::time::{Instant, sleep, sleep_until};

#[allow(dead_code)] // its chart and fill rates are the other simulations'
mod simulation;

use simulation::{Service, draw};

/// The script, the same file `FleetRateLimiter` sends to Redis.
const SCRIPT: &str = include_str!("../src/retry/adaptive/fleet/controller.lua");

/// The capacity before it halves: 500 requests/s (the real runs' service), or 5 per member
/// for more than 100 members.
fn capacity_of(members: usize) -> f64 {
    (5.0 * members as f64).max(500.0)
}
/// Simulated seconds.
const RUN: u64 = 60;
/// When the capacity halves.
const DROP_AT: u64 = 30;
/// Seconds left out of the figures (the cold start).
const WARM_UP: usize = 5;
/// After the halving, the figures start this many seconds in (the issue's 3 s to settle).
const SETTLE: u64 = 3;
/// A round every this long, or after a fresh throttle not within `MIN_GAP` of the last.
const INTERVAL: Duration = Duration::from_millis(200);
const MIN_GAP: Duration = Duration::from_millis(100);
/// A member's demand is read from its callers' last second.
const DEMAND_SPAN: Duration = Duration::from_secs(1);
/// The retrier's: 3 attempts, a throttle retried after `rand[0, 1) x 1 s x 2^(attempt - 1)`.
const ATTEMPTS: u32 = 3;
const THROTTLE_BASE: Duration = Duration::from_secs(1);

// ---------------------------------------------------------------------------------------------
// Redis, as far as the script needs it
// ---------------------------------------------------------------------------------------------

/// A key's value.
enum Val {
    Hash(HashMap<String, String>),
    ZSet(HashMap<String, f64>),
}

/// A reply, as Redis gives it to Lua.
enum Reply {
    Int(i64),
    Bulk(Option<String>),
    Array(Vec<Reply>),
}

/// The commands the script calls, in memory; `now` is the simulated `TIME`.
#[derive(Default)]
struct Redis {
    now: f64,
    db: HashMap<String, Val>,
    commands: u64,
}

const WRONGTYPE: &str = "WRONGTYPE Operation against a key holding the wrong kind of value";

fn score(text: &str) -> Result<(f64, bool), String> {
    let (exclusive, number) = match text.strip_prefix('(') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let x = match number {
        "-inf" => f64::NEG_INFINITY,
        "+inf" | "inf" => f64::INFINITY,
        n => n
            .parse()
            .map_err(|_| "ERR min or max is not a float".to_owned())?,
    };
    Ok((x, exclusive))
}

impl Redis {
    fn hash(&mut self, key: &str) -> Result<&mut HashMap<String, String>, String> {
        match self
            .db
            .entry(key.to_owned())
            .or_insert_with(|| Val::Hash(HashMap::new()))
        {
            Val::Hash(h) => Ok(h),
            Val::ZSet(_) => Err(WRONGTYPE.into()),
        }
    }

    fn zset(&mut self, key: &str) -> Result<&mut HashMap<String, f64>, String> {
        match self
            .db
            .entry(key.to_owned())
            .or_insert_with(|| Val::ZSet(HashMap::new()))
        {
            Val::ZSet(z) => Ok(z),
            Val::Hash(_) => Err(WRONGTYPE.into()),
        }
    }

    /// Members of a sorted set by score (then by name), as Redis orders them.
    fn sorted(z: &HashMap<String, f64>) -> Vec<(String, f64)> {
        let mut all: Vec<(String, f64)> = z.iter().map(|(m, s)| (m.clone(), *s)).collect();
        all.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
        all
    }

    fn call(&mut self, args: &[String]) -> Result<Reply, String> {
        self.commands += 1;
        let cmd = args[0].to_ascii_uppercase();
        let key = args.get(1).map(String::as_str).unwrap_or("");
        let reply = match cmd.as_str() {
            "TIME" => {
                let micros = (self.now * 1e6) as i64;
                Reply::Array(vec![
                    Reply::Bulk(Some((micros / 1_000_000).to_string())),
                    Reply::Bulk(Some((micros % 1_000_000).to_string())),
                ])
            }
            "HMGET" => {
                let h = self.hash(key)?;
                Reply::Array(
                    args[2..]
                        .iter()
                        .map(|f| Reply::Bulk(h.get(f).cloned()))
                        .collect(),
                )
            }
            "HSET" => {
                let h = self.hash(key)?;
                let mut added = 0;
                for pair in args[2..].chunks(2) {
                    added += i64::from(h.insert(pair[0].clone(), pair[1].clone()).is_none());
                }
                Reply::Int(added)
            }
            "HDEL" => {
                let h = self.hash(key)?;
                Reply::Int(args[2..].iter().filter(|f| h.remove(*f).is_some()).count() as i64)
            }
            "DEL" => Reply::Int(i64::from(self.db.remove(key).is_some())),
            "ZADD" => {
                let s: f64 = args[2].parse().map_err(|_| "ERR not a float".to_owned())?;
                let z = self.zset(key)?;
                Reply::Int(i64::from(z.insert(args[3].clone(), s).is_none()))
            }
            "ZREM" => {
                let z = self.zset(key)?;
                Reply::Int(args[2..].iter().filter(|m| z.remove(*m).is_some()).count() as i64)
            }
            "ZCARD" => Reply::Int(self.zset(key)?.len() as i64),
            "ZRANGE" => {
                // Only `0 -1` is used: every member.
                let z = self.zset(key)?;
                Reply::Array(
                    Self::sorted(z)
                        .into_iter()
                        .map(|(m, _)| Reply::Bulk(Some(m)))
                        .collect(),
                )
            }
            "ZRANGEBYSCORE" => {
                let ((min, min_ex), (max, max_ex)) = (score(&args[2])?, score(&args[3])?);
                let z = self.zset(key)?;
                Reply::Array(
                    Self::sorted(z)
                        .into_iter()
                        .filter(|(_, s)| {
                            (if min_ex { *s > min } else { *s >= min })
                                && (if max_ex { *s < max } else { *s <= max })
                        })
                        .map(|(m, _)| Reply::Bulk(Some(m)))
                        .collect(),
                )
            }
            "PEXPIRE" => Reply::Int(1),
            other => return Err(format!("ERR unknown command '{other}'")),
        };
        // An empty hash or sorted set is no key, as in Redis.
        if matches!(self.db.get(key), Some(Val::Hash(h)) if h.is_empty())
            || matches!(self.db.get(key), Some(Val::ZSet(z)) if z.is_empty())
        {
            self.db.remove(key);
        }
        Ok(reply)
    }
}

fn to_lua(lua: &Lua, reply: Reply) -> mlua::Result<LuaValue> {
    Ok(match reply {
        Reply::Int(n) => LuaValue::Number(n as f64),
        Reply::Bulk(Some(s)) => LuaValue::String(lua.create_string(&s)?),
        Reply::Bulk(None) => LuaValue::Boolean(false),
        Reply::Array(items) => {
            let t = lua.create_table()?;
            for (i, item) in items.into_iter().enumerate() {
                t.set(i + 1, to_lua(lua, item)?)?;
            }
            LuaValue::Table(t)
        }
    })
}

/// The store: Redis's model and the script, loaded once.
struct Store {
    lua: Lua,
    script: mlua::Function,
    redis: Rc<RefCell<Redis>>,
}

/// What the script answered.
#[derive(Clone, Copy, Debug)]
struct Answer {
    share: Option<f64>,
    epoch: u64,
    members: u64,
    rate: Option<f64>,
}

impl Store {
    fn new() -> mlua::Result<Self> {
        let lua = Lua::new();
        let redis = Rc::new(RefCell::new(Redis::default()));
        let handle = Rc::clone(&redis);
        let raw = lua.create_function(move |lua, args: mlua::Variadic<String>| {
            let reply = handle
                .borrow_mut()
                .call(&args)
                .map_err(mlua::Error::runtime)?;
            to_lua(lua, reply)
        })?;
        lua.globals().set("__call", raw)?;
        // Redis turns every argument into a string (numbers with Lua's own `tostring`).
        lua.load(
            r#"
            redis = {}
            function redis.call(...)
              local args = {...}
              for i = 1, #args do args[i] = tostring(args[i]) end
              return __call(unpack(args))
            end
            function redis.error_reply(message) return {err = message} end
            "#,
        )
        .exec()?;
        let script = lua.load(SCRIPT).into_function()?;
        Ok(Store { lua, script, redis })
    }

    /// One round at Redis time `now`.
    fn round(&self, now: f64, keys: &[String; 3], argv: &[String]) -> Result<Answer, String> {
        self.redis.borrow_mut().now = now;
        let set = || -> mlua::Result<()> {
            self.lua.globals().set("KEYS", keys.to_vec())?;
            self.lua.globals().set("ARGV", argv.to_vec())?;
            Ok(())
        };
        set().map_err(|e| e.to_string())?;
        let out: mlua::Table = self.script.call(()).map_err(|e| e.to_string())?;
        let texts: Vec<String> = out
            .sequence_values()
            .collect::<mlua::Result<_>>()
            .map_err(|e| e.to_string())?;
        let num = |i: usize| {
            texts
                .get(i)
                .and_then(|t| t.parse::<f64>().ok())
                .ok_or("a bad reply")
        };
        let rate = |x: f64| (x >= 0.0).then_some(x);
        Ok(Answer {
            share: rate(num(1)?),
            epoch: num(2)? as u64,
            members: num(3)? as u64,
            rate: rate(num(4)?),
        })
    }
}

// ---------------------------------------------------------------------------------------------
// The members
// ---------------------------------------------------------------------------------------------

/// One member's state, modelled after `FleetRateLimiter`'s.
struct Member {
    id: String,
    /// Its pacing: a token bucket of 50 ms (at least one token) at its share; `None`: no limit.
    rate: Option<f64>,
    tokens: f64,
    refilled: Instant,
    epoch: u64,
    responses: u64,
    throttles: u64,
    fresh: u64,
    waited: u64,
    last_round: Instant,
    last_delivered: Instant,
    hint: f64,
    ok: u64,
    /// A round is on its way (the store's latency).
    in_round: bool,
    /// The responses and waits since the last round, and those of the rounds of the last
    /// second (when each was taken), from which the demand is read; `since`: the start of
    /// the first round kept.
    new_responses: u64,
    new_waited: u64,
    recent: VecDeque<(Instant, u64, u64)>,
    since: Instant,
}

impl Member {
    /// Takes a token now, or says how long until one is there.
    fn take(&mut self, now: Instant) -> Result<(), Duration> {
        let Some(rate) = self.rate else { return Ok(()) };
        let cap = (rate * 0.05).max(1.0);
        self.tokens = (self.tokens + (now - self.refilled).as_secs_f64() * rate).min(cap);
        self.refilled = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            // At least a microsecond: a wait that rounds to nothing would spin on the paused clock.
            Err(Duration::from_secs_f64((1.0 - self.tokens) / rate).max(Duration::from_micros(1)))
        }
    }

    /// Sets the pacing rate at `now`, as `ClientRateLimiter`'s `pin` does: the tokens accrued
    /// until `now` counted at the old rate first (members' phases in their periods kept when
    /// the rate changes), a bucket turned on holding a phase of its own.
    fn pin(&mut self, now: Instant, rate: Option<f64>, member: usize) {
        match (self.rate, rate) {
            (Some(old), _) => {
                let cap = (old * 0.05).max(1.0);
                self.tokens = (self.tokens + (now - self.refilled).as_secs_f64() * old).min(cap);
            }
            (None, Some(_)) => self.tokens = draw(member as u64 ^ 0xB0C4),
            (None, None) => {}
        }
        self.refilled = now;
        self.rate = rate;
        if let Some(rate) = rate {
            self.tokens = self.tokens.min((rate * 0.05).max(1.0));
        }
    }

    /// Takes the counts since the last round into the last second's.
    fn take_round(&mut self, now: Instant) {
        let taken = (now, self.new_responses, self.new_waited);
        self.recent.push_back(taken);
        (self.new_responses, self.new_waited) = (0, 0);
        while let Some(&(first, _, _)) = self.recent.front() {
            if now - first <= DEMAND_SPAN {
                break;
            }
            self.since = first;
            self.recent.pop_front();
        }
    }

    /// `FleetRateLimiter`'s demand (`RecentCounts::demand` in `fleet/sync.rs`), over the last second.
    fn demand(&self, now: Instant) -> f64 {
        let responses: u64 = self.recent.iter().map(|r| r.1).sum();
        let waited: u64 = self.recent.iter().map(|r| r.2).sum();
        if waited >= 2 && waited * 2 >= responses {
            return -1.0;
        }
        let secs = (now - self.since).as_secs_f64().max(0.05);
        (responses as f64 / secs * 1.25).max(2.0)
    }

    fn argv(&self, now: Instant) -> Vec<String> {
        let num = |x: f64| format!("{x:?}");
        vec![
            "sync".into(),
            self.id.clone(),
            self.epoch.to_string(),
            self.responses.to_string(),
            self.throttles.to_string(),
            self.fresh.to_string(),
            num(self.demand(now)),
            num(self.hint),
            // The constants `FleetRateLimiter` sends (`fleet/script.rs`, `CONSTANTS`).
            "0.9".into(),
            "0.02".into(),
            "1.0".into(),
            "0.5".into(),
            "600000".into(),
            "0.5".into(),
            "0.8".into(),
            "2.0".into(),
            "0.5".into(),
            "0.1".into(),
            "0.5".into(),
            "0".into(),
        ]
    }
}

struct Row {
    members: usize,
    latency_ms: f64,
    /// Throttled share and capacity used from `WARM_UP` to the halving, then from
    /// `SETTLE` s after it to the end.
    before: (f64, f64),
    after: (f64, f64),
    jain: f64,
    spread: (f64, f64),
    rounds: f64,
    settled: Option<usize>,
}

async fn simulate(members: usize, latency: Duration) -> Row {
    let capacity = capacity_of(members);
    // `Service` takes a `fn`: the capacity per second comes from a thread-local.
    CAPACITY.with(|c| c.set(capacity));
    fn capacity_at(second: u64) -> f64 {
        CAPACITY.with(|c| c.get()) / if second < DROP_AT { 1.0 } else { 2.0 }
    }
    let service = Rc::new(
        Service::new(capacity_at, 0.0, Duration::from_millis(40), RUN)
            .with_jitter(Duration::from_millis(10)),
    );
    let store = Rc::new(Store::new().expect("the script loads"));
    let keys = ["state", "seen", "demand"].map(|w| format!("waiter:{{sim}}:{w}"));
    let start = Instant::now();
    let end = start + Duration::from_secs(RUN);
    let epoch_zero = 1.7e9;
    let fleet: Vec<Rc<RefCell<Member>>> = (0..members)
        .map(|i| {
            Rc::new(RefCell::new(Member {
                id: format!("m{i}"),
                rate: None,
                tokens: 1.0,
                refilled: start,
                epoch: 0,
                responses: 0,
                throttles: 0,
                fresh: 0,
                waited: 0,
                last_round: start,
                last_delivered: start,
                hint: 0.0,
                ok: 0,
                in_round: false,
                new_responses: 0,
                new_waited: 0,
                recent: VecDeque::new(),
                since: start,
            }))
        })
        .collect();
    // The members' shares summed, and the callers in a backoff, sampled each second.
    let sampled = Rc::new(RefCell::new(vec![(0.0, 0u64); RUN as usize + 1]));
    let backing_off = Rc::new(std::cell::Cell::new(0u64));
    let wakes: Vec<Rc<Notify>> = (0..members).map(|_| Rc::new(Notify::new())).collect();
    let local = tokio::task::LocalSet::new();
    {
        let (fleet, sampled, backing_off) = (fleet.clone(), sampled.clone(), backing_off.clone());
        local.spawn_local(async move {
            for second in 1..=RUN {
                sleep_until(start + Duration::from_secs(second) - Duration::from_millis(1)).await;
                let shares: f64 = fleet.iter().filter_map(|m| m.borrow().rate).sum();
                sampled.borrow_mut()[second as usize - 1] = (shares, backing_off.get());
            }
        });
    }
    let rounds = Rc::new(RefCell::new(0u64));
    // The fleet's rate, epoch and members at each second's last round, for the series.
    let trace = Rc::new(RefCell::new(vec![(0.0, 0, 0); RUN as usize + 1]));
    // The members' rounds: each on its own phase.
    for (i, member) in fleet.iter().enumerate() {
        let (member, store, keys, rounds, notify) = (
            member.clone(),
            store.clone(),
            keys.clone(),
            rounds.clone(),
            wakes[i].clone(),
        );
        let trace = trace.clone();
        let phase = INTERVAL.mul_f64(i as f64 / members as f64);
        local.spawn_local(async move {
            sleep(phase).await;
            while Instant::now() < end {
                let now = Instant::now();
                let argv = {
                    let mut m = member.borrow_mut();
                    m.last_round = now;
                    m.in_round = true;
                    m.take_round(now);
                    m.argv(now)
                };
                // Out to the store, executed there, back.
                sleep(latency / 2).await;
                let redis_now = epoch_zero + (Instant::now() - start).as_secs_f64();
                let answer = store.round(redis_now, &keys, &argv);
                *rounds.borrow_mut() += 1;
                if let Ok(a) = &answer {
                    let second = (Instant::now() - start).as_secs() as usize;
                    if let Some(at) = trace.borrow_mut().get_mut(second) {
                        *at = (a.rate.unwrap_or(-1.0), a.epoch, a.members);
                    }
                }
                sleep(latency / 2).await;
                {
                    let mut m = member.borrow_mut();
                    m.in_round = false;
                    if let Ok(a) = answer {
                        m.responses = 0;
                        m.throttles = 0;
                        m.waited = 0;
                        m.last_delivered = now;
                        if a.epoch != m.epoch {
                            m.fresh = 0;
                        }
                        m.epoch = a.epoch;
                        m.pin(Instant::now(), a.share.map(|s| s.max(0.5)), i);
                        // The limiter wakes its callers in line: a token may come sooner.
                        notify.notify_waiters();
                        if let Some(r) = a.rate {
                            m.hint = r;
                        }
                        let _ = a.members;
                    }
                }
                // The next round: the tick, or sooner after a fresh throttle.
                let tick = now + INTERVAL;
                loop {
                    let early = member.borrow().fresh > 0 && Instant::now() >= now + MIN_GAP;
                    if early || Instant::now() >= tick {
                        break;
                    }
                    sleep(Duration::from_millis(10).min(tick - Instant::now())).await;
                }
            }
        });
    }
    // The callers: 100 in all (the real runs'), or one per member for more than 100 members,
    // each calling through a retrier: a throttled attempt retried after a backoff.
    let callers = (100 / members).max(1);
    for (caller, i) in (0..members)
        .flat_map(|i| std::iter::repeat_n(i, callers))
        .enumerate()
    {
        let (member, service, wake) = (fleet[i].clone(), service.clone(), wakes[i].clone());
        let backing_off = backing_off.clone();
        local.spawn_local(async move {
            let mut attempt = 1;
            let mut draws = (caller as u64) << 32;
            while Instant::now() < end {
                // A token first: an attempt that waits for it counts as waited, once.
                let mut counted = false;
                loop {
                    let took = member.borrow_mut().take(Instant::now());
                    match took {
                        Ok(()) => break,
                        Err(wait) => {
                            if !counted {
                                let mut m = member.borrow_mut();
                                m.waited += 1;
                                m.new_waited += 1;
                                counted = true;
                            }
                            tokio::select! {
                                () = sleep(wait) => {}
                                () = wake.notified() => {}
                            }
                        }
                    }
                }
                let epoch = member.borrow().epoch;
                let out = service.send().await;
                let backoff = {
                    let mut m = member.borrow_mut();
                    m.responses += 1;
                    m.new_responses += 1;
                    match out {
                        Ok(()) => {
                            m.ok += 1;
                            attempt = 1;
                            None
                        }
                        Err(_) => {
                            m.throttles += 1;
                            if epoch == m.epoch {
                                m.fresh += 1;
                            }
                            if attempt < ATTEMPTS {
                                draws += 1;
                                let ceiling = THROTTLE_BASE * 2u32.pow(attempt - 1);
                                attempt += 1;
                                Some(ceiling.mul_f64(draw(draws)))
                            } else {
                                // The call fails; the caller makes its next one.
                                attempt = 1;
                                None
                            }
                        }
                    }
                };
                if let Some(backoff) = backoff {
                    backing_off.set(backing_off.get() + 1);
                    sleep(backoff).await;
                    backing_off.set(backing_off.get() - 1);
                }
            }
        });
    }
    local
        .run_until(sleep_until(end + Duration::from_millis(200)))
        .await;
    let bins = service.bins(RUN);
    if std::env::var_os("FLEET_SIM_SERIES").is_some() {
        let sampled = sampled.borrow();
        for (second, (b, t)) in bins.iter().zip(trace.borrow().iter()).enumerate() {
            let (shares, backing_off) = sampled.get(second).copied().unwrap_or_default();
            println!(
                "  {second:>2} s: sent {:>6} admitted {:>6} throttled {:>5}; fleet rate {:>8.1} epoch {:>3} members {:>4}; shares {shares:>8.1}, callers backing off {backing_off:>4}",
                b.sent, b.admitted, b.throttled, t.0, t.1, t.2
            );
        }
    }
    // The throttled share and the capacity used over seconds `from..to`.
    let span = |from: u64, to: u64| {
        let window = &bins[from as usize..to as usize];
        let sent: u64 = window.iter().map(|b| u64::from(b.sent)).sum();
        let throttled: u64 = window.iter().map(|b| u64::from(b.throttled)).sum();
        let admitted: u64 = window.iter().map(|b| u64::from(b.admitted)).sum();
        let offered: f64 = (from..to).map(capacity_at).sum();
        (
            throttled as f64 / sent.max(1) as f64,
            admitted as f64 / offered,
        )
    };
    let oks: Vec<f64> = fleet.iter().map(|m| m.borrow().ok as f64).collect();
    let sum: f64 = oks.iter().sum();
    let squares: f64 = oks.iter().map(|x| x * x).sum();
    let mean = sum / oks.len() as f64;
    let near = |b: &simulation::Bin| {
        let target = capacity_at(DROP_AT);
        f64::from(b.sent) <= 1.25 * target && f64::from(b.admitted) >= 0.8 * target
    };
    let after = &bins[DROP_AT as usize..];
    let settled = (0..after.len().saturating_sub(4)).find(|&s| after[s..s + 5].iter().all(near));
    let rounds = *rounds.borrow() as f64;
    Row {
        members,
        latency_ms: latency.as_secs_f64() * 1e3,
        before: span(WARM_UP as u64, DROP_AT),
        after: span(DROP_AT + SETTLE, RUN),
        jain: sum * sum / (oks.len() as f64 * squares),
        spread: (
            oks.iter().copied().fold(f64::INFINITY, f64::min) / mean,
            oks.iter().copied().fold(0.0, f64::max) / mean,
        ),
        rounds: rounds / members as f64 / RUN as f64,
        settled,
    }
}

thread_local! {
    static CAPACITY: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let get = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let members: Vec<usize> = get("--members").map_or(vec![10, 100, 1000], |m| {
        m.split(',')
            .map(|n| n.parse().expect("--members"))
            .collect()
    });
    let latencies: Vec<f64> = get("--latency-ms").map_or(vec![0.2, 1.0, 5.0], |l| {
        l.split(',')
            .map(|n| n.parse().expect("--latency-ms"))
            .collect()
    });
    println!(
        "service: 500 requests/s (5 per member past 100 members), halved at {DROP_AT} s, bursts of a tenth of a second's, answers after 40 to 50 ms; 100 callers in all (one per member past 100 members), each through a retrier (3 attempts, a throttle retried after up to 1 s, then 2 s); {RUN} s simulated; figures from {WARM_UP} s to the halving, and from {SETTLE} s after it to the end"
    );
    println!();
    println!(
        "| members | store latency | throttled, before / after the halving | capacity used, before / after | Jain's index | member goodput min / max (x mean) | rounds per member per s | settled after the halving |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &n in &members {
        for &ms in &latencies {
            let row = tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .start_paused(true)
                .build()
                .expect("runtime")
                .block_on(simulate(n, Duration::from_secs_f64(ms / 1e3)));
            println!(
                "| {} | {} ms | {:.2} % / {:.2} % | {:.3} / {:.3} | {:.3} | {:.2} / {:.2} | {:.2} | {} |",
                row.members,
                row.latency_ms,
                row.before.0 * 100.0,
                row.after.0 * 100.0,
                row.before.1,
                row.after.1,
                row.jain,
                row.spread.0,
                row.spread.1,
                row.rounds,
                row.settled
                    .map_or("not within 30 s".into(), |s| format!("{s} s")),
            );
        }
    }
}
