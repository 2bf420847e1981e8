//! The measured transmit rate: responses counted in fixed-width time buckets, smoothed.

use super::Tuning;

/// The client's measured transmit rate, a plain value driven by explicit timestamps (seconds).
///
/// Responses are counted in buckets of `rate_bucket_width` seconds (half a second by default).
/// When a response falls in a later bucket than the last one, the rate over the elapsed buckets
/// is `count / (bucket - last_bucket)` and the measured rate becomes
/// `smoothing * rate + (1 - smoothing) * measured`.
///
/// With `rate_min_responses` above 1 (ours; 1 in the SDKs) a bucket closes only once it has
/// counted that many responses: at low rates the rate is measured over several bucket widths,
/// `count / (bucket - last_bucket)` as before.
///
/// # Before the first measurement
///
/// Until a bucket in which responses were counted from its start has closed, the measured
/// rate says nothing about the client's traffic: it is 0 (no bucket closed yet) or an idle
/// period's trickle (the first response after an idle start closes a bucket in which it
/// alone was sent). [`sending_rate`](Self::sending_rate) is then the rate observed so far:
/// responses since the first one, over the time since the start of the bucket it fell in.
/// The AWS SDKs use the measured rate throughout; see
/// [`RateLimiterState::on_response`](super::RateLimiterState::on_response) for why the
/// adaptive state does not, before that first measurement.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TransmitRate {
    smoothing: f64,
    width: f64,
    min_responses: u64,
    /// Whether the last response fell past the current bucket without closing it (too few
    /// responses counted): the next one may close it.
    overdue: bool,
    measured: f64,
    last_bucket: f64,
    count: u64,
    /// Start of the bucket the first response fell in, once there was one.
    first_bucket: Option<f64>,
    /// Responses since the first one (kept only until the first measurement).
    since_first: u64,
    /// Whether a bucket that started at or after `first_bucket` has closed.
    measured_once: bool,
}

impl TransmitRate {
    /// A rate of zero, counting from the whole second `now` falls in, as the AWS SDKs do
    /// (botocore's `RateClocker`, smithy-rs's `ClientRateLimiter::new`: the last bucket starts
    /// at `floor(now)`), or from the start of `now`'s bucket if that is earlier (a
    /// `rate_bucket_width` that is not a divisor of one second).
    ///
    /// So a first response in the second half of the second a client was built in closes a
    /// bucket, as in the SDKs (see the test `counts_from_the_whole_second_like_the_sdks`).
    pub fn new(tuning: Tuning, now: f64) -> Self {
        let width = tuning.rate_bucket_width;
        Self {
            smoothing: tuning.smoothing,
            width,
            min_responses: u64::from(tuning.rate_min_responses),
            overdue: false,
            measured: 0.0,
            last_bucket: now.floor().min((now / width).floor() * width),
            count: 0,
            first_bucket: None,
            since_first: 0,
            measured_once: false,
        }
    }

    /// Starts from an already measured `rate` (for a limiter restored at a known rate): the
    /// rate counts as measured.
    pub fn with_measured(mut self, rate: f64) -> Self {
        self.measured = rate;
        self.measured_once = true;
        self
    }

    /// Steady at `rate` at `now`: measured at `rate`, and the bucket `now` falls in counted
    /// as if responses had come at `rate` since it began, so that the first bucket to close
    /// measures what comes after `now` rather than a sliver of a bucket (a fleet member's
    /// hand-over to its own controller).
    #[cfg(feature = "redis")]
    pub(crate) fn steady(tuning: Tuning, now: f64, rate: f64) -> Self {
        let mut steady = Self::new(tuning, now).with_measured(rate);
        steady.last_bucket = (now / steady.width).floor() * steady.width;
        // `as` saturates: a rate near `f64::MAX` counts `u64::MAX`.
        steady.count = (rate * (now - steady.last_bucket)).max(0.0).round() as u64;
        steady
    }

    /// Moves the buckets in time (by whole bucket widths, so that they stay aligned).
    pub(crate) fn map_times(&mut self, f: impl Fn(f64) -> f64) {
        self.last_bucket = f(self.last_bucket);
        self.first_bucket = self.first_bucket.map(f);
    }

    /// The start of the current bucket.
    pub(crate) fn last_bucket(&self) -> f64 {
        self.last_bucket
    }

