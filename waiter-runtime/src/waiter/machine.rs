//! The waiter's decisions, with no I/O: when to poll, how long to sleep, what a poll's result
//! means and how the wait ends. Every waiter is this machine and a driver that only sleeps and
//! calls: the async [`Waiter`](super::Waiter) (tokio's or another timer, alone or in a
//! [`WaitAll`](super::WaitAll)) and the [`blocking::Waiter`](crate::blocking::Waiter) (the
//! calling thread).
//!
//! A driver runs it so:
//!
//! ```text
//! let mut machine = Machine::new(&options, max_wait, now)?;   // the options checked
//! let mut next = machine.start();                              // Next::Poll
//! loop {
//!     match next {
//!         Next::Done(outcome) => return outcome,
//!         Next::Sleep(delay) => sleep(delay),                  // then poll
//!         Next::Poll => {}
//!     }
//!     let scope = machine.poll_scope();
//!     let started = now();
//!     let polled = scope.run(poll());                         // cancelled at machine.deadline()?
//!     let (event, n) = machine.polled(polled, &scope, started, now());
//!     observer(&event);
//!     next = n;
//! }
//! ```
//!
//! The clock is the driver's: every method that needs the time is given it (`now`), so a
//! blocking driver reads the system clock even on a thread where tokio's paused clock would
//! not move. A driver that cancels a poll at the deadline ends with
//! [`cancelled_at_deadline`](Machine::cancelled_at_deadline); one that cannot (a blocking
//! call) lets the poll finish and hands its result to [`polled`](Machine::polled), which uses
//! it if it decides (success, failure, an unexpected error) and otherwise ends the wait as
//! `ExceededMaxWait` with it: a poll that ends past the deadline is never followed by another.

use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use tokio::time::Instant;

use super::acceptor::{AcceptorState, Polled};
use super::checkpoint::{Progress, Started};
use super::delay::{compute_delay, last_poll_head_start, random_between};
use super::metadata::AcceptorDescription;
use super::observer::PollEvent;
use super::options::Options;
use super::outcome::{FinalPoll, WaiterError};
use super::transient::TransientPollErrors;
use crate::poll_scope::{NamedErrors, PollScope};

/// What the driver does next.
pub(crate) enum Next<O, E> {
    /// Poll now.
    Poll,
    /// Sleep this long, then poll.
    Sleep(Duration),
    /// The wait is over.
    Done(Result<FinalPoll<O, E>, WaiterError<O, E>>),
}

/// One wait's state: what the polls so far decided, and what comes next.
pub(crate) struct Machine<O, E> {
    waiter: &'static str,
    acceptors: &'static [AcceptorDescription],
    named: NamedErrors,
    max_wait: Duration,
    start: Instant,
    /// `None`: a max wait too large to represent, which is no deadline at all.
    deadline: Option<Instant>,
    min_delay: Duration,
    max_delay: Duration,
    /// Polls in a row that must match `success`.
    needed: u32,
    rng: SmallRng,
    polls: u32,
    /// Retries so far (the delay formula's attempt number).
    retries: u32,
    /// Polls in a row that matched `success`.
    successes: u32,
    /// The longest poll so far sets the last poll's head start.
    longest_poll: Duration,
    /// After the last poll, a retry state ends the wait.
    last_poll_made: bool,
    /// The last poll's result, while the wait goes on.
    last: Option<Result<O, E>>,
    /// A poll's transient or throttling error no acceptor names is a poll that matched
    /// nothing ([`TransientPollErrors::Retry`]).
    transient_retry: bool,
    /// When the wait started (for checkpoints).
    started: Started,
    /// A resumed wait's first step: the delay left before the poll its checkpoint planned.
    resumed_delay: Option<Duration>,
}

impl<O, E> Machine<O, E> {
    /// A wait of at most `max_wait` from `start`, with `options` (checked here: contradictory
    /// delays and zero successes end the wait before any poll).
    pub(crate) fn new(
        options: &Options,
        max_wait: Duration,
        start: Instant,
    ) -> Result<Self, WaiterError<O, E>> {
        Self::build(options, max_wait, start).inspect_err(|error| {
            crate::waiter::metrics::wait_failed(options.metadata.name, error, Duration::ZERO);
        })
    }

