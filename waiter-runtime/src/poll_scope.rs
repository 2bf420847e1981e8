//! The poll scope: what a retry layer needs to know while it runs inside a waiter's poll.
//!
//! A waiter is a retry loop of its own, and its acceptors may name an error that a retry
//! strategy would retry by default as the waiter's terminal condition (`ThrottlingException`
//! as a `failure` acceptor, say). The AWS SDKs keep the
//! client's retries inside each poll all the same, so that a throttle is retried there and never
//! reaches acceptors that do not expect it. Both hold with one rule:
//!
//! **Inside a poll, an error that one of the running waiter's acceptors names is never retried;
//! every other error goes to the retry strategy as usual**, with its quota and rate limiting,
//! and no retry waits past the waiter's deadline.
//!
//! What that means for a throttle, say `ThrottlingException`:
//!
//! * no acceptor names it (the published AWS waiters): it is retried inside the poll, with the
//!   retry strategy's backoff, and never reaches the acceptors;
//! * a `retry` acceptor names it: one attempt per poll, and the waiter's own backoff spaces
//!   the polls;
//! * a `failure` acceptor names it: the wait ends at once with `WaiterError::FailureState`;
//! * a `success: false` acceptor names every error: one attempt per poll, whatever the error.
//!
//! An error that no acceptor names and that is still failing when the retries stop (attempts,
//! quota) ends the wait as `WaiterError::OperationFailed`. A retry whose wait would end past the
//! waiter's deadline is moved up, as the waiter's own last poll is, to leave its attempt twice
//! the longest attempt so far to answer before the deadline; when that time is not left, or
//! the server's retry-after hint asks for later, the retry is given up and the wait ends as
//! `WaiterError::ExceededMaxWait`, with that error.
//!
//! The [`Waiter`](crate::waiter::Waiter) runs each poll inside a [`PollScope`] that carries the
//! errors its acceptors name ([`NamedErrors`]: the `errorType` codes and the HTTP statuses of
//! botocore's `status` matchers, every error when an acceptor is `success: false`), the
//! waiter's deadline, and counters: the attempts made inside
//! the poll and the time spent waiting for retries and for rate-limiter tokens, which the waiter
//! reports in [`PollEvent`](crate::waiter::PollEvent). [`Retrier`](crate::retry::Retrier)
//! follows the rule; a hand-written retry layer follows it with [`current`]:
//!
//! ```
//! use std::time::Duration;
//! use waiter_runtime::ProvideErrorMetadata;
//! use waiter_runtime::poll_scope;
//!
//! #[derive(Debug, ProvideErrorMetadata)]
//! enum Error {
//!     #[error_metadata(code = "ThrottlingException", throttling)]
//!     Throttled,
//!     #[error_metadata(code = "ResourceNotFoundException")]
//!     NotFound,
//! }
//!
//! /// What a hand-written retry layer asks before retrying `error` after `delay`.
//! fn may_retry(error: &Error, delay: Duration) -> bool {
//!     match poll_scope::current() {
//!         // Not inside a waiter's poll: the layer's own rules alone decide.
//!         None => true,
//!         // Inside a poll: never an error the waiter's acceptors name, never past its deadline.
//!         Some(scope) => !scope.names(error) && scope.fits(delay),
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread", start_paused = true)]
//! # async fn main() {
//! assert!(may_retry(&Error::NotFound, Duration::from_secs(1)));
//! assert!(may_retry(&Error::Throttled, Duration::from_secs(1)));
//! # }
//! ```
//!
//! Only the waiter makes a scope: to see a layer follow the rule, run it under a waiter whose
//! acceptors name an error (as `waiter-runtime/tests/waiter/poll_retries.rs` does). The
//! layer tells the waiter what it did with the `record_*` methods: the retries and their
//! waits, which the waiter reports per poll, that it ran (so the waiter's own retries stand
//! down), and that it gave up at the deadline.
//!
//! The scope is a tokio task-local (no tokio runtime needed): it does not follow work spawned
//! onto other tasks or threads. A blocking waiter's poll runs in it on the calling thread, so
//! a blocking retry layer called there (`Retrier::run_blocking`) sees it too.

