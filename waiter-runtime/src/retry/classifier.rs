//! Retry classification: the [`ClassifyRetry`] trait, what classifiers see
//! ([`ClassifyContext`]), their order ([`RetryClassifierPriority`]), and classifiers made of a
//! closure ([`classifier_fn`]). How a chain of them reaches one verdict is in
//! `classifier_chain.rs`.

use std::any::Any;
use std::fmt;

use super::RetryAction;
use crate::ProvideErrorMetadata;

/// What a classifier sees of one attempt: whether it succeeded, and if not, the error.
///
/// The error is seen through [`ProvideErrorMetadata`], and can be downcast to its concrete type.
///
/// ```
/// use waiter_runtime::ProvideErrorMetadata;
/// use waiter_runtime::retry::ClassifyContext;
///
/// #[derive(Debug, ProvideErrorMetadata)]
/// enum E {
///     #[error_metadata(status = 503)]
///     Unavailable,
/// }
///
/// let result: Result<(), E> = Err(E::Unavailable);
/// let ctx = ClassifyContext::new(&result, 1);
/// assert_eq!(ctx.error().and_then(|e| e.http_status()), Some(503));
/// assert!(matches!(ctx.downcast_error::<E>(), Some(E::Unavailable)));
/// assert!(!ctx.is_success());
/// ```
#[derive(Clone, Copy)]
pub struct ClassifyContext<'a> {
    error: Option<&'a dyn ErrorObject>,
    attempt: u32,
}

/// An error as classifiers see it: its metadata, and `Any` for downcasting.
trait ErrorObject: ProvideErrorMetadata {
    fn as_metadata(&self) -> &dyn ProvideErrorMetadata;
    fn as_any(&self) -> &dyn Any;
}

impl<T: ProvideErrorMetadata + Any> ErrorObject for T {
    fn as_metadata(&self) -> &dyn ProvideErrorMetadata {
        self
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl<'a> ClassifyContext<'a> {
    /// The context for the result of attempt number `attempt` (1 for the first try).
    pub fn new<O, E: ProvideErrorMetadata + 'static>(
        result: &'a Result<O, E>,
        attempt: u32,
    ) -> Self {
        let error = match result {
            Ok(_) => None,
            Err(e) => Some(e as &dyn ErrorObject),
        };
        ClassifyContext { error, attempt }
    }

    /// Whether the attempt returned `Ok`.
    pub fn is_success(&self) -> bool {
        self.error.is_none()
    }

    /// The attempt's error, if it failed.
    pub fn error(&self) -> Option<&'a dyn ProvideErrorMetadata> {
        self.error.map(ErrorObject::as_metadata)
    }

    /// The attempt's error as a `T`, if it failed with a `T`.
    pub fn downcast_error<T: 'static>(&self) -> Option<&'a T> {
        self.error.and_then(|e| e.as_any().downcast_ref())
    }

    /// The number of the attempt (1 for the first try).
    pub fn attempt(&self) -> u32 {
        self.attempt
    }
}

impl fmt::Debug for ClassifyContext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let error = self.error.map(|e| (e.code(), e.http_status()));
        f.debug_struct("ClassifyContext")
            .field("attempt", &self.attempt)
            .field("error (code, status)", &error)
            .finish()
    }
}

/// Decides whether an attempt's result should be retried.
///
/// ```
/// use waiter_runtime::retry::{
///     ClassifyContext, ClassifyRetry, RetryAction, RetryClassifierPriority,
/// };
///
/// /// Never retries an error whose code ends in `NotFound`, whatever the others say.
/// #[derive(Debug)]
/// struct NotFoundIsFinal;
///
/// impl ClassifyRetry for NotFoundIsFinal {
///     fn classify_retry(&self, ctx: &ClassifyContext<'_>) -> RetryAction {
///         match ctx.error().and_then(|e| e.code()) {
///             Some(code) if code.ends_with("NotFound") => RetryAction::RetryForbidden,
///             _ => RetryAction::NoActionIndicated,
///         }
///     }
///
///     fn name(&self) -> &'static str {
///         "not found is final"
///     }
///
///     fn priority(&self) -> RetryClassifierPriority {
///         // Runs first; `RetryForbidden` ends classification.
///         RetryClassifierPriority::run_before(RetryClassifierPriority::http_status_code_classifier())
///     }
/// }
/// ```
pub trait ClassifyRetry: Send + Sync + fmt::Debug {
    /// The verdict on one attempt.
    fn classify_retry(&self, ctx: &ClassifyContext<'_>) -> RetryAction;

    /// The classifier's name, for logs.
    fn name(&self) -> &'static str;

    /// Where the classifier runs in the chain. Lower priorities run first and are overridden
    /// by higher ones. The default runs after (so overrides) every built-in classifier.
    fn priority(&self) -> RetryClassifierPriority {
        RetryClassifierPriority::default()
    }
}

/// The order in which classifiers run: lower priority first; a later classifier's verdict
/// (other than [`RetryAction::NoActionIndicated`]) overrides an earlier one.
///
/// Priorities are set relative to the public priorities of the built-in classifiers, from
/// highest to lowest: [`transient_error_classifier`](Self::transient_error_classifier),
/// [`modeled_as_retryable_classifier`](Self::modeled_as_retryable_classifier),
/// [`error_code_classifier`](Self::error_code_classifier),
/// [`http_status_code_classifier`](Self::http_status_code_classifier),
/// [`server_pushback_classifier`](Self::server_pushback_classifier) (which runs first, and
/// whose only verdict, `RetryForbidden`, ends the chain).
///
/// ```
/// use waiter_runtime::retry::RetryClassifierPriority as P;
///
/// assert!(P::server_pushback_classifier() < P::http_status_code_classifier());
/// assert!(P::http_status_code_classifier() < P::error_code_classifier());
/// assert!(P::error_code_classifier() < P::modeled_as_retryable_classifier());
/// assert!(P::modeled_as_retryable_classifier() < P::transient_error_classifier());
/// assert!(P::transient_error_classifier() < P::default());
///
/// let mine = P::run_before(P::modeled_as_retryable_classifier());
/// assert!(P::error_code_classifier() < mine && mine < P::modeled_as_retryable_classifier());
/// assert_eq!(P::with_higher_priority_than(mine), P::run_after(mine));
/// ```
#[derive(Clone, Copy, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub struct RetryClassifierPriority {
    // Private so users only ever place classifiers relative to existing ones.
    value: i64,
}

