//! What a poll that fails with a transient error means: the end of the wait (the spec), or a
//! poll that matched nothing ([`TransientPollErrors`]).
//!
//! The classification runs in a wrapper around the poller, inside the poll's scope, with the
//! classifiers of the waiter's retrier (or the defaults, [`PollClassifiers`]): it tells the
//! scope whether the poll's latest error was transient or throttling, and the decision core
//! ([`Machine`](super::machine::Machine)) reads it when it decides what the poll means.

use std::sync::{Arc, Mutex, OnceLock};

use super::acceptor::Polled;
use super::poller::{BoxPoller, box_poller};
use crate::ProvideErrorMetadata;
use crate::poll_scope;
use crate::retry::{ClassifyContext, ErrorKind, Retrier, RetryClassifiers, RetryReason};

/// What a poll's error that no acceptor names does to the wait, when the retry classifiers
/// call it transient or throttling: see
/// [`Waiter::transient_poll_errors`](super::Waiter::transient_poll_errors).
///
/// ```
/// use waiter_runtime::waiter::TransientPollErrors;
/// assert_eq!(TransientPollErrors::default(), TransientPollErrors::Fail);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum TransientPollErrors {
    /// The wait ends with `WaiterError::OperationFailed`, as the Smithy specification says
    /// (an error no acceptor matches ends the wait). The default.
    #[default]
    Fail,
    /// The poll counts as a poll that matched nothing: the waiter polls again after its
    /// delay; at the deadline `WaiterError::ExceededMaxWait` carries the error in `last`.
    Retry,
}

/// Whether the retry classifiers (`classifiers`) call `error` transient or throttling.
pub(crate) fn is_transient<O, E: ProvideErrorMetadata + 'static>(
    classifiers: &RetryClassifiers,
    result: &Result<O, E>,
) -> bool {
    if result.is_ok() {
        return false;
    }
    let action = classifiers.classify(&ClassifyContext::new(result, 1));
    matches!(
        action.reason().map(RetryReason::kind),
        Some(ErrorKind::TransientError | ErrorKind::ThrottlingError)
    )
}

/// The classifiers that say whether a poll's error is transient: the waiter's retrier's
/// ([`Waiter::retry`](super::Waiter::retry), [`Waiter::retrier`](super::Waiter::retrier),
/// custom classifiers included), else the defaults. One per waiter, shared by its options and
/// the wrapper that classifies, so that a retrier given after `transient_poll_errors` counts
/// as one given before.
#[derive(Clone, Default)]
pub(crate) struct PollClassifiers(Arc<Mutex<Option<Retrier>>>);

impl PollClassifiers {
    /// Classifiers that are `retrier`'s, if any, else the defaults.
    pub(crate) fn new(retrier: Option<Retrier>) -> Self {
        PollClassifiers(Arc::new(Mutex::new(retrier)))
    }

    /// From now on, `retrier`'s classifiers.
    pub(crate) fn use_retrier(&self, retrier: &Retrier) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(retrier.clone());
    }

    /// Records into the poll's scope whether `polled`'s error, if no acceptor matched it, is
    /// transient or throttling.
    pub(crate) fn record<O, E: ProvideErrorMetadata + 'static>(&self, polled: &Polled<O, E>) {
        let Some(scope) = poll_scope::current() else {
            return;
        };
        let transient = polled.matched.is_none() && polled.result.is_err() && {
            // Out of the lock: a classifier is the user's code.
            let retrier = self.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
            match retrier {
                Some(retrier) => is_transient(retrier.classifiers(), &polled.result),
                None => is_transient(defaults(), &polled.result),
            }
        };
        scope.record_transient_error(transient);
    }
}

/// The default classifiers, made once.
fn defaults() -> &'static RetryClassifiers {
    static DEFAULTS: OnceLock<RetryClassifiers> = OnceLock::new();
    DEFAULTS.get_or_init(RetryClassifiers::defaults)
}

/// `poller` with each poll's unmatched error classified (by `classifiers`) into the poll's
/// scope. The wrapper sees every attempt of a retry layer put around it later
/// ([`Waiter::retry`](super::Waiter::retry)), so the scope holds the last attempt's verdict;
/// put around one, it sees the poll's last result: either way, the error that ends the poll.
pub(crate) fn classify_errors<'a, O, E>(
    poller: BoxPoller<'a, O, E>,
    classifiers: PollClassifiers,
) -> BoxPoller<'a, O, E>
where
    O: Send + 'a,
    E: ProvideErrorMetadata + Send + 'static,
{
    // One poll at a time: the lock is never contended, and never held across an await.
    let inner = Arc::new(Mutex::new(poller));
    box_poller(move || {
        let poll = (inner.lock().unwrap_or_else(|e| e.into_inner()))();
        let classifiers = classifiers.clone();
        async move {
            let polled: Polled<O, E> = poll.await;
            classifiers.record(&polled);
            polled
        }
    })
}
