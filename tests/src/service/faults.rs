//! Fault injection: what the service does to a request instead of (or before) answering it.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// One thing the service can do to a request instead of answering it normally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// `429 Too Many Requests`, code `ThrottlingException`, with `Retry-After` if configured.
    Throttle,
    /// `503 Service Unavailable`, code `SlowDown` (a throttling code), with `Retry-After` if
    /// configured.
    SlowDown,
    /// `503 Service Unavailable`, code `ServiceUnavailable` (a server error, not throttling).
    Unavailable,
    /// Read the request, then drop the TCP connection with a reset (no response at all).
    Reset,
    /// Never answer. The request stays pending until the client gives up and closes the
    /// connection, which the service counts ([`ServiceStats::hung_cancelled`](super::ServiceStats)).
    Hang,
    /// Answer normally, after this extra delay.
    Delay(Duration),
}

/// Random fault injection: the share of requests that get each fault, and extra latency.
///
/// Shares are probabilities in `[0, 1]`, drawn from the service's seeded random source; their
/// sum is at most 1. Scripted faults ([`Faults::script`]) take precedence over random ones.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FaultConfig {
    /// Share of requests answered `429 ThrottlingException`.
    pub throttle: f64,
    /// Share of requests answered `503 SlowDown`.
    pub slow_down: f64,
    /// Share of requests answered `503 ServiceUnavailable`.
    pub unavailable: f64,
    /// Share of requests whose connection is reset.
    pub reset: f64,
    /// `Retry-After` sent with throttling answers (whole seconds, rounded up, in `Retry-After`,
    /// and milliseconds in `x-amz-retry-after`). `None` sends neither header.
    pub retry_after: Option<Duration>,
    /// Latency added to every request, drawn uniformly from `min..=max`.
    pub latency: Option<(Duration, Duration)>,
}

impl FaultConfig {
    /// No faults, no latency.
    pub fn none() -> Self {
        Self::default()
    }

    /// A share of requests throttled: half `429 ThrottlingException`, half `503 SlowDown`.
    pub fn throttling(share: f64) -> Self {
        Self {
            throttle: share / 2.0,
            slow_down: share / 2.0,
            ..Self::default()
        }
    }

    /// Draws the fault for one request from `rng` (`None`: answer normally).
    fn draw(&self, rng: &mut StdRng) -> Option<Fault> {
        let roll: f64 = rng.random();
        let mut edge = 0.0;
        for (share, fault) in [
            (self.throttle, Fault::Throttle),
            (self.slow_down, Fault::SlowDown),
            (self.unavailable, Fault::Unavailable),
            (self.reset, Fault::Reset),
        ] {
            edge += share;
            if roll < edge {
                return Some(fault);
            }
        }
        None
    }

    fn draw_latency(&self, rng: &mut StdRng) -> Duration {
        match self.latency {
            Some((min, max)) if max > min => rng.random_range(min..=max),
            Some((min, _)) => min,
            None => Duration::ZERO,
        }
    }
}

/// What the service decided for one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Decision {
    pub latency: Duration,
    pub fault: Option<Fault>,
}

/// The live fault knobs of a running service, changeable at any time.
#[derive(Debug)]
pub struct Faults {
    config: Mutex<FaultConfig>,
    script: Mutex<VecDeque<Fault>>,
    rng: Mutex<StdRng>,
}

