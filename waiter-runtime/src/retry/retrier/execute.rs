//! The retry loop: runs an operation, classifies each result and retries while the rules
//! allow. One loop for every caller: async calls await it, blocking calls
//! ([`Retrier::run_blocking`]) drive it on their own thread (`timer::block_on`), where its
//! sleeps and the rate limiter's line park the thread.

use std::future::Future;
use std::time::Duration;

use tokio::time::Instant;

use super::call::CallSettings;
use super::setup::Retrier;
use crate::ProvideErrorMetadata;
use crate::poll_scope::{self, PollScope};
use crate::retry::attempt_error::OnTimeout;
use crate::retry::attempt_time;
use crate::retry::budget::Withdrawal;
use crate::retry::classifier_chain::merged;
use crate::retry::{
    AttemptTimedOut, ClassifyContext, ErrorKind, RateLimiter, RetryAction, RetryBehavior,
    RetryConfig, RetryEvent, RetryReason, RetryToken, RunReport, StopReason, backoff,
    run_classifiers,
};
use crate::timer::{self, SharedAsyncSleep};

/// A first try made before entering the retry loop.
pub(super) struct FirstTry<O, E> {
    pub(super) result: Result<O, E>,
    /// The call's place in the rate limiter's line, if `acquired`.
    pub(super) ticket: u64,
    /// Whether the first try went through the rate limiter (which gave `ticket`).
    pub(super) acquired: bool,
    /// The rate limiter's mark of when the first try was sent, if `acquired`
    /// ([`RateLimiter::attempt_sent`]).
    pub(super) sent: u64,
    /// When the call started, read only when a time bound needs it: the budget counts
    /// from before the first try, not from the retry loop.
    pub(super) started: Option<Instant>,
}

impl<O, E> FirstTry<O, E> {
    /// A first try made without the rate limiter, begun at `started` if a time bound needed
    /// it.
    pub(super) fn unpaced(result: Result<O, E>, started: Option<Instant>) -> Self {
        FirstTry {
            result,
            ticket: 0,
            acquired: false,
            sent: 0,
            started,
        }
    }
}

/// What one attempt gave: the operation's result, or (`T` = [`AttemptTimedOut`], for the
/// calls that cut attempts short) the timeout it was cut at.
pub(super) type Outcome<O, E, T> = Result<Result<O, E>, T>;

