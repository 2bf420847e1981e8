//! What a waiter was told besides its operation: the delays, the seed, the successes in a row
//! and the timer, shared by the async [`Waiter`](super::Waiter) and the blocking one
//! ([`blocking::Waiter`](crate::blocking::Waiter)), which set them with the same methods.

use std::time::Duration;

use super::checkpoint::Resume;
use super::input::InputId;
use super::metadata::WaiterMetadata;
use super::outcome::WaiterError;
use super::transient::{PollClassifiers, TransientPollErrors};
use crate::retry::Retrier;
use crate::timer::SharedAsyncSleep;

/// A waiter's options.
#[derive(Clone)]
pub(crate) struct Options {
    pub(crate) metadata: WaiterMetadata,
    pub(crate) min_delay: Duration,
    pub(crate) max_delay: Duration,
    /// Which bounds the caller set (`min_delay`, `max_delay`).
    pub(crate) set: (bool, bool),
    pub(crate) seed: Option<u64>,
    /// Polls in a row that must match `success` (1: the first one ends the wait).
    pub(crate) consecutive_successes: u32,
    /// The timer of an async waiter (`None`: the default, see [`crate::timer`]).
    pub(crate) sleep: Option<SharedAsyncSleep>,
    /// What a transient or throttling error no acceptor names does to the wait.
    pub(crate) transient_poll_errors: TransientPollErrors,
    /// The classifiers of the poller's wrapper that classifies its errors into the poll scope
    /// (installed once, the first time `TransientPollErrors::Retry` is asked for).
    pub(crate) classifiers: Option<PollClassifiers>,
    /// The retrier of `Waiter::retry`/`retrier`, whose classifiers classify transient errors.
    pub(crate) retrier: Option<Retrier>,
    /// A checkpoint to take the wait up from, checked against the waiter (boxed: a waiter
    /// that resumes nothing stays small).
    pub(crate) resume: Option<Box<Resume>>,
    /// The identity of the input the wait polls (its arguments', or a key's).
    pub(crate) input: InputId,
}

impl Options {
    /// The model's delays, one success, no seed.
    pub(crate) fn new(metadata: WaiterMetadata) -> Self {
        Options {
            metadata,
            min_delay: metadata.min_delay,
            max_delay: metadata.max_delay,
            set: (false, false),
            seed: None,
            consecutive_successes: 1,
            sleep: None,
            transient_poll_errors: TransientPollErrors::Fail,
            classifiers: None,
            retrier: None,
            resume: None,
            input: InputId::none(),
        }
    }

    pub(crate) fn set_min_delay(&mut self, min_delay: Duration) {
        self.min_delay = min_delay;
        self.set.0 = true;
    }

    pub(crate) fn set_max_delay(&mut self, max_delay: Duration) {
        self.max_delay = max_delay;
        self.set.1 = true;
    }

    /// The delays the wait uses: a bound the caller did not set moves to meet the other.
    pub(crate) fn delays<O, E>(&self) -> Result<(Duration, Duration), WaiterError<O, E>> {
        let (mut min_delay, mut max_delay) = (self.min_delay, self.max_delay);
        if min_delay > max_delay {
            match self.set {
                (true, false) => max_delay = min_delay,
                (false, true) => min_delay = max_delay,
                _ => {}
            }
        }
        if min_delay.is_zero() || min_delay > max_delay {
            return Err(WaiterError::InvalidDelays {
                waiter: self.metadata.name,
                min_delay,
                max_delay,
            });
        }
        Ok((min_delay, max_delay))
    }
}

impl Options {
    /// The poller needs the classifying wrapper (with `retry`'s classifiers, if given): `Some`
    /// the first time `TransientPollErrors::Retry` is asked for.
    pub(crate) fn transient(&mut self, transient: TransientPollErrors) -> Option<PollClassifiers> {
        self.transient_poll_errors = transient;
        if transient != TransientPollErrors::Retry || self.classifiers.is_some() {
            return None;
        }
        let classifiers = PollClassifiers::new(self.retrier.clone());
        self.classifiers = Some(classifiers.clone());
        Some(classifiers)
    }

    /// The waiter retries inside its polls with `retrier`: its classifiers classify transient
    /// errors too.
    pub(crate) fn set_retrier(&mut self, retrier: &Retrier) {
        if let Some(classifiers) = &self.classifiers {
            classifiers.use_retrier(retrier);
        }
        self.retrier = Some(retrier.clone());
    }
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Waiter")
            .field("waiter", &self.metadata.name)
            .field("operation", &self.metadata.operation)
            .field("min_delay", &self.min_delay)
            .field("max_delay", &self.max_delay)
            .field("seed", &self.seed)
            .field("consecutive_successes", &self.consecutive_successes)
            .field("transient_poll_errors", &self.transient_poll_errors)
            .finish_non_exhaustive()
    }
}
