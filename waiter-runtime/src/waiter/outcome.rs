//! How a wait ends: [`FinalPoll`] on success, [`WaiterError`] otherwise.

use std::error::Error;
use std::fmt;
use std::time::Duration;

use super::AcceptorDescription;

/// The poll that ended a wait, with how long the wait took.
///
/// The result may be an error: a waiter such as `ObjectNotExists` succeeds on `NotFound`.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::{ProvideErrorMetadata, waitable};
///
/// #[derive(Debug, PartialEq, ProvideErrorMetadata)]
/// enum Error { NotFound }
///
/// #[waitable(ObjectNotExists: { acceptors: [{ state: "success", matcher: { errorType: "NotFound" } }] })]
/// async fn head_object(key: String) -> Result<(), Error> {
///     let _ = key;
///     Err(Error::NotFound)
/// }
///
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// let gone = wait_until_object_not_exists("photo.jpg".to_owned());
/// let done = gone.wait(Duration::from_secs(60)).await.unwrap();
/// assert_eq!((done.error(), done.polls, done.elapsed), (Some(&Error::NotFound), 1, Duration::ZERO));
/// # }
/// ```
#[derive(Debug)]
pub struct FinalPoll<O, E> {
    /// The final poll's result.
    pub result: Result<O, E>,
    /// How many polls were made, the final one included.
    pub polls: u32,
    /// Time from the start of the wait to the end of the final poll.
    pub elapsed: Duration,
}

impl<O, E> FinalPoll<O, E> {
    /// The output, if the final poll succeeded.
    pub fn output(&self) -> Option<&O> {
        self.result.as_ref().ok()
    }

    /// The error, if the final poll returned one.
    pub fn error(&self) -> Option<&E> {
        self.result.as_ref().err()
    }

    /// The final poll's result.
    pub fn into_result(self) -> Result<O, E> {
        self.result
    }
}

