//! Standard vs adaptive retry against a service that admits `C` requests per second.
//!
//! The service is a token bucket (`C` = 50 tokens/s, burst 5) that answers every request after
//! 50 ms, with a throttling error when it has no token. 1, 10 and 100 callers each make calls
//! back to back for 60 simulated seconds, on tokio's paused clock (the whole run takes well
//! under a second; the service is deterministic, the retries' jitter is not, so figures move a
//! little from run to run). It prints, per mode and number of callers, goodput
//! over `C`, the share of requests throttled, the share of calls that failed, and the latency
//! of a call (p50, mean, p99), then draws send rate, admitted rate and throttles over time at
//! 100 callers in `docs/adaptive.svg`.
//!
//! ```text
//! cargo run --release -p waiter-benches --example adaptive_simulation [-- FLAGS]
//! ```
//!
//! Flags: `--tunings` adds rows for opt-in [`Tuning`]s; `--series` prints the per-second
//! series at 100 callers; `--no-chart` leaves the SVG alone.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::{Instant, sleep};
use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState, Tuning};
use waiter_runtime::retry::{Retrier, RetryConfig};

use simulation::{Bin, ChartStyle, Panel, Service};

mod simulation;

/// Requests per second the service admits.
const C: f64 = 50.0;
/// Tokens the service's bucket holds: a tenth of a second's worth (`simulation::Service`).
const BURST: f64 = C / 10.0;
/// Time the service takes to answer, admitted or throttled.
const LATENCY: Duration = Duration::from_millis(50);
/// Simulated time during which callers start calls.
const RUN: Duration = Duration::from_secs(60);
/// Calls started before this are left out of the steady-state latency figures.
const WARM_UP: Duration = Duration::from_secs(10);

