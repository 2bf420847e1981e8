//! Taking a wait up from a checkpoint: [`Waiter::resume`] gives a [`Resumed`] wait.

use std::time::Duration;

use super::checkpoint::{CheckpointError, Resume, WaitCheckpoint};
use super::observer::PollObserver;
use super::outcome::{FinalPoll, WaiterError};
use super::run::Waiter;
use super::stream::WaiterStream;

impl<'a, O, E, Obs: PollObserver> Waiter<'a, O, E, Obs> {
    /// This waiter, taking up the wait `checkpoint` describes (see [`WaitCheckpoint`]): the
    /// same deadline (`started_at + max_wait`, by the wall clock), poll count, successes in a
    /// row and backoff position; its first poll comes when the checkpoint planned it, or at
    /// once if that time has passed. The waiter's options (delays, retries, observer...) are
    /// this waiter's: set them as the first process did.
    ///
    /// A checkpoint of another waiter, or whose deadline has passed, is a [`CheckpointError`].
    ///
    /// ```
    /// use std::time::Duration;
    /// use futures_util::StreamExt;
    /// use waiter_runtime::{Searchable, WaiterError, waitable};
    /// use waiter_runtime::waiter::{CheckpointError, WaitUpdate};
    ///
    /// #[derive(Debug, Searchable)]
    /// struct Stack { status: String }
    ///
    /// #[waitable(StackReady: { acceptors: [{ state: "success", matcher: { output: {
    ///     path: "status", expected: "READY", comparator: "stringEquals" } } }] })]
    /// async fn get_stack() -> Result<Stack, std::io::Error> {
    ///     Ok(Stack { status: "CREATING".into() })
    /// }
    /// #[waitable(Other: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    /// async fn get_other() -> Result<(), std::io::Error> {
    ///     Ok(())
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let mut updates = wait_until_stack_ready().min_delay(Duration::from_secs(5)).stream(Duration::from_secs(600));
    /// let Some(WaitUpdate::Polled { event, .. }) = updates.next().await else { unreachable!() };
    /// let checkpoint = event.checkpoint().unwrap();
    /// drop(updates); // the process stops here; another one takes the wait up
    ///
    /// let resumed = wait_until_stack_ready().min_delay(Duration::from_secs(5)).resume(&checkpoint).unwrap();
    /// let err = resumed.wait().await.unwrap_err();
    /// // One deadline, one count of polls, across both processes.
    /// let WaiterError::ExceededMaxWait { elapsed, polls, .. } = err else { unreachable!() };
    /// assert!(elapsed > Duration::from_secs(595) && elapsed <= Duration::from_secs(600));
    /// assert!(polls > 1);
    ///
    /// // Another waiter's checkpoint is refused.
    /// let refused = wait_until_other().resume(&checkpoint).unwrap_err();
    /// assert!(matches!(refused, CheckpointError::OtherWaiter { .. }));
    /// # }
    /// ```
    pub fn resume(
        mut self,
        checkpoint: &WaitCheckpoint,
    ) -> Result<Resumed<'a, O, E, Obs>, CheckpointError> {
        let resume = Resume::check(self.metadata().name, checkpoint)?;
        let max_wait = resume.progress.max_wait;
        self.options_mut().resume = Some(Box::new(resume));
        Ok(Resumed {
            waiter: self,
            max_wait,
        })
    }
}

/// A wait taken up from a checkpoint ([`Waiter::resume`]): run it with [`wait`](Self::wait)
/// or [`stream`](Self::stream); its maximum wait is the checkpoint's.
#[derive(Debug)]
#[must_use = "a resumed waiter does nothing until `.wait().await`"]
pub struct Resumed<'a, O, E, Obs = ()> {
    waiter: Waiter<'a, O, E, Obs>,
    max_wait: Duration,
}

impl<'a, O, E, Obs: PollObserver> Resumed<'a, O, E, Obs> {
    /// The rest of the wait, as [`Waiter::wait`].
    pub async fn wait(self) -> Result<FinalPoll<O, E>, WaiterError<O, E>> {
        self.waiter.wait(self.max_wait).await
    }

    /// The rest of the wait as a stream, as [`Waiter::stream`].
    pub fn stream(self) -> WaiterStream<'a, O, E>
    where
        O: Send + 'a,
        E: Send + 'a,
        Obs: Send + 'a,
    {
        self.waiter.stream(self.max_wait)
    }
}