impl Faults {
    pub(crate) fn new(config: FaultConfig, seed: u64) -> Self {
        Self {
            config: Mutex::new(config),
            script: Mutex::new(VecDeque::new()),
            // A stream of its own, so that faults do not shift the lifecycle's random delays.
            rng: Mutex::new(StdRng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15)),
        }
    }

    /// Replaces the random fault configuration.
    pub fn set(&self, config: FaultConfig) {
        *self.config.lock().unwrap() = config;
    }

    /// The current random fault configuration.
    pub fn config(&self) -> FaultConfig {
        self.config.lock().unwrap().clone()
    }

    /// Queues faults for the next requests, in order, one each (before random faults apply).
    pub fn script(&self, faults: impl IntoIterator<Item = Fault>) {
        self.script.lock().unwrap().extend(faults);
    }

    /// Queues `n` requests answered normally, e.g. to let some through before a scripted fault.
    pub fn script_ok(&self, n: usize) {
        self.script
            .lock()
            .unwrap()
            .extend(std::iter::repeat_n(Fault::Delay(Duration::ZERO), n));
    }

    /// How many scripted faults are still queued.
    pub fn scripted_remaining(&self) -> usize {
        self.script.lock().unwrap().len()
    }

    /// Removes all scripted faults and the random configuration.
    pub fn clear(&self) {
        self.script.lock().unwrap().clear();
        self.set(FaultConfig::none());
    }

    pub(crate) fn decide(&self) -> Decision {
        let config = self.config.lock().unwrap().clone();
        let mut rng = self.rng.lock().unwrap();
        let latency = config.draw_latency(&mut rng);
        let fault = match self.script.lock().unwrap().pop_front() {
            Some(Fault::Delay(d)) if d.is_zero() => None,
            Some(scripted) => Some(scripted),
            None => config.draw(&mut rng),
        };
        Decision { latency, fault }
    }

    pub(crate) fn retry_after(&self) -> Option<Duration> {
        self.config.lock().unwrap().retry_after
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_faults_come_first_in_order() {
        let faults = Faults::new(FaultConfig::none(), 1);
        faults.script([Fault::Throttle, Fault::Reset]);
        faults.script_ok(1);
        faults.script([Fault::Hang]);
        let got: Vec<_> = (0..5).map(|_| faults.decide().fault).collect();
        assert_eq!(
            got,
            [
                Some(Fault::Throttle),
                Some(Fault::Reset),
                None,
                Some(Fault::Hang),
                None
            ]
        );
        assert_eq!(faults.scripted_remaining(), 0);
    }

    #[test]
    fn random_shares_are_respected_and_seeded() {
        let config = FaultConfig {
            throttle: 0.2,
            unavailable: 0.1,
            reset: 0.1,
            ..FaultConfig::none()
        };
        let draws = |seed| {
            let faults = Faults::new(config.clone(), seed);
            (0..10_000)
                .map(|_| faults.decide().fault)
                .collect::<Vec<_>>()
        };
        let a = draws(7);
        assert_eq!(a, draws(7), "same seed, same faults");
        assert_ne!(a, draws(8), "another seed, other faults");
        let share = |f| a.iter().filter(|x| **x == Some(f)).count() as f64 / a.len() as f64;
        assert!(
            (share(Fault::Throttle) - 0.2).abs() < 0.02,
            "{}",
            share(Fault::Throttle)
        );
        assert!((share(Fault::Unavailable) - 0.1).abs() < 0.02);
        assert!((share(Fault::Reset) - 0.1).abs() < 0.02);
        assert_eq!(share(Fault::SlowDown), 0.0);
    }

    #[test]
    fn latency_is_drawn_within_bounds() {
        let lo = Duration::from_millis(5);
        let hi = Duration::from_millis(9);
        let faults = Faults::new(
            FaultConfig {
                latency: Some((lo, hi)),
                ..FaultConfig::none()
            },
            3,
        );
        for _ in 0..1000 {
            let d = faults.decide();
            assert!(d.latency >= lo && d.latency <= hi);
            assert_eq!(d.fault, None);
        }
    }

    #[test]
    fn clear_removes_script_and_shares() {
        let faults = Faults::new(
            FaultConfig {
                reset: 1.0,
                ..FaultConfig::none()
            },
            3,
        );
        faults.script([Fault::Throttle]);
        faults.clear();
        assert_eq!(faults.decide().fault, None);
    }
}
