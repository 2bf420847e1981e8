//! The measured transmit rate: responses counted in fixed-width time buckets, smoothed.

use super::Tuning;

/// The client's measured transmit rate, a plain value driven by explicit timestamps (seconds).
///
/// Responses are counted in buckets of `rate_bucket_width` seconds (half a second by default).
/// When a response falls in a later bucket than the last one, the rate over the elapsed buckets
/// is `count / (bucket - last_bucket)` and the measured rate becomes
/// `smoothing * rate + (1 - smoothing) * measured`.
///
/// ```
/// use waiter_runtime::retry::adaptive::{TransmitRate, Tuning};
///
/// let mut rate = TransmitRate::new(Tuning::AWS, 0.0);
/// for t in [0.1, 0.2, 0.3, 0.4, 0.49] {
///     rate.record(t); // same bucket: the rate is not updated yet
/// }
/// assert_eq!(rate.measured(), 0.0);
/// rate.record(0.5); // six responses over half a second: 12 req/s, smoothed
/// assert_eq!(rate.measured(), 12.0 * 0.8);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TransmitRate {
    smoothing: f64,
    width: f64,
    measured: f64,
    last_bucket: f64,
    count: u64,
}

impl TransmitRate {
    /// A rate of zero, with the current bucket being the one `now` falls in.
    pub fn new(tuning: Tuning, now: f64) -> Self {
        let width = tuning.rate_bucket_width;
        Self {
            smoothing: tuning.smoothing,
            width,
            measured: 0.0,
            last_bucket: (now / width).floor() * width,
            count: 0,
        }
    }

    /// Starts from an already measured `rate` (for a limiter restored at a known rate).
    pub fn with_measured(mut self, rate: f64) -> Self {
        self.measured = rate;
        self
    }

    /// Counts one response at `now`; returns the measured rate.
    pub fn record(&mut self, now: f64) -> f64 {
        let bucket = (now / self.width).floor() * self.width;
        self.count = self.count.saturating_add(1);
        if bucket > self.last_bucket {
            let rate = self.count as f64 / (bucket - self.last_bucket);
            self.measured = self.smoothing * rate + (1.0 - self.smoothing) * self.measured;
            self.count = 0;
            self.last_bucket = bucket;
        }
        self.measured
    }

    /// Counts `count` responses in the current bucket.
    pub(crate) fn count(&mut self, count: u64) {
        self.count = self.count.saturating_add(count);
    }

    /// The smoothed rate, in responses per second.
    pub fn measured(&self) -> f64 {
        self.measured
    }
}
