//! [`RetryConfig`]: how many attempts, how long between them, which mode.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::{ErrorKind, backoff};

/// How retries are paced.
///
/// Parsed from `"standard"` or `"adaptive"`, ignoring case and surrounding whitespace (as the
/// AWS SDKs read `AWS_RETRY_MODE`):
///
/// ```
/// use waiter_runtime::retry::RetryMode;
///
/// assert_eq!(" Adaptive ".parse::<RetryMode>(), Ok(RetryMode::Adaptive));
/// let err = "legacy".parse::<RetryMode>().unwrap_err();
/// assert_eq!(err.to_string(), "unknown retry mode `legacy`: expected one of `standard`, `adaptive`");
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Eq, PartialEq, Hash, Debug, Default)]
pub enum RetryMode {
    /// Exponential backoff with full jitter and a retry quota.
    #[default]
    Standard,
    /// Standard, plus client-side rate limiting that slows every attempt down once the service
    /// has throttled (see `retry::adaptive`).
    Adaptive,
}

const VALID_RETRY_MODES: &[RetryMode] = &[RetryMode::Standard, RetryMode::Adaptive];

impl RetryMode {
    /// The name this mode is parsed from.
    pub fn as_str(self) -> &'static str {
        match self {
            RetryMode::Standard => "standard",
            RetryMode::Adaptive => "adaptive",
        }
    }
}

impl fmt::Display for RetryMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for RetryMode {
    type Err = RetryModeParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let trimmed = s.trim();
        VALID_RETRY_MODES
            .iter()
            .copied()
            .find(|mode| trimmed.eq_ignore_ascii_case(mode.as_str()))
            .ok_or_else(|| RetryModeParseError {
                given: trimmed.to_owned(),
            })
    }
}

/// The string given is not a retry mode. Its message lists the valid ones.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct RetryModeParseError {
    given: String,
}

impl RetryModeParseError {
    /// The (trimmed) string that was not recognised.
    pub fn given(&self) -> &str {
        &self.given
    }
}

impl fmt::Display for RetryModeParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown retry mode `{}`: expected one of ", self.given)?;
        for (i, mode) in VALID_RETRY_MODES.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{mode}`")?;
        }
        Ok(())
    }
}

impl std::error::Error for RetryModeParseError {}

/// Which revision of the AWS SDKs' standard retry behavior the defaults follow.
///
/// The AWS SDKs revised their standard retry behavior in 2026 ("retry behavior 2.1"):
/// botocore 1.44 ships it always on, the other SDKs behind `AWS_NEW_RETRIES_2026=true` until
/// their default rollout. It is the default here; the earlier one stays available by name for
/// clients that pinned its timings.
///
/// | | [`V2_0`](Self::V2_0) | [`V2_1`](Self::V2_1) (default) |
/// |---|---|---|
/// | base delay after a transient (non-throttling) error | 1 s | 50 ms |
/// | base delay after a throttle | 1 s | 1 s |
/// | quota cost of a retry after a transient error | 5, 10 after a [`TransientError`](ErrorKind::TransientError) | 14 |
/// | quota cost of a retry after a throttle | 5 | 5 |
/// | a server's retry-after hint | replaces the delay, at most `max_backoff` | `max(t, min(hint, t + 5 s))` |
/// | long-polling call with an empty quota | returns at once | backs off once, then returns |
///
/// Parsed from `"2.1"` or `"2.0"` (also `"v2.1"`, `"v2_0"`, any case, trimmed):
///
/// ```
/// use waiter_runtime::retry::{RetryBehavior, RetryConfig};
///
/// assert_eq!(RetryConfig::default().behavior(), RetryBehavior::V2_1);
/// assert_eq!(" V2.0 ".parse::<RetryBehavior>(), Ok(RetryBehavior::V2_0));
/// let err = "2026".parse::<RetryBehavior>().unwrap_err();
/// assert_eq!(err.to_string(), "unknown retry behavior `2026`: expected one of `2.1`, `2.0`");
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Eq, PartialEq, Hash, Debug, Default)]
pub enum RetryBehavior {
    /// The standard retry behavior before 2026 (botocore 1.43 and earlier, the other SDKs
    /// without `AWS_NEW_RETRIES_2026`): one 1 s base for every error, 5 tokens a retry, 10
    /// after a transient error.
    V2_0,
    /// Retry behavior 2.1 (botocore 1.44): a 50 ms base after transient errors and 1 s after
    /// throttles, 14 tokens a retry after a transient error and 5 after a throttle,
    /// `x-amz-retry-after` honoured within 5 s of the computed delay, long-polling calls back
    /// off once when the quota is empty.
    #[default]
    V2_1,
}