impl RetryClassifierPriority {
    const STEP: i64 = 1 << 20;

    /// The priority of `ServerPushbackClassifier` (the lowest built-in: it runs first, so
    /// that the server's "do not retry" ends the chain before any other verdict).
    pub const fn server_pushback_classifier() -> Self {
        Self { value: 0 }
    }

    /// The priority of `HttpStatusCodeClassifier`.
    pub const fn http_status_code_classifier() -> Self {
        Self { value: Self::STEP }
    }

    /// The priority of `ErrorCodeClassifier`.
    pub const fn error_code_classifier() -> Self {
        Self {
            value: 2 * Self::STEP,
        }
    }

    /// The priority of `ModeledAsRetryableClassifier`.
    pub const fn modeled_as_retryable_classifier() -> Self {
        Self {
            value: 3 * Self::STEP,
        }
    }

    /// The priority of `TransientErrorClassifier` (the highest built-in).
    pub const fn transient_error_classifier() -> Self {
        Self {
            value: 4 * Self::STEP,
        }
    }

    /// Runs just before `other` (so `other` may override it).
    pub const fn run_before(other: Self) -> Self {
        Self {
            value: other.value.saturating_sub(1),
        }
    }

    /// Runs just after `other` (so it may override `other`).
    pub const fn run_after(other: Self) -> Self {
        Self {
            value: other.value.saturating_add(1),
        }
    }

    /// Same as [`run_before`](Self::run_before).
    pub const fn with_lower_priority_than(other: Self) -> Self {
        Self::run_before(other)
    }

    /// Same as [`run_after`](Self::run_after).
    pub const fn with_higher_priority_than(other: Self) -> Self {
        Self::run_after(other)
    }
}

impl Default for RetryClassifierPriority {
    /// After every built-in classifier: a custom classifier has the last word by default.
    fn default() -> Self {
        Self {
            value: 5 * Self::STEP,
        }
    }
}

/// A classifier made of a closure; see [`classifier_fn`].
pub struct FnClassifier<F> {
    name: &'static str,
    priority: RetryClassifierPriority,
    f: F,
}

/// A classifier from a closure, with the [default priority](RetryClassifierPriority::default)
/// (change it with [`FnClassifier::with_priority`]).
///
/// ```
/// use waiter_runtime::retry::{RetryAction, classifier_fn};
///
/// let retry_teapots = classifier_fn("teapots", |ctx| match ctx.error().and_then(|e| e.http_status()) {
///     Some(418) => RetryAction::server_error(),
///     _ => RetryAction::NoActionIndicated,
/// });
/// # let _ = retry_teapots;
/// ```
pub fn classifier_fn<F>(name: &'static str, f: F) -> FnClassifier<F>
where
    F: Fn(&ClassifyContext<'_>) -> RetryAction + Send + Sync,
{
    FnClassifier {
        name,
        priority: RetryClassifierPriority::default(),
        f,
    }
}

impl<F> FnClassifier<F> {
    /// The same classifier at another priority.
    pub fn with_priority(mut self, priority: RetryClassifierPriority) -> Self {
        self.priority = priority;
        self
    }
}

impl<F> fmt::Debug for FnClassifier<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FnClassifier")
            .field("name", &self.name)
            .field("priority", &self.priority)
            .finish_non_exhaustive()
    }
}

impl<F> ClassifyRetry for FnClassifier<F>
where
    F: Fn(&ClassifyContext<'_>) -> RetryAction + Send + Sync,
{
    fn classify_retry(&self, ctx: &ClassifyContext<'_>) -> RetryAction {
        (self.f)(ctx)
    }
    fn name(&self) -> &'static str {
        self.name
    }
    fn priority(&self) -> RetryClassifierPriority {
        self.priority
    }
}
