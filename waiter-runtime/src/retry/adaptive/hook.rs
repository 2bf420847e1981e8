//! The retrier's hook into the adaptive limiter: [`ClientRateLimiter`] as a
//! [`RateLimiter`](crate::retry::RateLimiter).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use super::{ClientRateLimiter, Sent, Ticket};

/// The retrier's hook: [`RetryMode::Adaptive`](crate::retry::RetryMode::Adaptive) paces every
/// attempt through it.
impl crate::retry::RateLimiter for ClientRateLimiter {
    fn acquire(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        if ClientRateLimiter::try_acquire(self) {
            // Zero-sized, so boxing it does not allocate: only a caller that has to wait
            // pays for a boxed future.
            Box::pin(Ready)
        } else {
            Box::pin(ClientRateLimiter::acquire(self))
        }
    }

    /// A [`Ticket`]: the call's retries wait behind the calls that started before it. While
    /// the limiter is off nobody waits, so the calls started then share the first place, `0`
    /// (ahead of every call started once it is on, in arrival order among themselves), and
    /// starting a call costs one atomic load.
    fn call_started(&self) -> u64 {
        if self.is_on() { self.ticket().raw() } else { 0 }
    }

    fn acquire_for(&self, ticket: u64) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        if ClientRateLimiter::try_acquire(self) {
            Box::pin(Ready)
        } else {
            Box::pin(ClientRateLimiter::acquire_with(
                self,
                Ticket::from_raw(ticket),
            ))
        }
    }

    fn on_response(&self, throttled: bool) {
        ClientRateLimiter::on_response(self, throttled);
    }

    /// A [`Sent`] mark: a count of the cuts and recovery periods so far.
    fn attempt_sent(&self) -> u64 {
        ClientRateLimiter::sent(self).raw()
    }

    fn on_attempt_response(&self, sent: u64, throttled: bool) {
        ClientRateLimiter::on_response_to(self, Sent::from_raw(sent), throttled);
    }
}

/// A future that is ready at once. Zero-sized, unlike `std::future::Ready<()>` (which holds an
/// `Option<()>`), so `Box::pin(Ready)` does not allocate.
pub(super) struct Ready;

impl Future for Ready {
    type Output = ();

    fn poll(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<()> {
        Poll::Ready(())
    }
}
