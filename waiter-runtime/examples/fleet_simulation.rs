//! A fleet of clients sharing one service: N independent clients (each its own `Retrier`,
//! with its own retry quota and, in adaptive mode, its own rate limiter, as separate processes
//! of a fleet would have) and 100 callers in all, against one service whose capacity `C`
//! halves at t = 30 s.
//!
//! The service is a token bucket (`C` = 500 requests/s, then 250/s; bursts of `C / 10`) that
//! answers every request after 40 to 50 ms: a throttling error (`ThrottlingException`) when it has no
//! token, and a transient `503` for 2 % of the requests it admits (a background failure rate,
//! where retry behaviors 2.0 and 2.1 differ: 2.1 backs off from 50 ms and charges 14 tokens,
//! 2.0 from 1 s and charges 5). Callers make calls back to back for 60 simulated seconds, on
//! tokio's paused clock. Per mode (standard 2.0, standard 2.1, adaptive) and number of clients
//! (1, 10, 50, 100) it prints: total goodput over the capacity offered (successful responses
//! over `C x 30 s + C/2 x 30 s`), the share of requests throttled, the share of calls that
//! failed, Jain's fairness index of the clients' goodput (`(sum x)^2 / (n sum x^2)`: 1 when
//! every client gets the same, `1/n` when one gets everything), and the time to converge after
//! the drop: from t = 30 s to the first second from which, for 5 seconds running, the fleet
//! sends at most 1.25 x the new capacity and gets at least 0.8 x of it through. It then draws
//! the fleet's per-second series (sent, admitted, throttled, the capacity, and in adaptive mode
//! the sum of the clients' fill rates) at 50 clients for each standard behavior and for
//! adaptive, and at 1 client for adaptive and for the SDKs' controller, in `docs/fleet.svg`.
//!
//! The adaptive rows are an ablation: the default controller (`Tuning::DEFAULT`), the SDKs'
//! (`Tuning::SDK`), `Tuning::AWS` (the SDKs' with our cold start), each mechanism alone on
//! `Tuning::AWS`, the default without each of its mechanisms and with each opt-in one.
//!
//! ```text
//! cargo run --release -p waiter-benches --example fleet_simulation [-- --no-chart] [-- --series]
//! ```
//!
//! Env `FLEET_ONLY="adaptive (default):1"` runs one row (mode name, clients);
//! `FLEET_DEBUG=1` prints each adaptive client's successes and final limiter state;
//! `FLEET_JITTER_MS=0` answers every request after exactly 40 ms; `FLEET_RISE=1` doubles the
//! capacity at t = 30 s (250/s, then 500/s) instead of halving it ("converged" is then the
//! time to get 0.8 of the new capacity through, 5 s running); `FLEET_TUNING="beta=0.8"` runs
//! one adaptive row, "custom", of the default tuning with those fields changed.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::{Instant, sleep};
use waiter_runtime::retry::adaptive::{ClientRateLimiter, Tuning};
use waiter_runtime::retry::{Retrier, RetryBehavior, RetryConfig};

use simulation::{Bin, ChartStyle, Panel, Service};

mod simulation;

/// Requests per second the service admits before the drop.
const C: f64 = 500.0;
/// When the capacity halves.
const DROP_AT: u64 = 30;
/// Time the service takes to answer, at least (since issue 28; 50 ms before)...
const LATENCY: Duration = Duration::from_millis(40);
/// ... and at most this much more (a deterministic draw per request): 40 to 50 ms. With every
/// answer after exactly 40 ms, the paused clock lands them all on the same milliseconds and
/// the order in which the runtime wakes the clients decides, the same way every time, which
/// of them the service throttles (Jain's index 0.89 to 0.95 with it, 0.95 to 0.97 without).
const JITTER: Duration = Duration::from_millis(10);
/// Simulated time during which callers start calls.
const RUN: u64 = 60;
/// Callers in all, spread evenly over the clients.
const CALLERS: usize = 100;
/// Share of admitted requests that fail with a transient 503.
const TRANSIENT_SHARE: f64 = 0.02;
/// Seconds running the fleet must stay near the new capacity to count as converged.
const SETTLED_FOR: usize = 5;