use std::borrow::Cow;
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use tokio::time::Instant;

use crate::ProvideErrorMetadata;

tokio::task_local! {
    static POLL: PollScope;
}

/// The errors a waiter's acceptors name: inside its polls, a retry layer returns them at once.
///
/// ```
/// use waiter_runtime::poll_scope::NamedErrors;
///
/// let named = NamedErrors::codes(["com.amazonaws.ec2#InvalidInstanceID.NotFound"]);
/// assert!(named.names(Some("InvalidInstanceID.NotFound")));
/// assert!(!named.names(Some("RequestLimitExceeded")));
/// assert!(!named.names(None));
/// assert!(NamedErrors::every().names(None));
/// assert!(!NamedErrors::none().names(Some("Throttling")));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct NamedErrors(Repr);

#[derive(Clone, PartialEq, Eq)]
enum Repr {
    Every,
    /// `errorType` codes (name parts), and the HTTP statuses of botocore's `status` matchers
    /// (borrowed and empty for the waiters that have none: a wait builds its `NamedErrors`,
    /// and most name no status).
    Named {
        codes: Arc<[Cow<'static, str>]>,
        statuses: Cow<'static, [u16]>,
    },
}

impl NamedErrors {
    /// Every error (a `success: false` acceptor matches any error).
    pub fn every() -> Self {
        NamedErrors(Repr::Every)
    }

    /// No error: every error goes to the retry strategy.
    pub fn none() -> Self {
        NamedErrors(Repr::Named {
            codes: Arc::from([]),
            statuses: Cow::Borrowed(&[]),
        })
    }

    /// The errors whose [`code`](ProvideErrorMetadata::code) is one of `codes` (`errorType`
    /// values: an absolute shape ID names its name part, as the `errorType` matcher compares).
    pub fn codes<I>(codes: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<Cow<'static, str>>,
    {
        let codes: Vec<Cow<'static, str>> = codes
            .into_iter()
            .map(|code| match code.into() {
                Cow::Borrowed(code) => Cow::Borrowed(shape_name(code)),
                Cow::Owned(code) => Cow::Owned(shape_name(&code).to_owned()),
            })
            .collect();
        NamedErrors(Repr::Named {
            codes: codes.into(),
            statuses: Cow::Borrowed(&[]),
        })
    }

    /// These errors and those whose [`http_status`](ProvideErrorMetadata::http_status) is one of
    /// `statuses` (the `status` matchers of a waiter read from botocore's `waiters-2.json`).
    ///
    /// ```
    /// use waiter_runtime::poll_scope::NamedErrors;
    ///
    /// let named = NamedErrors::codes(["NotFound"]).with_statuses([404]);
    /// assert!(named.names_status(Some(404)));
    /// assert!(!named.names_status(Some(500)));
    /// assert!(named.names(Some("NotFound")));
    /// ```
    pub fn with_statuses(self, statuses: impl IntoIterator<Item = u16>) -> Self {
        match self.0 {
            Repr::Every => self,
            Repr::Named {
                codes,
                statuses: ours,
            } => {
                let mut statuses = statuses.into_iter().peekable();
                if statuses.peek().is_none() {
                    return NamedErrors(Repr::Named {
                        codes,
                        statuses: ours,
                    });
                }
                let all: Vec<u16> = ours.iter().copied().chain(statuses).collect();
                NamedErrors(Repr::Named {
                    codes,
                    statuses: Cow::Owned(all),
                })
            }
        }
    }

    /// Whether an error with this code is named.
    pub fn names(&self, code: Option<&str>) -> bool {
        match &self.0 {
            Repr::Every => true,
            Repr::Named { codes, .. } => {
                code.is_some_and(|code| codes.iter().any(|named| named == shape_name(code)))
            }
        }
    }

    /// Whether an error that came with this HTTP status is named (by a `status` matcher).
    pub fn names_status(&self, status: Option<u16>) -> bool {
        match &self.0 {
            Repr::Every => true,
            Repr::Named { statuses, .. } => status.is_some_and(|s| statuses.contains(&s)),
        }
    }

    /// Whether every error is named.
    pub fn is_every(&self) -> bool {
        matches!(self.0, Repr::Every)
    }
}

impl fmt::Debug for NamedErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Every => f.write_str("NamedErrors::every()"),
            Repr::Named { codes, statuses } if statuses.is_empty() => {
                f.debug_set().entries(codes.iter()).finish()
            }
            Repr::Named { codes, statuses } => f
                .debug_set()
                .entries(codes.iter())
                .entries(statuses.iter().map(|s| format!("status {s}")))
                .finish(),
        }
    }
}

