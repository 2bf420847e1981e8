//! `cargo run --release --example fleet`: a fleet of N worker processes sharing one service's
//! capacity, run twice side by side: each worker with its own adaptive limiter (today's
//! uncoordinated fleet), then every worker a member of one `FleetRateLimiter` fleet whose
//! controller is in a `redis-server` started for the run.
//!
//! The service is `waiter_tests::capacity::CapacityService` on `127.0.0.1`: a token bucket
//! of `--capacity` requests/s (a tenth of a second's worth at once) answering every request
//! after `--latency-ms` (40 by default), `429 ThrottlingException` when it has no token.
//! `--callers` tasks in all (100, as in the fleet simulation), spread evenly over the workers,
//! call it back to back, each worker process's through
//! `Retrier::new(RetryConfig::adaptive().build())` on a current-thread tokio runtime with a
//! reqwest client, and reports its counts every 100 ms on stdout. A progress line shows the
//! run; at the end one table: the share of requests throttled, the capacity used (successes
//! over the capacity offered), Jain's index of the workers' successes, and each worker's rate
//! (min / mean / max), from 5 s in (after the cold start) to the end, and what the scenario
//! measures:
//!
//! * `equal` (the default): every worker wants more than its share.
//! * `unequal`: worker 0 sends 5 % of the capacity (open loop), the others want more.
//! * `halve` / `double`: the capacity halves (doubles from half) at mid-run; the seconds until
//!   the fleet settles (5 s running at most 1.25 x and at least 0.8 x the new capacity; for
//!   `double`, at least 0.8 x of it).
//! * `churn`: a worker joins at a third of the run, worker 0 is killed (SIGKILL) at two
//!   thirds; the seconds until every member sees the new count and an even share.
//! * `redis-kill`: Redis killed at a third of the run and restarted empty 10 s later; the
//!   requests throttled in that window, the calls that failed from the kill to 3 s after the
//!   return, and the requests throttled from 2 s after its return to the end.
//!
//! ```text
//! cargo run --release --example fleet -- [--members 10[,50,100]] [--scenario equal|unequal|halve|double|churn|redis-kill]
//!     [--seconds 30] [--capacity 500] [--callers 100] [--latency-ms 40] [--mode both|shared|uncoordinated]
//! ```
//!
//! `redis-server` must be on the PATH (`apt-get install redis-server`).

use std::io::{BufRead, BufReader, IsTerminal};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::retry::adaptive::{ClientRateLimiter, FleetRateLimiter};
use waiter_runtime::retry::{RateLimiter, Retrier, RetryConfig};
use waiter_tests::capacity::CapacityService;
use waiter_tests::redis_server::RedisServer;

/// Seconds from the start left out of the figures (the cold start).
const WARM_UP: f64 = 5.0;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    if args.iter().any(|a| a == "--worker") {
        return worker(&get);
    }
    let options = Options {
        scenario: get("--scenario").unwrap_or_else(|| "equal".into()),
        seconds: get("--seconds").map_or(30.0, |s| s.parse().expect("--seconds")),
        capacity: get("--capacity").map_or(500.0, |s| s.parse().expect("--capacity")),
        callers: get("--callers").map_or(100, |s| s.parse().expect("--callers")),
        latency: Duration::from_millis(
            get("--latency-ms").map_or(40, |s| s.parse().expect("--latency-ms")),
        ),
    };
    let members: Vec<usize> = get("--members")
        .unwrap_or_else(|| "10".into())
        .split(',')
        .map(|n| n.parse().expect("--members"))
        .collect();
    let mode = get("--mode").unwrap_or_else(|| "both".into());
    let modes: Vec<bool> = match mode.as_str() {
        "shared" => vec![true],
        "uncoordinated" => vec![false],
        _ => vec![false, true],
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    println!(
        "service: {} requests/s, bursts of a tenth of that, answers after {:?}; {} callers in all; {} s per run; scenario {}",
        options.capacity, options.latency, options.callers, options.seconds, options.scenario
    );
    let mut outcomes = Vec::new();
    for &n in &members {
        for &shared in &modes {
            let outcome = runtime.block_on(run(&options, n, shared))?;
            outcomes.push(outcome);
        }
    }
    println!();
    println!(
        "| members | limiter | throttled | capacity used | Jain's index | worker rate min / mean / max (req/s) | failed calls | {} |",
        scenario_column(&options.scenario)
    );
    println!("|---:|---|---:|---:|---:|---:|---:|---|");
    for o in &outcomes {
        println!(
            "| {} | {} | {:.2} % | {:.3} | {:.3} | {:.1} / {:.1} / {:.1} | {} | {} |",
            o.members,
            if o.shared {
                "shared (FleetRateLimiter)"
            } else {
                "uncoordinated (ClientRateLimiter each)"
            },
            o.throttled * 100.0,
            o.used,
            o.jain,
            o.rates.0,
            o.rates.1,
            o.rates.2,
            o.failed,
            o.extra
        );
    }
    Ok(())
}

