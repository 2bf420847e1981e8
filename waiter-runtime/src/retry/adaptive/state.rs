//! The adaptive rate limiter's state machine: transmit rate, CUBIC and the token bucket.

use std::time::Duration;

use super::events::{Events, SentWhen};
use super::{ColdStart, Cubic, InvalidTuning, TokenBucket, TransmitRate, Tuning};

/// The whole adaptive algorithm as a plain value: no clock, no lock, no task. Every method takes
/// the current time in seconds from an origin of the caller's choosing, so tests replay
/// published tables exactly and simulations run at any speed.
///
/// [`ClientRateLimiter`](super::ClientRateLimiter) shares one of these between tasks.
///
/// ```
/// use waiter_runtime::retry::adaptive::RateLimiterState;
///
/// let mut state = RateLimiterState::new(0.0);
/// assert!(!state.is_enabled());
/// assert!(state.try_acquire(0.0).is_ok()); // off until the first throttle
///
/// for i in 1..=20 {
///     state.on_response(i as f64 * 0.1, false); // 10 responses per second
/// }
/// state.on_response(2.05, true); // throttled
/// assert!(state.is_enabled());
/// // Cut to `beta` (0.75 in our controller, 0.7 in the SDKs') times the rate in effect.
/// assert!((state.calculated_rate() - 0.75 * state.max_rate()).abs() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateLimiterState {
    tuning: Tuning,
    enabled: bool,
    transmit: TransmitRate,
    cubic: Cubic,
    bucket: TokenBucket,
    calculated_rate: f64,
    /// Successful responses counted while the transmit rate is not measured yet.
    admitted_unmeasured: u64,
    /// Cuts of the rate so far (throttles that started a congestion event).
    cuts: u64,
    /// Congestion events and recovery periods, and the throttle share between them.
    events: Events,
    /// The latest valid timestamp seen (see [`RateLimiterState::on_response`]).
    latest: f64,
    /// Whether a caller found the bucket empty since the last cut: the client sends at its
    /// fill rate (see [`Tuning::cut_from_fill_rate`]).
    saturated: bool,
}

/// How far past the latest timestamp a state has seen a new one may be: about 317 years. A
/// timestamp further ahead (`1e12`, `1e300`, `+inf`), or not a number, is ignored: taken, it
/// would become the bucket's last refill, and the normal times after it would never refill
/// the bucket again.
const MAX_LEAP: f64 = 1e10;

impl RateLimiterState {
    /// The state of a fresh client at `now`, with the default constants ([`Tuning::DEFAULT`]):
    /// not throttled yet, so the bucket is off. A `now` that is not a finite number (or is
    /// more than `1e10` s from 0) is taken as 0.
    pub fn new(now: f64) -> Self {
        Self::unchecked(Tuning::DEFAULT, now)
    }

    /// Same as [`new`](Self::new) with other constants (see [`Tuning`]), checked with
    /// [`Tuning::validate`] as [`ClientRateLimiter::with_tuning`](super::ClientRateLimiter::with_tuning)
    /// checks them: a state never holds constants out of range (a minimum fill rate of 0, say,
    /// would set a timer for decades).
    ///
    /// ```
    /// use waiter_runtime::retry::adaptive::{RateLimiterState, Tuning};
    ///
    /// assert!(RateLimiterState::with_tuning(Tuning { min_fill_rate: 5.0, ..Tuning::AWS }, 0.0).is_ok());
    /// let err = RateLimiterState::with_tuning(Tuning { min_fill_rate: 0.0, ..Tuning::AWS }, 0.0);
    /// assert_eq!(err.unwrap_err().field(), "min_fill_rate");
    /// ```
    pub fn with_tuning(tuning: Tuning, now: f64) -> Result<Self, InvalidTuning> {
        tuning.validate()?;
        Ok(Self::unchecked(tuning, now))
    }