/// The code an `errorType` names, compared as the `errorType` matcher compares it (see
/// [`normalize_code`](crate::error_metadata::normalize_code)).
fn shape_name(id: &str) -> &str {
    crate::error_metadata::normalize_code(id)
}

/// One running poll: the errors the waiter's acceptors name, its deadline, and what the retry
/// layers inside the poll did. Cheap to clone (clones share the counters). The waiter makes
/// it; a retry layer gets it from [`current`].
#[derive(Clone)]
pub struct PollScope {
    shared: Arc<Shared>,
}

struct Shared {
    named: NamedErrors,
    deadline: Option<Instant>,
    /// When the scope was made: the start of the poll's first attempt, for a retry layer
    /// that made it before it looked at the scope.
    started: Instant,
    retries: AtomicU32,
    retry_wait_nanos: AtomicU64,
    rate_limit_wait_nanos: AtomicU64,
    retry_layer: AtomicBool,
    stopped_at_deadline: AtomicBool,
    /// Whether the poll's last error was transient or throttling (set by the classification
    /// [`Waiter::transient_poll_errors`](crate::waiter::Waiter::transient_poll_errors) installs).
    transient_error: AtomicBool,
}

/// What the retry layers did inside one poll, as [`PollScope::stats`] reports it.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct PollStats {
    /// Attempts made inside the poll: 1, plus one per retry.
    pub attempts: u32,
    /// Time spent waiting for retries (their backoff or the server's retry-after hint).
    pub retry_wait: Duration,
    /// Time spent waiting for client-side rate-limiter tokens (the adaptive mode).
    pub rate_limit_wait: Duration,
}

impl PollScope {
    /// A scope for one poll of a waiter whose acceptors name `named`, ending at `deadline`.
    pub(crate) fn new(named: NamedErrors, deadline: Option<Instant>) -> Self {
        PollScope {
            shared: Arc::new(Shared {
                named,
                deadline,
                started: crate::timer::now(),
                retries: AtomicU32::new(0),
                retry_wait_nanos: AtomicU64::new(0),
                rate_limit_wait_nanos: AtomicU64::new(0),
                retry_layer: AtomicBool::new(false),
                stopped_at_deadline: AtomicBool::new(false),
                transient_error: AtomicBool::new(false),
            }),
        }
    }

    /// Runs `fut` inside this scope: [`current`] returns it there.
    pub(crate) async fn run<F: Future>(&self, fut: F) -> F::Output {
        POLL.scope(self.clone(), fut).await
    }

    /// Runs the blocking poll `f` inside this scope, on the calling thread.
    pub(crate) fn run_blocking<R>(&self, f: impl FnOnce() -> R) -> R {
        POLL.sync_scope(self.clone(), f)
    }

    /// The errors the waiter's acceptors name.
    pub fn named_errors(&self) -> &NamedErrors {
        &self.shared.named
    }