impl Retrier {
    /// The retry loop. `token` was acquired before the first try; `first` is the first try
    /// when the caller already made it (and deposited into the budget). `T` says what an
    /// attempt that outlasts its time does (see [`OnTimeout`]).
    pub(super) async fn execute<'q, F, Fut, O, E, T>(
        &'q self,
        call: &CallSettings<'_>,
        mut op: F,
        mut token: RetryToken<'q>,
        first: Option<FirstTry<O, E>>,
    ) -> RunReport<Result<O, E>, T>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        E: ProvideErrorMetadata + 'static,
        T: OnTimeout,
    {
        let inner = &*self.inner;
        let config = &inner.config;
        // Inside a waiter's poll: the errors its acceptors name, its deadline, its counters.
        let scope = poll_scope::current();
        if let Some(scope) = &scope {
            if !call.waiter_owned {
                scope.record_retry_layer();
            }
        }
        if first.is_none() {
            if let Some(budget) = &inner.budget {
                budget.deposit();
            }
        }
        let started = first
            .as_ref()
            .and_then(|first| first.started)
            .unwrap_or_else(timer::now);
        // A budget reaching past what `Instant` can hold is no budget.
        let deadline = config
            .max_total_time()
            .and_then(|budget| started.checked_add(budget));
        let waiter_deadline = scope.as_ref().and_then(PollScope::deadline);
        let inspects_success = match &call.classifiers {
            Some(own) if call.replace => own.inspects_success(),
            Some(own) => own.inspects_success() || inner.classifiers.inspects_success(),
            None => inner.classifiers.inspects_success(),
        };

        let mut attempt = 1u32;
        let mut tokens_taken = 0u64;
        // Inside a poll with a deadline, attempts are timed: a retry that would end past the
        // deadline is moved up to leave the attempt twice the longest one so far to answer
        // (see below). A first try made before this loop without a start time began with the
        // poll, as far as we know.
        let timed = waiter_deadline.is_some();
        let mut attempt_began = match (&scope, &first) {
            (Some(scope), Some(first)) if timed => Some(first.started.unwrap_or(scope.started())),
            _ if timed => Some(started),
            _ => None,
        };
        let mut longest_attempt = Duration::ZERO;
        let mut sent = first.as_ref().map_or(0, |first| first.sent);
        let (mut first, ticket) = match first {
            Some(first) if first.acquired => (Some(Ok(first.result)), first.ticket),
            first => (
                first.map(|first| Ok(first.result)),
                inner
                    .rate_limiter
                    .as_ref()
                    .map_or(0, |limiter| limiter.call_started()),
            ),
        };
        // A retry waits for its rate-limiter token until the time budget ends (or the waiter's
        // deadline, inside a poll): the error it follows is kept until the token comes, to be
        // returned if it comes too late. (The first try has no error to return: its wait is
        // not bounded.)
        let token_deadline = inner
            .rate_limiter
            .as_ref()
            .and_then(|_| earliest(deadline, waiter_deadline));
        let mut retried: Option<Outcome<O, E, T>> = None;
        // The retry scheduled, its wait and what it took from the budget: counted (metrics,
        // the poll's attempts) once the attempt is made, not when it is scheduled (its
        // rate-limiter token may come too late, and then the budget gets it back).
        let mut scheduled: Option<(ErrorKind, Duration, Option<Withdrawal>)> = None;
        loop {
            let result: Outcome<O, E, T> = match first.take() {
                Some(result) => result,
                None => {
                    if let Some(limiter) = &inner.rate_limiter {
                        let until = token_deadline.filter(|_| retried.is_some());
                        let own = inner.sleep.as_ref();
                        let acquired = acquire_timed(&**limiter, ticket, until, own).await;
                        if acquired {
                            sent = limiter.attempt_sent();
                        }
                        if !acquired {
                            let result = retried
                                .take()
                                .expect("kept while a deadline bounds the wait");
                            if let Some((_, waited, withdrawal)) = scheduled {
                                // The backoff was waited; the retry was not made.
                                if let Some(scope) = &scope {
                                    scope.record_retry_wait(waited);
                                }
                                if let (Some(budget), Some(withdrawal)) =
                                    (&inner.budget, withdrawal)
                                {
                                    budget.refund(withdrawal);
                                }
                            }
                            let by_waiter = deadline
                                .is_none_or(|budget| until.is_some_and(|until| until < budget));
                            let stop = if by_waiter {
                                if let Some(scope) = &scope {
                                    scope.record_deadline_stop();
                                }
                                StopReason::WaiterDeadline
                            } else {
                                StopReason::TimeBudgetExhausted
                            };
                            tracing::debug!(
                                attempt,
                                ?stop,
                                "not retrying: the rate limiter's token would come past the deadline"
                            );
                            // The retry is not made: its quota cost goes back.
                            let tokens_returned = token.success();
                            return RunReport {
                                result,
                                attempts: attempt - 1,
                                stop,
                                tokens_taken,
                                tokens_returned,
                            };
                        }
                    }
                    drop(retried.take());
                    if let Some((kind, waited, _)) = scheduled.take() {
                        crate::retry::metrics::retried(kind);
                        if let Some(scope) = &scope {
                            scope.record_retry(waited);
                        }
                    }
                    let began = (timed || config.bounds_attempts()).then(timer::now);
                    if timed {
                        attempt_began = began;
                    }
                    let result = self
                        .attempt::<_, _, _, _, T>(
                            &mut op,
                            attempt,
                            began,
                            deadline,
                            waiter_deadline,
                        )
                        .await;
                    crate::retry::metrics::attempted();
                    result
                }
            };
            if let Some(began) = attempt_began {
                longest_attempt =
                    longest_attempt.max(timer::now().saturating_duration_since(began));
            }
            // The waiter's own retries (`Waiter::retry`) stand down once the operation has a
            // retry layer of its own: no double retries.
            if call.waiter_owned
                && !matches!(result, Ok(Ok(_)))
                && scope.as_ref().is_some_and(PollScope::retry_layer_ran)
            {
                token.failure();
                return RunReport {
                    result,
                    attempts: attempt,
                    stop: StopReason::RetriedByOperation,
                    tokens_taken,
                    tokens_returned: 0,
                };
            }
            // Fast path: no classifier would retry a success.
            if matches!(result, Ok(Ok(_))) && !inspects_success && inner.rate_limiter.is_none() {
                let tokens_returned = token.success();
                return RunReport {
                    result,
                    attempts: attempt,
                    stop: StopReason::Succeeded,
                    tokens_taken,
                    tokens_returned,
                };
            }
            // What the classifiers, the waiter's rule and the hooks see of the attempt: its
            // result, or the timeout it was cut at.
            let timed_out: Result<(), AttemptTimedOut>;
            let error: Option<&dyn ProvideErrorMetadata> = match &result {
                Ok(Ok(_)) => None,
                Ok(Err(e)) => Some(e),
                Err(cut) => Some(cut.timed_out()),
            };
            let action = {
                let ctx = match &result {
                    Ok(result) => ClassifyContext::new(result, attempt),
                    Err(cut) => {
                        timed_out = Err(*cut.timed_out());
                        ClassifyContext::new(&timed_out, attempt)
                    }
                };
                match (&call.classifiers, call.replace) {
                    (Some(own), true) => own.classify(&ctx),
                    (Some(own), false) => run_classifiers(
                        merged(inner.classifiers.iter().as_slice(), own.iter().as_slice()),
                        &ctx,
                    ),
                    (None, _) => inner.classifiers.classify(&ctx),
                }
            };
            let throttled = matches!(
                action.reason().map(RetryReason::kind),
                Some(ErrorKind::ThrottlingError)
            );
            if throttled {
                crate::retry::metrics::throttled();
            }
            if let Some(limiter) = &inner.rate_limiter {
                limiter.on_attempt_response(sent, throttled);
            }

            let done =
                |stop: StopReason, result: Outcome<O, E, T>, tokens_returned: u32| RunReport {
                    result,
                    attempts: attempt,
                    stop,
                    tokens_taken,
                    tokens_returned,
                };
            let reason = match action {
                RetryAction::RetryIndicated(reason) => reason,
                _ if error.is_none() => {
                    let returned = token.success();
                    return done(StopReason::Succeeded, result, returned);
                }
                _ => {
                    token.failure();
                    return done(StopReason::NotRetryable, result, 0);
                }
            };

            // Inside a waiter's poll, an error the waiter's acceptors name is its to decide.
            if let (Some(scope), Ok(Err(error))) = (&scope, &result) {
                if !call.waiter_owned && scope.names(error) {
                    token.failure();
                    tracing::debug!(attempt, %reason, error_code = error.code(), "not retrying: the waiter's acceptors name this error");
                    return done(StopReason::NamedByWaiter, result, 0);
                }
            }
            let max_attempts = call.max_attempts.unwrap_or(config.max_attempts()).max(1);
            if attempt >= max_attempts {
                token.failure();
                let stop = StopReason::MaxAttempts;
                tracing::debug!(attempt, %reason, ?stop, "not retrying");
                return done(stop, result, 0);
            }
            if call.can_repeat.is_some_and(|can_repeat| !can_repeat()) {
                token.failure();
                let stop = StopReason::CannotRepeat;
                tracing::debug!(attempt, %reason, ?stop, "not retrying: the operation cannot be repeated");
                return done(stop, result, 0);
            }
            let mut delay = backoff_delay(config, &reason, attempt);
            if let Some(deadline) = deadline {
                // A delay reaching past what `Instant` can hold ends past any deadline; one
                // ending at the deadline would leave its attempt no time at all.
                let end = timer::now().checked_add(delay);
                if end.is_none_or(|end| end >= deadline) {
                    token.failure();
                    tracing::debug!(attempt, %reason, ?delay, "not retrying: the retry would end past the time budget");
                    return done(StopReason::TimeBudgetExhausted, result, 0);
                }
            }
            if let (Some(scope), Some(deadline)) = (&scope, waiter_deadline) {
                if !scope.fits(delay) {
                    // The waiter's own rule for its last poll (see `waiter::delay`): rather than
                    // give up with time left, retry when there is just time left for the
                    // attempt to answer, twice the longest attempt so far. Give up only when
                    // there is not, or when the server said when to come back (its hint is a
                    // minimum: an earlier attempt would only be refused again).
                    let left = deadline.saturating_duration_since(timer::now());
                    match left.checked_sub(longest_attempt.saturating_mul(2)) {
                        Some(early) if !left.is_zero() && reason.retry_after().is_none() => {
                            tracing::debug!(attempt, %reason, ?delay, ?early, "the retry would end past the waiter's deadline: moved up to leave its attempt time to answer");
                            delay = early;
                        }
                        _ => {
                            token.failure();
                            scope.record_deadline_stop();
                            tracing::debug!(attempt, %reason, ?delay, "not retrying: the retry would end past the waiter's deadline");
                            return done(StopReason::WaiterDeadline, result, 0);
                        }
                    }
                }
            }
            // The budget first, then the quota (see `Retrier::with_budget`).
            let withdrawal = match &inner.budget {
                None => None,
                Some(budget) => match budget.withdraw() {
                    Some(withdrawal) => Some(withdrawal),
                    None => {
                        token.failure();
                        crate::retry::metrics::budget_refused();
                        tracing::debug!(attempt, %reason, "not retrying: the retry budget allows no more retries now");
                        if call.long_polling && config.behavior() == RetryBehavior::V2_1 {
                            long_polling_backoff(inner.sleep.as_ref(), delay).await;
                        }
                        return done(StopReason::RetryBudgetExhausted, result, 0);
                    }
                },
            };
            token = match token.schedule_retry(reason.kind()) {
                Ok(next) => next,
                Err(exhausted) => {
                    if let (Some(budget), Some(withdrawal)) = (&inner.budget, withdrawal) {
                        budget.refund(withdrawal);
                    }
                    crate::retry::metrics::quota_refused();
                    tracing::debug!(attempt, %reason, %exhausted, "not retrying");
                    if call.long_polling && config.behavior() == RetryBehavior::V2_1 {
                        long_polling_backoff(inner.sleep.as_ref(), delay).await;
                    }
                    return done(StopReason::QuotaExhausted(exhausted), result, 0);
                }
            };
            // At most `u32::MAX` attempts of at most `u32::MAX` tokens: no overflow in a u64.
            tokens_taken += u64::from(token.held());

            tracing::debug!(
                attempt,
                max_attempts,
                %reason,
                ?delay,
                error_code = error.and_then(|e| e.code()),
                quota_available = inner.quota.available(),
                "retrying"
            );
            if let Some(hook) = &inner.on_retry {
                hook(&RetryEvent {
                    attempt,
                    reason: &reason,
                    delay,
                    error,
                });
            }
            if token_deadline.is_some() {
                retried = Some(result);
            } else {
                drop(result);
            }
            scheduled = Some((reason.kind(), delay, withdrawal));
            if !delay.is_zero() {
                // Boxed: keeps the timer out of every call's future, retried or not.
                Box::pin(timer::sleep(inner.sleep.as_ref(), delay)).await;
            } else {
                // A retry that does not sleep still lets the runtime run other tasks once this
                // task has spent its budget (tokio's cooperative scheduling): zero-delay
                // retries of an operation that is ready at once cannot hold a thread.
                timer::consume_budget().await;
            }
            attempt += 1;
        }
    }

    /// One attempt, begun at `began` (read when a time bound needs it): run with its deadline
    /// in scope (the earliest of `attempt_timeout` from `began` and the time budget's
    /// `deadline`; with the waiter's, what [`attempt_time_left`](crate::retry::attempt_time_left)
    /// reads) and, for a call that cuts attempts short, cut there.
    async fn attempt<F, Fut, O, E, T>(
        &self,
        op: &mut F,
        attempt: u32,
        began: Option<Instant>,
        deadline: Option<Instant>,
        waiter_deadline: Option<Instant>,
    ) -> Outcome<O, E, T>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<O, E>>,
        T: OnTimeout,
    {
        let config = &self.inner.config;
        let own = began.and_then(|began| {
            let timeout = config
                .attempt_timeout()
                .and_then(|timeout| began.checked_add(timeout));
            earliest(timeout, deadline)
        });
        let cut = began.and_then(|began| {
            let at = earliest(own, waiter_deadline)?;
            T::cut(AttemptTimedOut::new(
                attempt,
                at.saturating_duration_since(began),
            ))
            .map(|timed_out| (at, timed_out))
        });
        let fut = attempt_time::in_scope(own, op);
        match cut {
            None => Ok(fut.await),
            Some((at, timed_out)) => {
                match timer::timeout_at(self.inner.sleep.as_ref(), at, fut).await {
                    Some(result) => Ok(result),
                    None => {
                        crate::retry::metrics::attempt_timed_out();
                        tracing::debug!(attempt, after = ?timed_out.timed_out().after(), "attempt timed out: cancelled");
                        Err(timed_out)
                    }
                }
            }
        }
    }
}

