//! What a blocking wait shares with the async one beyond its options: transient poll errors
//! ridden out on request, and a wait taken up from a checkpoint. Both are decisions of the
//! one decision core; only the poller's wrapper differs (it classifies on the calling thread).

use std::time::Duration;

use super::Waiter;
use super::iter::WaiterIter;
use crate::ProvideErrorMetadata;
use crate::waiter::acceptor::Polled;
use crate::waiter::checkpoint::Resume;
use crate::waiter::input::{InputDigest, InputId};
use crate::waiter::{
    CheckpointError, FinalPoll, InputIdentity, PollObserver, TransientPollErrors, WaitCheckpoint,
    WaiterError,
};

impl<'a, O, E, Obs: PollObserver> Waiter<'a, O, E, Obs> {
    /// What a poll's error that no acceptor names, and that the retry classifiers (the
    /// waiter's retrier's, custom ones included, else the defaults) call transient or
    /// throttling, does to the wait: see
    /// [`Waiter::transient_poll_errors`](crate::Waiter::transient_poll_errors) (the same rule).
    ///
    /// ```
    /// use std::cell::Cell;
    /// use std::time::Duration;
    /// use waiter_runtime::waiter::TransientPollErrors;
    /// use waiter_runtime::{ProvideErrorMetadata, waitable};
    ///
    /// #[derive(Debug, ProvideErrorMetadata)]
    /// enum Error {
    ///     #[error_metadata(code = "Throttling", throttling)]
    ///     RateExceeded,
    /// }
    ///
    /// thread_local!(static CALLS: Cell<u32> = const { Cell::new(0) });
    ///
    /// /// Throttled on its first call, ready on the second.
    /// #[waitable(Ready: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    /// fn ping() -> Result<(), Error> {
    ///     let n = CALLS.with(|c| c.replace(c.get() + 1));
    ///     if n == 0 { Err(Error::RateExceeded) } else { Ok(()) }
    /// }
    ///
    /// let done = wait_until_ready()
    ///     .min_delay(Duration::from_millis(1))
    ///     .transient_poll_errors(TransientPollErrors::Retry)
    ///     .wait(Duration::from_secs(5))
    ///     .unwrap();
    /// assert_eq!(done.polls, 2);
    /// ```
    pub fn transient_poll_errors(mut self, transient: TransientPollErrors) -> Self
    where
        O: 'a,
        E: ProvideErrorMetadata + 'static,
    {
        // Installed once, the first time `Retry` is asked for; under `Fail` the decision core
        // ignores it.
        if let Some(classifiers) = self.options.transient(transient) {
            let mut inner = self.poller;
            self.poller = Box::new(move || {
                let polled: Polled<O, E> = inner();
                classifiers.record(&polled);
                polled
            });
        }
        self
    }

    /// Binds this wait's checkpoints to `key` instead of the `wait_until_*` arguments: see
    /// [`Waiter::checkpoint_key`](crate::Waiter::checkpoint_key).
    pub fn checkpoint_key<K: InputIdentity + ?Sized>(mut self, key: &K) -> Self {
        self.options.input = InputId::Digest(InputDigest::of(key));
        self
    }

    /// The identity of the input `#[waitable]` found in the arguments.
    pub(crate) fn bind_input(mut self, input: InputId) -> Self {
        self.options.input = input;
        self
    }

    /// This waiter, taking up the wait `checkpoint` describes: see
    /// [`Waiter::resume`](crate::Waiter::resume) (the same deadline, poll count, successes in
    /// a row, backoff position and jitter). A checkpoint of another format, waiter,
    /// definition or input, or whose deadline has passed, is a [`CheckpointError`].
    pub fn resume(
        mut self,
        checkpoint: &WaitCheckpoint,
    ) -> Result<Resumed<'a, O, E, Obs>, CheckpointError> {
        let resume = Resume::check(&self.options.metadata, self.options.input, checkpoint)?;
        let max_wait = resume.progress.max_wait;
        self.options.resume = Some(Box::new(resume));
        Ok(Resumed {
            waiter: self,
            max_wait,
        })
    }
}

/// A blocking wait taken up from a checkpoint ([`Waiter::resume`]): run it with
/// [`wait`](Self::wait) or [`iter`](Self::iter); its maximum wait is the checkpoint's.
#[derive(Debug)]
#[must_use = "a resumed waiter does nothing until `.wait()` or `.iter()`"]
pub struct Resumed<'a, O, E, Obs = ()> {
    waiter: Waiter<'a, O, E, Obs>,
    max_wait: Duration,
}

impl<'a, O, E, Obs: PollObserver> Resumed<'a, O, E, Obs> {
    /// The rest of the wait, as [`Waiter::wait`].
    pub fn wait(self) -> Result<FinalPoll<O, E>, WaiterError<O, E>> {
        self.waiter.wait(self.max_wait)
    }

    /// The rest of the wait, poll by poll, as [`Waiter::iter`].
    pub fn iter(self) -> WaiterIter<'a, O, E, Obs> {
        self.waiter.iter(self.max_wait)
    }
}