    /// [`with_tuning`](Self::with_tuning) for constants already checked.
    ///
    /// With [`ColdStart::Sdk`] the bucket is set to a max rate of 1 token/s at `now`, as
    /// botocore builds its `TokenBucket(max_rate=1)` with the client: it fills from then on
    /// (unused until the first throttle).
    fn unchecked(tuning: Tuning, now: f64) -> Self {
        let now = if now.is_finite() && now.abs() <= MAX_LEAP {
            now
        } else {
            0.0
        };
        let mut bucket = TokenBucket::new(tuning);
        if tuning.cold_start == ColdStart::Sdk {
            bucket.set_rate(now, SDK_INITIAL_MAX_RATE);
        }
        Self {
            tuning,
            enabled: false,
            transmit: TransmitRate::new(tuning, now),
            cubic: Cubic::new(tuning, now),
            bucket,
            calculated_rate: 0.0,
            admitted_unmeasured: 0,
            cuts: 0,
            events: Events::new(),
            latest: now,
            saturated: false,
        }
    }

    /// A state already enabled and steady at `rate` requests/s at `now`, with a full bucket: as
    /// if the client had been throttled `K` seconds ago at `rate` and was back at its plateau.
    /// Useful to restore a known rate and in tests and benchmarks.
    ///
    /// `rate` must be a finite number, at least 0 (0 is the bucket's minimum fill rate): NaN,
    /// a negative or an infinite rate is an [`InvalidRate`] error (an infinite measured rate
    /// would stay infinite, and the limiter would never limit again, whatever the throttles).
    ///
    /// ```
    /// use waiter_runtime::retry::adaptive::RateLimiterState;
    ///
    /// let mut state = RateLimiterState::steady_at(100.0, 0.0)?;
    /// assert!(state.is_enabled());
    /// assert_eq!(state.fill_rate(), 100.0);
    /// assert!(state.try_acquire(0.0).is_ok());
    ///
    /// assert!(RateLimiterState::steady_at(f64::INFINITY, 0.0).is_err());
    /// # Ok::<(), waiter_runtime::retry::adaptive::InvalidRate>(())
    /// ```
    pub fn steady_at(rate: f64, now: f64) -> Result<Self, InvalidRate> {
        Self::steady(Tuning::DEFAULT, rate, now)
    }

    /// Same as [`steady_at`](Self::steady_at) with other constants, checked as
    /// [`with_tuning`](Self::with_tuning) checks them.
    ///
    /// ```
    /// use waiter_runtime::retry::adaptive::{InvalidSteadyState, RateLimiterState, Tuning};
    ///
    /// let tuning = Tuning { min_capacity: f64::NAN, ..Tuning::AWS };
    /// let err = RateLimiterState::steady_at_with_tuning(tuning, 10.0, 0.0).unwrap_err();
    /// assert!(matches!(err, InvalidSteadyState::Tuning(e) if e.field() == "min_capacity"));
    /// ```
    pub fn steady_at_with_tuning(
        tuning: Tuning,
        rate: f64,
        now: f64,
    ) -> Result<Self, InvalidSteadyState> {
        tuning.validate().map_err(InvalidSteadyState::Tuning)?;
        Self::steady(tuning, rate, now).map_err(InvalidSteadyState::Rate)
    }

    /// [`steady_at_with_tuning`](Self::steady_at_with_tuning) for constants already checked.
    fn steady(tuning: Tuning, rate: f64, now: f64) -> Result<Self, InvalidRate> {
        if !(rate.is_finite() && rate >= 0.0) {
            return Err(InvalidRate { rate });
        }
        let mut state = Self::unchecked(tuning, now);
        let now = state.latest;
        let probe = Cubic::with_max_rate(tuning, rate, now);
        state.cubic = Cubic::with_max_rate(tuning, rate, now - probe.time_window());
        state.transmit = state.transmit.with_measured(rate);
        state.bucket.set_rate(now, rate);
        state.bucket.fill();
        state.calculated_rate = rate;
        state.enabled = true;
        Ok(state)
    }

