//! The waiter's own retries inside a poll ([`Waiter::retry`](super::Waiter::retry)).

use std::future::Future;

use super::{Polled, Poller};
use crate::ProvideErrorMetadata;
use crate::retry::Retrier;

/// How a [`Waiter`](super::Waiter) runs one poll: `()` polls once (the operation may retry
/// inside with a retry layer of its own); a [`Retrier`], set with
/// [`Waiter::retry`](super::Waiter::retry), retries an error no acceptor matched, as the
/// retrier's rules say, unless the operation retried it already.
pub trait PollRetries<P: Poller> {
    /// Runs one poll with `poller`.
    fn poll(&self, poller: &mut P) -> impl Future<Output = Polled<P::Output, P::Error>>;
}

impl<P: Poller> PollRetries<P> for () {
    #[inline]
    fn poll(&self, poller: &mut P) -> impl Future<Output = Polled<P::Output, P::Error>> {
        poller.poll_once()
    }
}

impl<P: Poller> PollRetries<P> for Retrier
where
    P::Error: ProvideErrorMetadata + 'static,
{
    fn poll(&self, poller: &mut P) -> impl Future<Output = Polled<P::Output, P::Error>> {
        async move {
            // An error an acceptor matched is the waiter's: it comes back as `Ok`, never retried.
            let report = self
                .run_waiter_poll(|| {
                    let poll = poller.poll_once();
                    async move {
                        match poll.await {
                            Polled {
                                result: Err(error),
                                matched: None,
                            } => Err(error),
                            polled => Ok(polled),
                        }
                    }
                })
                .await;
            match report.result {
                Ok(polled) => polled,
                Err(error) => Polled::new(Err(error), None),
            }
        }
    }
}
