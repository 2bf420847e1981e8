//! What a poll that fails with a transient error means: the end of the wait (the spec), or a
//! poll that matched nothing ([`TransientPollErrors`]).
//!
//! The classification runs in a wrapper around the poller, inside the poll's scope: it tells
//! the scope whether the poll's latest error was transient or throttling, and the decision
//! core ([`Machine`](super::machine::Machine)) reads it when it decides what the poll means.

use std::sync::{Arc, Mutex};

use super::acceptor::Polled;
use super::poller::{BoxPoller, box_poller};
use crate::ProvideErrorMetadata;
use crate::poll_scope;
use crate::retry::{ClassifyContext, ErrorKind, RetryClassifiers, RetryReason};

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

/// `poller` with each poll's unmatched error classified (by the default classifiers) into
/// the poll's scope. The wrapper sees every attempt of a retry layer put around it later
/// ([`Waiter::retry`](super::Waiter::retry)), so the scope holds the last attempt's verdict.
pub(crate) fn classify_errors<'a, O, E>(poller: BoxPoller<'a, O, E>) -> BoxPoller<'a, O, E>
where
    O: Send + 'a,
    E: ProvideErrorMetadata + Send + 'static,
{
    let classifiers = Arc::new(RetryClassifiers::defaults());
    // One poll at a time: the lock is never contended, and never held across an await.
    let inner = Arc::new(Mutex::new(poller));
    box_poller(move || {
        let poll = (inner.lock().unwrap_or_else(|e| e.into_inner()))();
        let classifiers = Arc::clone(&classifiers);
        async move {
            let polled: Polled<O, E> = poll.await;
            if let Some(scope) = poll_scope::current() {
                let transient =
                    polled.matched.is_none() && is_transient(&classifiers, &polled.result);
                scope.record_transient_error(transient);
            }
            polled
        }
    })
}