/// The earlier of two optional instants.
fn earliest(a: Option<Instant>, b: Option<Instant>) -> Option<Instant> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The delay before the retry that follows failed attempt `attempt` for `reason`. A random
/// number is drawn only where the jitter applies to a non-zero bound and its result is used
/// (in 2.0 a retry-after hint replaces the computed delay).
pub(super) fn backoff_delay(config: &RetryConfig, reason: &RetryReason, attempt: u32) -> Duration {
    let kind = reason.kind();
    let hint = reason.retry_after();
    let jittered = config.jitter() == crate::retry::Jitter::Full
        && !config.backoff_bound(kind, attempt).is_zero()
        && (hint.is_none() || config.behavior() == RetryBehavior::V2_1);
    let random = if jittered { backoff::random() } else { 0.0 };
    config.delay(kind, attempt, random, hint)
}

/// Retry behavior 2.1's rule for long-polling operations: when the quota refuses a retry, the
/// call still backs off once before it returns, so that a caller polling in a loop does not
/// spin against a failing service. The delay already fits the time budget and the waiter's
/// deadline: both are checked before the quota.
async fn long_polling_backoff(sleep: Option<&SharedAsyncSleep>, delay: Duration) {
    tracing::debug!(
        ?delay,
        "long-polling operation: backing off before returning"
    );
    if !delay.is_zero() {
        Box::pin(timer::sleep(sleep, delay)).await;
    }
}

/// Waits for the rate limiter, until `until` if given (`false`: the deadline came first, no
/// token taken); inside a waiter's poll, a wait is added to the poll's counters. The clock is
/// read only when the limiter makes the attempt wait.
pub(super) async fn acquire_timed(
    limiter: &dyn RateLimiter,
    ticket: u64,
    until: Option<Instant>,
    sleep: Option<&SharedAsyncSleep>,
) -> bool {
    let mut acquire = limiter.acquire_for(ticket);
    let mut waiting_since = None;
    let acquire = std::future::poll_fn(|cx| match acquire.as_mut().poll(cx) {
        std::task::Poll::Ready(()) => std::task::Poll::Ready(()),
        std::task::Poll::Pending => {
            waiting_since.get_or_insert_with(timer::now);
            std::task::Poll::Pending
        }
    });
    let acquired = match until {
        None => {
            acquire.await;
            true
        }
        Some(until) => timer::timeout_at(sleep, until, acquire).await.is_some(),
    };
    if let Some(since) = waiting_since {
        let waited = timer::now().saturating_duration_since(since);
        crate::retry::metrics::rate_limit_waited(waited);
        if let Some(scope) = poll_scope::current() {
            scope.record_rate_limit_wait(waited);
        }
    }
    acquired
}