/// Why a wait did not succeed.
///
/// Every variant names the waiter and says how many polls were made and how long it took;
/// `Display` gives a sentence a person understands without the docs.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::{Searchable, WaiterError, waitable};
///
/// #[derive(Debug, Searchable)]
/// struct Instance { state: String }
///
/// #[waitable(InstanceRunning: { acceptors: [{ state: "success", matcher: { output: {
///     path: "state", expected: "running", comparator: "stringEquals" } } }] })]
/// async fn describe(id: String) -> Result<Instance, std::io::Error> {
///     let _ = id;
///     Ok(Instance { state: "pending".into() })
/// }
///
/// # #[tokio::main(flavor = "current_thread", start_paused = true)]
/// # async fn main() {
/// let pending = wait_until_instance_running("i-1".to_owned());
/// let err = pending.wait(Duration::from_secs(10)).await.unwrap_err();
/// assert!(matches!(err, WaiterError::ExceededMaxWait { .. }));
/// assert_eq!(err.last_result().unwrap().unwrap().state, "pending");
/// assert!(err.to_string().starts_with(
///     "waiter `InstanceRunning` gave up: the resource did not reach the desired state within the maximum wait of 10s"
/// ));
/// # }
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum WaiterError<O, E> {
    /// The maximum wait passed before an acceptor reached `success` or `failure`.
    ExceededMaxWait {
        /// The waiter's name.
        waiter: &'static str,
        /// The maximum wait the caller gave.
        max_wait: Duration,
        /// Time from the start of the wait to when it gave up.
        elapsed: Duration,
        /// Polls that completed.
        polls: u32,
        /// Whether a poll was still in flight at the deadline (it was cancelled: its future
        /// was dropped).
        cancelled_in_flight: bool,
        /// The last completed poll's result, if any poll completed.
        last: Option<Result<O, E>>,
    },
    /// An acceptor moved the waiter to `failure`: the resource can never reach the desired state.
    FailureState {
        /// The waiter's name.
        waiter: &'static str,
        /// Index of the failure acceptor that matched: 0 for the model's first acceptor, as in
        /// [`PollEvent::acceptor`](super::PollEvent::acceptor); `Display` writes `acceptors[i]`.
        acceptor: usize,
        /// The acceptor as the model writes it, when the waiter's metadata describes it
        /// (`#[waitable]` waiters always do).
        description: Option<AcceptorDescription>,
        /// The acceptor's evaluated `message`, if it has one.
        message: Option<String>,
        /// The poll that matched it.
        final_poll: FinalPoll<O, E>,
    },
    /// The operation returned an error that no acceptor matched (spec step 4).
    OperationFailed {
        /// The waiter's name.
        waiter: &'static str,
        /// The error.
        error: E,
        /// Polls made, the failing one included.
        polls: u32,
        /// Time from the start of the wait to the end of the failing poll.
        elapsed: Duration,
    },
    /// The delays given to the builder are unusable (zero, or min greater than max); no poll
    /// was made.
    ///
    /// Only a pair the caller set both halves of can be contradictory: setting one bound moves
    /// the other (see [`Waiter::min_delay`](super::Waiter::min_delay)).
    InvalidDelays {
        /// The waiter's name.
        waiter: &'static str,
        /// The minimum delay.
        min_delay: Duration,
        /// The maximum delay.
        max_delay: Duration,
    },
    /// [`Waiter::consecutive_successes`](super::Waiter::consecutive_successes) was given 0
    /// (at least one poll must match `success`); no poll was made.
    InvalidConsecutiveSuccesses {
        /// The waiter's name.
        waiter: &'static str,
    },
    /// Inside a [`WaitAll`](super::WaitAll) with [`fail_fast(true)`](super::WaitAll::fail_fast):
    /// another waiter of the set failed first, and this one was stopped before it finished
    /// (its poll in flight, if any, was cancelled by dropping it; no request was sent after).
    Stopped {
        /// The waiter's name.
        waiter: &'static str,
        /// Index, in the set's input order, of the waiter whose failure stopped this one.
        by: usize,
        /// That waiter's name.
        by_waiter: &'static str,
        /// Polls that completed before the stop.
        polls: u32,
        /// Time from the start of the set's wait to the stop.
        elapsed: Duration,
        /// Whether a poll was in flight at the stop (it was cancelled: its future was dropped).
        cancelled_in_flight: bool,
        /// The last completed poll's result, if any poll completed.
        last: Option<Result<O, E>>,
    },
    /// Inside a [`WaitAll`](super::WaitAll): a poll of this waiter panicked. The panic is
    /// caught at the poll, so that the other waiters of the set go on and their results are
    /// kept; this waiter makes no further poll. (A waiter awaited on its own lets the panic
    /// unwind, as any future does.)
    PollPanicked {
        /// The waiter's name.
        waiter: &'static str,
        /// The panic's message (`"Box<dyn Any>"` when the payload is not a string).
        message: String,
        /// Polls that completed before the one that panicked.
        polls: u32,
        /// Time from the start of the wait to the panic.
        elapsed: Duration,
        /// The last completed poll's result, if any poll completed.
        last: Option<Result<O, E>>,
    },
}

impl<O, E> WaiterError<O, E> {
    /// The name of the waiter that failed.
    pub fn waiter(&self) -> &'static str {
        match self {
            WaiterError::ExceededMaxWait { waiter, .. }
            | WaiterError::FailureState { waiter, .. }
            | WaiterError::OperationFailed { waiter, .. }
            | WaiterError::InvalidDelays { waiter, .. }
            | WaiterError::InvalidConsecutiveSuccesses { waiter }
            | WaiterError::Stopped { waiter, .. }
            | WaiterError::PollPanicked { waiter, .. } => waiter,
        }
    }

    /// Whether this waiter failed on its own: a `failure` acceptor matched, the operation
    /// failed with an error no acceptor expects, or a poll panicked. These are the endings
    /// that stop the rest of a [`WaitAll`](super::WaitAll) with
    /// [`fail_fast(true)`](super::WaitAll::fail_fast); running out of time, bad options and
    /// being stopped are not.
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            WaiterError::FailureState { .. }
                | WaiterError::OperationFailed { .. }
                | WaiterError::PollPanicked { .. }
        )
    }

    /// The last result the operation returned, if any poll completed.
    pub fn last_result(&self) -> Option<Result<&O, &E>> {
        match self {
            WaiterError::ExceededMaxWait { last, .. } => last.as_ref().map(Result::as_ref),
            WaiterError::FailureState { final_poll, .. } => Some(final_poll.result.as_ref()),
            WaiterError::OperationFailed { error, .. } => Some(Err(error)),
            WaiterError::Stopped { last, .. } | WaiterError::PollPanicked { last, .. } => {
                last.as_ref().map(Result::as_ref)
            }
            WaiterError::InvalidDelays { .. } | WaiterError::InvalidConsecutiveSuccesses { .. } => {
                None
            }
        }
    }
}

