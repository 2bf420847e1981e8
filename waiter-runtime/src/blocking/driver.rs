//! The blocking driver of the decision core ([`Machine`]): it sleeps and polls on the calling
//! thread, one step at a time, for [`Waiter::wait`](super::Waiter::wait) (every step until the
//! end) and [`Waiter::iter`](super::Waiter::iter) (a step per `next`).
//!
//! The clock is a parameter: the system's ([`SystemClock`]) for users, a virtual one in the
//! tests that compare the blocking forms with the async ones poll by poll
//! (`blocking/agreement_tests.rs`).

use std::time::Duration;

use tokio::time::Instant;

use crate::timer;
use crate::waiter::acceptor::Polled;
use crate::waiter::machine::{Machine, Next};
use crate::waiter::options::Options;
use crate::waiter::{FinalPoll, PollEvent, PollObserver, WaiterError};

/// One blocking poll.
pub(crate) type BlockingPoller<'a, O, E> = Box<dyn FnMut() -> Polled<O, E> + Send + 'a>;

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
    fn now(&self) -> Instant {
        // On a blocking caller's thread (see `timer::as_blocking`), the system's clock.
        timer::now()
    }

    fn sleep(&self, duration: Duration) {
        std::thread::sleep(duration);
    }
}

/// One step of a blocking wait.
pub(crate) enum Step<O, E> {
    /// A poll that did not end the wait: its event (its result stays in the machine, for
    /// [`Driver::take_last`]).
    Polled(PollEvent),
    /// The wait is over.
    Done(Result<FinalPoll<O, E>, WaiterError<O, E>>),
}

/// A blocking wait in progress: the decision core, the operation, the observer and the clock.
pub(crate) struct Driver<'a, O, E, Obs, C> {
    /// `None` when the options were refused (the first step is then the end).
    machine: Option<Machine<O, E>>,
    poller: BlockingPoller<'a, O, E>,
    observer: Obs,
    clock: C,
    /// What comes next; `None` once the end was given.
    next: Option<Next<O, E>>,
    /// When the last update was handed to an iterator's consumer: its time counts in the
    /// delay, as a stream's consumer's does.
    handed_off: Option<Instant>,
}

impl<'a, O, E, Obs: PollObserver, C: Clock> Driver<'a, O, E, Obs, C> {
    /// A wait of at most `max_wait` from now, with `options` (checked: refused options end it
    /// at its first step, before any poll).
    pub(crate) fn new(
        options: &Options,
        poller: BlockingPoller<'a, O, E>,
        observer: Obs,
        clock: C,
        max_wait: Duration,
    ) -> Self {
        let now = clock.now();
        let (machine, next) = match Machine::new(options, max_wait, now, now) {
            Ok(mut machine) => {
                let next = machine.start(now);
                (Some(machine), next)
            }
            Err(error) => (None, Next::Done(Err(error))),
        };
        Driver {
            machine,
            poller,
            observer,
            clock,
            next: Some(next),
            handed_off: None,
        }
    }

    /// Sleeps if the core says so, then polls, and says what the poll did; `None` after the
    /// end was given.
    pub(crate) fn step(&mut self) -> Option<Step<O, E>> {
        match self.next.take()? {
            Next::Done(outcome) => return Some(Step::Done(outcome)),
            Next::Sleep(delay) => {
                // The consumer's time since the hand-off is part of the delay.
                let delay = match self.handed_off.take() {
                    Some(at) => {
                        delay.saturating_sub(self.clock.now().saturating_duration_since(at))
                    }
                    None => delay,
                };
                if !delay.is_zero() {
                    self.clock.sleep(delay);
                }
            }
            Next::Poll => {}
        }
        let machine = self.machine.as_mut()?;
        // No request at or after the deadline (a sleep that ended late, a consumer back after
        // it).
        let now = self.clock.now();
        if !machine.may_poll(now) {
            return Some(Step::Done(Err(machine.out_of_time(now))));
        }
        let scope = machine.poll_scope();
        let poll_started = self.clock.now();
        let polled = scope.run_blocking(&mut self.poller);
        let (event, next) = machine.polled(polled, &scope, poll_started, self.clock.now());
        self.observer.on_poll(&event);
        match next {
            Next::Done(outcome) => Some(Step::Done(outcome)),
            next => {
                self.next = Some(next);
                Some(Step::Polled(event))
            }
        }
    }

    /// Every step to the end: [`Waiter::wait`](super::Waiter::wait).
    pub(crate) fn finish(mut self) -> Result<FinalPoll<O, E>, WaiterError<O, E>> {
        // A new driver has a next step until it gives the end, once.
        loop {
            if let Some(Step::Done(outcome)) = self.step() {
                return outcome;
            }
        }
    }

    /// The last poll's result, taken out for an iterator's consumer (a later
    /// `ExceededMaxWait` then carries no `last`, as a stream's); the hand-off starts now.
    pub(crate) fn take_last(&mut self) -> Option<Result<O, E>> {
        self.handed_off = Some(self.clock.now());
        self.machine.as_mut()?.take_last()
    }
}
