//! A fleet sharing one limiter, on paper: the fleet's controller, the very script
//! `FleetRateLimiter` runs in Redis (`waiter-runtime/src/retry/adaptive/fleet/controller.lua`),
//! run here by a Lua 5.1 interpreter (mlua, Redis's Lua version) over an in-memory model of
//! the Redis commands it calls, with a store `--latency` away (0.2, 1 or 5 ms each way and
//! back), on tokio's paused clock; and members modelled after `FleetRateLimiter`'s (a round
//! every 200 ms, sooner after a fresh throttle but never within 100 ms; each request marked
//! with the fleet's epoch; a member whose callers waited for tokens asks for as much as it
//! gets, another for what it sent and a quarter more), each pacing its callers with a token
//! bucket of 50 ms at its share. The service is the fleet simulation's: a token bucket (a
//! tenth of a second's worth at once) answering after 40 to 50 ms.
//!
//! It gives what cannot be run on one machine: 1,000 members, each one caller, against 5,000
//! requests/s, for 60 simulated seconds, at each store latency; with 10 and 100 members (100
//! callers in all against 500 requests/s, the real runs' setting) for comparison. Per row: the share of requests throttled, the capacity used (successes over
//! the capacity offered, from 5 s in), Jain's index of the members' successes, the members'
//! rate min / max, the rounds per member per second, and the seconds to settle after the
//! capacity halves at 30 s (5 s running at most 1.25 x and at least 0.8 x the new capacity).
//!
//! ```text
//! cargo run --release -p waiter-benches --example fleet_store_simulation [-- --members 1000 --latency-ms 1]
//! ```

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Duration;

use mlua::{Lua, Value as LuaValue};
use tokio::time::{Instant, sleep, sleep_until};

#[allow(dead_code)] // its chart and fill rates are the other simulations'
mod simulation;

use simulation::Service;

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
/// A round every this long, or after a fresh throttle not within `MIN_GAP` of the last.
const INTERVAL: Duration = Duration::from_millis(200);
const MIN_GAP: Duration = Duration::from_millis(100);

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

    fn demand(&self, now: Instant) -> f64 {
        if self.waited >= 2 && self.waited * 2 >= self.responses {
            return -1.0;
        }
        let secs = (now - self.last_delivered).as_secs_f64().max(0.05);
        (self.responses as f64 / secs * 1.25).max(2.0)
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
    throttled: f64,
    used: f64,
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
            }))
        })
        .collect();
    let local = tokio::task::LocalSet::new();
    let rounds = Rc::new(RefCell::new(0u64));
    // The members' rounds: each on its own phase.
    for (i, member) in fleet.iter().enumerate() {
        let (member, store, keys, rounds) =
            (member.clone(), store.clone(), keys.clone(), rounds.clone());
        let phase = INTERVAL.mul_f64(i as f64 / members as f64);
        local.spawn_local(async move {
            sleep(phase).await;
            while Instant::now() < end {
                let now = Instant::now();
                let argv = {
                    let mut m = member.borrow_mut();
                    m.last_round = now;
                    m.in_round = true;
                    m.argv(now)
                };
                // Out to the store, executed there, back.
                sleep(latency / 2).await;
                let redis_now = epoch_zero + (Instant::now() - start).as_secs_f64();
                let answer = store.round(redis_now, &keys, &argv);
                *rounds.borrow_mut() += 1;
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
                        m.rate = a.share.map(|s| s.max(0.5));
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
    // The callers: 100 in all (the real runs'), or one per member for more than 100 members.
    let callers = (100 / members).max(1);
    for member in fleet.iter().flat_map(|m| std::iter::repeat_n(m, callers)) {
        let (member, service) = (member.clone(), service.clone());
        local.spawn_local(async move {
            while Instant::now() < end {
                // A token first: an attempt that waits for it counts as waited, once.
                let mut counted = false;
                loop {
                    let took = member.borrow_mut().take(Instant::now());
                    match took {
                        Ok(()) => break,
                        Err(wait) => {
                            if !counted {
                                member.borrow_mut().waited += 1;
                                counted = true;
                            }
                            sleep(wait).await;
                        }
                    }
                }
                let epoch = member.borrow().epoch;
                let out = service.send().await;
                let mut m = member.borrow_mut();
                m.responses += 1;
                match out {
                    Ok(()) => m.ok += 1,
                    Err(_) => {
                        m.throttles += 1;
                        if epoch == m.epoch {
                            m.fresh += 1;
                        }
                    }
                }
            }
        });
    }
    local
        .run_until(sleep_until(end + Duration::from_millis(200)))
        .await;
    let bins = service.bins(RUN);
    if std::env::var_os("FLEET_SIM_SERIES").is_some() {
        for (second, b) in bins.iter().enumerate() {
            println!(
                "  {second:>2} s: sent {:>6} admitted {:>6} throttled {:>5}",
                b.sent, b.admitted, b.throttled
            );
        }
    }
    let window = &bins[WARM_UP..];
    let sent: u64 = window.iter().map(|b| u64::from(b.sent)).sum();
    let throttled: u64 = window.iter().map(|b| u64::from(b.throttled)).sum();
    let admitted: u64 = window.iter().map(|b| u64::from(b.admitted)).sum();
    let offered: f64 = (WARM_UP as u64..RUN).map(capacity_at).sum();
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
        throttled: throttled as f64 / sent.max(1) as f64,
        used: admitted as f64 / offered,
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
        "service: 500 requests/s (5 per member past 100 members), halved at {DROP_AT} s, bursts of a tenth of a second's, answers after 40 to 50 ms; 100 callers in all (one per member past 100 members); {RUN} s simulated; figures from {WARM_UP} s in"
    );
    println!();
    println!(
        "| members | store latency | throttled | capacity used | Jain's index | member goodput min / max (x mean) | rounds per member per s | settled after the halving |"
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
                "| {} | {} ms | {:.2} % | {:.3} | {:.3} | {:.2} / {:.2} | {:.2} | {} |",
                row.members,
                row.latency_ms,
                row.throttled * 100.0,
                row.used,
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