const VALID_BEHAVIORS: &[RetryBehavior] = &[RetryBehavior::V2_1, RetryBehavior::V2_0];

impl RetryBehavior {
    /// The name this behavior is parsed from (`"2.1"`, `"2.0"`).
    pub fn as_str(self) -> &'static str {
        match self {
            RetryBehavior::V2_0 => "2.0",
            RetryBehavior::V2_1 => "2.1",
        }
    }
}

impl fmt::Display for RetryBehavior {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for RetryBehavior {
    type Err = RetryBehaviorParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let trimmed = s.trim();
        let bare = trimmed
            .strip_prefix(['v', 'V'])
            .unwrap_or(trimmed)
            .replace('_', ".");
        VALID_BEHAVIORS
            .iter()
            .copied()
            .find(|behavior| bare == behavior.as_str())
            .ok_or_else(|| RetryBehaviorParseError {
                given: trimmed.to_owned(),
            })
    }
}

/// The string given is not a retry behavior. Its message lists the valid ones.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct RetryBehaviorParseError {
    given: String,
}

impl RetryBehaviorParseError {
    /// The (trimmed) string that was not recognised.
    pub fn given(&self) -> &str {
        &self.given
    }
}

impl fmt::Display for RetryBehaviorParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown retry behavior `{}`: expected one of ",
            self.given
        )?;
        for (i, behavior) in VALID_BEHAVIORS.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{behavior}`")?;
        }
        Ok(())
    }
}

impl std::error::Error for RetryBehaviorParseError {}

/// How a computed backoff is randomised.
#[non_exhaustive]
#[derive(Clone, Copy, Eq, PartialEq, Hash, Debug, Default)]
pub enum Jitter {
    /// Full jitter: `rand[0,1) * min(base * 2^(attempt-1), max_backoff)` (the cap applies
    /// before the jitter), `base` the transient or the throttling base.
    #[default]
    Full,
    /// No jitter: `min(base * 2^(attempt-1), max_backoff)`. Clients that share a service all
    /// retry at the same instants; meant for tests and single clients.
    None,
}

/// A service whose AWS SDK clients ship retry defaults of their own.
#[derive(Clone, Copy, Eq, PartialEq, Hash, Debug)]
enum ServicePreset {
    /// DynamoDB and DynamoDB Streams: 4 attempts, 25 ms transient base (retry behavior 2.1).
    DynamoDb,
}

/// The values a behavior (and a service preset) gives the settings left unset.
struct Defaults {
    max_attempts: u32,
    transient_backoff: Duration,
    throttling_backoff: Duration,
}

fn defaults(behavior: RetryBehavior, preset: Option<ServicePreset>) -> Defaults {
    match (behavior, preset) {
        (RetryBehavior::V2_0, _) => Defaults {
            max_attempts: 3,
            transient_backoff: Duration::from_secs(1),
            throttling_backoff: Duration::from_secs(1),
        },
        (RetryBehavior::V2_1, None) => Defaults {
            max_attempts: 3,
            transient_backoff: Duration::from_millis(50),
            throttling_backoff: Duration::from_secs(1),
        },
        (RetryBehavior::V2_1, Some(ServicePreset::DynamoDb)) => Defaults {
            max_attempts: 4,
            transient_backoff: Duration::from_millis(25),
            throttling_backoff: Duration::from_secs(1),
        },
    }
}

/// How far past the computed delay retry behavior 2.1 follows a server's retry-after hint.
pub(crate) const RETRY_AFTER_MAX_ADDITIONAL: Duration = Duration::from_secs(5);

/// What a [`Retrier`](super::Retrier) does: how many attempts, how long between them, the mode
/// and the [`RetryBehavior`] its defaults follow.
///
/// Cheap to clone. Build one with [`RetryConfig::standard`] (or [`RetryConfig::adaptive`],
/// [`RetryConfig::dynamodb`]). Settings given explicitly keep precedence over the defaults of
/// the behavior, whichever order the builder calls come in:
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::retry::{ErrorKind, RetryBehavior, RetryConfig, RetryMode};
///
/// // Defaults (retry behavior 2.1): 3 attempts (the first try counts), 50 ms base after a
/// // transient error, 1 s after a throttle, 20 s max backoff.
/// let config = RetryConfig::default();
/// assert_eq!(config.max_attempts(), 3);
/// assert_eq!(config.transient_backoff(), Duration::from_millis(50));
/// assert_eq!(config.throttling_backoff(), Duration::from_secs(1));
/// assert_eq!(config.backoff_bound(ErrorKind::ServerError, 3), Duration::from_millis(200));
///
/// let config = RetryConfig::standard()
///     .max_attempts(5)
///     .transient_backoff(Duration::from_millis(200))
///     .behavior(RetryBehavior::V2_0) // the earlier defaults for what is not set
///     .max_total_time(Duration::from_secs(30))
///     .build();
/// assert_eq!(config.max_attempts(), 5);
/// assert_eq!(config.transient_backoff(), Duration::from_millis(200));
/// assert_eq!(config.throttling_backoff(), Duration::from_secs(1));
/// assert_eq!(config.mode(), RetryMode::Standard);
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RetryConfig {
    mode: RetryMode,
    behavior: RetryBehavior,
    max_attempts: u32,
    transient_backoff: Duration,
    throttling_backoff: Duration,
    max_backoff: Duration,
    max_total_time: Option<Duration>,
    attempt_timeout: Option<Duration>,
    jitter: Jitter,
}

impl Default for RetryConfig {
    fn default() -> Self {
        RetryConfig::standard().build()
    }
}

impl RetryConfig {
    /// A builder for the standard mode, retry behavior 2.1 (see [`RetryBehavior`]).
    pub fn standard() -> RetryConfigBuilder {
        RetryConfigBuilder {
            mode: RetryMode::Standard,
            behavior: RetryBehavior::default(),
            preset: None,
            max_attempts: None,
            transient_backoff: None,
            throttling_backoff: None,
            max_backoff: Duration::from_secs(20),
            max_total_time: None,
            attempt_timeout: None,
            jitter: Jitter::Full,
        }
    }

    /// A builder for the adaptive mode, with the defaults.
    pub fn adaptive() -> RetryConfigBuilder {
        RetryConfig::standard().mode(RetryMode::Adaptive)
    }

    /// A builder with the defaults the AWS SDKs give DynamoDB and DynamoDB Streams clients
    /// under retry behavior 2.1: 4 attempts and a 25 ms base after transient errors
    /// (throttles keep the 1 s base). For a hand-written DynamoDB client, so that it retries
    /// with the SDK's numbers. Explicit settings keep precedence; under
    /// [`RetryBehavior::V2_0`] the preset does not apply (the general defaults do).
    ///
    /// ```
    /// use std::time::Duration;
    /// use waiter_runtime::retry::{RetryBehavior, RetryConfig};
    ///
    /// let config = RetryConfig::dynamodb().build();
    /// assert_eq!(config.max_attempts(), 4);
    /// assert_eq!(config.transient_backoff(), Duration::from_millis(25));
    /// assert_eq!(config.throttling_backoff(), Duration::from_secs(1));
    ///
    /// // Adaptive, and one more attempt than the preset:
    /// let config = RetryConfig::dynamodb().adaptive().max_attempts(5).build();
    /// assert_eq!((config.max_attempts(), config.transient_backoff()), (5, Duration::from_millis(25)));
    ///
    /// let config = RetryConfig::dynamodb().behavior(RetryBehavior::V2_0).build();
    /// assert_eq!((config.max_attempts(), config.transient_backoff()), (3, Duration::from_secs(1)));
    /// ```
    pub fn dynamodb() -> RetryConfigBuilder {
        RetryConfigBuilder {
            preset: Some(ServicePreset::DynamoDb),
            ..RetryConfig::standard()
        }
    }

    /// One attempt, never a retry.
    pub fn disabled() -> RetryConfig {
        RetryConfig::standard().max_attempts(1).build()
    }

    /// The retry mode.
    pub fn mode(&self) -> RetryMode {
        self.mode
    }

    /// The retry behavior the defaults (and the retry-after and long-polling rules) follow.
    pub fn behavior(&self) -> RetryBehavior {
        self.behavior
    }

    /// The most attempts a call makes, the first try included (at least 1).
    pub fn max_attempts(&self) -> u32 {
        self.max_attempts
    }

    /// The backoff bound for the first retry after a transient (non-throttling) error.
    pub fn transient_backoff(&self) -> Duration {
        self.transient_backoff
    }

    /// The backoff bound for the first retry after a throttle.
    pub fn throttling_backoff(&self) -> Duration {
        self.throttling_backoff
    }

    /// The backoff bound for the first retry after a transient error.
    #[deprecated(
        note = "retry behavior 2.1 has two bases: use `transient_backoff()` or `throttling_backoff()`"
    )]
    pub fn initial_backoff(&self) -> Duration {
        self.transient_backoff
    }

    /// The base for a retry after an error of `kind`: the throttling base after a throttle,
    /// the transient base after any other error.
    pub fn base_backoff(&self, kind: ErrorKind) -> Duration {
        match kind {
            ErrorKind::ThrottlingError => self.throttling_backoff,
            _ => self.transient_backoff,
        }
    }

    /// No computed backoff waits longer than this (a retry-after hint may, in 2.1: see
    /// [`delay`](Self::delay)).
    pub fn max_backoff(&self) -> Duration {
        self.max_backoff
    }

    /// The total time budget of a call, if any.
    pub fn max_total_time(&self) -> Option<Duration> {
        self.max_total_time
    }

    /// The time each attempt has, if bounded (see
    /// [`RetryConfigBuilder::attempt_timeout`]).
    pub fn attempt_timeout(&self) -> Option<Duration> {
        self.attempt_timeout
    }

    /// Whether the config bounds attempts (an attempt timeout or a total time budget): each
    /// attempt then runs with a deadline ([`attempt_time_left`](super::attempt_time_left)).
    #[inline]
    pub(crate) fn bounds_attempts(&self) -> bool {
        self.attempt_timeout.is_some() || self.max_total_time.is_some()
    }

    /// How backoffs are randomised.
    pub fn jitter(&self) -> Jitter {
        self.jitter
    }

    /// The largest delay before the retry that follows failed attempt `attempt` (1 for the
    /// first try) after an error of `kind`: `min(base * 2^(attempt-1), max_backoff)`, `base`
    /// the [throttling or transient base](Self::base_backoff).
    ///
    /// ```
    /// use std::time::Duration;
    /// use waiter_runtime::retry::{ErrorKind, RetryConfig};
    ///
    /// let config = RetryConfig::standard().max_backoff(Duration::from_secs(5)).build();
    /// let bounds: Vec<u64> =
    ///     (1..=5).map(|a| config.backoff_bound(ErrorKind::ThrottlingError, a).as_secs()).collect();
    /// assert_eq!(bounds, [1, 2, 4, 5, 5]);
    /// let bounds: Vec<u128> =
    ///     (1..=5).map(|a| config.backoff_bound(ErrorKind::TransientError, a).as_millis()).collect();
    /// assert_eq!(bounds, [50, 100, 200, 400, 800]);
    /// ```
    pub fn backoff_bound(&self, kind: ErrorKind, attempt: u32) -> Duration {
        backoff::bound(attempt, self.base_backoff(kind), self.max_backoff)
    }

    /// The delay before the retry that follows failed attempt `attempt` after an error of
    /// `kind`, given a random number in `[0, 1)` (ignored without jitter) and the server's
    /// retry-after hint.
    ///
    /// The computed delay is `t = random * backoff_bound(kind, attempt)`. With a hint:
    /// * [`RetryBehavior::V2_1`]: `max(t, min(hint, t + 5 s))`, as botocore 1.44: the hint is
    ///   honoured, never more than 5 s past the computed delay, never less than it;
    /// * [`RetryBehavior::V2_0`]: the hint replaces the delay, bounded by
    ///   [`max_backoff`](Self::max_backoff).
    ///
    /// ```
    /// use std::time::Duration;
    /// use waiter_runtime::retry::{ErrorKind, RetryBehavior, RetryConfig};
    ///
    /// let (s, ms) = (Duration::from_secs, Duration::from_millis);
    /// let throttle = ErrorKind::ThrottlingError;
    /// let config = RetryConfig::default(); // 2.1
    /// assert_eq!(config.delay(throttle, 3, 0.5, None), s(2));
    /// assert_eq!(config.delay(throttle, 1, 0.5, Some(s(3))), s(3));
    /// assert_eq!(config.delay(throttle, 1, 0.5, Some(s(60))), ms(5500)); // t + 5 s
    /// assert_eq!(config.delay(throttle, 1, 0.5, Some(ms(10))), ms(500)); // never below t
    ///
    /// let config = RetryConfig::standard().behavior(RetryBehavior::V2_0).build();
    /// assert_eq!(config.delay(throttle, 1, 0.5, Some(s(7))), s(7));
    /// assert_eq!(config.delay(throttle, 1, 0.5, Some(s(60))), s(20));
    /// ```
    pub fn delay(
        &self,
        kind: ErrorKind,
        attempt: u32,
        random: f64,
        retry_after: Option<Duration>,
    ) -> Duration {
        let bound = self.backoff_bound(kind, attempt);
        let computed = match self.jitter {
            Jitter::Full => backoff::jittered(bound, random),
            Jitter::None => bound,
        };
        match (self.behavior, retry_after) {
            (_, None) => computed,
            (RetryBehavior::V2_0, Some(hint)) => hint.min(self.max_backoff),
            (RetryBehavior::V2_1, Some(hint)) => hint
                .min(computed.saturating_add(RETRY_AFTER_MAX_ADDITIONAL))
                .max(computed),
        }
    }
}