    /// Whether the waiter's acceptors name `error` (its code, or its HTTP status for a `status`
    /// matcher): a retry layer returns it at once.
    pub fn names<E: ProvideErrorMetadata + ?Sized>(&self, error: &E) -> bool {
        let named = &self.shared.named;
        named.names(error.code()) || named.names_status(error.http_status())
    }

    /// The waiter's deadline (`None`: no deadline).
    pub fn deadline(&self) -> Option<Instant> {
        self.shared.deadline
    }

    /// When the scope was made (just before the poll began).
    pub(crate) fn started(&self) -> Instant {
        self.shared.started
    }

    /// Whether a wait of `delay` from now ends at or before the waiter's deadline.
    pub fn fits(&self, delay: Duration) -> bool {
        match self.shared.deadline {
            None => true,
            Some(deadline) => crate::timer::now()
                .checked_add(delay)
                .is_some_and(|end| end <= deadline),
        }
    }

    /// Records a retry inside the poll, after a wait of `wait` for it.
    pub fn record_retry(&self, wait: Duration) {
        self.shared.retries.fetch_add(1, Ordering::Relaxed);
        add_nanos(&self.shared.retry_wait_nanos, wait);
    }

    /// Records a wait of `wait` for a retry that was then not made (its rate-limiter token
    /// would have come past the deadline): the time is the poll's, the attempt is not.
    pub(crate) fn record_retry_wait(&self, wait: Duration) {
        add_nanos(&self.shared.retry_wait_nanos, wait);
    }

    /// Records a wait of `wait` for a rate-limiter token.
    pub fn record_rate_limit_wait(&self, wait: Duration) {
        add_nanos(&self.shared.rate_limit_wait_nanos, wait);
    }

    /// Records that a retry layer ran inside the poll, so the waiter's own retries (see
    /// [`Waiter::retry`](crate::waiter::Waiter::retry)) stand down: no double retries.
    pub fn record_retry_layer(&self) {
        self.shared.retry_layer.store(true, Ordering::Relaxed);
    }

    /// Whether a retry layer recorded itself with [`record_retry_layer`](Self::record_retry_layer).
    pub(crate) fn retry_layer_ran(&self) -> bool {
        self.shared.retry_layer.load(Ordering::Relaxed)
    }

    /// Records that a retry layer gave up a retry because its wait would have ended past the
    /// waiter's deadline: the waiter then reports that it ran out of time, with the error.
    pub fn record_deadline_stop(&self) {
        self.shared
            .stopped_at_deadline
            .store(true, Ordering::Relaxed);
    }

    /// Whether a retry layer gave up at the waiter's deadline.
    pub(crate) fn stopped_at_deadline(&self) -> bool {
        self.shared.stopped_at_deadline.load(Ordering::Relaxed)
    }

    /// Records whether the poll's latest result was an error the retry classifiers call
    /// transient or throttling (each attempt's classification replaces the one before).
    pub(crate) fn record_transient_error(&self, transient: bool) {
        self.shared
            .transient_error
            .store(transient, Ordering::Relaxed);
    }

    /// Whether the poll's latest result was a transient or throttling error.
    pub(crate) fn transient_error(&self) -> bool {
        self.shared.transient_error.load(Ordering::Relaxed)
    }

    /// What the retry layers did so far in this poll.
    pub(crate) fn stats(&self) -> PollStats {
        PollStats {
            attempts: self
                .shared
                .retries
                .load(Ordering::Relaxed)
                .saturating_add(1),
            retry_wait: Duration::from_nanos(self.shared.retry_wait_nanos.load(Ordering::Relaxed)),
            rate_limit_wait: Duration::from_nanos(
                self.shared.rate_limit_wait_nanos.load(Ordering::Relaxed),
            ),
        }
    }
}

fn add_nanos(counter: &AtomicU64, wait: Duration) {
    let nanos = u64::try_from(wait.as_nanos()).unwrap_or(u64::MAX);
    let _ = counter.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
        Some(n.saturating_add(nanos))
    });
}

