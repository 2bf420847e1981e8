//! The constants of the adaptive algorithm, in one value.

/// The constants of the adaptive rate limiter.
///
/// Three presets:
///
/// * [`Tuning::DEFAULT`] (what [`Tuning::default()`], `RetryConfig::adaptive()` and
///   [`ClientRateLimiter::new`](super::ClientRateLimiter::new) use): our controller, **a
///   documented difference from the SDKs**. It keeps the SDKs' structure (CUBIC on a token
///   bucket, a transmit rate smoothed over half-second buckets, the `2 x measured` cap, a
///   fill rate of at least 0.5 tokens/s) with smaller cuts and a gentler climb
///   (`beta = 0.75`, `C = 0.2`, where the SDKs have 0.7 and 0.4) and the mechanisms that keep
///   the service's capacity: one cut per congestion event
///   ([`one_cut_per_event`](Self::one_cut_per_event)) with a recovery period
///   ([`recovery_period`](Self::recovery_period)), a slower climb when the client is
///   throttled often ([`throttle_share_target`](Self::throttle_share_target),
///   [`max_stretch`](Self::max_stretch)), bursts of 50 ms
///   ([`burst_seconds`](Self::burst_seconds)) and the paced cold start
///   ([`ColdStart::Observed`]). In the simulation of BENCHMARKS.md ("A fleet of clients": one
///   client of 100 callers, 500 requests/s halving to 250, 40 to 50 ms responses) the SDKs'
///   controller keeps 0.40 of the capacity and this one 0.94; fleets of 10 to 100 clients
///   share it evenly (Jain's index 0.95 or more) with fewer throttles than the SDKs'. Three
///   more mechanisms are opt-in, measured there and not better in it: CUBIC's fast
///   convergence ([`fast_convergence`](Self::fast_convergence)), a rate measured over
///   several responses ([`rate_min_responses`](Self::rate_min_responses)) and a cut from the
///   fill rate ([`cut_from_fill_rate`](Self::cut_from_fill_rate)).
/// * [`Tuning::AWS`]: the SDKs' algorithm and constants with only our paced cold start.
/// * [`Tuning::SDK`]: botocore's `ClientRateLimiter` value for value.
///
/// ```
/// use waiter_runtime::retry::adaptive::Tuning;
///
/// let ours = Tuning::default();
/// assert_eq!(ours, Tuning::DEFAULT);
/// assert_eq!((ours.scale_constant, ours.beta), (0.2, 0.75));
/// assert_eq!((Tuning::SDK.scale_constant, Tuning::SDK.beta), (0.4, 0.7));
/// assert!(ours.one_cut_per_event && ours.recovery_period && !Tuning::SDK.one_cut_per_event);
/// assert_eq!((ours.burst_seconds, Tuning::SDK.burst_seconds), (0.05, 1.0));
/// assert_eq!((ours.throttle_share_target, Tuning::SDK.max_stretch), (0.02, 1.0));
/// assert!(!ours.cut_from_fill_rate && !ours.fast_convergence);
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
    /// One cut per congestion event: a throttle cuts the rate only if its request was sent
    /// after the last cut (TCP's one reduction per window, RFC 9002 section 7.3.2). The
    /// throttles of the requests already in flight at a cut answer the overshoot that cut
    /// answered; with some 20 requests in flight (500 requests/s, 40 ms responses) the SDKs
    /// cut the rate 0.7 times for each of them, to a few percent of the capacity. Needs the
    /// send mark of each attempt ([`ClientRateLimiter::sent`](super::ClientRateLimiter::sent),
    /// [`RateLimiterState::on_response_sent_at`](super::RateLimiterState::on_response_sent_at));
    /// the [`Retrier`](crate::retry::Retrier) passes it. `false` in the SDKs.
    pub one_cut_per_event: bool,
    /// CUBIC's fast convergence (RFC 9438, section 4.7): a cut at a rate below the previous
    /// `w_max` remembers `w_max = rate x (1 + beta) / 2` rather than `rate`, so a client that
    /// was above its share of a service gives some of it up and the others climb into it, as
    /// in TCP. `false` in the SDKs and by default: in the fleet simulation of BENCHMARKS.md
    /// it did not make fleets fairer, and it cost a single client a tenth of the capacity.
    pub fast_convergence: bool,
    /// A transmit-rate bucket closes (the measured rate is updated) only once it has counted
    /// at least this many responses: at a few requests a second the count of one half-second
    /// bucket is mostly noise (2 or 3 responses: +-50 %), and a throttle cuts from that
    /// measure. At high rates every bucket holds more than this and nothing changes. At least
    /// 1; 1 in the SDKs and by default: in the fleet simulation of BENCHMARKS.md, 10 made
    /// fleets of 50 and 100 clients less fair (a rate measured over seconds lags the
    /// client's own changes).
    pub rate_min_responses: u32,
    /// The bucket holds at most `burst_seconds x fill rate` tokens (and at least
    /// `min_capacity`): the burst a client may send at once after a pause. 1 s in the SDKs,
    /// a whole second of requests at once; tens of milliseconds pace a client smoothly.
    /// Greater than 0.
    pub burst_seconds: f64,
    /// A recovery period after each cut (with [`one_cut_per_event`](Self::one_cut_per_event)):
    /// until the first response to a request sent after the cut, the throttles of requests
    /// sent in the period start no new congestion event (RFC 9002 section 7.3.2's recovery
    /// period, which ends when a packet sent in it is acknowledged; here when one is
    /// answered, throttled or not, so that a service that throttles everything still gets
    /// cut again one round trip later). The overshoot that caused the cut emptied the
    /// service's token bucket, and the first requests sent at the lower rate can still find
    /// it empty. Without the period, a client whose overshoot was large (its first second,
    /// many requests in flight) was cut twice within two round trips and climbed back to
    /// the second cut's rate, well below the capacity (in the simulation of BENCHMARKS.md,
    /// 0.87 of it in one run, where the period keeps 0.94 to 0.95 in eleven). `false` in the
    /// SDKs.
    pub recovery_period: bool,
    /// The share of throttled responses above which the client climbs back more slowly after
    /// a cut; 0 turns this off (as in the SDKs). The share is the client's own: throttles of
    /// requests sent after a cut over the responses between cuts, smoothed over the last
    /// cuts. A client alone with its service is throttled once per probe, a fraction of a
    /// percent of its requests; a client among many that share a service (a fleet of
    /// processes, each with its own limiter) is throttled whenever the others' probing
    /// overshoots too: at a share `x` above this target, its CUBIC curve after the next cut is
    /// stretched in time by `x / target` (at most [`max_stretch`](Self::max_stretch)), so the
    /// fleet probes, and is throttled, less often (BBR's loss threshold of 2 % plays the
    /// same part). In `[0, 1)`; 0.02 by default.
    pub throttle_share_target: f64,
    /// The most the climb after a cut is stretched in time by
    /// [`throttle_share_target`](Self::throttle_share_target): at least 1 (1: never). 2 by
    /// default: more stretch throttles fleets less and shares their capacity less evenly
    /// (BENCHMARKS.md).
    pub max_stretch: f64,
    /// A throttle cuts from the fill rate when callers waited for tokens since the last cut
    /// (the client was sending at its fill rate), rather than from
    /// `min(measured rate, fill rate)`: the measured rate is smoothed over half-second
    /// buckets, so it trails a climbing rate, and at a few requests a second it is mostly
    /// noise (2 or 3 responses a bucket); cut from it, `w_max` is set lower than the rate the
    /// client was sent at, by chance. A client that does not use its tokens is still cut from
    /// what it measurably sends. `false` in the SDKs and by default: in the simulation of
    /// BENCHMARKS.md it did not help one client (0.942 of the capacity with it, 0.940
    /// without) and fleets of 50 clients had 8.4 % of their requests throttled with it, 6.7 %
    /// without.
    pub cut_from_fill_rate: bool,
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
        Self::DEFAULT
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
    /// The constants all AWS SDKs use (botocore, the Go, Java and Rust SDKs), with our paced
    /// cold start ([`ColdStart::Observed`]) and none of [`Tuning::DEFAULT`]'s other mechanisms.
    pub const AWS: Tuning = Tuning {
        scale_constant: 0.4,
        beta: 0.7,
        smoothing: 0.8,
        rate_bucket_width: 0.5,
        max_rate_multiplier: 2.0,
        min_fill_rate: 0.5,
        min_capacity: 1.0,
        cold_start: ColdStart::Observed,
        one_cut_per_event: false,
        fast_convergence: false,
        rate_min_responses: 1,
        burst_seconds: 1.0,
        cut_from_fill_rate: false,
        recovery_period: false,
        throttle_share_target: 0.0,
        max_stretch: 1.0,
    };

    /// Our controller (the default): the AWS SDKs' structure with smaller cuts, a gentler
    /// climb and the mechanisms that keep the service's capacity (see [`Tuning`]).
    pub const DEFAULT: Tuning = Tuning {
        scale_constant: 0.2,
        beta: 0.75,
        one_cut_per_event: true,
        recovery_period: true,
        throttle_share_target: 0.02,
        max_stretch: 2.0,
        burst_seconds: 0.05,
        ..Tuning::AWS
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
        let checks: [(&'static str, f64, bool, &'static str); 11] = [
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
            (
                "rate_min_responses",
                f64::from(self.rate_min_responses),
                self.rate_min_responses >= 1,
                ">= 1",
            ),
            (
                "burst_seconds",
                self.burst_seconds,
                self.burst_seconds > 0.0,
                "> 0",
            ),
            (
                "throttle_share_target",
                self.throttle_share_target,
                (0.0..1.0).contains(&self.throttle_share_target),
                "in [0, 1)",
            ),
            (
                "max_stretch",
                self.max_stretch,
                self.max_stretch >= 1.0,
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