/// A [`RetryConfigBuilder`] setting that cannot work, from
/// [`try_build`](RetryConfigBuilder::try_build).
///
/// Delays are [`Duration`]s, so never negative nor NaN: a number of seconds read from
/// elsewhere goes through [`Duration::try_from_secs_f64`], which rejects those with a typed
/// error of its own.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::retry::{InvalidRetryConfig, RetryConfig};
///
/// let err = RetryConfig::standard().max_attempts(0).try_build().unwrap_err();
/// assert_eq!(err, InvalidRetryConfig::ZeroAttempts);
/// assert_eq!(err.to_string(), "invalid retry config: `max_attempts` is 0 but must be at least 1 (the first try counts)");
///
/// assert!(Duration::try_from_secs_f64(-0.05).is_err());
/// assert!(Duration::try_from_secs_f64(f64::NAN).is_err());
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Eq, PartialEq, Debug)]
pub enum InvalidRetryConfig {
    /// `max_attempts(0)`: the first try counts, so at least 1.
    ZeroAttempts,
    /// A backoff base above `max_backoff`: every delay would be the max.
    BaseAboveMax {
        /// `"transient_backoff"` or `"throttling_backoff"`.
        setting: &'static str,
        /// The base given.
        base: Duration,
        /// The max backoff.
        max_backoff: Duration,
    },
    /// `attempt_timeout(Duration::ZERO)`: every attempt would time out before it began.
    ZeroAttemptTimeout,
}

