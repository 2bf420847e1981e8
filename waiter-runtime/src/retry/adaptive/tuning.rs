//! The constants of the adaptive algorithm, in one value.

/// The constants of the adaptive rate limiter.
///
/// [`Tuning::default()`] holds the constants every AWS SDK ships (CUBIC with `C = 0.4` and
/// `BETA = 0.7`, a transmit rate smoothed over half-second buckets, a fill rate of at least
/// 0.5 tokens/s). Change it only with figures in hand: the defaults are what the tests replay
/// against the SDKs' published tables, and BENCHMARKS.md shows what each opt-in knob buys.
///
/// ```
/// use waiter_runtime::retry::adaptive::Tuning;
///
/// let aws = Tuning::default();
/// assert_eq!((aws.scale_constant, aws.beta), (0.4, 0.7));
///
/// // Back off less on each throttle, for services whose limit is steady.
/// let gentle = Tuning { beta: 0.8, ..Tuning::default() };
/// assert!(gentle.validate().is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    /// CUBIC's scale constant `C`: how fast the rate climbs back after a throttle.
    pub scale_constant: f64,
    /// CUBIC's multiplicative decrease: the rate becomes `rate * beta` on a throttle.
    pub beta: f64,
    /// Weight of the newest half-second bucket in the measured transmit rate.
    pub smoothing: f64,
    /// Width of the buckets the transmit rate is measured over, in seconds.
    pub rate_bucket_width: f64,
    /// The bucket's max rate never exceeds this multiple of the measured transmit rate.
    pub max_rate_multiplier: f64,
    /// Lowest fill rate of the bucket, in tokens per second (0.5 by default).
    ///
    /// A client that knows its service's limit (a provisioned throughput, a usage plan) can
    /// set it to a safe fraction of that limit, such as 0.8x: the rate then never collapses
    /// below it, whatever the burst of throttles. It used to be the opt-in that mattered
    /// most, against the SDKs' cold start (a throttle before any rate was measured cut the
    /// rate to 0.5/s); the limiter now starts from the rate the service was seen to admit
    /// (see [`RateLimiterState::on_response`](super::RateLimiterState::on_response)), and in
    /// the simulation of BENCHMARKS.md (100 callers against 50 requests/s) a floor at 0.8x
    /// changes goodput and call latency p99 / mean less than they move from run to run (0.973
    /// of the limit and 1.08 with it, 0.971 to 0.974 and 1.08 to 1.09 without).
    pub min_fill_rate: f64,
    /// Lowest capacity of the bucket, in tokens. At least one token, so a request can always go.
    pub min_capacity: f64,
    /// What a throttle does before the transmit rate has been measured: our paced start
    /// ([`ColdStart::Observed`], the default) or the SDKs' algorithm value for value
    /// ([`ColdStart::Sdk`]).
    pub cold_start: ColdStart,
}

/// How the adaptive limiter treats its first half second of traffic, before its transmit rate
/// has been measured. See [`RateLimiterState::on_response`](super::RateLimiterState::on_response).
///
/// ```
/// use waiter_runtime::retry::adaptive::{ColdStart, RateLimiterState, Tuning};
///
/// // Ten successes in 0.1 s, then a throttle, on a cold client.
/// let replay = |tuning: Tuning| {
///     let mut state = RateLimiterState::with_tuning(tuning, 0.0).unwrap();
///     for i in 1..=10 {
///         state.on_response(i as f64 * 0.01, false);
///     }
///     state.on_response(0.105, true);
///     state.fill_rate()
/// };
/// // Ours: 0.7 x the rate the service was seen to admit (10 / 0.105 s).
/// assert!((replay(Tuning::AWS) - 0.7 * 10.0 / 0.105).abs() < 1e-9);
/// // The SDKs': 0.7 x the measured rate (0, nothing measured yet), so the 0.5/s floor.
/// assert_eq!(replay(Tuning { cold_start: ColdStart::Sdk, ..Tuning::AWS }), 0.5);
/// assert_eq!(Tuning::SDK.cold_start, ColdStart::Sdk);
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ColdStart {
    /// Our documented deviation (the default): until a whole bucket of traffic is measured, a
    /// throttle cuts the rate to `beta x` the rate the service was observed to admit, the
    /// `2 x` cap follows the rate sent so far and the bucket holds at most `min_capacity`.
    #[default]
    Observed,
    /// The AWS SDKs' algorithm from the first response, value for value with botocore's
    /// `ClientRateLimiter`: the bucket is built at a max rate of 1 token/s (filling from the
    /// client's creation), a throttle cuts from the measured rate (0 until the first bucket
    /// closes: the 0.5/s floor), the cap is twice the measured rate. For users who must match
    /// an SDK exactly, and for differential tests. [`RateLimiterState`](super::RateLimiterState)
    /// is botocore's state step by step; the shared
    /// [`ClientRateLimiter`](super::ClientRateLimiter) keeps its documented difference (tokens
    /// taken without the lock: less than one token short of botocore's, never more).
    Sdk,
}