fn scenario_column(scenario: &str) -> &'static str {
    match scenario {
        "unequal" => "worker 0: asked / got (req/s); the others min / max",
        "halve" | "double" => "settled after the change",
        "churn" => "re-split after the join / the kill",
        "redis-kill" => {
            "Redis down 10 s: throttled, calls failed (to 3 s after the return); throttled from 2 s after its return"
        }
        _ => "per-second throttled share, worst second",
    }
}

struct Options {
    scenario: String,
    seconds: f64,
    capacity: f64,
    callers: usize,
    latency: Duration,
}

/// One worker's report at one moment (cumulative counts).
#[derive(Clone, Copy, Debug)]
struct Sample {
    at: f64,
    ok: u64,
    failed: u64,
    share: Option<f64>,
    leased: bool,
    members: u64,
    fleet_rate: Option<f64>,
    fallbacks: u64,
}

struct Outcome {
    members: usize,
    shared: bool,
    throttled: f64,
    used: f64,
    jain: f64,
    rates: (f64, f64, f64),
    failed: u64,
    extra: String,
}

/// The service's counts in one second.
#[derive(Clone, Copy, Debug, Default)]
struct Bin {
    requests: u64,
    throttled: u64,
    succeeded: u64,
    capacity: f64,
}

/// A worker process and what it reported.
struct Worker {
    child: Child,
    samples: Arc<Mutex<Vec<Sample>>>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn_worker(
    service: &str,
    redis: Option<&str>,
    fleet: &str,
    callers: usize,
    every: Option<Duration>,
    until: SystemTime,
    origin: Instant,
) -> std::io::Result<Worker> {
    let until_ms = until
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let mut command = Command::new(std::env::current_exe()?);
    command
        .args(["--worker", "--service", service, "--fleet", fleet])
        .args([
            "--callers",
            &callers.to_string(),
            "--until",
            &until_ms.to_string(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if let Some(redis) = redis {
        command.args(["--redis", redis]);
    }
    if let Some(every) = every {
        command.args(["--every-us", &every.as_micros().to_string()]);
    }
    let mut child = command.spawn()?;
    let stdout = BufReader::new(child.stdout.take().expect("piped"));
    let samples = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&samples);
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            let f: Vec<&str> = line.split_whitespace().collect();
            if let [
                "tick",
                ok,
                _throttled,
                failed,
                share,
                leased,
                members,
                fleet_rate,
                fallbacks,
            ] = f[..]
            {
                let sample = Sample {
                    at: origin.elapsed().as_secs_f64(),
                    ok: ok.parse().unwrap_or(0),
                    failed: failed.parse().unwrap_or(0),
                    share: share.parse().ok(),
                    leased: leased == "1",
                    members: members.parse().unwrap_or(0),
                    fleet_rate: fleet_rate.parse().ok(),
                    fallbacks: fallbacks.parse().unwrap_or(0),
                };
                sink.lock().unwrap().push(sample);
            }
        }
    });
    Ok(Worker { child, samples })
}