    fn build(
        options: &Options,
        max_wait: Duration,
        start: Instant,
    ) -> Result<Self, WaiterError<O, E>> {
        let metadata = &options.metadata;
        let (min_delay, max_delay) = options.delays()?;
        if options.consecutive_successes == 0 {
            return Err(WaiterError::InvalidConsecutiveSuccesses {
                waiter: metadata.name,
            });
        }
        let mut machine = Machine {
            waiter: metadata.name,
            acceptors: metadata.acceptors,
            named: metadata.named_errors(),
            max_wait,
            start,
            deadline: start.checked_add(max_wait),
            min_delay,
            max_delay,
            needed: options.consecutive_successes,
            rng: match options.seed {
                Some(seed) => SmallRng::seed_from_u64(seed),
                None => SmallRng::from_os_rng(),
            },
            polls: 0,
            retries: 0,
            successes: 0,
            longest_poll: Duration::ZERO,
            last_poll_made: false,
            last: None,
            transient_retry: options.transient_poll_errors == TransientPollErrors::Retry,
            started: Started::Clock(start),
            resumed_delay: None,
        };
        if let Some(resume) = &options.resume {
            // The checkpoint was checked when the waiter took it; its deadline may have
            // passed since.
            let (start, elapsed) =
                resume
                    .start(metadata.name, start)
                    .map_err(|_| WaiterError::ExceededMaxWait {
                        waiter: metadata.name,
                        max_wait: resume.progress.max_wait,
                        elapsed: resume.elapsed_now(),
                        polls: resume.polls,
                        cancelled_in_flight: false,
                        last: None,
                    })?;
            let progress = resume.progress;
            machine.start = start;
            machine.max_wait = progress.max_wait;
            machine.deadline = start.checked_add(progress.max_wait);
            machine.started = progress.started;
            machine.polls = resume.polls;
            machine.successes = resume.consecutive_successes;
            machine.retries = progress.retries;
            machine.longest_poll = progress.longest_poll;
            machine.last_poll_made = progress.last_poll_planned;
            machine.resumed_delay = Some(resume.first_delay(elapsed));
        }
        Ok(machine)
    }

    /// The first step: the first poll is immediate.
    /// A resumed wait first sleeps until the poll its checkpoint planned, if that is later.
    pub(crate) fn start(&mut self) -> Next<O, E> {
        match self.resumed_delay.take() {
            Some(delay) if !delay.is_zero() => Next::Sleep(delay),
            _ => Next::Poll,
        }
    }

    /// The result of the last poll, taken out (a stream gives it to its consumer, so a
    /// later `ExceededMaxWait` carries no `last`).
    pub(crate) fn take_last(&mut self) -> Option<Result<O, E>> {
        self.last.take()
    }

    /// The wait's deadline (`None`: none).
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The minimum delay the wait uses.
    pub(crate) fn min_delay(&self) -> Duration {
        self.min_delay
    }

    /// The wait's generator (seeded by `seed`): a set's first-poll spread draws from it, before
    /// any delay.
    pub(crate) fn rng(&mut self) -> &mut SmallRng {
        &mut self.rng
    }

    /// The scope the next poll runs in: the errors the acceptors name and the deadline.
    pub(crate) fn poll_scope(&self) -> PollScope {
        PollScope::new(self.named.clone(), self.deadline)
    }

    /// Whether a poll allowed to start at `now` (a set's permit that came late) would have
    /// less time to answer than the last poll's head start: then it is not made, and the wait
    /// ends with [`out_of_time`](Self::out_of_time). Never the case for a waiter alone, whose
    /// polls start at least that early.
    pub(crate) fn too_late_to_poll(&self, now: Instant) -> bool {
        self.deadline.is_some_and(|deadline| {
            deadline.saturating_duration_since(now)
                < last_poll_head_start(self.min_delay, self.longest_poll)
        })
    }