impl fmt::Debug for PollScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PollScope")
            .field("named", &self.shared.named)
            .field("deadline", &self.shared.deadline)
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

/// The scope of the waiter poll the current task is running, if it is running one.
pub fn current() -> Option<PollScope> {
    POLL.try_with(PollScope::clone).ok()
}

/// Whether the current task is running a waiter's poll.
pub fn in_poll() -> bool {
    POLL.try_with(|_| ()).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn scope_is_set_only_inside_and_not_in_spawned_tasks() {
        let scope = PollScope::new(NamedErrors::none(), None);
        assert!(!in_poll());
        assert!(scope.run(async { in_poll() }).await);
        assert!(!in_poll());
        let inner = scope
            .run(async { tokio::spawn(async { in_poll() }).await.unwrap() })
            .await;
        assert!(!inner);
    }

    #[test]
    fn codes_compare_on_shape_names() {
        let named = NamedErrors::codes([
            Cow::Borrowed("com.example#NotFound"),
            Cow::Owned("Gone".to_owned()),
        ]);
        assert!(named.names(Some("NotFound")));
        assert!(named.names(Some("com.other#NotFound")));
        assert!(named.names(Some("Gone")));
        assert!(!named.names(Some("Found")));
        assert_eq!(format!("{named:?}"), r#"{"NotFound", "Gone"}"#);
    }

    #[tokio::test(start_paused = true)]
    async fn counters_saturate() {
        let scope = PollScope::new(NamedErrors::none(), None);
        scope.record_retry(Duration::MAX);
        scope.record_retry(Duration::MAX);
        scope.record_rate_limit_wait(Duration::from_millis(5));
        let stats = scope.stats();
        assert_eq!(stats.attempts, 3);
        assert_eq!(stats.retry_wait, Duration::from_nanos(u64::MAX));
        assert_eq!(stats.rate_limit_wait, Duration::from_millis(5));
        assert!(scope.fits(Duration::MAX));
    }
    #[tokio::test(start_paused = true)]
    async fn a_layer_sees_the_scope_its_deadline_and_records_into_it() {
        let deadline = Instant::now() + Duration::from_secs(10);
        let scope = PollScope::new(NamedErrors::every(), Some(deadline));
        scope
            .run(async {
                let scope = current().unwrap();
                assert!(
                    scope.fits(Duration::from_secs(10)) && !scope.fits(Duration::from_secs(11))
                );
                scope.record_retry(Duration::from_millis(300));
            })
            .await;
        let stats = scope.stats();
        assert_eq!(
            (stats.attempts, stats.retry_wait),
            (2, Duration::from_millis(300))
        );
        assert!(current().is_none());
    }

    #[tokio::test]
    async fn in_poll_only_inside_a_scope() {
        assert!(!in_poll());
        let scope = PollScope::new(NamedErrors::none(), None);
        assert!(scope.run(async { in_poll() }).await);
    }

    #[derive(Debug, crate::ProvideErrorMetadata)]
    enum Error {
        #[error_metadata(code = "ThrottlingException", throttling)]
        Throttled,
        #[error_metadata(code = "ResourceNotFoundException")]
        NotFound,
    }

    /// The module documentation's hand-written layer, inside a poll.
    fn may_retry(error: &Error, delay: Duration) -> bool {
        match current() {
            None => true,
            Some(scope) => !scope.names(error) && scope.fits(delay),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn the_documented_layer_never_retries_what_the_acceptors_name() {
        assert!(may_retry(&Error::NotFound, Duration::from_secs(1)));
        let scope = PollScope::new(
            NamedErrors::codes(["com.amazonaws.dynamodb#ResourceNotFoundException"]),
            None,
        );
        scope
            .run(async {
                assert!(!may_retry(&Error::NotFound, Duration::from_secs(1)));
                assert!(may_retry(&Error::Throttled, Duration::from_secs(1)));
            })
            .await;
    }
}
