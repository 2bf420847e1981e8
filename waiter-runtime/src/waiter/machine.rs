//! The waiter's decisions, with no I/O: when to poll, how long to sleep, what a poll's result
//! means and how the wait ends. Every waiter is this machine and a driver that only sleeps and
//! calls: the async [`Waiter`](super::Waiter) (tokio's or another timer, alone or in a
//! [`WaitAll`](super::WaitAll)) and the [`blocking::Waiter`](crate::blocking::Waiter) (the
//! calling thread).
//!
//! A driver runs it so:
//!
//! ```text
//! let mut machine = Machine::new(&options, max_wait, now, now)?; // the options checked
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

use rand::rngs::SmallRng;
use rand::{RngCore, SeedableRng};
use tokio::time::Instant;

use super::acceptor::{AcceptorState, Polled};
use super::checkpoint::{Binding, Progress, Started};
use super::delay::{Draw, compute_delay, draw, last_poll_head_start, random_between};
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

/// What one poll decides, before anything is planned after it.
#[derive(Clone, Copy)]
enum Verdict {
    Success,
    Failure,
    OutOfTime,
    OperationFailed,
    GoesOn,
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
    /// The seed of the wait's jitter (see `delay::draw`).
    jitter: u64,
    /// What the wait is bound to, for its checkpoints.
    binding: Binding,
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
    /// No poll made yet in a wait started afresh: its first poll is made whatever `max_wait`.
    fresh: bool,
}

impl<O, E> Machine<O, E> {
    /// A wait of at most `max_wait` from `start` (a set's start for its members, else `now`),
    /// with `options` (checked here: contradictory delays and zero successes end the wait
    /// before any poll). A wait resumed from a checkpoint keeps the checkpoint's start and
    /// maximum, counted back from `now`.
    pub(crate) fn new(
        options: &Options,
        max_wait: Duration,
        start: Instant,
        now: Instant,
    ) -> Result<Self, WaiterError<O, E>> {
        Self::build(options, max_wait, start, now).inspect_err(|error| {
            crate::waiter::metrics::wait_failed(options.metadata.name, error, Duration::ZERO);
        })
    }

    fn build(
        options: &Options,
        max_wait: Duration,
        start: Instant,
        now: Instant,
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
            jitter: match options.seed {
                Some(seed) => seed,
                None => SmallRng::from_os_rng().next_u64(),
            },
            binding: Binding {
                definition: metadata.fingerprint,
                input: options.input,
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
            fresh: true,
        };
        if let Some(resume) = &options.resume {
            // The checkpoint was checked when the waiter took it; its deadline may have
            // passed since.
            let (start, elapsed) =
                resume
                    .start(metadata.name, now)
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
            machine.jitter = progress.jitter;
            machine.resumed_delay = Some(resume.first_delay(elapsed));
            machine.fresh = false;
        }
        Ok(machine)
    }

    /// The first step, at `now`: the first poll is immediate. A resumed wait first sleeps
    /// until the poll its checkpoint planned, if that is later, and never past the time left:
    /// a poll planned later than the last poll could leave becomes the last poll (the spec's
    /// sleep to the deadline, with its head start), and with less time left than that head
    /// start the wait is over.
    #[inline]
    pub(crate) fn start(&mut self, now: Instant) -> Next<O, E> {
        match self.resumed_delay.take() {
            None => Next::Poll,
            Some(delay) => self.resumed_start(delay, now),
        }
    }

    /// [`start`](Self::start) for a resumed wait: `delay` was planned before its next poll.
    fn resumed_start(&mut self, delay: Duration, now: Instant) -> Next<O, E> {
        let delay = match self.deadline {
            None => delay,
            Some(deadline) => {
                let remaining = deadline.saturating_duration_since(now);
                let head_start = last_poll_head_start(self.min_delay, self.longest_poll);
                if remaining <= head_start {
                    return Next::Done(Err(self.out_of_time(now)));
                }
                let latest = remaining - head_start;
                if delay >= latest {
                    self.last_poll_made = true;
                }
                delay.min(latest)
            }
        };
        if delay.is_zero() {
            Next::Poll
        } else {
            Next::Sleep(delay)
        }
    }

