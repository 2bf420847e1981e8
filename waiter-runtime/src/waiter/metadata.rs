//! What a Smithy model says about one waiter, readable at compile time.

use std::time::Duration;

/// A waiter's static description: `#[waitable]` emits one as a `const` beside each waiter
/// function (`BUCKET_EXISTS_WAITER` for `BucketExists`).
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::waiter::WaiterMetadata;
///
/// const META: WaiterMetadata = WaiterMetadata::new("BucketExists", "head_bucket")
///     .with_delays(Duration::from_secs(5), Duration::from_secs(60))
///     .with_tags(&["s3"]);
/// assert_eq!(META.min_delay, Duration::from_secs(5));
/// assert_eq!(META.tags, ["s3"]);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaiterMetadata {
    /// The waiter's name as the model writes it (`BucketExists`).
    pub name: &'static str,
    /// The Rust function the waiter polls (`head_bucket`).
    pub operation: &'static str,
    /// The model's `documentation`, if any.
    pub documentation: Option<&'static str>,
    /// `minDelay` (default 2 s).
    pub min_delay: Duration,
    /// `maxDelay` (default 120 s).
    pub max_delay: Duration,
    /// `deprecated` (default `false`).
    pub deprecated: bool,
    /// `tags` (default empty).
    pub tags: &'static [&'static str],
}

impl WaiterMetadata {
    /// The spec's default `minDelay`: 2 seconds.
    pub const DEFAULT_MIN_DELAY: Duration = Duration::from_secs(2);
    /// The spec's default `maxDelay`: 120 seconds.
    pub const DEFAULT_MAX_DELAY: Duration = Duration::from_secs(120);

    /// A waiter with the spec's defaults.
    pub const fn new(name: &'static str, operation: &'static str) -> Self {
        WaiterMetadata {
            name,
            operation,
            documentation: None,
            min_delay: Self::DEFAULT_MIN_DELAY,
            max_delay: Self::DEFAULT_MAX_DELAY,
            deprecated: false,
            tags: &[],
        }
    }

    /// Sets `minDelay` and `maxDelay`.
    pub const fn with_delays(mut self, min_delay: Duration, max_delay: Duration) -> Self {
        self.min_delay = min_delay;
        self.max_delay = max_delay;
        self
    }

    /// Sets `documentation`.
    pub const fn with_documentation(mut self, documentation: &'static str) -> Self {
        self.documentation = Some(documentation);
        self
    }

    /// Sets `deprecated`.
    pub const fn with_deprecated(mut self, deprecated: bool) -> Self {
        self.deprecated = deprecated;
        self
    }

    /// Sets `tags`.
    pub const fn with_tags(mut self, tags: &'static [&'static str]) -> Self {
        self.tags = tags;
        self
    }
}