    /// The same state on a clock whose zero is the state's latest instant (its last refill,
    /// bucket or throttle) when that is after 0: a state taken from a limiter whose clock ran
    /// on, given to a new limiter (whose clock starts at 0), carries on from where it was
    /// instead of waiting for the new clock to catch up with the old one. Times move back by
    /// whole transmit-rate buckets, so the latest instant lands at or just before 0; a time
    /// that is not a finite number becomes 0.
    pub(crate) fn rebased(mut self) -> Self {
        let width = self.tuning.rate_bucket_width;
        let latest = [
            Some(self.transmit.last_bucket()),
            self.bucket.last_refill(),
            Some(self.cubic.last_throttle()),
        ]
        .into_iter()
        .flatten()
        .filter(|t| t.is_finite())
        .fold(0.0f64, f64::max);
        let by = -(latest / width).ceil() * width;
        let by = if by.is_finite() { by } else { 0.0 };
        let moved = |t: f64| {
            let t = t + by;
            if t.is_finite() { t } else { 0.0 }
        };
        self.transmit.map_times(moved);
        self.bucket.map_times(moved);
        self.cubic.map_times(moved);
        self.latest = moved(self.latest).min(0.0);
        self.events.map_times(moved);
        self
    }

    /// Records a response at `now`: updates the measured rate, then CUBIC (a throttle cuts the
    /// rate and turns the bucket on; a success grows it), then the bucket's rate and capacity.
    /// Returns the new fill rate.
    ///
    /// The [`Tuning`]'s other differences from the SDKs ([`Tuning::DEFAULT`]'s: one cut per
    /// congestion event, a cut from the fill rate when callers waited for tokens, bursts of
    /// `burst_seconds`) are documented on its fields.
    ///
    /// # Cold start: a deviation from the AWS SDKs
    ///
    /// The SDKs take the rate in effect at a throttle, and the `2 x` cap, from the measured
    /// transmit rate. Until a whole half-second bucket of traffic has been measured, that rate
    /// is 0 (or an idle start's trickle), so a throttle in a client's first half second of
    /// traffic (the usual case when many callers start at once) cuts the rate to the floor
    /// (0.5/s), and CUBIC needs `cbrt(C / 0.4)` seconds to climb back to a capacity of `C`
    /// requests/s (10.8 s at 500/s; in the benchmark of BENCHMARKS.md, 0.70 of the capacity
    /// over 30 s). Here, until the transmit rate is first measured (a whole bucket closed):
    ///
    /// * the first throttle cuts the rate to `beta x` the rate the service was **observed to
    ///   admit**: the successful responses since the first response, over the time since the
    ///   start of its bucket. It is a lower bound of the service's capacity. (The rate the
    ///   client sent at is not: it counts the throttled burst and overshoots the capacity
    ///   many times over when many callers start at once.) When the service has admitted
    ///   nothing yet, the cut is from the rate the client **sent** at (the responses since
    ///   the first, over the same time): the throttle then says that the service was over
    ///   its limit, not what this client's share of it is. In a fleet whose clients start
    ///   together, the service's burst admits the first clients' requests and throttles the
    ///   others'; cut to the floor, those were seconds behind the others (in the simulation
    ///   of BENCHMARKS.md, clients started later kept a third less of the capacity for the
    ///   whole minute);
    /// * the first event's throttles do not compound: with [`Tuning::one_cut_per_event`] (and
    ///   the send time known), a throttle of a request sent before that cut is no new cut: it
    ///   can only raise the cut, when the count of what the service admitted (or of what the
    ///   client sent) has grown since (the first throttle may come back before most of the
    ///   burst's responses). Without the send time, every throttle of the cold start cuts from
    ///   that count, not from the last cut;
    /// * the `2 x` cap is twice the rate sent so far (the responses since the first one, over
    ///   the time since the start of its bucket);
    /// * the bucket holds at most `min_capacity` tokens (one, by default), so the client is
    ///   paced at the fill rate without bursts; otherwise the tokens banked at the
    ///   overestimated rates of the first instants go out at once when the rate is first
    ///   measured, and the throttles that come back together cut the rate `0.7^n`, to the
    ///   floor again.
    ///
    /// Once a bucket has been measured, with [`Tuning::AWS`], this is the SDKs' algorithm,
    /// value for value (the published tables in the tests replay unchanged).
    ///
    /// ```
    /// use waiter_runtime::retry::adaptive::{RateLimiterState, Tuning};
    ///
    /// let mut state = RateLimiterState::new(0.0);
    /// for i in 1..=20 {
    ///     state.on_response(i as f64 * 0.01, false); // 100 successes/s, nothing measured yet
    /// }
    /// state.on_response(0.205, true); // throttled 0.205 s in
    /// let admitted = 20.0 / 0.205;
    /// let beta = Tuning::DEFAULT.beta;
    /// assert!((state.fill_rate() - beta * admitted).abs() < 1e-9); // not the 0.5/s floor
    ///
    /// // Nothing admitted: from the rate sent, 2 requests in 0.1 s (the second throttle may
    /// // answer the same burst: it cuts from that rate too, not from the first cut).
    /// let mut state = RateLimiterState::new(0.0);
    /// state.on_response(0.05, true);
    /// state.on_response(0.1, true);
    /// assert!((state.fill_rate() - beta * 20.0).abs() < 1e-9);
    /// ```
    ///
    /// With [`ColdStart::Sdk`] in the [`Tuning`] none of this applies: the SDKs' algorithm
    /// from the first response.
    ///
    /// # Throttles and congestion events
    ///
    /// `on_response` does not know when the request was sent, so every throttle cuts the rate,
    /// as in the SDKs. With [`Tuning::one_cut_per_event`] (the default), report responses with
    /// [`on_response_sent_at`](Self::on_response_sent_at) so that only the first throttle of
    /// each overshoot cuts. A cut is stretched in time by the client's throttle share (see
    /// [`Tuning::throttle_share_target`]) either way.
    ///
    /// # Timestamps
    ///
    /// A `now` that is not a number, infinite, or more than `1e10` s (317 years) past the
    /// latest timestamp the state has seen is ignored: the state does not change and the
    /// fill rate is returned as it was. Taken, such a timestamp would stop the bucket from
    /// refilling at any normal time after it (or keep the state in its cold start for good).
    ///
    /// ```
    /// use waiter_runtime::retry::adaptive::RateLimiterState;
    ///
    /// let mut state = RateLimiterState::steady_at(10.0, 0.0).unwrap();
    /// let before = state;
    /// for bad in [f64::NAN, f64::INFINITY, 1e12, 1e300] {
    ///     assert_eq!(state.on_response(bad, false), 10.0);
    /// }
    /// assert_eq!(state, before);
    /// ```
    pub fn on_response(&mut self, now: f64, throttled: bool) -> f64 {
        self.respond(now, throttled, |_, _| SentWhen::Unknown)
    }

