//! What the simulation examples share: the simulated service (a token bucket answering after a
//! fixed latency, with a throttling error when it has no token and, optionally, a transient 503
//! for a share of what it admits), its per-second counts, and the chart of those counts.
//!
//! Included as a module by `adaptive_simulation.rs` and `fleet_simulation.rs`.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use plotters::prelude::*;
use tokio::time::{Instant, sleep};
use waiter_runtime::ProvideErrorMetadata;

/// Requests sent, admitted (and succeeded), throttled and failed with a transient 503 during
/// one simulated second.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bin {
    pub sent: u32,
    pub admitted: u32,
    pub throttled: u32,
    pub transient: u32,
    /// The client's fill rate at the end of the second, or the sum of the clients' (adaptive
    /// clients, once enabled).
    pub fill_rate: Option<f64>,
}

/// The service's answers other than a success.
#[derive(Debug, ProvideErrorMetadata)]
pub enum ServiceError {
    /// No token for the request.
    #[error_metadata(code = "ThrottlingException", status = 400)]
    Throttled,
    /// A background failure of an admitted request.
    #[error_metadata(code = "ServiceUnavailable", status = 503)]
    Unavailable,
}

/// A token bucket filling at `capacity(second)` requests per second, holding a tenth of a
/// second's worth, answering every request after `latency`.
pub struct Service {
    origin: Instant,
    capacity: fn(u64) -> f64,
    transient_share: f64,
    latency: Duration,
    /// Each answer waits `latency` plus up to this much more (a deterministic draw per
    /// request), so that answers do not all land on the same millisecond of the paused clock.
    jitter: Duration,
    requests: AtomicU64,
    state: Mutex<ServiceState>,
}

struct ServiceState {
    tokens: f64,
    last: Instant,
    bins: Vec<Bin>,
}

/// A deterministic draw in [0, 1) for request `n` (splitmix64).
pub fn draw(n: u64) -> f64 {
    let mut z = n.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

impl Service {
    /// Starts counting now, with a full bucket, for `run` seconds (and a minute more).
    pub fn new(
        capacity: fn(u64) -> f64,
        transient_share: f64,
        latency: Duration,
        run: u64,
    ) -> Self {
        let now = Instant::now();
        Self {
            origin: now,
            capacity,
            transient_share,
            latency,
            jitter: Duration::ZERO,
            requests: AtomicU64::new(0),
            state: Mutex::new(ServiceState {
                tokens: capacity(0) / 10.0,
                last: now,
                bins: vec![Bin::default(); run as usize + 60],
            }),
        }
    }

    /// Sends one request.
    pub async fn send(&self) -> Result<(), ServiceError> {
        let n = self.requests.fetch_add(1, Ordering::Relaxed);
        let outcome = {
            let mut s = self.state.lock().unwrap();
            let now = Instant::now();
            let second = (now - self.origin).as_secs();
            let rate = (self.capacity)(second);
            s.tokens = (s.tokens + (now - s.last).as_secs_f64() * rate).min(rate / 10.0);
            s.last = now;
            let admitted = s.tokens >= 1.0;
            if admitted {
                s.tokens -= 1.0;
            }
            let transient = admitted && draw(n) < self.transient_share;
            if let Some(bin) = s.bins.get_mut(second as usize) {
                bin.sent += 1;
                bin.admitted += u32::from(admitted && !transient);
                bin.throttled += u32::from(!admitted);
                bin.transient += u32::from(transient);
            }
            match (admitted, transient) {
                (false, _) => Err(ServiceError::Throttled),
                (true, true) => Err(ServiceError::Unavailable),
                (true, false) => Ok(()),
            }
        };
        // A draw of its own, not the transient share's (the same `n` would pair them).
        let extra = self.jitter.mul_f64(draw(n ^ 0x5DEE_CE66_D1CE_4E5B));
        sleep(self.latency + extra).await;
        outcome
    }

    /// Answers take `latency` plus up to `jitter` more (see the field).
    #[allow(dead_code)] // `adaptive_simulation` keeps its fixed 50 ms
    pub fn with_jitter(mut self, jitter: Duration) -> Self {
        self.jitter = jitter;
        self
    }

    /// Records the client's fill rate (or the sum of the clients') at the end of `second`.
    pub fn set_fill_rate(&self, second: usize, fill_rate: f64) {
        self.state.lock().unwrap().bins[second].fill_rate = Some(fill_rate);
    }

    /// The counts of the first `run` seconds.
    pub fn bins(&self, run: u64) -> Vec<Bin> {
        self.state.lock().unwrap().bins[..run as usize].to_vec()
    }
}

/// One panel of a chart: its title and the per-second counts it draws.
pub struct Panel<'a> {
    pub title: String,
    pub bins: &'a [Bin],
}

