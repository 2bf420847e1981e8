//! The retry quota: a token bucket shared by every call of a retrier, driven through
//! [`RetryToken`] by the token contract of the retry design.
//!
//! A call acquires a token before its first try ([`RetryQuota::acquire`], free). After each try
//! the call resolves the token in exactly one way, each of which consumes it:
//!
//! * [`RetryToken::success`]: the call is done and succeeded; the quota gets back
//!   `success_reward` (first try) or what the last retry took;
//! * [`RetryToken::failure`]: the call is done and failed; nothing is given back;
//! * [`RetryToken::schedule_retry`]: another try follows; it takes the retry's cost from the
//!   quota and hands back the token for that try, or fails (no tokens, no retry).
//!
//! Resolving twice, or retrying without a token, does not compile. A token dropped unresolved
//! (the call's future was cancelled) counts as a failure.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use super::{ErrorKind, RetryBehavior};

/// The token bucket that limits retries across all the calls of one retrier (or of every
/// retrier it is shared with). Cloning shares it.
///
/// 500 tokens. What a retry costs depends on the [`RetryBehavior`] (retry behavior 2.1 by
/// default): 14 after a transient or server error (timeouts included) and 5 after a throttle
/// in 2.1; 5, and 10 after a [`TransientError`](ErrorKind::TransientError) (timeout,
/// connection, IO), in 2.0. A success on the first try gives 1 back (never above capacity), a
/// success after retries gives back what the last retry took.
///
/// ```
/// use waiter_runtime::retry::{ErrorKind, RetryQuota};
///
/// let quota = RetryQuota::builder().capacity(20).build();
/// let token = quota.acquire(); // before the first try
/// let token = token.schedule_retry(ErrorKind::ServerError).unwrap(); // takes 14
/// assert_eq!(quota.available(), 6);
/// // A retry after a timeout costs 14 too, only 6 are left: no retry, the call is done.
/// assert!(token.schedule_retry(ErrorKind::TransientError).is_err());
/// assert_eq!(quota.available(), 6);
///
/// let token = quota.acquire().schedule_retry(ErrorKind::ThrottlingError).unwrap();
/// assert_eq!(quota.available(), 1);
/// assert_eq!(token.success(), 5); // what the last retry took comes back
/// assert_eq!(quota.available(), 6);
/// ```
#[derive(Clone)]
pub struct RetryQuota {
    inner: Arc<Bucket>,
}

struct Bucket {
    available: AtomicU32,
    capacity: u32,
    costs: Costs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Costs {
    retry: u32,
    timeout_retry: u32,
    throttling_retry: u32,
    success_reward: u32,
}

impl Costs {
    fn of(behavior: RetryBehavior) -> Costs {
        match behavior {
            RetryBehavior::V2_0 => Costs {
                retry: 5,
                timeout_retry: 10,
                throttling_retry: 5,
                success_reward: 1,
            },
            RetryBehavior::V2_1 => Costs {
                retry: 14,
                timeout_retry: 14,
                throttling_retry: 5,
                success_reward: 1,
            },
        }
    }

    fn of_kind(&self, kind: ErrorKind) -> u32 {
        match kind {
            ErrorKind::TransientError => self.timeout_retry,
            ErrorKind::ThrottlingError => self.throttling_retry,
            _ => self.retry,
        }
    }
}

impl Default for RetryQuota {
    fn default() -> Self {
        RetryQuota::builder().build()
    }
}

impl fmt::Debug for RetryQuota {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RetryQuota")
            .field("available", &self.available())
            .field("capacity", &self.inner.capacity)
            .field("retry_cost", &self.inner.costs.retry)
            .field("timeout_retry_cost", &self.inner.costs.timeout_retry)
            .field("throttling_retry_cost", &self.inner.costs.throttling_retry)
            .field("success_reward", &self.inner.costs.success_reward)
            .finish()
    }
}

impl RetryQuota {
    /// A builder starting from the costs of retry behavior 2.1.
    pub fn builder() -> RetryQuotaBuilder {
        RetryQuotaBuilder {
            capacity: 500,
            costs: Costs::of(RetryBehavior::default()),
        }
    }

    /// A quota that takes nothing and never refuses a retry: for a retrier limited by a
    /// [`RetryBudget`](super::RetryBudget) alone, or by its attempts and time alone.
    ///
    /// ```
    /// use waiter_runtime::retry::{ErrorKind, RetryQuota};
    ///
    /// let quota = RetryQuota::unlimited();
    /// let token = quota.acquire().schedule_retry(ErrorKind::ServerError).unwrap();
    /// assert_eq!((token.held(), quota.cost_of(ErrorKind::TransientError)), (0, 0));
    /// ```
    pub fn unlimited() -> RetryQuota {
        RetryQuota::builder()
            .capacity(0)
            .retry_cost(0)
            .timeout_retry_cost(0)
            .throttling_retry_cost(0)
            .success_reward(0)
            .build()
    }

    /// Tokens available now.
    pub fn available(&self) -> u32 {
        self.inner.available.load(Ordering::Acquire)
    }

