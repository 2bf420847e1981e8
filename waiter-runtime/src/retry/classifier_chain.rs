//! A chain of classifiers: [`SharedRetryClassifier`], the chain sorted by priority
//! ([`RetryClassifiers`], with the built-in [defaults](RetryClassifiers::defaults)), and how it
//! reaches one verdict ([`run_classifiers`]).

use std::any::TypeId;
use std::fmt;
use std::sync::Arc;

use super::RetryAction;
use super::classifier::{ClassifyContext, ClassifyRetry, RetryClassifierPriority};
use super::classifiers::{
    ErrorCodeClassifier, HttpStatusCodeClassifier, ModeledAsRetryableClassifier,
    ServerPushbackClassifier, TransientErrorClassifier,
};

/// A classifier behind an `Arc`, cheap to clone and share.
#[derive(Clone)]
pub struct SharedRetryClassifier {
    inner: Arc<dyn ClassifyRetry>,
    /// `false` only for the built-in classifiers, which never retry a success: a retrier whose
    /// classifiers are all built-in skips classifying successes (the fast path).
    inspects_success: bool,
}

impl SharedRetryClassifier {
    /// Shares `classifier`.
    pub fn new<C: ClassifyRetry + 'static>(classifier: C) -> Self {
        let built_in = [
            TypeId::of::<TransientErrorClassifier>(),
            TypeId::of::<ModeledAsRetryableClassifier>(),
            TypeId::of::<ErrorCodeClassifier>(),
            TypeId::of::<HttpStatusCodeClassifier>(),
            TypeId::of::<ServerPushbackClassifier>(),
        ];
        SharedRetryClassifier {
            inspects_success: !built_in.contains(&TypeId::of::<C>()),
            inner: Arc::new(classifier),
        }
    }

    pub(crate) fn inspects_success(&self) -> bool {
        self.inspects_success
    }
}

impl fmt::Debug for SharedRetryClassifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.inner, f)
    }
}

impl ClassifyRetry for SharedRetryClassifier {
    fn classify_retry(&self, ctx: &ClassifyContext<'_>) -> RetryAction {
        self.inner.classify_retry(ctx)
    }
    fn name(&self) -> &'static str {
        self.inner.name()
    }
    fn priority(&self) -> RetryClassifierPriority {
        self.inner.priority()
    }
}

/// Runs classifiers in the order given (sort them by priority first) and returns the verdict:
/// a classifier's verdict other than `NoActionIndicated` replaces the one before it;
/// `RetryForbidden` ends the chain; `NoActionIndicated` from all of them means no retry.
///
/// [`Retrier`](super::Retrier) calls this; a hand-written retry loop can too.
///
/// ```
/// use waiter_runtime::ProvideErrorMetadata;
/// use waiter_runtime::retry::{ClassifyContext, RetryAction, RetryClassifiers, run_classifiers};
///
/// #[derive(Debug, ProvideErrorMetadata)]
/// #[error_metadata(code = "ThrottlingException")]
/// struct Throttled;
///
/// let result: Result<(), Throttled> = Err(Throttled);
/// let classifiers = RetryClassifiers::defaults();
/// let action = run_classifiers(classifiers.iter(), &ClassifyContext::new(&result, 1));
/// assert_eq!(action, RetryAction::throttling_error());
/// ```
pub fn run_classifiers<'c, C>(
    classifiers: impl IntoIterator<Item = &'c C>,
    ctx: &ClassifyContext<'_>,
) -> RetryAction
where
    C: ClassifyRetry + ?Sized + 'c,
{
    let mut result = RetryAction::NoActionIndicated;
    for classifier in classifiers {
        let action = classifier.classify_retry(ctx);
        if action == RetryAction::NoActionIndicated {
            continue;
        }
        tracing::trace!(classifier = classifier.name(), %action, "classifier set the retry action");
        result = action;
        if result == RetryAction::RetryForbidden {
            tracing::trace!("retry classification ended early: RetryForbidden");
            break;
        }
    }
    result
}