/// The service's capacity in a second of the run: `C`, halved at `DROP_AT`; with env
/// `FLEET_RISE=1`, `C / 2` doubled at `DROP_AT` (how fast clients find capacity that appears).
fn capacity_at(second: u64) -> f64 {
    let rise = std::env::var_os("FLEET_RISE").is_some();
    match (rise, second < DROP_AT) {
        (false, true) | (true, false) => C,
        (false, false) | (true, true) => C / 2.0,
    }
}

// ---------------------------------------------------------------------------------------------
// The fleet
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    Standard20,
    Standard21,
    /// Adaptive with these constants, named.
    Adaptive(&'static str, Tuning),
}

/// The adaptive rows: the default controller, the SDKs' (`Tuning::SDK`) and `Tuning::AWS` (the
/// SDKs' with our cold start: the default before issue 28), then each mechanism alone on
/// `Tuning::AWS`, the default without each of its own and with each of the opt-in ones (the
/// ablation).
fn adaptive_modes() -> Vec<Mode> {
    let aws = Tuning::AWS;
    let ours = Tuning::DEFAULT;
    if let Some(custom) = custom_tuning() {
        return vec![Mode::Adaptive("custom", custom)];
    }
    let one_cut = Tuning {
        one_cut_per_event: true,
        ..aws
    };
    vec![
        Mode::Adaptive("adaptive (default)", ours),
        Mode::Adaptive("adaptive, Tuning::SDK", Tuning::SDK),
        Mode::Adaptive("adaptive, Tuning::AWS", aws),
        Mode::Adaptive("AWS + one cut per event", one_cut),
        Mode::Adaptive(
            "AWS + one cut per event + recovery period",
            Tuning {
                recovery_period: true,
                ..one_cut
            },
        ),
        Mode::Adaptive(
            "AWS + stretch by the throttle share",
            Tuning {
                throttle_share_target: ours.throttle_share_target,
                max_stretch: ours.max_stretch,
                ..aws
            },
        ),
        Mode::Adaptive(
            "AWS + beta 0.75, C 0.2",
            Tuning {
                beta: ours.beta,
                scale_constant: ours.scale_constant,
                ..aws
            },
        ),
        Mode::Adaptive(
            "AWS + 50 ms bursts",
            Tuning {
                burst_seconds: ours.burst_seconds,
                ..aws
            },
        ),
        Mode::Adaptive(
            "default - one cut per event",
            Tuning {
                one_cut_per_event: false,
                ..ours
            },
        ),
        Mode::Adaptive(
            "default - recovery period",
            Tuning {
                recovery_period: false,
                ..ours
            },
        ),
        Mode::Adaptive(
            "default - stretch",
            Tuning {
                throttle_share_target: 0.0,
                ..ours
            },
        ),
        Mode::Adaptive(
            "default - beta 0.75, C 0.2 (the SDKs' 0.7, 0.4)",
            Tuning {
                beta: aws.beta,
                scale_constant: aws.scale_constant,
                ..ours
            },
        ),
        Mode::Adaptive(
            "default - 50 ms bursts",
            Tuning {
                burst_seconds: 1.0,
                ..ours
            },
        ),
        Mode::Adaptive(
            "default + fast convergence",
            Tuning {
                fast_convergence: true,
                ..ours
            },
        ),
        Mode::Adaptive(
            "default + rate over 10 responses",
            Tuning {
                rate_min_responses: 10,
                ..ours
            },
        ),
        Mode::Adaptive(
            "default + cut from the fill rate",
            Tuning {
                cut_from_fill_rate: true,
                ..ours
            },
        ),
    ]
}