    /// Takes in one poll's result: `poll_started` is when it started, `now` when it ended; the
    /// scope it ran in tells what the retries inside it did. Returns what the observers see and
    /// the next step.
    pub(crate) fn polled(
        &mut self,
        polled: Polled<O, E>,
        scope: &PollScope,
        poll_started: Instant,
        now: Instant,
    ) -> (PollEvent, Next<O, E>) {
        self.polls = self.polls.saturating_add(1);
        self.longest_poll = self
            .longest_poll
            .max(now.saturating_duration_since(poll_started));
        let elapsed = now.saturating_duration_since(self.start);
        let stats = scope.stats();
        // A transient error no acceptor names, under `TransientPollErrors::Retry`: a poll that
        // matched nothing.
        let transient = self.transient_retry
            && polled.matched.is_none()
            && polled.result.is_err()
            && scope.transient_error();
        let state = if transient {
            AcceptorState::Retry
        } else {
            polled.state()
        };
        let Polled { result, matched } = polled;
        let acceptor = matched.as_ref().map(|m| m.acceptor);
        self.successes = if state == AcceptorState::Success {
            self.successes.saturating_add(1)
        } else {
            0
        };
        // A success short of `consecutive_successes` asks for another poll, as a retry.
        let confirming = state == AcceptorState::Success && self.successes < self.needed;
        let goes_on = state == AcceptorState::Retry || confirming;
        // A poll that ended past the deadline (one that could not be cancelled) is the last.
        let past_deadline = self.deadline.is_some_and(|deadline| now > deadline);
        let next_delay = (goes_on && !self.last_poll_made && !past_deadline).then(|| {
            self.retries = self.retries.saturating_add(1);
            let remaining = self
                .deadline
                .map_or(Duration::MAX, |d| d.saturating_duration_since(now));
            let rng = &mut self.rng;
            let delay = compute_delay(
                self.retries,
                self.min_delay,
                self.max_delay,
                remaining,
                |low, high| random_between(rng, low, high),
            );
            // The spec sleeps until the deadline for one last poll: start that poll early
            // enough to answer (see `waiter::delay`), and end the wait after it.
            if self.deadline.is_some() && delay == remaining {
                self.last_poll_made = true;
                remaining.saturating_sub(last_poll_head_start(self.min_delay, self.longest_poll))
            } else {
                delay
            }
        });
        tracing::debug!(
            poll = self.polls,
            ?elapsed,
            %state,
            transient,
            ?acceptor,
            ?next_delay,
            attempts = stats.attempts,
            retry_wait = ?stats.retry_wait,
            rate_limit_wait = ?stats.rate_limit_wait,
            "waiter poll"
        );
        let event = PollEvent {
            waiter: self.waiter,
            poll: self.polls,
            elapsed,
            state,
            acceptor,
            next_delay,
            attempts: stats.attempts,
            retry_wait: stats.retry_wait,
            rate_limit_wait: stats.rate_limit_wait,
            consecutive_successes: self.successes,
            consecutive_successes_needed: self.needed,
            transient_error: transient,
            progress: Progress {
                started: self.started,
                max_wait: self.max_wait,
                retries: self.retries,
                longest_poll: self.longest_poll,
                last_poll_planned: self.last_poll_made,
            },
        };
        let polls = self.polls;
        let final_poll = |result| FinalPoll {
            result,
            polls,
            elapsed,
        };
        let next = match (matched, result) {
            (Some(matched), result) if matched.state == AcceptorState::Success && !confirming => {
                Next::Done(Ok(final_poll(result)))
            }
            (Some(matched), result) if matched.state == AcceptorState::Failure => {
                Next::Done(Err(WaiterError::FailureState {
                    waiter: self.waiter,
                    acceptor: matched.acceptor,
                    description: self.acceptors.get(matched.acceptor).copied(),
                    message: matched.message,
                    final_poll: final_poll(result),
                }))
            }
            // A retry inside the poll gave up at the deadline: the wait ran out of time.
            (None, Err(error)) if scope.stopped_at_deadline() => {
                Next::Done(Err(self.exceeded(elapsed, false, Some(Err(error)))))
            }
            (None, Err(error)) if !transient => Next::Done(Err(WaiterError::OperationFailed {
                waiter: self.waiter,
                error,
                polls,
                elapsed,
            })),
            (_, result) => match next_delay {
                Some(delay) => {
                    self.last = Some(result);
                    Next::Sleep(delay)
                }
                None => Next::Done(Err(self.exceeded(elapsed, false, Some(result)))),
            },
        };
        crate::waiter::metrics::polled(&event);
        if let Next::Done(outcome) = &next {
            crate::waiter::metrics::wait_ended(self.waiter, outcome, elapsed);
        }
        (event, next)
    }

    /// The wait ran out of time at `now` without a poll in flight (a set's permit came too
    /// late, or never).
    pub(crate) fn out_of_time(&mut self, now: Instant) -> WaiterError<O, E> {
        let last = self.last.take();
        let elapsed = now.saturating_duration_since(self.start);
        self.ended(self.exceeded(elapsed, false, last), elapsed)
    }

    /// The poll in flight was cancelled at the deadline (`now`).
    pub(crate) fn cancelled_at_deadline(&mut self, now: Instant) -> WaiterError<O, E> {
        tracing::debug!(poll = self.polls + 1, "poll cancelled at the deadline");
        let last = self.last.take();
        let elapsed = now.saturating_duration_since(self.start);
        self.ended(self.exceeded(elapsed, true, last), elapsed)
    }

    /// A set's member stopped by the failure of waiter `by` (named `by_waiter`), with a poll
    /// in flight cancelled or not.
    pub(crate) fn stopped(
        &mut self,
        by: usize,
        by_waiter: &'static str,
        cancelled_in_flight: bool,
        now: Instant,
    ) -> WaiterError<O, E> {
        let elapsed = now.saturating_duration_since(self.start);
        let stopped = WaiterError::Stopped {
            waiter: self.waiter,
            by,
            by_waiter,
            polls: self.polls,
            elapsed,
            cancelled_in_flight,
            last: self.last.take(),
        };
        self.ended(stopped, elapsed)
    }

