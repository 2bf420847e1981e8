//! The blocking driver of the decision core ([`Machine`]): it sleeps and polls on the calling
//! thread, for [`Waiter::wait`](super::Waiter::wait) ([`wait`]: every step until the end) and
//! [`Waiter::iter`](super::Waiter::iter) ([`Driver`]: a step per `next`); both make each poll
//! with [`poll_after`].
//!
//! The clock is a parameter: the system's ([`SystemClock`]) for users, a virtual one in the
//! tests that compare the blocking forms with the async ones poll by poll
//! (`blocking/agreement_tests.rs`).

use std::time::Duration;

use tokio::time::Instant;

use super::BlockingPoller;
use crate::timer;
use crate::waiter::machine::{Machine, Next};
use crate::waiter::options::Options;
use crate::waiter::{FinalPoll, PollEvent, PollObserver, WaiterError};

/// What a blocking driver reads the time from and sleeps on.
pub(crate) trait Clock {
    /// The time now.
    fn now(&self) -> Instant;
    /// Sleeps for `duration`.
    fn sleep(&self, duration: Duration);
}

/// The system's clock and the calling thread's sleep, as the docs of [`blocking`](super) say.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SystemClock;

impl Clock for SystemClock {
    #[inline]
    fn now(&self) -> Instant {
        // On a blocking caller's thread (see `timer::as_blocking`), the system's clock.
        timer::now()
    }

    #[inline]
    fn sleep(&self, duration: Duration) {
        std::thread::sleep(duration);
    }
}

/// How a wait ends.
type Outcome<O, E> = Result<FinalPoll<O, E>, WaiterError<O, E>>;

/// One step of a blocking wait.
pub(crate) enum Step<O, E> {
    /// A poll that did not end the wait: its event (its result stays in the machine, for
    /// [`Driver::take_last`]).
    Polled(PollEvent),
    /// The wait is over.
    Done(Outcome<O, E>),
}

/// [`Waiter::wait`](super::Waiter::wait): a wait of at most `max_wait` from now, with
/// `options`, every step to its end. Its state stays on this function's stack (no driver is
/// built: nothing large moves).
pub(crate) fn wait<O, E, Obs: PollObserver, C: Clock>(
    options: &Options,
    mut poller: BlockingPoller<'_, O, E>,
    mut observer: Obs,
    clock: C,
    max_wait: Duration,
) -> Outcome<O, E> {
    let now = clock.now();
    let mut machine = Machine::new(options, max_wait, now, now)?;
    let mut delay = match machine.start(now) {
        Next::Done(outcome) => return outcome,
        Next::Sleep(delay) => delay,
        Next::Poll => Duration::ZERO,
    };
    loop {
        match poll_after(&mut machine, &mut poller, &mut observer, &clock, delay) {
            Ok((_, next)) => delay = next,
            Err(outcome) => return outcome,
        }
    }
}

/// Sleeps `delay`, then polls (unless the deadline came: no request at or after it), and
/// gives the poll's event and the delay before the next one, or the wait's end.
#[inline]
fn poll_after<O, E, Obs: PollObserver, C: Clock>(
    machine: &mut Machine<O, E>,
    poller: &mut BlockingPoller<'_, O, E>,
    observer: &mut Obs,
    clock: &C,
    delay: Duration,
) -> Result<(PollEvent, Duration), Outcome<O, E>> {
    if !delay.is_zero() {
        clock.sleep(delay);
    }
    // A sleep that ended late, or a consumer back after the deadline: no request.
    let now = clock.now();
    if !machine.may_poll(now) {
        return Err(Err(machine.out_of_time(now)));
    }
    let scope = machine.poll_scope();
    let polled = scope.run_blocking(poller);
    let (event, next) = machine.polled(polled, &scope, now, clock.now());
    observer.on_poll(&event);
    match next {
        Next::Done(outcome) => Err(outcome),
        Next::Sleep(delay) => Ok((event, delay)),
        Next::Poll => Ok((event, Duration::ZERO)),
    }
}

/// A blocking wait in progress, for [`Waiter::iter`](super::Waiter::iter): the decision core,
/// the operation, the observer and the clock, one step per `next`.
pub(crate) struct Driver<'a, O, E, Obs, C> {
    machine: Machine<O, E>,
    poller: BlockingPoller<'a, O, E>,
    observer: Obs,
    clock: C,
    /// What comes next; `None` once the end was given.
    next: Option<Next<O, E>>,
    /// When the last update was handed to the consumer: its time counts in the delay, as a
    /// stream's consumer's does.
    handed_off: Option<Instant>,
}

impl<'a, O, E, Obs: PollObserver, C: Clock> Driver<'a, O, E, Obs, C> {
    /// A wait of at most `max_wait` from now, with `options`; refused options are the wait's
    /// end, before any poll.
    pub(crate) fn new(
        options: &Options,
        poller: BlockingPoller<'a, O, E>,
        observer: Obs,
        clock: C,
        max_wait: Duration,
    ) -> Result<Self, WaiterError<O, E>> {
        let now = clock.now();
        let mut machine = Machine::new(options, max_wait, now, now)?;
        let next = machine.start(now);
        Ok(Driver {
            machine,
            poller,
            observer,
            clock,
            next: Some(next),
            handed_off: None,
        })
    }

    /// Sleeps if the core says so, then polls, and says what the poll did; `None` after the
    /// end was given.
    pub(crate) fn step(&mut self) -> Option<Step<O, E>> {
        let delay = match self.next.take()? {
            Next::Done(outcome) => return Some(Step::Done(outcome)),
            // The consumer's time since the hand-off is part of the delay.
            Next::Sleep(delay) => match self.handed_off.take() {
                Some(at) => delay.saturating_sub(self.clock.now().saturating_duration_since(at)),
                None => delay,
            },
            Next::Poll => Duration::ZERO,
        };
        let polled = poll_after(
            &mut self.machine,
            &mut self.poller,
            &mut self.observer,
            &self.clock,
            delay,
        );
        Some(match polled {
            Ok((event, delay)) => {
                self.next = Some(Next::Sleep(delay));
                Step::Polled(event)
            }
            Err(outcome) => Step::Done(outcome),
        })
    }

    /// The last poll's result, taken out for the consumer (a later `ExceededMaxWait` then
    /// carries no `last`, as a stream's); the hand-off starts now.
    pub(crate) fn take_last(&mut self) -> Option<Result<O, E>> {
        self.handed_off = Some(self.clock.now());
        self.machine.take_last()
    }
}