/// A set of classifiers kept sorted by priority (equal priorities keep insertion order).
///
/// ```
/// use waiter_runtime::retry::{ClassifyRetry, RetryAction, RetryClassifiers, classifier_fn};
///
/// let mut classifiers = RetryClassifiers::defaults();
/// classifiers.push(classifier_fn("never", |_| RetryAction::RetryForbidden));
/// let names: Vec<_> = classifiers.iter().map(|c| c.name()).collect();
/// assert_eq!(
///     names,
///     ["server pushback", "http status code", "error code", "modeled as retryable", "transient error", "never"],
/// );
/// ```
#[derive(Clone, Debug, Default)]
pub struct RetryClassifiers {
    sorted: Vec<SharedRetryClassifier>,
    /// Whether any classifier may retry a success (so successes must be classified).
    inspects_success: bool,
}

impl RetryClassifiers {
    /// No classifiers: nothing is retried.
    pub fn new() -> Self {
        Self::default()
    }

    /// The built-in classifiers: transient error, modeled as retryable, error code, HTTP status
    /// code (500, 502, 503, 504), server pushback (the server asked for no retry).
    pub fn defaults() -> Self {
        let mut all = Self::new();
        all.push(ServerPushbackClassifier);
        all.push(TransientErrorClassifier);
        all.push(ModeledAsRetryableClassifier);
        all.push(ErrorCodeClassifier::new());
        all.push(HttpStatusCodeClassifier::default());
        all
    }

    /// Adds a classifier; it runs according to its priority.
    pub fn push(&mut self, classifier: impl ClassifyRetry + 'static) -> &mut Self {
        self.push_shared(SharedRetryClassifier::new(classifier))
    }

    /// Adds a shared classifier; it runs according to its priority.
    pub fn push_shared(&mut self, classifier: SharedRetryClassifier) -> &mut Self {
        let priority = classifier.priority();
        let at = self.sorted.partition_point(|c| c.priority() <= priority);
        self.inspects_success |= classifier.inspects_success();
        self.sorted.insert(at, classifier);
        self
    }

    /// The classifiers, in the order they run.
    pub fn iter(&self) -> std::slice::Iter<'_, SharedRetryClassifier> {
        self.sorted.iter()
    }

    /// How many classifiers there are.
    pub fn len(&self) -> usize {
        self.sorted.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.sorted.is_empty()
    }

    /// Whether classifying a success can give anything but `NoActionIndicated`.
    #[inline]
    pub(crate) fn inspects_success(&self) -> bool {
        self.inspects_success
    }

    /// The verdict of all of them on `ctx`.
    pub fn classify(&self, ctx: &ClassifyContext<'_>) -> RetryAction {
        run_classifiers(self.sorted.iter(), ctx)
    }
}

impl FromIterator<SharedRetryClassifier> for RetryClassifiers {
    fn from_iter<I: IntoIterator<Item = SharedRetryClassifier>>(iter: I) -> Self {
        let mut all = Self::new();
        for c in iter {
            all.push_shared(c);
        }
        all
    }
}

impl<'a> IntoIterator for &'a RetryClassifiers {
    type Item = &'a SharedRetryClassifier;
    type IntoIter = std::slice::Iter<'a, SharedRetryClassifier>;
    fn into_iter(self) -> Self::IntoIter {
        self.sorted.iter()
    }
}

/// Merges two sorted classifier lists without allocating: on equal priorities, `a` first.
pub(crate) fn merged<'a>(
    a: &'a [SharedRetryClassifier],
    b: &'a [SharedRetryClassifier],
) -> impl Iterator<Item = &'a SharedRetryClassifier> {
    let (mut i, mut j) = (0, 0);
    std::iter::from_fn(move || match (a.get(i), b.get(j)) {
        (Some(x), Some(y)) if y.priority() < x.priority() => {
            j += 1;
            Some(y)
        }
        (Some(x), _) => {
            i += 1;
            Some(x)
        }
        (None, Some(y)) => {
            j += 1;
            Some(y)
        }
        (None, None) => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in classifiers never retry a success, so a retrier with only them takes the
    /// first try's fast path (`Retrier::run`): one left out of the list made every first try
    /// ten times slower.
    #[test]
    fn the_defaults_do_not_inspect_successes() {
        assert!(!RetryClassifiers::defaults().inspects_success());
        let mut with_own = RetryClassifiers::defaults();
        with_own.push(crate::retry::classifier_fn("own", |_| {
            RetryAction::NoActionIndicated
        }));
        assert!(with_own.inspects_success());
    }
}