/// How a chart draws its panels.
pub struct ChartStyle {
    /// Each panel's height, in pixels (1000 wide).
    pub panel_height: u32,
    /// The simulated seconds on the x axis.
    pub run: u64,
    /// The least top of the y axis (each panel has its own scale, at least this).
    pub y_floor: f64,
    /// Whether the fill rate counts in a panel's scale.
    pub fill_rate_in_scale: bool,
    /// The service's capacity line: its label, its points, and whether it is drawn first.
    pub capacity: (String, Vec<(f64, f64)>, bool),
    /// The labels of the admitted and fill-rate lines.
    pub admitted_label: &'static str,
    pub fill_rate_label: &'static str,
}

/// Draws `panels` one above the other in the SVG at `path`: sent, admitted, throttled and the
/// fill rate per second, with the service's capacity.
pub fn chart(
    path: &PathBuf,
    style: &ChartStyle,
    panels: &[Panel<'_>],
) -> Result<(), Box<dyn std::error::Error>> {
    let root =
        SVGBackend::new(path, (1000, style.panel_height * panels.len() as u32)).into_drawing_area();
    root.fill(&WHITE)?;
    for (area, panel) in root.split_evenly((panels.len(), 1)).iter().zip(panels) {
        let y_max = panel
            .bins
            .iter()
            .map(|b| {
                let fill_rate = b.fill_rate.filter(|_| style.fill_rate_in_scale);
                f64::from(b.sent).max(fill_rate.unwrap_or(0.0))
            })
            .fold(style.y_floor, f64::max)
            * 1.1;
        let mut chart = ChartBuilder::on(area)
            .caption(&panel.title, ("sans-serif", 15))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(64)
            .build_cartesian_2d(0f64..style.run as f64, 0f64..y_max)?;
        chart
            .configure_mesh()
            .x_desc("simulated time (s)")
            .y_desc("requests / s")
            .light_line_style(WHITE.mix(0.0))
            .draw()?;
        let (capacity_label, capacity_points, capacity_first) = &style.capacity;
        let capacity =
            |chart: &mut ChartContext<'_, _, _>| -> Result<(), Box<dyn std::error::Error>> {
                chart
                    .draw_series(LineSeries::new(
                        capacity_points.iter().copied(),
                        BLACK.mix(0.5).stroke_width(1),
                    ))?
                    .label(capacity_label.as_str())
                    .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLACK.mix(0.5)));
                Ok(())
            };
        if *capacity_first {
            capacity(&mut chart)?;
        }
        let series = |f: fn(&Bin) -> Option<f64>| {
            panel
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
                style.admitted_label,
                RGBColor(44, 160, 44),
                series(|b| Some(f64::from(b.admitted))),
            ),
            (
                "throttled",
                RGBColor(214, 39, 40),
                series(|b| Some(f64::from(b.throttled))),
            ),
            (
                style.fill_rate_label,
                RGBColor(255, 127, 14),
                series(|b| b.fill_rate),
            ),
        ];
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
        if !*capacity_first {
            capacity(&mut chart)?;
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