    /// A poll panicked (caught by a set), with this message.
    pub(crate) fn panicked(&mut self, message: String, now: Instant) -> WaiterError<O, E> {
        let elapsed = now.saturating_duration_since(self.start);
        let panicked = WaiterError::PollPanicked {
            waiter: self.waiter,
            message,
            polls: self.polls,
            elapsed,
            last: self.last.take(),
        };
        self.ended(panicked, elapsed)
    }

    /// A wait ended without a poll's decision: counted (feature `metrics`).
    fn ended(&self, error: WaiterError<O, E>, elapsed: Duration) -> WaiterError<O, E> {
        crate::waiter::metrics::wait_failed(self.waiter, &error, elapsed);
        error
    }

    /// How a wait that ran out of time ends.
    fn exceeded(
        &self,
        elapsed: Duration,
        cancelled_in_flight: bool,
        last: Option<Result<O, E>>,
    ) -> WaiterError<O, E> {
        WaiterError::ExceededMaxWait {
            waiter: self.waiter,
            max_wait: self.max_wait,
            elapsed,
            polls: self.polls,
            cancelled_in_flight,
            last,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::waiter::acceptor::Matched;
    use crate::waiter::metadata::WaiterMetadata;

    const SECS: fn(u64) -> Duration = Duration::from_secs;

    fn machine(max_wait: Duration, successes: u32) -> (Machine<&'static str, ()>, Instant) {
        let mut options =
            Options::new(WaiterMetadata::new("Ready", "get").with_delays(SECS(2), SECS(2)));
        options.consecutive_successes = successes;
        let start = Instant::now();
        (Machine::new(&options, max_wait, start).unwrap(), start)
    }

    fn retry() -> Polled<&'static str, ()> {
        Polled::new(Ok("pending"), Some(Matched::new(0, AcceptorState::Retry)))
    }

    fn success() -> Polled<&'static str, ()> {
        Polled::new(Ok("ready"), Some(Matched::new(1, AcceptorState::Success)))
    }

    /// Polls that take no time, driven by hand: the decisions alone, no timer, no runtime.
    #[test]
    fn a_wait_is_decisions_alone() {
        let (mut m, start) = machine(SECS(5), 1);
        assert!(matches!(m.start(), Next::Poll));
        let scope = m.poll_scope();
        let (event, next) = m.polled(retry(), &scope, start, start);
        assert_eq!((event.poll, event.next_delay), (1, Some(SECS(2))));
        assert!(matches!(next, Next::Sleep(d) if d == SECS(2)));
        // At 2 s, 3 s are left: less than 2 s after the next delay, so the last poll is at 5 s.
        let now = start + SECS(2);
        let (_, next) = m.polled(retry(), &scope, now, now);
        assert!(matches!(next, Next::Sleep(d) if d == SECS(3)));
        let now = start + SECS(5);
        let (event, next) = m.polled(retry(), &scope, now, now);
        assert_eq!(event.next_delay, None);
        match next {
            Next::Done(Err(WaiterError::ExceededMaxWait { polls, last, .. })) => {
                assert_eq!((polls, last), (3, Some(Ok("pending"))));
            }
            _ => panic!("the wait goes on after its last poll"),
        }
    }

    /// A poll that could not be cancelled and ended past the deadline is the last one: its
    /// result is used if it decides, and a retry state ends the wait.
    #[test]
    fn a_poll_ending_past_the_deadline_is_the_last() {
        let (mut m, start) = machine(SECS(1), 1);
        let scope = m.poll_scope();
        let late = start + SECS(3);
        let (event, next) = m.polled(retry(), &scope, start, late);
        assert_eq!(event.next_delay, None);
        assert!(matches!(
            next,
            Next::Done(Err(WaiterError::ExceededMaxWait {
                polls: 1,
                cancelled_in_flight: false,
                last: Some(Ok("pending")),
                ..
            }))
        ));
        let (mut m, start) = machine(SECS(1), 1);
        let (_, next) = m.polled(success(), &scope, start, start + SECS(3));
        assert!(matches!(next, Next::Done(Ok(FinalPoll { polls: 1, .. }))));
    }

    #[test]
    fn successes_in_a_row_and_invalid_options() {
        let (mut m, start) = machine(SECS(60), 2);
        let scope = m.poll_scope();
        let (event, next) = m.polled(success(), &scope, start, start);
        assert_eq!(event.consecutive_successes, 1);
        assert!(matches!(next, Next::Sleep(_)));
        let (_, next) = m.polled(success(), &scope, start, start + SECS(2));
        assert!(matches!(next, Next::Done(Ok(FinalPoll { polls: 2, .. }))));
        let mut options = Options::new(WaiterMetadata::new("Ready", "get"));
        options.consecutive_successes = 0;
        let err = Machine::<(), ()>::new(&options, SECS(1), Instant::now()).err();
        assert!(matches!(
            err,
            Some(WaiterError::InvalidConsecutiveSuccesses { .. })
        ));
    }
}
