//! Congestion events: when a throttle starts a new one (the send marks that tell them apart),
//! and how often the client is throttled between them.

/// When a request was sent, as the limiter tells congestion events apart: taken with
/// [`ClientRateLimiter::sent`] just before the request goes out, given back with its response
/// to [`ClientRateLimiter::on_response_to`]. With [`Tuning::one_cut_per_event`] (the default)
/// a throttle cuts the rate only if its request was sent after the last cut (and, with
/// [`Tuning::recovery_period`], after the cut's recovery period).
///
/// It is a count of the cuts and recovery periods so far, read with one atomic load: no clock
/// reading.
///
/// ```
/// use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState};
///
/// let limiter = ClientRateLimiter::with_state(RateLimiterState::steady_at(100.0, 0.0).unwrap());
/// let (a, b) = (limiter.sent(), limiter.sent()); // two requests in flight
/// limiter.on_response_to(a, true); // the overshoot's first throttle: the rate is cut
/// let cut = limiter.state().fill_rate();
/// limiter.on_response_to(b, true); // sent before that cut: the same event, no second cut
/// assert_eq!(limiter.state().fill_rate(), cut);
/// assert_eq!(limiter.state().cuts(), 1);
/// ```
///
/// [`ClientRateLimiter::sent`]: super::ClientRateLimiter::sent
/// [`ClientRateLimiter::on_response_to`]: super::ClientRateLimiter::on_response_to
/// [`Tuning::one_cut_per_event`]: super::Tuning::one_cut_per_event
/// [`Tuning::recovery_period`]: super::Tuning::recovery_period
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sent(u64);

impl Sent {
    /// A mark as a number (what the retrier's [`RateLimiter`](crate::retry::RateLimiter) hook
    /// carries).
    pub(crate) fn from_raw(mark: u64) -> Self {
        Sent(mark)
    }

    /// The mark as a number.
    pub(crate) fn raw(self) -> u64 {
        self.0
    }
}

/// When a request was sent, against the last cut of the rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SentWhen {
    /// Before the last cut: its throttle answers the overshoot that cut answered.
    BeforeCut,
    /// After the last cut, in its recovery period (see [`Tuning::recovery_period`]): its
    /// throttle answers the same overshoot.
    ///
    /// [`Tuning::recovery_period`]: super::Tuning::recovery_period
    InRecovery,
    /// After the last cut and its recovery period: its throttle is a new congestion event.
    After,
    /// Not known (the response was reported without its send time or mark): its throttle
    /// cuts, as in the SDKs.
    Unknown,
}

/// Weight of the newest interval between cuts in the smoothed throttle share.
const SHARE_WEIGHT: f64 = 0.25;

/// The congestion-event bookkeeping of [`RateLimiterState`](super::RateLimiterState), a
/// plain value driven by explicit timestamps (seconds).
///
/// A cut starts a congestion event and, with a recovery period, the period too: it lasts
/// until the first response to a request sent after the cut. Requests are told apart by a
/// mark taken when they are sent ([`mark`](Self::mark), a count of cuts and recovery ends:
/// what the shared limiter reads with one atomic load) or by their send time.
///
/// It also measures the client's throttle share between cuts: the throttles of requests sent
/// after the last cut over the responses since it, summed over the intervals between cuts
/// with weights that halve every few cuts (a ratio of smoothed sums: the mean of the ratios
/// would count a short interval's one throttle as a large share).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Events {
    /// Bumped at each cut and at the end of each recovery period: odd while in recovery
    /// (with recovery periods; without, bumped by two at each cut).
    phase: u64,
    /// When the rate was last cut (`-inf` before the first cut).
    last_cut: f64,
    /// When the last recovery period ended (`-inf` if none did).
    recovery_end: f64,
    /// Responses since the last cut.
    responses: u64,
    /// Throttles since the last cut, of requests sent after it.
    throttles: u64,
    /// Smoothed responses and throttles per interval between cuts (`None` before the second
    /// cut: the first interval is the cold start's).
    smoothed: Option<(f64, f64)>,
}

impl Events {
    pub(crate) fn new() -> Self {
        Self {
            phase: 0,
            last_cut: f64::NEG_INFINITY,
            recovery_end: f64::NEG_INFINITY,
            responses: 0,
            throttles: 0,
            smoothed: None,
        }
    }

    /// The mark of a request sent now.
    pub(crate) fn mark(&self) -> u64 {
        self.phase
    }

    /// Whether a recovery period is open.
    pub(crate) fn in_recovery(&self) -> bool {
        self.phase % 2 == 1
    }

    /// When a request marked `mark` was sent. Its response ends the recovery period if it is
    /// the first response to a request sent in it.
    pub(crate) fn by_mark(&mut self, mark: u64, now: f64) -> SentWhen {
        if mark == self.phase {
            if self.in_recovery() {
                self.end_recovery(now);
                SentWhen::InRecovery
            } else {
                SentWhen::After
            }
        } else if mark % 2 == 1 && mark + 1 == self.phase {
            SentWhen::InRecovery
        } else if mark > self.phase {
            // Not a mark this state gave out (a limiter's state replaced since).
            SentWhen::Unknown
        } else {
            SentWhen::BeforeCut
        }
    }

