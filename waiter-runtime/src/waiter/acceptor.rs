//! What one poll's result means: the acceptor states and the acceptor that matched.

use std::fmt;

/// The state an acceptor moves a waiter to (Smithy's `AcceptorState`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AcceptorState {
    /// The waiter finished waiting: the resource is in the desired state.
    Success,
    /// The resource can never reach the desired state; the waiter stops.
    Failure,
    /// The waiter polls again after a delay.
    Retry,
}

impl AcceptorState {
    /// The state's name as a Smithy model writes it: `success`, `failure` or `retry`.
    ///
    /// ```
    /// use waiter_runtime::waiter::AcceptorState;
    /// assert_eq!(AcceptorState::Retry.as_str(), "retry");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            AcceptorState::Success => "success",
            AcceptorState::Failure => "failure",
            AcceptorState::Retry => "retry",
        }
    }
}

impl fmt::Display for AcceptorState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The acceptor that matched a poll's result: its position in the waiter's list, the state it
/// moves to and, for a failure acceptor with a `message`, the evaluated message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matched {
    /// Index of the acceptor in the waiter's `acceptors` list.
    pub acceptor: usize,
    /// The state the acceptor transitions to.
    pub state: AcceptorState,
    /// The failure message (Smithy 1.72 `message`), if the acceptor has one and it evaluated to
    /// a string or a list of strings.
    pub message: Option<String>,
}

impl Matched {
    /// An acceptor at index `acceptor` matched and moves the waiter to `state`.
    ///
    /// ```
    /// use waiter_runtime::__private_v0_1::{AcceptorState, Matched};
    /// let m = Matched::new(0, AcceptorState::Success);
    /// assert_eq!(m.message, None);
    /// ```
    pub const fn new(acceptor: usize, state: AcceptorState) -> Self {
        Matched {
            acceptor,
            state,
            message: None,
        }
    }

    /// A failure acceptor at index `acceptor` matched, with its evaluated message.
    pub const fn failure(acceptor: usize, message: Option<String>) -> Self {
        Matched {
            acceptor,
            state: AcceptorState::Failure,
            message,
        }
    }
}

/// One poll's result together with the acceptor it matched, if any. The code `#[waitable]`
/// emits builds one per poll; [`Waiter`](super::Waiter) applies the spec's workflow to it.
#[derive(Debug)]
pub struct Polled<O, E> {
    /// What the operation returned.
    pub result: Result<O, E>,
    /// The first acceptor that matched, in order; `None` if none did.
    pub matched: Option<Matched>,
}

impl<O, E> Polled<O, E> {
    /// Pairs a result with the acceptor it matched.
    ///
    /// ```
    /// use waiter_runtime::__private_v0_1::Polled;
    /// let p: Polled<u8, ()> = Polled::new(Ok(1), None);
    /// assert!(p.matched.is_none());
    /// ```
    pub const fn new(result: Result<O, E>, matched: Option<Matched>) -> Self {
        Polled { result, matched }
    }

    /// The state the spec's workflow reaches: the matched acceptor's state; else `failure`
    /// for an error (step 4) and `retry` for a success (step 5).
    ///
    /// ```
    /// use waiter_runtime::__private_v0_1::{AcceptorState, Polled};
    /// assert_eq!(Polled::<(), &str>::new(Err("boom"), None).state(), AcceptorState::Failure);
    /// assert_eq!(Polled::<(), &str>::new(Ok(()), None).state(), AcceptorState::Retry);
    /// ```
    pub fn state(&self) -> AcceptorState {
        match (&self.matched, &self.result) {
            (Some(m), _) => m.state,
            (None, Err(_)) => AcceptorState::Failure,
            (None, Ok(_)) => AcceptorState::Retry,
        }
    }

    /// The poll as a waiter's own retries see it (`Waiter::retry`): an error no acceptor
    /// matched is theirs to retry (`Err`); anything else, an error an acceptor matched
    /// included, is the waiter's to decide, never retried (`Ok`).
    pub(crate) fn into_retryable(self) -> Result<Self, E> {
        match self {
            Polled {
                result: Err(error),
                matched: None,
            } => Err(error),
            polled => Ok(polled),
        }
    }

    /// The poll the waiter's own retries ended with (see [`into_retryable`](Self::into_retryable)).
    pub(crate) fn from_retried(retried: Result<Self, E>) -> Self {
        retried.unwrap_or_else(|error| Polled::new(Err(error), None))
    }
}