async fn run(
    options: &Options,
    n: usize,
    shared: bool,
) -> Result<Outcome, Box<dyn std::error::Error>> {
    let c = options.capacity;
    let scenario = options.scenario.as_str();
    let start_rate = if scenario == "double" { c / 2.0 } else { c };
    let service = CapacityService::start(start_rate, start_rate / 10.0, None).await?;
    service.set_latency(options.latency);
    let mut redis = if shared {
        Some(RedisServer::start()?)
    } else {
        None
    };
    let redis_url = redis.as_ref().map(RedisServer::url);
    let fleet = format!("example-{}-{n}", std::process::id());
    let url = service.url("/thing");
    let seconds = options.seconds;
    let origin = Instant::now();
    let until = SystemTime::now() + Duration::from_secs_f64(seconds);
    let mut workers = Vec::new();
    // Callers spread evenly: the first `callers % n` workers get one more.
    let callers_of = |i: usize| (options.callers / n + usize::from(i < options.callers % n)).max(1);
    for i in 0..n {
        let every = (scenario == "unequal" && i == 0)
            .then(|| Duration::from_secs_f64(callers_of(i) as f64 / (0.05 * c)));
        workers.push(Some(spawn_worker(
            &url,
            redis_url.as_deref(),
            &fleet,
            callers_of(i),
            every,
            until,
            origin,
        )?));
    }
    let bar = progress(seconds);
    bar.set_prefix(format!(
        "{scenario}, {n} members, {}",
        if shared { "shared" } else { "uncoordinated" }
    ));
    let mut bins = Vec::new();
    let mut capacity_now = start_rate;
    let mut last = service.stats();
    let (mut joined_at, mut killed_at, mut redis_down, mut redis_up) = (None, None, None, None);
    let mut second = 0usize;
    let mut next_line = 5;
    while origin.elapsed().as_secs_f64() < seconds {
        second += 1;
        let next = origin + Duration::from_secs(second as u64);
        tokio::time::sleep_until(next.into()).await;
        let t = second as f64;
        let now = service.stats();
        bins.push(Bin {
            requests: now.requests - last.requests,
            throttled: now.throttled - last.throttled,
            succeeded: now.succeeded - last.succeeded,
            capacity: capacity_now,
        });
        last = now;
        let half = (seconds / 2.0).round();
        match scenario {
            "halve" if t == half => {
                capacity_now = c / 2.0;
                service.set_rate(c / 2.0, c / 20.0);
            }
            "double" if t == half => {
                capacity_now = c;
                service.set_rate(c, c / 10.0);
            }
            "churn" if t == (seconds / 3.0).round() => {
                workers.push(Some(spawn_worker(
                    &url,
                    redis_url.as_deref(),
                    &fleet,
                    callers_of(0),
                    None,
                    until,
                    origin,
                )?));
                joined_at = Some(origin.elapsed().as_secs_f64());
            }
            "churn" if t == (2.0 * seconds / 3.0).round() => {
                if let Some(mut w) = workers[0].take() {
                    let _ = w.child.kill();
                    killed_at = Some(origin.elapsed().as_secs_f64());
                    // What it reported stays in `dead` for its rate.
                    workers[0] = None;
                    let _ = w.child.wait();
                }
            }
            "redis-kill" if t == (seconds / 3.0).round() => {
                if let Some(redis) = &mut redis {
                    redis.stop();
                }
                redis_down = Some(t);
            }
            "redis-kill" if redis_down.is_some_and(|down| t == down + 10.0) => {
                if let Some(redis) = &mut redis {
                    redis.restart()?;
                }
                redis_up = Some(t);
            }
            _ => {}
        }
        let b = bins.last().copied().unwrap_or_default();
        bar.set_position(second as u64);
        let fleet_state = if shared {
            let latest: Vec<Sample> = workers
                .iter()
                .flatten()
                .filter_map(|w| w.samples.lock().unwrap().last().copied())
                .collect();
            let leased = latest.iter().filter(|s| s.leased).count();
            let rate = latest
                .iter()
                .filter_map(|s| s.fleet_rate)
                .fold(0.0, f64::max);
            let fallbacks: u64 = latest.iter().map(|s| s.fallbacks).sum();
            format!(", {leased} leased, fleet rate {rate:.0}/s, {fallbacks} fallbacks")
        } else {
            String::new()
        };
        bar.set_message(format!(
            "{} req/s, {} throttled ({:.1} %), capacity {:.0}/s{fleet_state}",
            b.requests,
            b.throttled,
            100.0 * b.throttled as f64 / b.requests.max(1) as f64,
            b.capacity
        ));
        if std::env::var_os("FLEET_EXAMPLE_TRACE").is_some() {
            println!("  {}: {}s {}", bar.prefix(), second, bar.message());
        }
        // Without a terminal, a line every 5 s instead of the bar.
        if bar.is_hidden()
            && second >= next_line
            && std::env::var_os("FLEET_EXAMPLE_TRACE").is_none()
        {
            next_line += 5;
            println!("  {}: {}s {}", bar.prefix(), second, bar.message());
        }
    }
    bar.finish_and_clear();
    // Let the workers end and flush.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let reports: Vec<Option<Vec<Sample>>> = workers
        .iter()
        .map(|w| w.as_ref().map(|w| w.samples.lock().unwrap().clone()))
        .collect();
    drop(workers);

    // The window: from WARM_UP s to the end.
    let window = &bins[(WARM_UP as usize).min(bins.len())..];
    let sum = |f: fn(&Bin) -> f64| window.iter().map(f).sum::<f64>();
    let throttled = sum(|b| b.throttled as f64) / sum(|b| b.requests as f64).max(1.0);
    let used = sum(|b| b.succeeded as f64) / sum(|b| b.capacity);
    let full: Vec<&Vec<Sample>> = reports
        .iter()
        .take(n)
        .flatten()
        .filter(|r| !r.is_empty())
        .collect();
    let span = |r: &Vec<Sample>| -> Option<(f64, u64)> {
        let first = r.iter().find(|s| s.at >= WARM_UP)?;
        let last = r.last()?;
        Some((last.at - first.at, last.ok - first.ok))
    };
    let rates: Vec<f64> = full
        .iter()
        .filter_map(|r| span(r))
        .map(|(secs, ok)| ok as f64 / secs.max(1e-9))
        .collect();
    let jain = {
        let s: f64 = rates.iter().sum();
        let q: f64 = rates.iter().map(|x| x * x).sum();
        if q > 0.0 {
            s * s / (rates.len() as f64 * q)
        } else {
            0.0
        }
    };
    let mean = rates.iter().sum::<f64>() / rates.len().max(1) as f64;
    let min = rates.iter().copied().fold(f64::INFINITY, f64::min);
    let max = rates.iter().copied().fold(0.0, f64::max);
    let failed: u64 = reports
        .iter()
        .flatten()
        .filter_map(|r| r.last())
        .map(|s| s.failed)
        .sum();
    let extra = match scenario {
        "unequal" => format!(
            "{:.1} / {:.1}; {:.1} / {:.1}",
            0.05 * c,
            rates.first().copied().unwrap_or(0.0),
            rates.iter().skip(1).copied().fold(f64::INFINITY, f64::min),
            rates.iter().skip(1).copied().fold(0.0, f64::max)
        ),
        "halve" | "double" => {
            let change = (seconds / 2.0).round() as usize;
            let target = c / if scenario == "halve" { 2.0 } else { 1.0 };
            let near = |b: &Bin| {
                (scenario == "double" || b.requests as f64 <= 1.25 * target)
                    && b.succeeded as f64 >= 0.8 * target
            };
            let after = &bins[change.min(bins.len())..];
            (0..after.len().saturating_sub(4))
                .find(|&s| after[s..s + 5].iter().all(near))
                .map_or("not within the run".into(), |s| format!("{s} s"))
        }
        "churn" if shared => {
            let joined = joined_at.map(|t| resplit_after(&reports, t, n + 1, &[]));
            let killed = killed_at.map(|t| resplit_after(&reports, t, n, &[0]));
            format!("{} / {}", show(joined.flatten()), show(killed.flatten()))
        }
        "redis-kill" => {
            let (down, up) = (
                redis_down.unwrap_or(seconds / 3.0) as usize,
                redis_up.unwrap_or(seconds / 3.0 + 10.0) as usize,
            );
            let outage = &bins[down.min(bins.len())..up.min(bins.len())];
            let share = |bins: &[Bin]| {
                bins.iter().map(|b| b.throttled).sum::<u64>() as f64
                    / bins.iter().map(|b| b.requests).sum::<u64>().max(1) as f64
            };
            // From 2 s after its return to the end.
            let after = &bins[(up + 2).min(bins.len())..];
            // Calls that failed from the kill to 3 s after the return (a call retried
            // through the outage ends up to 3 s after its last attempt's throttle).
            let failed_by = |at: f64| -> u64 {
                reports
                    .iter()
                    .flatten()
                    .filter_map(|r| r.iter().take_while(|s| s.at <= at).last())
                    .map(|s| s.failed)
                    .sum()
            };
            let failed_then = failed_by(up as f64 + 3.0).saturating_sub(failed_by(down as f64));
            format!(
                "{:.2} %, {} failed; {:.2} %",
                share(outage) * 100.0,
                failed_then,
                share(after) * 100.0
            )
        }
        _ => {
            let worst = window
                .iter()
                .map(|b| b.throttled as f64 / b.requests.max(1) as f64)
                .fold(0.0, f64::max);
            format!("{:.1} %", worst * 100.0)
        }
    };
    Ok(Outcome {
        members: n,
        shared,
        throttled,
        used,
        jain,
        rates: (min, mean, max),
        failed,
        extra,
    })
}