impl fmt::Display for InvalidRetryConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidRetryConfig::ZeroAttempts => f.write_str(
                "invalid retry config: `max_attempts` is 0 but must be at least 1 (the first try counts)",
            ),
            InvalidRetryConfig::BaseAboveMax {
                setting,
                base,
                max_backoff,
            } => write!(
                f,
                "invalid retry config: `{setting}` is {base:?}, above `max_backoff` ({max_backoff:?})"
            ),
            InvalidRetryConfig::ZeroAttemptTimeout => f.write_str(
                "invalid retry config: `attempt_timeout` is 0, so every attempt would time out at once; leave it unset for no timeout",
            ),
        }
    }
}

impl std::error::Error for InvalidRetryConfig {}

/// Builds a [`RetryConfig`]; see there.
///
/// Settings not given come from the [`RetryBehavior`] (and the service preset, for
/// [`RetryConfig::dynamodb`]) when the config is built, so `behavior(..)` may come before or
/// after them.
#[derive(Clone, Debug)]
#[must_use = "call `.build()` to get the RetryConfig"]
pub struct RetryConfigBuilder {
    mode: RetryMode,
    behavior: RetryBehavior,
    preset: Option<ServicePreset>,
    max_attempts: Option<u32>,
    transient_backoff: Option<Duration>,
    throttling_backoff: Option<Duration>,
    max_backoff: Duration,
    max_total_time: Option<Duration>,
    attempt_timeout: Option<Duration>,
    jitter: Jitter,
}