    /// Counts one response at `now`; returns the measured rate.
    pub fn record(&mut self, now: f64) -> f64 {
        let bucket = (now / self.width).floor() * self.width;
        self.count = self.count.saturating_add(1);
        if !self.measured_once {
            self.first_bucket.get_or_insert(bucket);
            self.since_first = self.since_first.saturating_add(1);
        }
        self.overdue = bucket > self.last_bucket && self.count < self.min_responses;
        if bucket > self.last_bucket && !self.overdue {
            let rate = self.count as f64 / (bucket - self.last_bucket);
            self.measured = self.smoothing * rate + (1.0 - self.smoothing) * self.measured;
            self.measured_once |= self
                .first_bucket
                .is_some_and(|first| self.last_bucket >= first);
            self.count = 0;
            self.last_bucket = bucket;
        }
        self.measured
    }

    /// Counts `count` responses in the current bucket (after at least one
    /// [`record`](Self::record)).
    pub(crate) fn count(&mut self, count: u64) {
        self.count = self.count.saturating_add(count);
        if !self.measured_once {
            self.since_first = self.since_first.saturating_add(count);
        }
    }

    /// Whether the next response may close the current bucket although it falls in the same
    /// bucket as the last one (the last one fell past the bucket with too few responses).
    pub(crate) fn is_overdue(&self) -> bool {
        self.overdue
    }

    /// The smoothed rate, in responses per second.
    pub fn measured(&self) -> f64 {
        self.measured
    }

    /// Whether the rate has been measured over a whole bucket of traffic (see
    /// [the type's docs](Self#before-the-first-measurement)).
    pub fn is_measured(&self) -> bool {
        self.measured_once
    }

    /// How long responses have been counted at `now`, while the rate is not
    /// [measured](Self::is_measured) yet: the time since the start of the bucket the first
    /// response fell in. `None` once measured, before any response, or if no time has passed.
    pub fn unmeasured_for(&self, now: f64) -> Option<f64> {
        match self.first_bucket {
            Some(start) if !self.measured_once && now > start => Some(now - start),
            _ => None,
        }
    }

    /// The client's sending rate at `now`: the [measured](Self::measured) rate once
    /// [it is](Self::is_measured); before, the rate observed so far (responses since the
    /// first, over the time since the start of its bucket), or the measured rate if no time
    /// has passed since then.
    pub fn sending_rate(&self, now: f64) -> f64 {
        match self.unmeasured_for(now) {
            Some(elapsed) => self.since_first as f64 / elapsed,
            None => self.measured,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_half_second_buckets_smoothed() {
        let mut rate = TransmitRate::new(Tuning::AWS, 0.0);
        for t in [0.1, 0.2, 0.3, 0.4, 0.49] {
            rate.record(t); // same bucket: the rate is not updated yet
        }
        assert_eq!(rate.measured(), 0.0);
        assert!(!rate.is_measured());
        // What was seen so far instead: five responses in the 0.49 s since the bucket began.
        assert!((rate.sending_rate(0.49) - 5.0 / 0.49).abs() < 1e-9);
        rate.record(0.5); // six responses over half a second: 12 req/s, smoothed
        assert_eq!(rate.measured(), 12.0 * 0.8);
        assert!(rate.is_measured());
        assert_eq!(rate.sending_rate(0.5), rate.measured());
    }

    #[test]
    fn counts_from_the_whole_second_like_the_sdks() {
        let mut rate = TransmitRate::new(Tuning::AWS, 100.7);
        assert_eq!(rate.record(100.9), 0.8 * 1.0 / 0.5); // one response over [100, 100.5)
        assert!(!rate.is_measured()); // but that bucket had no traffic of the client's yet
    }

    #[test]
    fn at_low_rates_a_bucket_closes_once_it_has_enough_responses() {
        let tuning = Tuning {
            rate_min_responses: 4,
            ..Tuning::AWS
        };
        let mut rate = TransmitRate::new(tuning, 0.0);
        for t in [0.1, 0.6, 1.1] {
            rate.record(t); // 1, 2, 3 responses: the bucket stays open past its width
            assert_eq!(rate.measured(), 0.0);
        }
        assert!(rate.is_overdue());
        rate.record(1.6); // 4 responses over [0, 1.5): 4 / 1.5 per second, smoothed
        assert!((rate.measured() - 0.8 * 4.0 / 1.5).abs() < 1e-12);
        assert!(!rate.is_overdue());
        assert_eq!(rate.last_bucket(), 1.5);
    }
}
