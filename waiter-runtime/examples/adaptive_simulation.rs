//! Standard vs adaptive retry against a service that admits `C` requests per second.
//!
//! The service is a token bucket (`C` = 50 tokens/s, burst 5) that answers every request after
//! 50 ms, with a throttling error when it has no token. 1, 10 and 100 callers each make calls
//! back to back for 60 simulated seconds, on tokio's paused clock (the whole run takes well
//! under a second and is deterministic). It prints, per mode and number of callers, goodput
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
use std::sync::{Arc, Mutex};
use std::time::Duration;

use plotters::prelude::*;
use tokio::time::{Instant, sleep};
use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState, Tuning};
use waiter_runtime::retry::{Retrier, RetryConfig};

/// Requests per second the service admits.
const C: f64 = 50.0;
/// Tokens the service's bucket holds.
const BURST: f64 = 5.0;
/// Time the service takes to answer, admitted or throttled.
const LATENCY: Duration = Duration::from_millis(50);
/// Simulated time during which callers start calls.
const RUN: Duration = Duration::from_secs(60);
/// Calls started before this are left out of the steady-state latency figures.
const WARM_UP: Duration = Duration::from_secs(10);

// ---------------------------------------------------------------------------------------------
// The service
// ---------------------------------------------------------------------------------------------

/// Requests sent, admitted and throttled during one simulated second.
#[derive(Clone, Copy, Debug, Default)]
struct Bin {
    sent: u32,
    admitted: u32,
    throttled: u32,
    /// The client's fill rate at the end of the second (adaptive mode, once enabled).
    fill_rate: Option<f64>,
}

struct Service {
    origin: Instant,
    state: Mutex<ServiceState>,
}

struct ServiceState {
    tokens: f64,
    last: Instant,
    bins: Vec<Bin>,
}

impl Service {
    fn new() -> Self {
        let now = Instant::now();
        Self {
            origin: now,
            state: Mutex::new(ServiceState {
                tokens: BURST,
                last: now,
                bins: vec![Bin::default(); RUN.as_secs() as usize + 60],
            }),
        }
    }

    /// Sends one request.
    async fn send(&self) -> Result<(), Throttled> {
        let throttled = {
            let mut s = self.state.lock().unwrap();
            let now = Instant::now();
            s.tokens = (s.tokens + (now - s.last).as_secs_f64() * C).min(BURST);
            s.last = now;
            let second = (now - self.origin).as_secs() as usize;
            let admitted = s.tokens >= 1.0;
            if admitted {
                s.tokens -= 1.0;
            }
            if let Some(bin) = s.bins.get_mut(second) {
                bin.sent += 1;
                bin.admitted += u32::from(admitted);
                bin.throttled += u32::from(!admitted);
            }
            !admitted
        };
        sleep(LATENCY).await;
        if throttled { Err(Throttled) } else { Ok(()) }
    }
}

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

/// The service's answer when it has no token for a request.
#[derive(Debug, ProvideErrorMetadata)]
#[error_metadata(code = "ThrottlingException", status = 400)]
struct Throttled;

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
    let service = Arc::new(Service::new());
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
                    service.state.lock().unwrap().bins[second].fill_rate = Some(state.fill_rate());
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
    let bins = service.state.lock().unwrap().bins[..RUN.as_secs() as usize].to_vec();
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

fn chart(path: &PathBuf, panels: &[&Report]) -> Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::new(path, (1000, 330 * panels.len() as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    for (area, report) in root.split_evenly((panels.len(), 1)).iter().zip(panels) {
        // Each panel has its own scale: standard mode sends some 40 times more than adaptive.
        let y_max = report
            .bins
            .iter()
            .map(|b| f64::from(b.sent))
            .fold(C * 2.0, f64::max)
            * 1.1;
        let title = format!(
            "{} mode, {} callers: goodput {:.2} C, {:.1} % of requests throttled, {:.1} % of calls \
             failed, call latency p50/mean/p99 {:.2}/{:.2}/{:.2} s",
            report.mode.name(),
            report.callers,
            report.goodput,
            report.throttled_share * 100.0,
            report.failed_calls * 100.0,
            report.p50,
            report.mean,
            report.p99
        );
        let mut chart = ChartBuilder::on(area)
            .caption(title, ("sans-serif", 15))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(64)
            .build_cartesian_2d(0f64..RUN.as_secs_f64(), 0f64..y_max)?;
        chart
            .configure_mesh()
            .x_desc("simulated time (s)")
            .y_desc("requests / s")
            .light_line_style(WHITE.mix(0.0))
            .draw()?;
        let series = |f: fn(&Bin) -> Option<f64>| {
            report
                .bins
                .iter()
                .enumerate()
                .filter_map(move |(s, b)| f(b).map(|v| (s as f64 + 0.5, v)))
                .collect::<Vec<_>>()
        };
        let lines = [
            (
                "sent",
                RGBColor(31, 119, 180),
                series(|b| Some(f64::from(b.sent))),
            ),
            (
                "admitted",
                RGBColor(44, 160, 44),
                series(|b| Some(f64::from(b.admitted))),
            ),
            (
                "throttled",
                RGBColor(214, 39, 40),
                series(|b| Some(f64::from(b.throttled))),
            ),
            (
                "client fill rate",
                RGBColor(255, 127, 14),
                series(|b| b.fill_rate),
            ),
        ];
        chart
            .draw_series(LineSeries::new(
                [(0.0, C), (RUN.as_secs_f64(), C)],
                BLACK.mix(0.5).stroke_width(1),
            ))?
            .label(format!("service limit C = {C}/s"))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLACK.mix(0.5)));
        for (label, color, points) in lines {
            if points.is_empty() {
                continue;
            }
            chart
                .draw_series(LineSeries::new(points, color.stroke_width(2)))?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 16, y)], color.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .draw()?;
    }
    root.present()?;
    Ok(())
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
    let mut modes = vec![Mode::Standard, Mode::Adaptive("adaptive", Tuning::AWS)];
    if std::env::args().any(|a| a == "--tunings") {
        // Opt-in tunings, each against the AWS constants (see `Tuning`).
        let tuned = |name, tuning| Mode::Adaptive(name, tuning);
        modes.extend([
            tuned(
                "adaptive, beta 0.8",
                Tuning {
                    beta: 0.8,
                    ..Tuning::AWS
                },
            ),
            tuned(
                "adaptive, C 2",
                Tuning {
                    scale_constant: 2.0,
                    ..Tuning::AWS
                },
            ),
            tuned(
                "adaptive, min fill 25/s",
                Tuning {
                    min_fill_rate: 25.0,
                    ..Tuning::AWS
                },
            ),
            tuned(
                "adaptive, min fill 40/s",
                Tuning {
                    min_fill_rate: 40.0,
                    ..Tuning::AWS
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