fn show(took: Option<f64>) -> String {
    took.map_or("not within the run".into(), |s| format!("{s:.1} s"))
}

/// Seconds from `at` until every live member (not in `gone`) reported `members` members and
/// shares within 15 % of each other.
fn resplit_after(
    reports: &[Option<Vec<Sample>>],
    at: f64,
    members: usize,
    gone: &[usize],
) -> Option<f64> {
    let live: Vec<&Vec<Sample>> = reports
        .iter()
        .enumerate()
        .filter(|(i, _)| !gone.contains(i))
        .filter_map(|(_, r)| r.as_ref())
        .collect();
    let mut t = at;
    while t < at + 30.0 {
        t += 0.1;
        let states: Vec<Option<&Sample>> = live
            .iter()
            .map(|r| r.iter().rev().find(|s| s.at <= t))
            .collect();
        let ok = states.iter().all(|s| {
            s.is_some_and(|s| s.leased && s.members == members as u64 && s.share.is_some())
        });
        if ok {
            let shares: Vec<f64> = states.iter().flatten().filter_map(|s| s.share).collect();
            let (lo, hi) = shares
                .iter()
                .fold((f64::INFINITY, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
            if hi <= lo * 1.15 {
                return Some(t - at);
            }
        }
    }
    None
}

fn progress(seconds: f64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(seconds as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} s  {msg}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar
}

// ---------------------------------------------------------------------------------------------
// The worker process
// ---------------------------------------------------------------------------------------------

/// The service's answers other than a success, as the classifiers see them.
#[derive(Debug, ProvideErrorMetadata)]
enum CallError {
    /// `429 ThrottlingException`.
    #[error_metadata(code = "ThrottlingException", status = 429)]
    Throttled,
    /// Anything else (a lost connection, a status the service does not send).
    #[error_metadata(transient)]
    Other,
}

fn worker(get: &dyn Fn(&str) -> Option<String>) -> Result<(), Box<dyn std::error::Error>> {
    let service = get("--service").expect("--service");
    let fleet = get("--fleet").expect("--fleet");
    let callers: usize = get("--callers").map_or(2, |s| s.parse().expect("--callers"));
    let until_ms: u64 = get("--until").expect("--until").parse()?;
    let until = UNIX_EPOCH + Duration::from_millis(until_ms);
    let every = get("--every-us").map(|us| Duration::from_micros(us.parse().expect("--every-us")));
    let member = match get("--redis") {
        Some(redis) => Some(FleetRateLimiter::new(&redis, &fleet)?),
        None => None,
    };
    let limiter: Arc<dyn RateLimiter> = match &member {
        Some(member) => Arc::new(member.clone()),
        None => Arc::new(ClientRateLimiter::new()),
    };
    let retrier = Retrier::new(RetryConfig::adaptive().build()).with_rate_limiter(limiter);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let client = reqwest::Client::new();
        let counts = Arc::new([AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)]);
        let left = || until.duration_since(SystemTime::now()).unwrap_or_default();
        let deadline = tokio::time::Instant::now() + left();
        for caller in 0..callers {
            let (client, service, retrier, counts) = (
                client.clone(),
                service.clone(),
                retrier.clone(),
                counts.clone(),
            );
            tokio::spawn(async move {
                let mut next = tokio::time::Instant::now()
                    + every.map_or(Duration::ZERO, |e| {
                        e.mul_f64(caller as f64 / callers as f64)
                    });
                while tokio::time::Instant::now() < deadline {
                    if let Some(every) = every {
                        tokio::time::sleep_until(next).await;
                        next += every;
                    }
                    let out = retrier
                        .run(|| async {
                            match client.get(&service).send().await {
                                Ok(response) if response.status().is_success() => Ok(()),
                                Ok(response) if response.status() == 429 => {
                                    counts[1].fetch_add(1, Ordering::Relaxed);
                                    Err(CallError::Throttled)
                                }
                                _ => Err(CallError::Other),
                            }
                        })
                        .await;
                    let slot = if out.is_ok() { 0 } else { 2 };
                    counts[slot].fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        loop {
            let status = member.as_ref().map(FleetRateLimiter::status);
            println!(
                "tick {} {} {} {} {} {} {} {}",
                counts[0].load(Ordering::Relaxed),
                counts[1].load(Ordering::Relaxed),
                counts[2].load(Ordering::Relaxed),
                status
                    .and_then(|s| s.share)
                    .map_or("-".into(), |s| format!("{s:.3}")),
                u8::from(status.is_some_and(|s| s.leased)),
                status.map_or(0, |s| s.members),
                status
                    .and_then(|s| s.fleet_rate)
                    .map_or("-".into(), |r| format!("{r:.3}")),
                status.map_or(0, |s| s.fallbacks),
            );
            if tokio::time::Instant::now() >= deadline {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    Ok(())
}