    /// [`on_response`](Self::on_response) for a request sent at `sent_at` (the same clock):
    /// with [`Tuning::one_cut_per_event`], a throttle cuts the rate only if its request was
    /// sent after the last cut; the throttles of requests already in flight then answer the
    /// overshoot that cut answered. They still count in the measured rate, and they do not
    /// grow the rate as a success does. With [`Tuning::recovery_period`], a request sent after
    /// the cut but before the first response to such a request (the cut's recovery period)
    /// starts no new event either: the throttle of the first of them to be answered cuts the
    /// rate again and keeps `w_max`. A `sent_at` that is not a number counts as sent after the
    /// last cut and its recovery period.
    ///
    /// ```
    /// use waiter_runtime::retry::adaptive::RateLimiterState;
    ///
    /// let mut state = RateLimiterState::steady_at(100.0, 0.0).unwrap();
    /// state.on_response_sent_at(0.04, 0.0, true); // the overshoot's first throttle: cut
    /// let cut = state.fill_rate();
    /// assert!((cut - 75.0).abs() < 1e-9);
    /// state.on_response_sent_at(0.05, 0.01, true); // sent before that cut: no second cut
    /// assert_eq!(state.fill_rate(), cut);
    /// state.on_response_sent_at(0.09, 0.045, false); // the first answer after it
    /// state.on_response_sent_at(0.15, 0.10, true); // sent after that: a new event, a cut
    /// assert!(state.fill_rate() < cut);
    /// assert_eq!(state.cuts(), 2);
    /// ```
    pub fn on_response_sent_at(&mut self, now: f64, sent_at: f64, throttled: bool) -> f64 {
        self.respond(now, throttled, |events, now| events.by_time(sent_at, now))
    }