impl Default for Tuning {
    fn default() -> Self {
        Self::AWS
    }
}

/// A [`Tuning`] value that cannot drive the algorithm, with the field at fault.
#[derive(Clone, Debug, PartialEq)]
pub struct InvalidTuning {
    field: &'static str,
    requirement: &'static str,
    value: f64,
}

impl InvalidTuning {
    /// The name of the offending field.
    pub fn field(&self) -> &'static str {
        self.field
    }
}

impl std::fmt::Display for InvalidTuning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "invalid adaptive retry tuning: `{}` is {} but must be {}",
            self.field, self.value, self.requirement
        )
    }
}

impl std::error::Error for InvalidTuning {}

impl Tuning {
    /// The constants all AWS SDKs use (botocore, the Go, Java and Rust SDKs).
    pub const AWS: Tuning = Tuning {
        scale_constant: 0.4,
        beta: 0.7,
        smoothing: 0.8,
        rate_bucket_width: 0.5,
        max_rate_multiplier: 2.0,
        min_fill_rate: 0.5,
        min_capacity: 1.0,
        cold_start: ColdStart::Observed,
    };

    /// The AWS SDKs' constants with their cold start too ([`ColdStart::Sdk`]): botocore's
    /// `ClientRateLimiter` value for value from the first response.
    pub const SDK: Tuning = Tuning {
        cold_start: ColdStart::Sdk,
        ..Tuning::AWS
    };

    /// Checks every field is in the range the algorithm needs.
    ///
    /// ```
    /// use waiter_runtime::retry::adaptive::Tuning;
    ///
    /// let err = Tuning { beta: 1.5, ..Tuning::AWS }.validate().unwrap_err();
    /// assert_eq!(err.field(), "beta");
    /// ```
    pub fn validate(&self) -> Result<(), InvalidTuning> {
        let checks: [(&'static str, f64, bool, &'static str); 7] = [
            (
                "scale_constant",
                self.scale_constant,
                self.scale_constant > 0.0,
                "> 0",
            ),
            (
                "beta",
                self.beta,
                self.beta > 0.0 && self.beta < 1.0,
                "in (0, 1)",
            ),
            (
                "smoothing",
                self.smoothing,
                self.smoothing > 0.0 && self.smoothing <= 1.0,
                "in (0, 1]",
            ),
            (
                "rate_bucket_width",
                self.rate_bucket_width,
                self.rate_bucket_width > 0.0,
                "> 0",
            ),
            (
                "max_rate_multiplier",
                self.max_rate_multiplier,
                self.max_rate_multiplier >= 1.0,
                ">= 1",
            ),
            (
                "min_fill_rate",
                self.min_fill_rate,
                self.min_fill_rate > 0.0,
                "> 0",
            ),
            (
                "min_capacity",
                self.min_capacity,
                self.min_capacity >= 1.0,
                ">= 1",
            ),
        ];
        for (field, value, ok, requirement) in checks {
            // `ok` is false for NaN too, since every comparison with NaN is false.
            if !ok || !value.is_finite() {
                return Err(InvalidTuning {
                    field,
                    requirement,
                    value,
                });
            }
        }
        Ok(())
    }
}