impl RetryConfigBuilder {
    /// The retry mode.
    pub fn mode(mut self, mode: RetryMode) -> Self {
        self.mode = mode;
        self
    }

    /// The adaptive mode (same as `mode(RetryMode::Adaptive)`).
    pub fn adaptive(self) -> Self {
        self.mode(RetryMode::Adaptive)
    }

    /// The retry behavior whose defaults apply to the settings not given. Default
    /// [`RetryBehavior::V2_1`].
    pub fn behavior(mut self, behavior: RetryBehavior) -> Self {
        self.behavior = behavior;
        self
    }

    /// The most attempts a call makes, the first try included. Default 3 (4 for
    /// [`RetryConfig::dynamodb`]).
    ///
    /// The first try is always made: [`build`](Self::build) takes `0` as `1`, no retries;
    /// [`try_build`](Self::try_build) reports it.
    pub fn max_attempts(mut self, max_attempts: u32) -> Self {
        self.max_attempts = Some(max_attempts);
        self
    }

    /// The backoff bound for the first retry after a transient (non-throttling) error; it
    /// doubles for each one after. Default 50 ms (25 ms for [`RetryConfig::dynamodb`]; 1 s in
    /// [`RetryBehavior::V2_0`]), or `max_backoff` if that is less.
    pub fn transient_backoff(mut self, base: Duration) -> Self {
        self.transient_backoff = Some(base);
        self
    }