    /// The most tokens the bucket holds (it starts full).
    pub fn capacity(&self) -> u32 {
        self.inner.capacity
    }

    /// What a retry after an error of `kind` costs.
    pub fn cost_of(&self, kind: ErrorKind) -> u32 {
        self.inner.costs.of_kind(kind)
    }

    /// Whether two handles share one bucket.
    pub fn shares_bucket_with(&self, other: &RetryQuota) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// The token for a call, to take before its first try. Free.
    #[inline]
    pub fn acquire(&self) -> RetryToken<'_> {
        RetryToken {
            bucket: &self.inner,
            held: None,
        }
    }
}

impl Bucket {
    /// Takes `cost` tokens if that many are available.
    #[inline]
    fn take(&self, cost: u32) -> Result<(), QuotaExhausted> {
        self.available
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(cost))
            .map(drop)
            .map_err(|available| QuotaExhausted {
                needed: cost,
                available,
            })
    }

    /// Gives back up to `amount` tokens, never above capacity; returns how many went back.
    #[inline]
    fn give_back(&self, amount: u32) -> u32 {
        if amount == 0 {
            return 0;
        }
        let capacity = self.capacity;
        match self
            .available
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < capacity).then(|| n.saturating_add(amount).min(capacity))
            }) {
            Ok(before) => before.saturating_add(amount).min(capacity) - before,
            Err(_) => 0,
        }
    }
}

/// Builds a [`RetryQuota`]; every value defaults to the one of retry behavior 2.1.
///
/// ```
/// use waiter_runtime::retry::{ErrorKind, RetryBehavior, RetryQuota};
///
/// let quota = RetryQuota::builder().behavior(RetryBehavior::V2_0).build();
/// assert_eq!(quota.cost_of(ErrorKind::ServerError), 5);
/// assert_eq!(quota.cost_of(ErrorKind::TransientError), 10);
/// let quota = RetryQuota::default();
/// assert_eq!(quota.cost_of(ErrorKind::TransientError), 14);
/// assert_eq!(quota.cost_of(ErrorKind::ThrottlingError), 5);
/// ```
#[derive(Clone, Debug)]
#[must_use = "call `.build()` to get the RetryQuota"]
pub struct RetryQuotaBuilder {
    capacity: u32,
    costs: Costs,
}

impl RetryQuotaBuilder {
    /// Tokens in a full bucket, and at the start. Default 500.
    pub fn capacity(mut self, capacity: u32) -> Self {
        self.capacity = capacity;
        self
    }

    /// Every cost to the ones of `behavior` (the costs set before are replaced, those set
    /// after keep precedence).
    pub fn behavior(mut self, behavior: RetryBehavior) -> Self {
        self.costs = Costs::of(behavior);
        self
    }

    /// What a retry after a server or client error costs. Default 14 (5 in 2.0).
    pub fn retry_cost(mut self, cost: u32) -> Self {
        self.costs.retry = cost;
        self
    }

    /// What a retry after a transient error (timeout, connection, IO) costs. Default 14 (10
    /// in 2.0).
    pub fn timeout_retry_cost(mut self, cost: u32) -> Self {
        self.costs.timeout_retry = cost;
        self
    }

    /// What a retry after a throttle costs. Default 5.
    pub fn throttling_retry_cost(mut self, cost: u32) -> Self {
        self.costs.throttling_retry = cost;
        self
    }

    /// What a success on the first try gives back. Default 1.
    pub fn success_reward(mut self, reward: u32) -> Self {
        self.costs.success_reward = reward;
        self
    }

    /// The quota, full.
    pub fn build(self) -> RetryQuota {
        RetryQuota {
            inner: Arc::new(Bucket {
                available: AtomicU32::new(self.capacity),
                capacity: self.capacity,
                costs: self.costs,
            }),
        }
    }
}

/// A call's claim on the [`RetryQuota`]: acquired before the first try, then resolved exactly
/// once per try by [`success`](Self::success), [`failure`](Self::failure) or
/// [`schedule_retry`](Self::schedule_retry). See [`RetryQuota`].
///
/// Resolving a token twice does not compile:
///
/// ```compile_fail
/// use waiter_runtime::retry::RetryQuota;
///
/// let quota = RetryQuota::default();
/// let token = quota.acquire();
/// token.failure();
/// token.success(); // use of moved value: `token`
/// ```
///
/// Nor does keeping a copy to resolve later:
///
/// ```compile_fail
/// use waiter_runtime::retry::RetryQuota;
///
/// let quota = RetryQuota::default();
/// let token = quota.acquire();
/// let copy = token.clone(); // `RetryToken` is not `Clone`
/// ```
///
/// Nor using a token after a failed `schedule_retry` (it consumed the token):
///
/// ```compile_fail
/// use waiter_runtime::retry::{ErrorKind, RetryQuota};
///
/// let quota = RetryQuota::builder().capacity(0).build();
/// let token = quota.acquire();
/// if token.schedule_retry(ErrorKind::ServerError).is_err() {
///     token.failure(); // use of moved value: `token`
/// }
/// ```
#[must_use = "resolve the token with `success`, `failure` or `schedule_retry`"]
pub struct RetryToken<'q> {
    bucket: &'q Bucket,
    /// What the last retry took; `None` before any retry.
    held: Option<u32>,
}