/// Env `FLEET_TUNING="scale_constant=0.1,beta=0.8,fast_convergence=1"`: one adaptive row,
/// "custom", of the default tuning with those fields changed (for exploring).
fn custom_tuning() -> Option<Tuning> {
    let spec = std::env::var("FLEET_TUNING").ok()?;
    let mut t = Tuning::DEFAULT;
    for pair in spec.split(',').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').expect("field=value");
        let x: f64 = v.parse().expect("a number");
        match k {
            "scale_constant" => t.scale_constant = x,
            "beta" => t.beta = x,
            "smoothing" => t.smoothing = x,
            "burst_seconds" => t.burst_seconds = x,
            "min_fill_rate" => t.min_fill_rate = x,
            "one_cut_per_event" => t.one_cut_per_event = x != 0.0,
            "fast_convergence" => t.fast_convergence = x != 0.0,
            "cut_from_fill_rate" => t.cut_from_fill_rate = x != 0.0,
            "rate_min_responses" => t.rate_min_responses = x as u32,
            "recovery_period" => t.recovery_period = x != 0.0,
            "throttle_share_target" => t.throttle_share_target = x,
            "max_stretch" => t.max_stretch = x,
            other => panic!("FLEET_TUNING: no field {other}"),
        }
    }
    t.validate().expect("a valid tuning");
    Some(t)
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Standard20 => "standard 2.0",
            Mode::Standard21 => "standard 2.1",
            Mode::Adaptive(name, _) => name,
        }
    }

    /// One client: its own retrier (own quota) and, in adaptive mode, its own limiter.
    fn client(self) -> (Retrier, Option<ClientRateLimiter>) {
        let adaptive = |tuning| {
            let limiter = ClientRateLimiter::with_tuning(tuning).expect("a valid tuning");
            let retrier = Retrier::new(RetryConfig::adaptive().build())
                .with_rate_limiter(Arc::new(limiter.clone()));
            (retrier, Some(limiter))
        };
        match self {
            Mode::Standard20 => (
                Retrier::new(
                    RetryConfig::standard()
                        .behavior(RetryBehavior::V2_0)
                        .build(),
                ),
                None,
            ),
            Mode::Standard21 => (Retrier::new(RetryConfig::standard().build()), None),
            Mode::Adaptive(_, tuning) => adaptive(tuning),
        }
    }
}

struct Report {
    mode: Mode,
    clients: usize,
    goodput: f64,
    throttled_share: f64,
    failed_calls: f64,
    calls: usize,
    jain: f64,
    /// Seconds from the drop until the fleet settled near the new capacity, if it did.
    converged_after: Option<u64>,
    /// Per-client goodput, lowest and highest, over the mean.
    spread: (f64, f64),
    bins: Vec<Bin>,
}