fn polls(n: u32) -> String {
    if n == 1 {
        "1 poll".to_owned()
    } else {
        format!("{n} polls")
    }
}

impl<O, E: fmt::Display> fmt::Display for WaiterError<O, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WaiterError::ExceededMaxWait {
                waiter,
                max_wait,
                polls: n,
                cancelled_in_flight,
                last,
                ..
            } => {
                write!(
                    f,
                    "waiter `{waiter}` gave up: the resource did not reach the desired state within the maximum wait of {max_wait:?} ({})",
                    polls(*n)
                )?;
                if *cancelled_in_flight {
                    f.write_str("; the poll in flight at the deadline was cancelled")?;
                }
                if let Some(Err(error)) = last {
                    write!(f, "; the last poll failed with: {error}")?;
                }
                Ok(())
            }
            WaiterError::FailureState {
                waiter,
                acceptor,
                description,
                message,
                final_poll,
            } => {
                write!(
                    f,
                    "waiter `{waiter}` failed: the resource reached a state from which it can never succeed (failure acceptor acceptors[{acceptor}] matched after {}, {:?})",
                    polls(final_poll.polls),
                    final_poll.elapsed
                )?;
                match (message, description) {
                    (Some(message), _) => write!(f, ": {message}"),
                    // The text says "failure acceptor" already: the matcher alone.
                    (None, Some(description)) => write!(f, ": {}", description.matcher),
                    (None, None) => Ok(()),
                }
            }
            WaiterError::OperationFailed {
                waiter,
                error,
                polls: n,
                elapsed,
            } => write!(
                f,
                "waiter `{waiter}` stopped: the operation returned an error that no acceptor expects ({} in {elapsed:?}): {error}",
                polls(*n)
            ),
            WaiterError::InvalidDelays {
                waiter,
                min_delay,
                max_delay,
            } => write!(
                f,
                "waiter `{waiter}` was not started: its delays must satisfy 0 < min_delay <= max_delay, got min_delay {min_delay:?} and max_delay {max_delay:?}"
            ),
            WaiterError::InvalidConsecutiveSuccesses { waiter } => write!(
                f,
                "waiter `{waiter}` was not started: consecutive_successes must be at least 1 (1 ends the wait at the first success), got 0"
            ),
            WaiterError::Stopped {
                waiter,
                by,
                by_waiter,
                polls: n,
                elapsed,
                cancelled_in_flight,
                ..
            } => {
                write!(
                    f,
                    "waiter `{waiter}` was stopped: waiter #{by} of the set (`{by_waiter}`) failed first and the set fails fast ({} in {elapsed:?})",
                    polls(*n)
                )?;
                if *cancelled_in_flight {
                    f.write_str("; the poll in flight was cancelled")?;
                }
                Ok(())
            }
            WaiterError::PollPanicked {
                waiter,
                message,
                polls: n,
                elapsed,
                ..
            } => write!(
                f,
                "waiter `{waiter}` stopped: its poll panicked after {} in {elapsed:?}: {message}",
                polls(*n)
            ),
        }
    }
}

impl<O: fmt::Debug, E: Error + 'static> Error for WaiterError<O, E> {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self.last_result() {
            Some(Err(error)) => Some(error),
            _ => None,
        }
    }
}
