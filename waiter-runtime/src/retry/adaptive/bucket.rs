//! The token bucket the adaptive rate limiter fills at the calculated rate.

use std::time::Duration;

use super::Tuning;

/// A token bucket as a plain value, driven by explicit timestamps (seconds).
///
/// Its capacity never goes negative and never exceeds its maximum: a token is taken only when
/// one is there, and [`try_take`](Self::try_take) otherwise says how long until one will be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TokenBucket {
    min_fill_rate: f64,
    min_capacity: f64,
    burst_seconds: f64,
    fill_rate: f64,
    max_capacity: f64,
    capacity: f64,
    last_refill: Option<f64>,
}

impl TokenBucket {
    /// An empty bucket filling at the minimum rate, that has not been refilled yet.
    pub fn new(tuning: Tuning) -> Self {
        Self {
            min_fill_rate: tuning.min_fill_rate,
            min_capacity: tuning.min_capacity,
            burst_seconds: tuning.burst_seconds,
            fill_rate: tuning.min_fill_rate,
            max_capacity: tuning.min_capacity,
            capacity: 0.0,
            last_refill: None,
        }
    }

    /// Moves the last refill in time (see `RateLimiterState::rebased`).
    pub(crate) fn map_times(&mut self, f: impl Fn(f64) -> f64) {
        self.last_refill = self.last_refill.map(f);
    }

    /// Adds the tokens accrued since the last refill at the current fill rate.
    pub fn refill(&mut self, now: f64) {
        if let Some(last) = self.last_refill {
            // A timestamp older than the last refill (clocks read on several threads) adds
            // nothing rather than removing tokens.
            let elapsed = (now - last).max(0.0);
            self.capacity = (self.capacity + elapsed * self.fill_rate).min(self.max_capacity);
        }
        self.last_refill = Some(self.last_refill.map_or(now, |last| last.max(now)));
    }

    /// Sets the rate to `rate` at `now`: the fill rate becomes `max(rate, min_fill_rate)` and
    /// the capacity at most `max(rate x burst_seconds, min_capacity)` (`burst_seconds` is 1 in
    /// the SDKs: a second of tokens). Tokens accrued until `now` are counted at the old rate
    /// first.
    pub fn set_rate(&mut self, now: f64, rate: f64) {
        self.refill(now);
        self.fill_rate = rate.max(self.min_fill_rate);
        // `rate * 1.0` is `rate` bit for bit: the SDKs' capacity unchanged.
        self.max_capacity = (rate * self.burst_seconds).max(self.min_capacity);
        self.capacity = self.capacity.min(self.max_capacity);
    }

    /// Lowers the maximum capacity to `max_capacity` (never below the minimum capacity),
    /// dropping the tokens above it.
    pub(crate) fn limit_capacity(&mut self, max_capacity: f64) {
        self.max_capacity = self.max_capacity.min(max_capacity.max(self.min_capacity));
        self.capacity = self.capacity.min(self.max_capacity);
    }

    /// Holds `tokens` (at most its maximum capacity, at least none).
    #[cfg(feature = "redis")]
    pub(crate) fn start_with(&mut self, tokens: f64) {
        self.capacity = tokens.clamp(0.0, self.max_capacity);
    }

    /// Fills the bucket to its maximum capacity.
    pub fn fill(&mut self) {
        self.capacity = self.max_capacity;
    }

    /// Takes one token at `now`, or says how long until one is there at the current rate.
    pub fn try_take(&mut self, now: f64) -> Result<(), Duration> {
        self.refill(now);
        if self.capacity >= 1.0 {
            self.capacity -= 1.0;
            Ok(())
        } else {
            let secs = (1.0 - self.capacity) / self.fill_rate;
            // Round up to the next nanosecond so that waking at the deadline finds the token.
            Err(Duration::from_nanos((secs * 1e9).ceil() as u64))
        }
    }

    /// Takes `count` whole tokens at once, without refilling: what `count` takes at the time of
    /// the last refill do. For the shared limiter's lock-free path, which takes only tokens that
    /// were there (`count <= capacity`; a refill never lowers the capacity). Bit for bit the
    /// same as `count` subtractions of one: below 2^53 a float minus a whole number not above
    /// it is exact.
    pub(crate) fn take_whole(&mut self, count: u64) {
        debug_assert!(count as f64 <= self.capacity);
        self.capacity -= count as f64;
    }

    /// When the bucket was last refilled (the latest timestamp it has seen), if ever.
    pub(crate) fn last_refill(&self) -> Option<f64> {
        self.last_refill
    }

    /// Tokens per second.
    pub fn fill_rate(&self) -> f64 {
        self.fill_rate
    }

    /// The most tokens the bucket holds.
    pub fn max_capacity(&self) -> f64 {
        self.max_capacity
    }

    /// Tokens in the bucket at the last refill.
    pub fn capacity(&self) -> f64 {
        self.capacity
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_a_token_only_when_one_is_there() {
        let mut bucket = TokenBucket::new(Tuning::AWS);
        bucket.set_rate(0.0, 10.0); // 10 tokens/s, up to 10 tokens
        assert_eq!(bucket.try_take(0.0), Err(Duration::from_millis(100)));
        assert_eq!(bucket.try_take(0.1), Ok(()));
        assert_eq!(bucket.capacity(), 0.0);
    }

    #[test]
    fn holds_burst_seconds_of_tokens() {
        let mut bucket = TokenBucket::new(Tuning {
            burst_seconds: 0.05,
            ..Tuning::AWS
        });
        bucket.set_rate(0.0, 400.0);
        bucket.refill(10.0); // idle for 10 s: 20 tokens, not 400
        assert_eq!(bucket.capacity(), 20.0);
        bucket.set_rate(10.0, 4.0); // 0.2 tokens' worth: the minimum capacity, one token
        assert_eq!(bucket.max_capacity(), 1.0);
    }
}
