//! CUBIC (RFC 8312's window function, applied to a request rate).

use super::Tuning;

/// The CUBIC rate calculator: a plain value driven by explicit timestamps (seconds).
///
/// After a throttle at `t0` with the rate `w_max` in effect, the rate becomes `w_max * beta`
/// and then follows `C * (t - t0 - K)^3 + w_max`, where `K = cbrt(w_max * (1 - beta) / C)` is
/// the time it takes to climb back to `w_max`: concave below it, convex (probing) above it.
///
/// The curve can be stretched in time by a factor `s` (see [`Tuning::max_stretch`]):
/// `C * ((t - t0 - s K) / s)^3 + w_max`, the same climb `s` times as slow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cubic {
    scale_constant: f64,
    beta: f64,
    fast_convergence: bool,
    w_max: f64,
    last_throttle: f64,
    k: f64,
    /// The stretch of the current curve in time (1: CUBIC's own).
    stretch: f64,
}

impl Cubic {
    /// A calculator that has never been throttled (`w_max = 0`), started at `now`.
    pub fn new(tuning: Tuning, now: f64) -> Self {
        Self::with_max_rate(tuning, 0.0, now)
    }

    /// A calculator whose last throttle happened at `last_throttle` with `w_max` in effect:
    /// the state the SDKs' published tables start from.
    pub fn with_max_rate(tuning: Tuning, w_max: f64, last_throttle: f64) -> Self {
        let mut cubic = Self {
            scale_constant: tuning.scale_constant,
            beta: tuning.beta,
            fast_convergence: tuning.fast_convergence,
            w_max,
            last_throttle,
            k: 0.0,
            stretch: 1.0,
        };
        cubic.k = cubic.compute_k();
        cubic
    }

    /// Moves the last throttle in time (the curve keeps its shape).
    pub(crate) fn map_times(&mut self, f: impl Fn(f64) -> f64) {
        self.last_throttle = f(self.last_throttle);
    }

    fn compute_k(&self) -> f64 {
        (self.w_max * (1.0 - self.beta) / self.scale_constant).cbrt()
    }

    /// A throttling response at `now` while sending at `rate_in_effect`: remembers it as
    /// `w_max` and returns the reduced rate `rate_in_effect * beta`.
    ///
    /// With fast convergence (RFC 9438, section 4.7), a cut below the previous `w_max`
    /// remembers `w_max = rate_in_effect * (1 + beta) / 2` instead, and `K` is the time to
    /// climb from the reduced rate back to that `w_max`.
    pub fn throttle(&mut self, rate_in_effect: f64, now: f64) -> f64 {
        let reduced = rate_in_effect * self.beta;
        self.last_throttle = now;
        if self.fast_convergence && rate_in_effect < self.w_max {
            self.w_max = rate_in_effect * (1.0 + self.beta) / 2.0;
            self.k = ((self.w_max - reduced) / self.scale_constant).cbrt();
        } else {
            self.w_max = rate_in_effect;
            self.k = self.compute_k();
        }
        self.stretch = 1.0;
        reduced
    }

    /// Stretches the current curve in time by `stretch` (at least 1), from its last throttle:
    /// `K` becomes `stretch` times CUBIC's, and the probing past `w_max` that much slower.
    pub(crate) fn set_stretch(&mut self, stretch: f64) {
        self.k *= stretch / self.stretch;
        self.stretch = stretch;
    }

    /// The rate CUBIC allows at `now`, after a successful response.
    pub fn success(&self, now: f64) -> f64 {
        let dt = now - self.last_throttle - self.k;
        if self.stretch == 1.0 {
            // The SDKs' formula, bit for bit.
            self.scale_constant * dt.powi(3) + self.w_max
        } else {
            self.scale_constant * (dt / self.stretch).powi(3) + self.w_max
        }
    }

    /// `w_max`: the rate in effect at the last throttle.
    pub fn max_rate(&self) -> f64 {
        self.w_max
    }

    /// `K`: seconds after the last throttle at which the rate is back to `w_max`.
    pub fn time_window(&self) -> f64 {
        self.k
    }

    /// When the last throttle happened.
    pub fn last_throttle(&self) -> f64 {
        self.last_throttle
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_throttle_cuts_to_beta_and_the_rate_climbs_back_to_w_max_in_k() {
        let mut cubic = Cubic::new(Tuning::AWS, 0.0);
        let rate = cubic.throttle(10.0, 5.0); // throttled while sending 10 req/s at t = 5
        assert!((rate - 7.0).abs() < 1e-12);
        assert!((cubic.success(5.0) - 7.0).abs() < 1e-12);
        assert!((cubic.success(5.0 + cubic.time_window()) - 10.0).abs() < 1e-12);
        assert!(cubic.success(11.0) > 30.0);
    }

    #[test]
    fn fast_convergence_gives_up_part_of_a_lower_w_max() {
        let tuning = Tuning {
            fast_convergence: true,
            ..Tuning::AWS
        };
        let mut cubic = Cubic::with_max_rate(tuning, 10.0, 0.0);
        // Above the previous w_max: remembered as is.
        assert!((cubic.throttle(12.0, 1.0) - 8.4).abs() < 1e-12);
        assert_eq!(cubic.max_rate(), 12.0);
        // Below it: w_max = 10 x (1 + 0.7) / 2 = 8.5, reached again after K.
        assert!((cubic.throttle(10.0, 2.0) - 7.0).abs() < 1e-12);
        assert!((cubic.max_rate() - 8.5).abs() < 1e-12);
        assert!((cubic.success(2.0) - 7.0).abs() < 1e-12);
        assert!((cubic.success(2.0 + cubic.time_window()) - 8.5).abs() < 1e-12);
        // Off (the SDKs): the rate in effect, whatever the previous w_max.
        let mut sdk = Cubic::with_max_rate(Tuning::SDK, 12.0, 0.0);
        sdk.throttle(10.0, 1.0);
        assert_eq!(sdk.max_rate(), 10.0);
    }

    #[test]
    fn a_stretched_curve_climbs_as_much_in_stretch_times_the_time() {
        let mut plain = Cubic::new(Tuning::AWS, 0.0);
        plain.throttle(100.0, 0.0);
        let mut slow = plain;
        slow.set_stretch(2.5);
        assert!((slow.time_window() - 2.5 * plain.time_window()).abs() < 1e-12);
        for t in [0.0, 1.0, 3.0, 10.0, 20.0] {
            assert!((slow.success(2.5 * t) - plain.success(t)).abs() < 1e-9);
        }
        // A new cut is CUBIC's own again.
        slow.throttle(100.0, 30.0);
        assert_eq!(slow.time_window(), plain.time_window());
    }
}