    /// [`on_response`](Self::on_response) for a request sent with the mark `mark`
    /// ([`send_mark`](Self::send_mark) when it was sent). The shared limiter's way, which
    /// needs no clock reading at send time.
    pub(crate) fn on_response_to_mark(&mut self, now: f64, mark: u64, throttled: bool) -> f64 {
        self.respond(now, throttled, |events, now| events.by_mark(mark, now))
    }

    /// The mark of a request sent now (see [`on_response_to_mark`](Self::on_response_to_mark)):
    /// it changes at each cut and at the end of each recovery period.
    pub(crate) fn send_mark(&self) -> u64 {
        self.events.mark()
    }

    /// Whether `now` can be taken (see [`on_response`](Self::on_response), "Timestamps").
    fn valid_time(&self, now: f64) -> bool {
        now.is_finite() && now - self.latest <= MAX_LEAP
    }

    /// Records a response at `now`; `sent` says when its request was sent (and may end a
    /// recovery period: it is asked only for a valid `now`).
    fn respond(
        &mut self,
        now: f64,
        throttled: bool,
        sent: impl FnOnce(&mut Events, f64) -> SentWhen,
    ) -> f64 {
        if !self.valid_time(now) {
            return self.bucket.fill_rate();
        }
        self.latest = self.latest.max(now);
        if self.tuning.cold_start == ColdStart::Sdk {
            return self.on_response_sdk(now, throttled);
        }
        let sent = if self.tuning.one_cut_per_event {
            match sent(&mut self.events, now) {
                SentWhen::InRecovery if !self.tuning.recovery_period => SentWhen::After,
                when => when,
            }
        } else {
            SentWhen::Unknown
        };
        self.transmit.record(now);
        if !throttled && !self.transmit.is_measured() {
            self.admitted_unmeasured += 1;
        }
        self.events
            .count(1, u64::from(throttled && sent != SentWhen::BeforeCut));
        let sending = self.transmit.sending_rate(now);
        match (throttled, sent) {
            (false, _) => self.calculated_rate = self.cubic.success(now),
            (true, SentWhen::After) => self.cut(now, sending, true),
            (true, SentWhen::Unknown) => self.cut(now, sending, false),
            // Sent in the last cut's recovery period: that overshoot's (see
            // `Tuning::recovery_period`).
            (true, SentWhen::InRecovery) => {}
            (true, SentWhen::BeforeCut) => {
                if let (1, Some(elapsed)) = (self.cuts, self.transmit.unmeasured_for(now)) {
                    // A throttle of the first event, in the cold start: not a new cut, but a
                    // later count of what the service admitted or the client sent, which can
                    // only raise the cut's base (the first throttle may come back before most
                    // of the burst's responses do).
                    let in_effect = self.first_cut_base(elapsed, sending);
                    if in_effect * self.tuning.beta > self.calculated_rate {
                        self.calculated_rate = self.cubic.throttle(in_effect, now);
                    }
                }
                // Any other throttle of a request sent before the last cut leaves CUBIC's
                // rate as it was.
            }
        }
        let rate = self
            .calculated_rate
            .min(self.tuning.max_rate_multiplier * sending);
        self.bucket.set_rate(now, rate);
        if !self.transmit.is_measured() {
            self.bucket.limit_capacity(self.tuning.min_capacity);
        }
        self.bucket.fill_rate()
    }