impl fmt::Debug for RetryToken<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RetryToken")
            .field("held", &self.held)
            .finish()
    }
}

impl<'q> RetryToken<'q> {
    /// What the last retry took from the quota (0 before any retry).
    pub fn held(&self) -> u32 {
        self.held.unwrap_or(0)
    }

    /// The call succeeded and is done. Gives back the success reward (first try) or what the
    /// last retry took, never above capacity; returns how many tokens went back.
    #[inline]
    pub fn success(self) -> u32 {
        let amount = self.held.unwrap_or(self.bucket.costs.success_reward);
        self.bucket.give_back(amount)
    }

    /// The call failed and is done. Nothing goes back.
    pub fn failure(self) {}

    /// Another try follows an error of `kind`: takes its cost and returns the token for that
    /// try. With too few tokens, nothing is taken, the call is done (as [`failure`](Self::failure))
    /// and the error says what was missing.
    pub fn schedule_retry(self, kind: ErrorKind) -> Result<RetryToken<'q>, QuotaExhausted> {
        let cost = self.bucket.costs.of_kind(kind);
        self.bucket.take(cost)?;
        Ok(RetryToken {
            bucket: self.bucket,
            held: Some(cost),
        })
    }
}

/// The retry quota had too few tokens for a retry.
#[derive(Clone, Copy, Eq, PartialEq, Debug)]
pub struct QuotaExhausted {
    /// What the retry would have cost.
    pub needed: u32,
    /// What was available.
    pub available: u32,
}

impl fmt::Display for QuotaExhausted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "retry quota exhausted: a retry costs {} tokens, {} available",
            self.needed, self.available
        )
    }
}

impl std::error::Error for QuotaExhausted {}

#[cfg(test)]
mod tests {
    use super::*;

    fn v2_0() -> RetryQuota {
        RetryQuota::builder().behavior(RetryBehavior::V2_0).build()
    }

    #[test]
    fn costs_follow_the_behavior() {
        let quota = RetryQuota::default();
        let costs: Vec<u32> = [
            ErrorKind::TransientError,
            ErrorKind::ServerError,
            ErrorKind::ClientError,
            ErrorKind::ThrottlingError,
        ]
        .into_iter()
        .map(|kind| quota.cost_of(kind))
        .collect();
        assert_eq!(costs, [14, 14, 14, 5]);
        let quota = RetryQuota::builder()
            .behavior(RetryBehavior::V2_0)
            .throttling_retry_cost(7)
            .build();
        assert_eq!(quota.cost_of(ErrorKind::TransientError), 10);
        assert_eq!(quota.cost_of(ErrorKind::ServerError), 5);
        assert_eq!(quota.cost_of(ErrorKind::ThrottlingError), 7);
    }

    #[test]
    fn first_try_success_returns_the_reward_up_to_capacity() {
        let quota = v2_0();
        assert_eq!(
            quota.acquire().success(),
            0,
            "full bucket: nothing to give back"
        );
        assert_eq!(quota.available(), 500);
        let retry = quota
            .acquire()
            .schedule_retry(ErrorKind::ServerError)
            .unwrap();
        retry.failure();
        assert_eq!(quota.available(), 495);
        assert_eq!(quota.acquire().success(), 1);
        assert_eq!(quota.available(), 496);
    }

    #[test]
    fn success_after_retries_returns_the_last_retry_cost() {
        let quota = v2_0();
        let token = quota
            .acquire()
            .schedule_retry(ErrorKind::ServerError)
            .unwrap();
        let token = token.schedule_retry(ErrorKind::TransientError).unwrap();
        assert_eq!(quota.available(), 485);
        assert_eq!(token.held(), 10);
        assert_eq!(token.success(), 10);
        assert_eq!(quota.available(), 495);
    }

    #[test]
    fn exhaustion_takes_nothing() {
        let quota = RetryQuota::builder()
            .behavior(RetryBehavior::V2_0)
            .capacity(9)
            .build();
        let err = quota
            .acquire()
            .schedule_retry(ErrorKind::TransientError)
            .unwrap_err();
        assert_eq!(
            err,
            QuotaExhausted {
                needed: 10,
                available: 9
            }
        );
        assert_eq!(quota.available(), 9);
        assert_eq!(
            err.to_string(),
            "retry quota exhausted: a retry costs 10 tokens, 9 available"
        );
    }

    #[test]
    fn clones_share_the_bucket() {
        let a = v2_0();
        let b = a.clone();
        assert!(a.shares_bucket_with(&b));
        assert!(!a.shares_bucket_with(&RetryQuota::default()));
        a.acquire()
            .schedule_retry(ErrorKind::ClientError)
            .unwrap()
            .failure();
        assert_eq!(b.available(), 495);
    }
}