// ---------------------------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
enum Mode {
    Standard,
    Adaptive(&'static str, Tuning),
    /// Adaptive, starting on at a known rate instead of off.
    WarmStart(&'static str, f64),
}

impl Mode {
    fn name(&self) -> &'static str {
        match self {
            Mode::Standard => "standard",
            Mode::Adaptive(name, _) | Mode::WarmStart(name, _) => name,
        }
    }
}

/// The client's retrier: the AWS standard defaults, retry behavior 2.1 (3 attempts; after a
/// throttle, the only error here, full-jitter backoff from 1 s capped at 20 s and 5 tokens of
/// a retry quota of 500 per retry, as in 2.0), plus, in adaptive mode, the client rate limiter
/// (kept here to sample its fill rate).
fn retrier(mode: Mode) -> (Retrier, Option<ClientRateLimiter>) {
    match mode {
        Mode::Standard => (Retrier::new(RetryConfig::standard().build()), None),
        Mode::Adaptive(_, tuning) => {
            let limiter = ClientRateLimiter::with_tuning(tuning).expect("valid tuning");
            (adaptive(&limiter), Some(limiter))
        }
        Mode::WarmStart(_, rate) => {
            let limiter = ClientRateLimiter::with_state(
                RateLimiterState::steady_at(rate, 0.0).expect("a finite rate"),
            );
            (adaptive(&limiter), Some(limiter))
        }
    }
}

fn adaptive(limiter: &ClientRateLimiter) -> Retrier {
    Retrier::new(RetryConfig::adaptive().build()).with_rate_limiter(Arc::new(limiter.clone()))
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

struct Report {
    mode: Mode,
    callers: usize,
    goodput: f64,
    throttled_share: f64,
    failed_calls: f64,
    p50: f64,
    mean: f64,
    p99: f64,
    /// p99 / mean of the calls started after the warm-up.
    steady_p99_over_mean: f64,
    bins: Vec<Bin>,
}

async fn simulate(mode: Mode, callers: usize) -> Report {
    let service = Arc::new(Service::new(|_| C, 0.0, LATENCY, RUN.as_secs()));
    let (retrier, limiter) = retrier(mode);
    let start = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..callers {
        let (service, retrier) = (service.clone(), retrier.clone());
        tasks.push(tokio::spawn(async move {
            let mut calls = Vec::new();
            while start.elapsed() < RUN {
                let began = Instant::now();
                let outcome = retrier.run(|| service.send()).await;
                let started = (began - start).as_secs_f64();
                calls.push((began.elapsed().as_secs_f64(), outcome.is_ok(), started));
            }
            calls
        }));
    }
    let sampler = limiter.map(|limiter| {
        let service = service.clone();
        tokio::spawn(async move {
            for second in 0..RUN.as_secs() as usize {
                sleep(Duration::from_secs(1)).await;
                let state = limiter.state();
                if state.is_enabled() {
                    service.set_fill_rate(second, state.fill_rate());
                }
            }
        })
    });
    let mut latencies = Vec::new();
    let mut steady = Vec::new();
    let mut failed = 0usize;
    for task in tasks {
        for (latency, ok, started) in task.await.unwrap() {
            latencies.push(latency);
            if started >= WARM_UP.as_secs_f64() {
                steady.push(latency);
            }
            failed += usize::from(!ok);
        }
    }
    steady.sort_by(f64::total_cmp);
    if let Some(sampler) = sampler {
        sampler.await.unwrap();
    }
    latencies.sort_by(f64::total_cmp);
    let pct = |l: &[f64], p: f64| l[((l.len() as f64 * p).ceil() as usize).max(1) - 1];
    let mean = |l: &[f64]| l.iter().sum::<f64>() / l.len() as f64;
    let bins = service.bins(RUN.as_secs());
    let (sent, admitted, throttled) = bins.iter().fold((0, 0, 0), |(s, a, t), b| {
        (s + b.sent, a + b.admitted, t + b.throttled)
    });
    Report {
        mode,
        callers,
        goodput: f64::from(admitted) / (C * RUN.as_secs_f64()),
        throttled_share: f64::from(throttled) / f64::from(sent),
        failed_calls: failed as f64 / latencies.len() as f64,
        p50: pct(&latencies, 0.5),
        mean: mean(&latencies),
        p99: pct(&latencies, 0.99),
        steady_p99_over_mean: pct(&steady, 0.99) / mean(&steady),
        bins,
    }
}

fn run(mode: Mode, callers: usize) -> Report {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .expect("runtime")
        .block_on(simulate(mode, callers))
}

// ---------------------------------------------------------------------------------------------
// The chart
// ---------------------------------------------------------------------------------------------

fn chart(path: &PathBuf, reports: &[&Report]) -> Result<(), Box<dyn std::error::Error>> {
    let panels: Vec<Panel<'_>> = reports
        .iter()
        .map(|r| Panel {
            title: format!(
            "{} mode, {} callers: goodput {:.2} C, {:.1} % of requests throttled, {:.1} % of calls \
             failed, call latency p50/mean/p99 {:.2}/{:.2}/{:.2} s",
            r.mode.name(),
            r.callers,
            r.goodput,
            r.throttled_share * 100.0,
            r.failed_calls * 100.0,
            r.p50,
            r.mean,
            r.p99
        ),
            bins: &r.bins,
        })
        .collect();
    let style = ChartStyle {
        panel_height: 330,
        run: RUN.as_secs(),
        // Each panel has its own scale: standard mode sends some 40 times more than adaptive.
        y_floor: C * 2.0,
        fill_rate_in_scale: false,
        capacity: (
            format!("service limit C = {C}/s"),
            vec![(0.0, C), (RUN.as_secs_f64(), C)],
            false,
        ),
        admitted_label: "admitted",
        fill_rate_label: "client fill rate",
    };
    simulation::chart(path, &style, &panels)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let no_chart = std::env::args().any(|a| a == "--no-chart");
    println!(
        "service: {C} req/s, burst {BURST}, {} ms per response; {} s simulated per row",
        LATENCY.as_millis(),
        RUN.as_secs()
    );
    println!(
        "{:<26} {:>7} {:>9} {:>9} {:>7} {:>7} {:>7} {:>7} {:>9} {:>9}",
        "mode",
        "callers",
        "goodput/C",
        "throttled",
        "failed",
        "p50 s",
        "mean s",
        "p99 s",
        "p99/mean",
        "after 10s"
    );
    let mut modes = vec![
        Mode::Standard,
        Mode::Adaptive("adaptive", Tuning::DEFAULT),
        Mode::Adaptive("adaptive, Tuning::AWS", Tuning::AWS),
    ];
    if std::env::args().any(|a| a == "--tunings") {
        // Opt-in tunings, each against the default (see `Tuning`).
        let tuned = |name, tuning| Mode::Adaptive(name, tuning);
        modes.extend([
            tuned(
                "adaptive, beta 0.8",
                Tuning {
                    beta: 0.8,
                    ..Tuning::DEFAULT
                },
            ),
            tuned(
                "adaptive, C 2",
                Tuning {
                    scale_constant: 2.0,
                    ..Tuning::DEFAULT
                },
            ),
            tuned(
                "adaptive, min fill 25/s",
                Tuning {
                    min_fill_rate: 25.0,
                    ..Tuning::DEFAULT
                },
            ),
            tuned(
                "adaptive, min fill 40/s",
                Tuning {
                    min_fill_rate: 40.0,
                    ..Tuning::DEFAULT
                },
            ),
            Mode::WarmStart("adaptive, warm start 50/s", 50.0),
        ]);
    }
    let series = std::env::args().any(|a| a == "--series");
    let mut at_100 = Vec::new();
    for mode in modes {
        for callers in [1, 10, 100] {
            let r = run(mode, callers);
            println!(
                "{:<26} {:>7} {:>9.3} {:>8.1}% {:>6.1}% {:>7.3} {:>7.3} {:>7.3} {:>9.2} {:>9.2}",
                r.mode.name(),
                r.callers,
                r.goodput,
                r.throttled_share * 100.0,
                r.failed_calls * 100.0,
                r.p50,
                r.mean,
                r.p99,
                r.p99 / r.mean,
                r.steady_p99_over_mean,
            );
            if series && callers == 100 {
                for (i, b) in r.bins.iter().enumerate() {
                    println!(
                        "  second {i:>2}: sent {:>4} admitted {:>3} throttled {:>4} fill rate {:?}",
                        b.sent, b.admitted, b.throttled, b.fill_rate
                    );
                }
            }
            if callers == 100 && at_100.len() < 2 {
                at_100.push(r);
            }
        }
    }
    if !no_chart {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/adaptive.svg");
        chart(&path, &at_100.iter().collect::<Vec<_>>())?;
        println!("chart: {}", path.canonicalize()?.display());
    }
    Ok(())
}