    /// A throttle that starts a congestion event at `now` (`known`: its request was sent
    /// after the last cut; otherwise not known): cuts the rate `beta x` from the rate in
    /// effect, stretched by the throttle share (see [`Tuning::throttle_share_target`]).
    fn cut(&mut self, now: f64, sending: f64, known: bool) {
        let in_effect = match self.transmit.unmeasured_for(now) {
            // The cold start's first cut; when the throttle may answer the same burst (the
            // send time is not known), every cut of the cold start, so that the burst's
            // throttles do not compound.
            Some(elapsed) if !self.enabled || !known => self.first_cut_base(elapsed, sending),
            // Callers waited for tokens: the client sent at its fill rate, which the measured
            // rate (smoothed, half a second late) trails while the rate climbs.
            None if self.enabled && self.saturated && self.tuning.cut_from_fill_rate => {
                self.bucket.fill_rate()
            }
            _ if self.enabled => sending.min(self.bucket.fill_rate()),
            _ => sending,
        };
        self.enabled = true;
        self.calculated_rate = self.cubic.throttle(in_effect, now);
        let recovery = self.tuning.recovery_period && self.tuning.one_cut_per_event;
        let share = self.events.cut(now, recovery);
        let target = self.tuning.throttle_share_target;
        if let Some(share) = share.filter(|_| target > 0.0) {
            self.cubic
                .set_stretch((share / target).clamp(1.0, self.tuning.max_stretch));
        }
        self.cuts += 1;
        self.saturated = false;
    }

    /// The rate in effect at the first cut, in the cold start (see
    /// [`on_response`](Self::on_response)): what the service admitted so far, or, if it
    /// admitted nothing, what the client sent.
    fn first_cut_base(&self, elapsed: f64, sending: f64) -> f64 {
        if self.admitted_unmeasured > 0 {
            self.admitted_unmeasured as f64 / elapsed
        } else {
            sending
        }
    }

    /// botocore's `ClientRateLimiter.on_receiving_response`, line for line: the measured rate,
    /// then CUBIC (a throttle cuts from `measured`, or from `min(measured, fill rate)` once
    /// enabled), then the bucket's rate, `min(new rate, 2 x measured)`.
    fn on_response_sdk(&mut self, now: f64, throttled: bool) -> f64 {
        let measured = self.transmit.record(now);
        self.calculated_rate = if throttled {
            let in_effect = if self.enabled {
                measured.min(self.bucket.fill_rate())
            } else {
                measured
            };
            self.enabled = true;
            self.cuts += 1;
            self.cubic.throttle(in_effect, now)
        } else {
            self.cubic.success(now)
        };
        let rate = self
            .calculated_rate
            .min(self.tuning.max_rate_multiplier * measured);
        self.bucket.set_rate(now, rate);
        self.bucket.fill_rate()
    }

    /// Pins the rate at `rate` requests/s from `now` (a fleet member's share), or turns the
    /// bucket off (`None`: no limit), for [`FleetRateLimiter`](super::FleetRateLimiter): the
    /// state is then as [`steady_at`](Self::steady_at) leaves it (CUBIC at its plateau at
    /// `rate`, the rate measured at `rate` from `now` on), except that the bucket keeps its
    /// tokens, so that a share renewed every round gives no burst. Responses reported after
    /// it run the algorithm from there. A `now` the state ignores, or a rate that is not a
    /// finite number at least 0, changes nothing.
    ///
    /// A bucket turned on holds `phase` tokens (at most one): members of a fleet pinned at
    /// once, each with a phase of its own, do not all send their next request together.
    #[cfg(feature = "redis")]
    pub(crate) fn pin(&mut self, now: f64, rate: Option<f64>, phase: f64) {
        if !self.valid_time(now) {
            return;
        }
        self.latest = self.latest.max(now);
        let now = self.latest;
        let Some(rate) = rate else {
            self.enabled = false;
            return;
        };
        if !(rate.is_finite() && rate >= 0.0) {
            return;
        }
        let probe = Cubic::with_max_rate(self.tuning, rate, now);
        self.cubic = Cubic::with_max_rate(self.tuning, rate, now - probe.time_window());
        self.transmit = TransmitRate::steady(self.tuning, now, rate);
        self.bucket.set_rate(now, rate);
        if !self.enabled {
            self.bucket.start_with(phase);
        }
        self.calculated_rate = rate;
        self.enabled = true;
    }