async fn simulate(mode: Mode, clients: usize) -> Report {
    // Env `FLEET_JITTER_MS=0`: every answer after exactly `LATENCY`.
    let jitter = std::env::var("FLEET_JITTER_MS")
        .ok()
        .and_then(|ms| ms.parse().ok())
        .map_or(JITTER, Duration::from_millis);
    let service =
        Arc::new(Service::new(capacity_at, TRANSIENT_SHARE, LATENCY, RUN).with_jitter(jitter));
    let start = Instant::now();
    let deadline = start + Duration::from_secs(RUN);
    let fleet: Vec<_> = (0..clients).map(|_| mode.client()).collect();
    let limiters: Vec<ClientRateLimiter> = fleet.iter().filter_map(|(_, l)| l.clone()).collect();
    let mut tasks = Vec::new();
    for (client, (retrier, _)) in fleet.iter().enumerate() {
        // Callers spread evenly: the first `CALLERS % clients` clients get one more.
        let callers = CALLERS / clients + usize::from(client < CALLERS % clients);
        for _ in 0..callers {
            let (service, retrier) = (service.clone(), retrier.clone());
            tasks.push((
                client,
                tokio::spawn(async move {
                    let (mut ok, mut failed) = (0u64, 0u64);
                    while Instant::now() < deadline {
                        match retrier.run(|| service.send()).await {
                            Ok(()) => ok += 1,
                            Err(_) => failed += 1,
                        }
                    }
                    (ok, failed)
                }),
            ));
        }
    }
    let sampler = (!limiters.is_empty()).then(|| {
        let service = service.clone();
        tokio::spawn(async move {
            for second in 0..RUN as usize {
                sleep(Duration::from_secs(1)).await;
                let rates: Vec<f64> = limiters
                    .iter()
                    .map(ClientRateLimiter::state)
                    .filter(|s| s.is_enabled())
                    .map(|s| s.fill_rate())
                    .collect();
                if !rates.is_empty() {
                    service.set_fill_rate(second, rates.iter().sum());
                }
            }
        })
    });
    let mut per_client = vec![0u64; clients];
    let (mut calls, mut failed) = (0usize, 0usize);
    for (client, task) in tasks {
        let (ok, bad) = task.await.unwrap();
        per_client[client] += ok;
        calls += (ok + bad) as usize;
        failed += bad as usize;
    }
    if let Some(sampler) = sampler {
        sampler.await.unwrap();
    }
    if std::env::var_os("FLEET_DEBUG").is_some() {
        for (i, (_, limiter)) in fleet.iter().enumerate() {
            if let Some(limiter) = limiter {
                let st = limiter.state();
                println!(
                    "client {i}: ok {} fill {:.1} w_max {:.1} measured {:.1} cuts {}",
                    per_client[i],
                    st.fill_rate(),
                    st.max_rate(),
                    st.measured_transmit_rate(),
                    st.cuts()
                );
            }
        }
    }
    let bins = service.bins(RUN);
    let (sent, admitted, throttled) = bins.iter().fold((0u64, 0u64, 0u64), |(s, a, t), b| {
        (
            s + u64::from(b.sent),
            a + u64::from(b.admitted),
            t + u64::from(b.throttled),
        )
    });
    let offered: f64 = (0..RUN).map(capacity_at).sum();
    let xs: Vec<f64> = per_client.iter().map(|&x| x as f64).collect();
    let sum: f64 = xs.iter().sum();
    let squares: f64 = xs.iter().map(|x| x * x).sum();
    let mean = sum / xs.len() as f64;
    let (lo, hi) = xs
        .iter()
        .fold((f64::MAX, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    Report {
        mode,
        clients,
        goodput: admitted as f64 / offered,
        throttled_share: throttled as f64 / sent as f64,
        failed_calls: failed as f64 / calls as f64,
        calls,
        jain: if squares > 0.0 {
            sum * sum / (xs.len() as f64 * squares)
        } else {
            0.0
        },
        converged_after: converged_after(&bins),
        spread: (lo / mean, hi / mean),
        bins,
    }
}

/// Seconds from the drop (or the rise) to the first second from which the fleet sent at most
/// 1.25 x and got at least 0.8 x the new capacity through, `SETTLED_FOR` seconds running.
fn converged_after(bins: &[Bin]) -> Option<u64> {
    let target = capacity_at(DROP_AT);
    // Admitted counts successes only: 2 % of what the service admits fails.
    let near = |b: &Bin| {
        f64::from(b.sent) <= 1.25 * target
            && f64::from(b.admitted) >= 0.8 * (1.0 - TRANSIENT_SHARE) * target
    };
    let after = &bins[DROP_AT as usize..];
    (0..after.len().saturating_sub(SETTLED_FOR - 1))
        .find(|&s| after[s..s + SETTLED_FOR].iter().all(near))
        .map(|s| s as u64)
}

fn run(mode: Mode, clients: usize) -> Report {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .expect("runtime")
        .block_on(simulate(mode, clients))
}

// ---------------------------------------------------------------------------------------------
// The chart
// ---------------------------------------------------------------------------------------------

fn chart(path: &PathBuf, reports: &[&Report]) -> Result<(), Box<dyn std::error::Error>> {
    let panels: Vec<Panel<'_>> = reports
        .iter()
        .map(|r| Panel {
            title: format!(
                "{}, {} clients: goodput {:.2} C, {:.1} % throttled, {:.2} % of calls failed, \
             Jain {:.3}, converged {} after the drop",
                r.mode.name(),
                r.clients,
                r.goodput,
                r.throttled_share * 100.0,
                r.failed_calls * 100.0,
                r.jain,
                r.converged_after
                    .map_or("not within 30 s".to_owned(), |s| format!("{s} s")),
            ),
            bins: &r.bins,
        })
        .collect();
    let style = ChartStyle {
        panel_height: 300,
        run: RUN,
        y_floor: C * 1.5,
        fill_rate_in_scale: true,
        capacity: (
            "service capacity (halves at 30 s)".to_owned(),
            (0..=RUN)
                .map(|s| (s as f64, capacity_at(s.min(RUN - 1))))
                .collect(),
            true,
        ),
        admitted_label: "admitted (succeeded)",
        fill_rate_label: "sum of the clients' fill rates",
    };
    simulation::chart(path, &style, &panels)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    println!(
        "service: {C} req/s, {} req/s from t = {DROP_AT} s, bursts of C/10, {} ms per response \
         and up to {} ms more (env FLEET_JITTER_MS), {:.0} % of admitted requests a transient 503; \
         {CALLERS} callers in all, {RUN} s simulated",
        C / 2.0,
        LATENCY.as_millis(),
        JITTER.as_millis(),
        TRANSIENT_SHARE * 100.0
    );
    println!();
    println!(
        "| mode | clients | goodput / C | throttled | failed calls | calls | Jain's index | client goodput min / max (x mean) | converged after the drop |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut panels = Vec::new();
    let mut modes = vec![Mode::Standard20, Mode::Standard21];
    modes.extend(adaptive_modes());
    for (row, mode) in modes.into_iter().enumerate() {
        for clients in [1, 10, 50, 100] {
            // Env `FLEET_ONLY=adaptive:1`: that row only (mode name, clients).
            let only = std::env::var("FLEET_ONLY").ok();
            if only.is_some_and(|only| only != format!("{}:{clients}", mode.name())) {
                continue;
            }
            let r = run(mode, clients);
            println!(
                "| {} | {} | {:.3} | {:.1} % | {:.2} % | {} | {:.3} | {:.2} / {:.2} | {} |",
                r.mode.name(),
                r.clients,
                r.goodput,
                r.throttled_share * 100.0,
                r.failed_calls * 100.0,
                r.calls,
                r.jain,
                r.spread.0,
                r.spread.1,
                r.converged_after
                    .map_or("not within 30 s".to_owned(), |s| format!("{s} s")),
            );
            if flag("--series") {
                for (i, b) in r.bins.iter().enumerate() {
                    println!(
                        "  {i:>2} s: sent {:>5} admitted {:>4} throttled {:>5} 503 {:>3} fill rates {:?}",
                        b.sent, b.admitted, b.throttled, b.transient, b.fill_rate
                    );
                }
            }
            // Standard at 50 clients, the default controller at 1 and 50, the SDKs' at 1.
            let drawn = match row {
                0 | 1 => clients == 50,
                2 => clients == 1 || clients == 50,
                3 => clients == 1,
                _ => false,
            };
            if drawn {
                panels.push(r);
            }
        }
    }
    if !flag("--no-chart") {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/fleet.svg");
        chart(&path, &panels.iter().collect::<Vec<_>>())?;
        println!("\nchart: {}", path.canonicalize()?.display());
    }
    Ok(())
}
