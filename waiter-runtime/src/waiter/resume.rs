//! Taking a wait up from a checkpoint: [`Waiter::resume`] gives a [`Resumed`] wait.

use std::time::Duration;

use super::checkpoint::{CheckpointError, Resume, WaitCheckpoint};
use super::input::{InputDigest, InputId, InputIdentity};
use super::observer::PollObserver;
use super::outcome::{FinalPoll, WaiterError};
use super::run::Waiter;
use super::stream::WaiterStream;

impl<'a, O, E, Obs: PollObserver> Waiter<'a, O, E, Obs> {
    /// This waiter, taking up the wait `checkpoint` describes (see [`WaitCheckpoint`]): the
    /// same deadline (`started_at + max_wait`, by the wall clock), poll count, successes in a
    /// row, backoff position and jitter; its first poll comes when the checkpoint planned it,
    /// at once if that time has passed, and never past the deadline (a planned poll later than
    /// the last poll could leave is that last poll). The waiter's options (delays, retries,
    /// observer...) are this waiter's: set them as the first process did.
    ///
    /// A checkpoint of another format, another waiter, another definition of this waiter,
    /// another input (the `wait_until_*` arguments or [`checkpoint_key`](Self::checkpoint_key)
    /// differ), or whose deadline has passed, is a [`CheckpointError`] naming the difference.
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
        let max_wait = self.resume_from(checkpoint)?;
        Ok(Resumed {
            waiter: self,
            max_wait,
        })
    }
}

impl<O, E, Obs: PollObserver> Waiter<'_, O, E, Obs> {
    /// Binds this wait's checkpoints to `key` instead of the `wait_until_*` arguments: its
    /// checkpoints carry `key`'s digest, and [`resume`](Self::resume) takes up only a
    /// checkpoint of the same key. For a waiter whose arguments have no
    /// [`InputIdentity`] (a request type of another crate), or to say which resource it is in
    /// your own terms (an ARN, a deploy's resource key). Give it on both sides: the waiter
    /// that takes the checkpoint and the one that resumes it.
    ///
    /// ```
    /// use std::time::Duration;
    /// use waiter_runtime::waitable;
    /// use waiter_runtime::waiter::{CheckpointError, PollEvent, TransientPollErrors};
    ///
    /// /// A request type of another crate: no `Hash`, no `InputIdentity`.
    /// #[derive(Clone)]
    /// pub struct DescribeStream { pub arn: String, pub timeout_secs: f64 }
    ///
    /// #[waitable(StreamActive: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    /// async fn describe_stream(request: DescribeStream) -> Result<(), std::io::Error> {
    ///     let _ = request;
    ///     Err(std::io::ErrorKind::TimedOut.into()) // transient: ridden out
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let request = |arn: &str| DescribeStream { arn: arn.into(), timeout_secs: 5.0 };
    /// let mut saved = None;
    /// let _ = wait_until_stream_active(request("arn:stream/a"))
    ///     .checkpoint_key("arn:stream/a")
    ///     .transient_poll_errors(TransientPollErrors::Retry)
    ///     .on_poll(|e: &PollEvent| saved = saved.take().or(e.checkpoint()))
    ///     .wait(Duration::from_secs(60))
    ///     .await;
    /// let checkpoint = saved.unwrap();
    /// // The same key: taken up.
    /// assert!(wait_until_stream_active(request("arn:stream/a")).checkpoint_key("arn:stream/a").resume(&checkpoint).is_ok());
    /// // Another key: refused.
    /// let err = wait_until_stream_active(request("arn:stream/b")).checkpoint_key("arn:stream/b").resume(&checkpoint).unwrap_err();
    /// assert!(matches!(err, CheckpointError::OtherInput { .. }));
    /// // No key: the argument says nothing, so nothing is resumed unchecked.
    /// let err = wait_until_stream_active(request("arn:stream/a")).resume(&checkpoint).unwrap_err();
    /// assert!(matches!(err, CheckpointError::InputNotIdentified { argument: "request", .. }));
    /// # }
    /// ```
    pub fn checkpoint_key<K: InputIdentity + ?Sized>(mut self, key: &K) -> Self {
        self.options_mut().input = InputId::Digest(InputDigest::of(key));
        self
    }

    /// The identity of the input `#[waitable]` found in the arguments.
    pub(crate) fn bind_input(mut self, input: InputId) -> Self {
        self.options_mut().input = input;
        self
    }

    /// The waiter's name, definition and input, as a checkpoint records them.
    pub(crate) fn identity(&self) -> (&'static str, u64, Option<u64>) {
        let metadata = self.metadata();
        (metadata.name, metadata.fingerprint, self.input().digest())
    }

    /// Takes `checkpoint` up when this waiter runs: checked, then kept in its options. Returns
    /// the checkpoint's maximum wait.
    pub(crate) fn resume_from(
        &mut self,
        checkpoint: &WaitCheckpoint,
    ) -> Result<Duration, CheckpointError> {
        let options = self.options_mut();
        let resume = Resume::check(&options.metadata, options.input, checkpoint)?;
        let max_wait = resume.progress.max_wait;
        options.resume = Some(Box::new(resume));
        Ok(max_wait)
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