    /// Whether the wait's first poll is due at once: a fresh wait's, or a resumed wait's
    /// whose planned poll is overdue.
    pub(crate) fn first_poll_due(&self) -> bool {
        self.fresh || self.resumed_delay.is_some_and(|delay| delay.is_zero())
    }

    /// Whether a poll may leave at `now`: never at or after the deadline, where a request
    /// cannot answer, except the first poll of a wait started afresh (made at its start,
    /// whatever `max_wait`). A driver asks before every poll; when the answer is no (a timer
    /// that fired late, a stream's consumer back after the deadline), the wait ends with
    /// [`out_of_time`](Self::out_of_time) and no request is sent.
    pub(crate) fn may_poll(&self, now: Instant) -> bool {
        self.fresh || self.deadline.is_none_or(|deadline| now < deadline)
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

    /// The generator of a set's first-poll spread: the wait's jitter, draw 0 (the delays are
    /// draws 1 and on), so `seed` reproduces it.
    pub(crate) fn spread_rng(&self) -> Draw {
        draw(self.jitter, 0)
    }

    /// The scope the next poll runs in: the errors the acceptors name and the deadline.
    pub(crate) fn poll_scope(&self) -> PollScope {
        PollScope::new(self.named.clone(), self.deadline)
    }

    /// Whether a set's member allowed to poll at `now` (its permit may have come late) is too
    /// late: it may not poll ([`may_poll`](Self::may_poll)), or it would have less time to
    /// answer than the last poll's head start (a wait's first poll excepted). Then the poll is
    /// not made, and the wait ends with [`out_of_time`](Self::out_of_time). A waiter's own
    /// polls are planned at least that early.
    pub(crate) fn too_late_to_poll(&self, now: Instant) -> bool {
        if !self.may_poll(now) {
            return true;
        }
        !self.fresh
            && self.deadline.is_some_and(|deadline| {
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
        self.fresh = false;
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
        // What the poll decides comes first: a poll that ends the wait plans no other.
        let verdict = match (&matched, &result) {
            (Some(m), _) if m.state == AcceptorState::Success && !confirming => Verdict::Success,
            (Some(m), _) if m.state == AcceptorState::Failure => Verdict::Failure,
            // A retry inside the poll gave up at the deadline: the wait ran out of time.
            (None, Err(_)) if scope.stopped_at_deadline() => Verdict::OutOfTime,
            (None, Err(_)) if !transient => Verdict::OperationFailed,
            _ => Verdict::GoesOn,
        };
        let next_delay = match verdict {
            Verdict::GoesOn => self.plan_next(now),
            _ => None,
        };
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
                jitter: self.jitter,
                binding: self.binding,
            },
        };
        let polls = self.polls;
        let final_poll = |result| FinalPoll {
            result,
            polls,
            elapsed,
        };
        let next = match (verdict, matched, result, next_delay) {
            (Verdict::Success, _, result, _) => Next::Done(Ok(final_poll(result))),
            (Verdict::Failure, Some(matched), result, _) => {
                Next::Done(Err(WaiterError::FailureState {
                    waiter: self.waiter,
                    acceptor: matched.acceptor,
                    description: self.acceptors.get(matched.acceptor).copied(),
                    message: matched.message,
                    final_poll: final_poll(result),
                }))
            }
            (Verdict::OperationFailed, _, Err(error), _) => {
                Next::Done(Err(WaiterError::OperationFailed {
                    waiter: self.waiter,
                    error,
                    polls,
                    elapsed,
                }))
            }
            (_, _, result, Some(delay)) => {
                self.last = Some(result);
                Next::Sleep(delay)
            }
            // Out of time: the deadline came, no other poll fits before it, or the poll's
            // retries gave up at it.
            (_, _, result, None) => Next::Done(Err(self.exceeded(elapsed, false, Some(result)))),
        };
        crate::waiter::metrics::polled(&event);
        if let Next::Done(outcome) = &next {
            crate::waiter::metrics::wait_ended(self.waiter, outcome, elapsed);
        }
        (event, next)
    }

    /// The delay before the next poll, after a poll at `now` that leaves the wait going on;
    /// `None` when no other poll is made: the last one was, or none could leave early enough
    /// to answer before the deadline (less time is left than the last poll's head start).
    /// The backoff position moves only when a poll is planned.
    fn plan_next(&mut self, now: Instant) -> Option<Duration> {
        if self.last_poll_made {
            return None;
        }
        let retries = self.retries.saturating_add(1);
        let remaining = self
            .deadline
            .map_or(Duration::MAX, |d| d.saturating_duration_since(now));
        let mut rng = draw(self.jitter, retries);
        let delay = compute_delay(
            retries,
            self.min_delay,
            self.max_delay,
            remaining,
            |low, high| random_between(&mut rng, low, high),
        );
        // The spec sleeps until the deadline for one last poll: start that poll early enough
        // to answer (see `waiter::delay`), and end the wait after it.
        let last = self.deadline.is_some() && delay == remaining;
        let delay = if last {
            let head_start = last_poll_head_start(self.min_delay, self.longest_poll);
            if remaining <= head_start {
                return None;
            }
            remaining - head_start
        } else {
            delay
        };
        self.retries = retries;
        self.last_poll_made = last;
        Some(delay)
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
        (
            Machine::new(&options, max_wait, start, start).unwrap(),
            start,
        )
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
        assert!(matches!(m.start(start), Next::Poll));
        let scope = m.poll_scope();
        let (event, next) = m.polled(retry(), &scope, start, start);
        assert_eq!((event.poll, event.next_delay), (1, Some(SECS(2))));
        assert!(matches!(next, Next::Sleep(d) if d == SECS(2)));
        // At 2 s, 3 s are left: less than 2 s after the next delay, so the last poll is at the
        // deadline less its head start (1 ms for polls that take no time).
        let now = start + SECS(2);
        let (_, next) = m.polled(retry(), &scope, now, now);
        let last = SECS(3) - Duration::from_millis(1);
        assert!(matches!(next, Next::Sleep(d) if d == last));
        let now = start + SECS(5) - Duration::from_millis(1);
        assert!(m.may_poll(now) && !m.may_poll(start + SECS(5)));
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

    /// The poll that ends a wait says so: no next delay, no checkpoint, the backoff position
    /// unmoved, even when its error would have been ridden out (issue 39, 2).
    #[test]
    fn the_poll_that_ends_a_wait_plans_nothing() {
        let mut options =
            Options::new(WaiterMetadata::new("Ready", "get").with_delays(SECS(2), SECS(2)));
        options.transient_poll_errors = TransientPollErrors::Retry;
        let start = Instant::now();
        let mut m: Machine<&'static str, ()> =
            Machine::new(&options, SECS(60), start, start).unwrap();
        let scope = m.poll_scope();
        scope.record_transient_error(true);
        scope.record_deadline_stop();
        let (event, next) = m.polled(Polled::new(Err(()), None), &scope, start, start);
        assert!(event.transient_error);
        assert_eq!((event.next_delay, event.checkpoint()), (None, None));
        assert_eq!(
            (event.progress.retries, event.progress.last_poll_planned),
            (0, false)
        );
        assert!(matches!(
            next,
            Next::Done(Err(WaiterError::ExceededMaxWait { polls: 1, .. }))
        ));
    }

    /// With less time left than the last poll's head start, no poll is planned: a request
    /// then could not answer before the deadline (issue 39, 1).
    #[test]
    fn no_poll_is_planned_that_could_not_answer() {
        let (mut m, start) = machine(SECS(5), 1);
        let scope = m.poll_scope();
        let now = start + SECS(5) - Duration::from_micros(500);
        let (event, next) = m.polled(retry(), &scope, now, now);
        assert_eq!(event.next_delay, None);
        assert!(matches!(
            next,
            Next::Done(Err(WaiterError::ExceededMaxWait { polls: 1, .. }))
        ));
        // The first poll of a fresh wait is made whatever the deadline; no other at it.
        let (m, start) = machine(Duration::ZERO, 1);
        assert!(m.may_poll(start) && m.may_poll(start + SECS(1)));
        let (mut m, start) = machine(Duration::ZERO, 1);
        let (_, next) = m.polled(retry(), &scope, start, start);
        assert!(matches!(
            next,
            Next::Done(Err(WaiterError::ExceededMaxWait { .. }))
        ));
        assert!(!m.may_poll(start));
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
        let now = Instant::now();
        let err = Machine::<(), ()>::new(&options, SECS(1), now, now).err();
        assert!(matches!(
            err,
            Some(WaiterError::InvalidConsecutiveSuccesses { .. })
        ));
    }
}