    /// The backoff bound for the first retry after a throttle; it doubles for each one after.
    /// Default 1 s (or `max_backoff`, if that is less).
    pub fn throttling_backoff(mut self, base: Duration) -> Self {
        self.throttling_backoff = Some(base);
        self
    }

    /// Sets both bases, the transient and the throttling one: what `initial_backoff` meant
    /// when every error had one base.
    #[deprecated(
        note = "retry behavior 2.1 has two bases; this sets both: use `transient_backoff` and `throttling_backoff`"
    )]
    pub fn initial_backoff(self, base: Duration) -> Self {
        self.transient_backoff(base).throttling_backoff(base)
    }

    /// No computed backoff waits longer than this. Default 20 s.
    pub fn max_backoff(mut self, max_backoff: Duration) -> Self {
        self.max_backoff = max_backoff;
        self
    }

    /// A total time budget for a call, counted from its first attempt: no retry is scheduled
    /// whose backoff would end at or after it (its attempt would have no time), and a retry
    /// waits for the adaptive rate limiter's token only until it ends (then the call returns
    /// its last error,
    /// [`StopReason::TimeBudgetExhausted`](super::StopReason::TimeBudgetExhausted)). The
    /// first attempt's own wait for a token comes before the budget starts: the call has no
    /// error to return yet.
    ///
    /// Each attempt has until the budget ends (or its
    /// [`attempt_timeout`](Self::attempt_timeout), if that comes first):
    /// [`Retrier::run_timed`](super::Retrier::run_timed) cuts it short there, the other calls
    /// hand it that time ([`attempt_time_left`](super::attempt_time_left)).
    pub fn max_total_time(mut self, budget: Duration) -> Self {
        self.max_total_time = Some(budget);
        self
    }

    /// The time each attempt has: `min(attempt_timeout, what is left of max_total_time, what
    /// is left of the waiter's max_wait)` inside a waiter's poll. Default: none.
    ///
    /// [`Retrier::run_timed`](super::Retrier::run_timed) (and the retry layers) cancel an
    /// async attempt that outlasts it, count it as a transient error
    /// ([`AttemptTimedOut`](super::AttemptTimedOut)) and retry it if attempts, quota or budget,
    /// and time remain; their error says the attempt timed out, and after how long
    /// ([`AttemptError::TimedOut`](super::AttemptError::TimedOut)), while the operation's own
    /// error type stays as it is. `run`, `run_report` and the blocking calls, whose error is
    /// the operation's, cannot say that: they hand each attempt its time instead, which the
    /// operation reads with [`attempt_time_left`](super::attempt_time_left) to set its own
    /// transport's timeout (whose error it already has). A blocking attempt cannot be cancelled
    /// in any case.
    ///
    /// [`try_build`](Self::try_build) reports a zero timeout.
    ///
    /// ```
    /// use std::time::Duration;
    /// use waiter_runtime::retry::RetryConfig;
    ///
    /// let config = RetryConfig::standard()
    ///     .attempt_timeout(Duration::from_secs(2))
    ///     .max_total_time(Duration::from_secs(10))
    ///     .build();
    /// assert_eq!(config.attempt_timeout(), Some(Duration::from_secs(2)));
    /// ```
    pub fn attempt_timeout(mut self, timeout: Duration) -> Self {
        self.attempt_timeout = Some(timeout);
        self
    }

    /// How backoffs are randomised. Default [`Jitter::Full`].
    pub fn jitter(mut self, jitter: Jitter) -> Self {
        self.jitter = jitter;
        self
    }

    /// The configuration, checked: zero attempts, a base above `max_backoff`, or a zero
    /// attempt timeout is an error.
    ///
    /// Only what was set is checked: a base left to its default is capped at `max_backoff`,
    /// by [`build`](Self::build) as here, so a `max_backoff` below a default base is never
    /// an error.
    ///
    /// ```
    /// use std::time::Duration;
    /// use waiter_runtime::retry::RetryConfig;
    ///
    /// // The throttling base defaults to 1 s: capped at 500 ms, not an error.
    /// let config = RetryConfig::standard().max_backoff(Duration::from_millis(500)).try_build().unwrap();
    /// assert_eq!(config.throttling_backoff(), Duration::from_millis(500));
    ///
    /// // A base the user set above `max_backoff` is reported, by name.
    /// let err = RetryConfig::standard()
    ///     .max_backoff(Duration::from_millis(500))
    ///     .throttling_backoff(Duration::from_secs(2))
    ///     .try_build()
    ///     .unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "invalid retry config: `throttling_backoff` is 2s, above `max_backoff` (500ms)"
    /// );
    /// ```
    pub fn try_build(self) -> Result<RetryConfig, InvalidRetryConfig> {
        if self.max_attempts == Some(0) {
            return Err(InvalidRetryConfig::ZeroAttempts);
        }
        if self.attempt_timeout == Some(Duration::ZERO) {
            return Err(InvalidRetryConfig::ZeroAttemptTimeout);
        }
        let config = self.build();
        for (setting, base) in [
            ("transient_backoff", config.transient_backoff),
            ("throttling_backoff", config.throttling_backoff),
        ] {
            if base > config.max_backoff {
                return Err(InvalidRetryConfig::BaseAboveMax {
                    setting,
                    base,
                    max_backoff: config.max_backoff,
                });
            }
        }
        Ok(config)
    }

    /// The configuration (`max_attempts(0)` taken as 1, a base set above `max_backoff` kept:
    /// every delay is capped at `max_backoff`; see [`try_build`](Self::try_build) for a
    /// checked one). A base left to its default is capped at `max_backoff`.
    pub fn build(self) -> RetryConfig {
        let mut defaults = defaults(self.behavior, self.preset);
        defaults.transient_backoff = defaults.transient_backoff.min(self.max_backoff);
        defaults.throttling_backoff = defaults.throttling_backoff.min(self.max_backoff);
        RetryConfig {
            mode: self.mode,
            behavior: self.behavior,
            max_attempts: self.max_attempts.unwrap_or(defaults.max_attempts).max(1),
            transient_backoff: self.transient_backoff.unwrap_or(defaults.transient_backoff),
            throttling_backoff: self
                .throttling_backoff
                .unwrap_or(defaults.throttling_backoff),
            max_backoff: self.max_backoff,
            max_total_time: self.max_total_time,
            attempt_timeout: self.attempt_timeout,
            jitter: self.jitter,
        }
    }
}