    /// Hands a pinned rate back to the algorithm at `now` (a fleet member whose lease ended):
    /// CUBIC as if the rate pinned had been cut `phase x K` seconds ago (`phase` in [0, 1]),
    /// the rate measured from `now` on at the rate pinned. The members of a fleet whose
    /// leases end together then start at points of their own on the climb back to their
    /// shares (between `beta x` and all of it), rather than all at their shares at once, and
    /// none above it: a member probes past its share only once it climbed back to it. (Members
    /// that started a third of them past their shares, as independent clients would be,
    /// were throttled on 0.87 % of their requests during an outage of Redis of 10 s in one
    /// run of three, against 0.46 % for an uncoordinated fleet.)
    #[cfg(feature = "redis")]
    pub(crate) fn release(&mut self, now: f64, phase: f64) {
        if !self.enabled || !self.valid_time(now) {
            return;
        }
        self.latest = self.latest.max(now);
        let now = self.latest;
        let w_max = self.calculated_rate;
        let k = Cubic::with_max_rate(self.tuning, w_max, now).time_window();
        let since = phase.clamp(0.0, 1.0) * k;
        self.cubic = Cubic::with_max_rate(self.tuning, w_max, now - since);
        self.transmit = TransmitRate::steady(self.tuning, now, w_max);
        self.calculated_rate = self.cubic.success(now).max(0.0);
        self.bucket.set_rate(now, self.calculated_rate);
    }

    /// Whether a successful response changes the fill rate only by closing a transmit-rate
    /// bucket: the rate has been measured (before, the cap follows every response) and CUBIC's
    /// rate (which only grows between throttles) is at or above the
    /// `max_rate_multiplier x measured` cap after the last response, a success; and no
    /// recovery period is open (the next response may end it, and must be seen).
    pub(crate) fn success_keeps_rate(&self) -> bool {
        !self.events.in_recovery()
            && self.transmit.is_measured()
            && !self.transmit.is_overdue()
            && self.calculated_rate >= self.tuning.max_rate_multiplier * self.transmit.measured()
    }

    /// Counts `count` successes in the current transmit-rate bucket without updating anything
    /// else, for the shared limiter's lock-free path. That is what
    /// [`on_response`](Self::on_response) does, except that
    /// [`calculated_rate`](Self::calculated_rate) stays CUBIC's rate at the last full update
    /// and the bucket is refilled at the next one, at the rate of the last one:
    /// * while [`success_keeps_rate`](Self::success_keeps_rate) that rate is the one
    ///   `on_response` would have set;
    /// * before the first throttle the bucket is not used, and the rate the skipped updates
    ///   would have set only grows within a transmit-rate bucket, so the tokens there when the
    ///   first throttle turns it on are never more than with `on_response`.
    pub(crate) fn count_responses(&mut self, count: u64) {
        self.transmit.count(count);
        self.events.count(count, 0);
        if !self.transmit.is_measured() {
            self.admitted_unmeasured += count;
        }
    }

    /// Takes `count` whole tokens taken without the lock by the shared limiter, as if taken
    /// at `now`, the latest instant they can have been taken at: the bucket is refilled to
    /// `now` first (see [`TokenBucket::take_whole`]). Taking them at an earlier instant and
    /// refilling after could count tokens the bucket's cap had already dropped.
    pub(crate) fn take_whole_tokens_at(&mut self, now: f64, count: u64) {
        self.bucket.refill(now);
        self.bucket.take_whole(count);
    }

    /// Takes a token at `now` if the bucket is on; `Err` says how long until one is there.
    ///
    /// A `now` the state ignores (see [`on_response`](Self::on_response), "Timestamps") is
    /// taken as the latest valid timestamp: nothing refills, a token is taken if one is there.
    pub fn try_acquire(&mut self, now: f64) -> Result<(), Duration> {
        let now = if self.valid_time(now) {
            self.latest = self.latest.max(now);
            now
        } else {
            self.latest
        };
        if self.enabled {
            let taken = self.bucket.try_take(now);
            self.saturated |= taken.is_err();
            taken
        } else {
            Ok(())
        }
    }

