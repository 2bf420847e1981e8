//! [`RetryConfig`]: how many attempts, how long between them, which mode.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::backoff;

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

/// How a computed backoff is randomised.
#[non_exhaustive]
#[derive(Clone, Copy, Eq, PartialEq, Hash, Debug, Default)]
pub enum Jitter {
    /// Full jitter: `rand[0,1) * min(initial_backoff * 2^(attempt-1), max_backoff)`.
    #[default]
    Full,
    /// No jitter: `min(initial_backoff * 2^(attempt-1), max_backoff)`. Clients that share a
    /// service all retry at the same instants; meant for tests and single clients.
    None,
}

/// What a [`Retrier`](super::Retrier) does: how many attempts, how long between them, the mode.
///
/// Cheap to clone. Build one with [`RetryConfig::standard`] (or [`RetryConfig::adaptive`]):
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::retry::{RetryConfig, RetryMode};
///
/// let config = RetryConfig::standard()
///     .max_attempts(5)
///     .initial_backoff(Duration::from_millis(200))
///     .max_total_time(Duration::from_secs(30))
///     .build();
/// assert_eq!(config.max_attempts(), 5);
/// assert_eq!(config.max_backoff(), Duration::from_secs(20));
/// assert_eq!(config.mode(), RetryMode::Standard);
///
/// // Defaults: 3 attempts (the first try counts), 1 s initial backoff, 20 s max backoff.
/// let config = RetryConfig::default();
/// assert_eq!((config.max_attempts(), config.initial_backoff()), (3, Duration::from_secs(1)));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RetryConfig {
    mode: RetryMode,
    max_attempts: u32,
    initial_backoff: Duration,
    max_backoff: Duration,
    max_total_time: Option<Duration>,
    jitter: Jitter,
}

impl Default for RetryConfig {
    fn default() -> Self {
        RetryConfig::standard().build()
    }
}

impl RetryConfig {
    /// A builder for the standard mode, with the defaults.
    pub fn standard() -> RetryConfigBuilder {
        RetryConfigBuilder {
            config: RetryConfig {
                mode: RetryMode::Standard,
                max_attempts: 3,
                initial_backoff: Duration::from_secs(1),
                max_backoff: Duration::from_secs(20),
                max_total_time: None,
                jitter: Jitter::Full,
            },
        }
    }

    /// A builder for the adaptive mode, with the defaults.
    pub fn adaptive() -> RetryConfigBuilder {
        RetryConfig::standard().mode(RetryMode::Adaptive)
    }

    /// One attempt, never a retry.
    pub fn disabled() -> RetryConfig {
        RetryConfig::standard().max_attempts(1).build()
    }

    /// The retry mode.
    pub fn mode(&self) -> RetryMode {
        self.mode
    }

    /// The most attempts a call makes, the first try included (at least 1).
    pub fn max_attempts(&self) -> u32 {
        self.max_attempts
    }

    /// The backoff bound for the first retry.
    pub fn initial_backoff(&self) -> Duration {
        self.initial_backoff
    }

    /// No backoff (nor server retry-after hint) waits longer than this.
    pub fn max_backoff(&self) -> Duration {
        self.max_backoff
    }

    /// The total time budget of a call, if any.
    pub fn max_total_time(&self) -> Option<Duration> {
        self.max_total_time
    }

    /// How backoffs are randomised.
    pub fn jitter(&self) -> Jitter {
        self.jitter
    }

    /// The largest delay before the retry that follows failed attempt `attempt` (1 for the first
    /// try): `min(initial_backoff * 2^(attempt-1), max_backoff)`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use waiter_runtime::retry::RetryConfig;
    ///
    /// let config = RetryConfig::standard().max_backoff(Duration::from_secs(5)).build();
    /// let bounds: Vec<u64> = (1..=5).map(|a| config.backoff_bound(a).as_secs()).collect();
    /// assert_eq!(bounds, [1, 2, 4, 5, 5]);
    /// ```
    pub fn backoff_bound(&self, attempt: u32) -> Duration {
        backoff::bound(attempt, self.initial_backoff, self.max_backoff)
    }

    /// The delay before the retry that follows failed attempt `attempt`, given a random number
    /// in `[0, 1)` (ignored without jitter) and the server's retry-after hint, which replaces
    /// the computed delay and is bounded by [`max_backoff`](Self::max_backoff).
    ///
    /// ```
    /// use std::time::Duration;
    /// use waiter_runtime::retry::RetryConfig;
    ///
    /// let config = RetryConfig::default();
    /// assert_eq!(config.delay(3, 0.5, None), Duration::from_secs(2));
    /// assert_eq!(config.delay(1, 0.5, Some(Duration::from_secs(7))), Duration::from_secs(7));
    /// assert_eq!(config.delay(1, 0.5, Some(Duration::from_secs(60))), Duration::from_secs(20));
    /// ```
    pub fn delay(&self, attempt: u32, random: f64, retry_after: Option<Duration>) -> Duration {
        match retry_after {
            Some(hint) => hint.min(self.max_backoff),
            None => {
                let bound = self.backoff_bound(attempt);
                match self.jitter {
                    Jitter::Full => backoff::jittered(bound, random),
                    Jitter::None => bound,
                }
            }
        }
    }
}

/// Builds a [`RetryConfig`]; see there.
#[derive(Clone, Debug)]
#[must_use = "call `.build()` to get the RetryConfig"]
pub struct RetryConfigBuilder {
    config: RetryConfig,
}

impl RetryConfigBuilder {
    /// The retry mode.
    pub fn mode(mut self, mode: RetryMode) -> Self {
        self.config.mode = mode;
        self
    }

    /// The most attempts a call makes, the first try included. Default 3.
    ///
    /// The first try is always made: `0` means the same as `1`, no retries.
    pub fn max_attempts(mut self, max_attempts: u32) -> Self {
        self.config.max_attempts = max_attempts.max(1);
        self
    }

    /// The backoff bound for the first retry; it doubles for each one after. Default 1 s.
    pub fn initial_backoff(mut self, initial_backoff: Duration) -> Self {
        self.config.initial_backoff = initial_backoff;
        self
    }

    /// No backoff, nor any server retry-after hint, waits longer than this. Default 20 s.
    pub fn max_backoff(mut self, max_backoff: Duration) -> Self {
        self.config.max_backoff = max_backoff;
        self
    }

    /// A total time budget for a call: no retry is scheduled whose backoff would end after it.
    /// An attempt under way is never cut short (give the operation its own timeout for that).
    pub fn max_total_time(mut self, budget: Duration) -> Self {
        self.config.max_total_time = Some(budget);
        self
    }

    /// How backoffs are randomised. Default [`Jitter::Full`].
    pub fn jitter(mut self, jitter: Jitter) -> Self {
        self.config.jitter = jitter;
        self
    }

    /// The configuration.
    pub fn build(self) -> RetryConfig {
        self.config
    }
}