    /// When a request sent at `sent_at` (the state's clock) was sent. A `sent_at` that is not
    /// a number is not known.
    pub(crate) fn by_time(&mut self, sent_at: f64, now: f64) -> SentWhen {
        if sent_at.is_nan() {
            SentWhen::Unknown
        } else if sent_at <= self.last_cut {
            SentWhen::BeforeCut
        } else if self.in_recovery() {
            self.end_recovery(now);
            SentWhen::InRecovery
        } else if sent_at <= self.recovery_end {
            SentWhen::InRecovery
        } else {
            SentWhen::After
        }
    }

    fn end_recovery(&mut self, now: f64) {
        self.phase += 1;
        self.recovery_end = now;
    }

    /// Counts `count` responses, `throttles` of them throttles of requests sent after the last
    /// cut.
    pub(crate) fn count(&mut self, count: u64, throttles: u64) {
        self.responses = self.responses.saturating_add(count);
        self.throttles = self.throttles.saturating_add(throttles);
    }

    /// A cut at `now`, starting a recovery period if `recovery`. Returns the smoothed throttle
    /// share, once two cuts have closed an interval.
    pub(crate) fn cut(&mut self, now: f64, recovery: bool) -> Option<f64> {
        let interval = (self.responses as f64, self.throttles as f64);
        let share = if self.last_cut.is_finite() {
            let (responses, throttles) = match self.smoothed {
                Some((r, t)) => (
                    (1.0 - SHARE_WEIGHT) * r + SHARE_WEIGHT * interval.0,
                    (1.0 - SHARE_WEIGHT) * t + SHARE_WEIGHT * interval.1,
                ),
                None => interval,
            };
            self.smoothed = Some((responses, throttles));
            Some(if responses > 0.0 {
                throttles / responses
            } else {
                1.0
            })
        } else {
            None
        };
        self.responses = 0;
        self.throttles = 0;
        self.last_cut = now;
        // Out of recovery first (a cut without a recovery period in between).
        self.phase += if self.in_recovery() { 1 } else { 0 };
        self.phase += if recovery { 1 } else { 2 };
        share
    }

    /// Moves the times (see `RateLimiterState::rebased`).
    pub(crate) fn map_times(&mut self, f: impl Fn(f64) -> f64) {
        if self.last_cut.is_finite() {
            self.last_cut = f(self.last_cut);
        }
        if self.recovery_end.is_finite() {
            self.recovery_end = f(self.recovery_end);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_tell_the_requests_of_an_event_and_its_recovery_apart() {
        let mut events = Events::new();
        let before = events.mark();
        assert_eq!(events.cut(1.0, true), None);
        assert_eq!(events.by_mark(before, 1.01), SentWhen::BeforeCut);
        let early = events.mark();
        let also_early = events.mark();
        // The first response to a request sent after the cut ends the recovery period.
        assert_eq!(events.by_mark(early, 1.05), SentWhen::InRecovery);
        let late = events.mark();
        assert_ne!(late, early);
        assert_eq!(events.by_mark(also_early, 1.06), SentWhen::InRecovery);
        assert_eq!(events.by_mark(late, 1.1), SentWhen::After);
        assert_eq!(events.by_mark(before, 1.1), SentWhen::BeforeCut);
        // A mark from a later state: not known.
        assert_eq!(events.by_mark(late + 10, 1.1), SentWhen::Unknown);
    }

    #[test]
    fn without_a_recovery_period_every_request_after_the_cut_is_after() {
        let mut events = Events::new();
        let before = events.mark();
        events.cut(1.0, false);
        assert_eq!(events.by_mark(before, 1.05), SentWhen::BeforeCut);
        let after = events.mark();
        assert_eq!(events.by_mark(after, 1.05), SentWhen::After);
        assert_eq!(events.mark(), after);
    }

    #[test]
    fn send_times_tell_them_apart_too() {
        let mut events = Events::new();
        events.cut(1.0, true);
        assert_eq!(events.by_time(0.99, 1.02), SentWhen::BeforeCut);
        assert_eq!(events.by_time(1.01, 1.05), SentWhen::InRecovery); // ends it at 1.05
        assert_eq!(events.by_time(1.04, 1.06), SentWhen::InRecovery);
        assert_eq!(events.by_time(1.051, 1.1), SentWhen::After);
        assert_eq!(events.by_time(f64::NAN, 1.1), SentWhen::Unknown);
    }

    #[test]
    fn the_throttle_share_is_a_ratio_of_smoothed_sums() {
        let mut events = Events::new();
        events.count(100, 50); // the cold start: not measured
        assert_eq!(events.cut(1.0, true), None);
        events.count(40, 2);
        assert_eq!(events.cut(2.0, true), Some(2.0 / 40.0));
        events.count(10, 1);
        let share = events.cut(3.0, true).unwrap();
        let expected = (0.75 * 2.0 + 0.25 * 1.0) / (0.75 * 40.0 + 0.25 * 10.0);
        assert!((share - expected).abs() < 1e-12);
    }
}