    /// Whether a throttle has been seen, so requests go through the bucket.
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// The smoothed transmit rate, in responses per second.
    pub fn measured_transmit_rate(&self) -> f64 {
        self.transmit.measured()
    }

    /// The rate CUBIC computed at the last response (before the `2 * measured` cap).
    pub fn calculated_rate(&self) -> f64 {
        self.calculated_rate
    }

    /// The bucket's fill rate (its "max rate"), in tokens per second.
    pub fn fill_rate(&self) -> f64 {
        self.bucket.fill_rate()
    }

    /// The bucket's maximum capacity, in tokens.
    pub fn max_capacity(&self) -> f64 {
        self.bucket.max_capacity()
    }

    /// Tokens in the bucket as of the last refill.
    pub fn capacity(&self) -> f64 {
        self.bucket.capacity()
    }

    /// CUBIC's `w_max`: the rate in effect at the last throttle (0 before any throttle), which
    /// the rate climbs back to and then past.
    ///
    /// ```
    /// use waiter_runtime::retry::adaptive::RateLimiterState;
    ///
    /// let mut state = RateLimiterState::new(0.0);
    /// assert_eq!(state.max_rate(), 0.0); // no throttle yet
    /// for i in 1..=20 {
    ///     state.on_response(i as f64 * 0.1, false); // 10 responses per second
    /// }
    /// state.on_response(2.05, true); // throttled
    /// assert_eq!(state.last_throttle(), 2.05);
    /// assert!((state.calculated_rate() - 0.75 * state.max_rate()).abs() < 1e-12);
    /// ```
    pub fn max_rate(&self) -> f64 {
        self.cubic.max_rate()
    }

    /// How many times the rate has been cut: throttles that cut it (with
    /// [`Tuning::one_cut_per_event`], one per congestion event).
    pub fn cuts(&self) -> u64 {
        self.cuts
    }

    /// When the last throttle was recorded (CUBIC's `t0`, in the state's seconds).
    pub fn last_throttle(&self) -> f64 {
        self.cubic.last_throttle()
    }

    /// The CUBIC calculator.
    pub(crate) fn cubic(&self) -> &Cubic {
        &self.cubic
    }

    /// The token bucket.
    pub(crate) fn bucket(&self) -> &TokenBucket {
        &self.bucket
    }

    /// The constants in use.
    pub fn tuning(&self) -> &Tuning {
        &self.tuning
    }
}

/// The max rate botocore's `TokenBucket` is built with (`TokenBucket(max_rate=1)` in
/// `adaptive.register_retry_handler`).
const SDK_INITIAL_MAX_RATE: f64 = 1.0;

/// A rate given to [`RateLimiterState::steady_at`] that is not a finite number of requests per
/// second, at least 0.
///
/// ```
/// use waiter_runtime::retry::adaptive::RateLimiterState;
///
/// let err = RateLimiterState::steady_at(-1.0, 0.0).unwrap_err();
/// assert_eq!(err.rate(), -1.0);
/// assert_eq!(
///     err.to_string(),
///     "invalid steady rate -1: expected a finite number of requests per second, at least 0",
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InvalidRate {
    rate: f64,
}

impl InvalidRate {
    /// The rate given.
    pub fn rate(&self) -> f64 {
        self.rate
    }
}

impl std::fmt::Display for InvalidRate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "invalid steady rate {}: expected a finite number of requests per second, at least 0",
            self.rate
        )
    }
}

impl std::error::Error for InvalidRate {}

/// Constants or a rate given to [`RateLimiterState::steady_at_with_tuning`] that are out of range.
#[derive(Clone, Debug, PartialEq)]
pub enum InvalidSteadyState {
    /// A constant out of range (see [`Tuning::validate`]).
    Tuning(InvalidTuning),
    /// A rate that is not a finite number, at least 0.
    Rate(InvalidRate),
}

impl std::fmt::Display for InvalidSteadyState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InvalidSteadyState::Tuning(e) => e.fmt(f),
            InvalidSteadyState::Rate(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for InvalidSteadyState {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InvalidSteadyState::Tuning(e) => Some(e),
            InvalidSteadyState::Rate(e) => Some(e),
        }
    }
}
