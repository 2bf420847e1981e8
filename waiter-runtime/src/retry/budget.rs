//! [`RetryBudget`]: retries as a share of the recent traffic, with a floor (Finagle's retry
//! budget, which Envoy, Linkerd and tower's `TpsBudget` follow).

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::time::Instant;

/// The window is cut in this many slots: deposits and withdrawals leave it a slot at a time.
const SLOTS: u32 = 10;

/// A budget of retries shared by every call of a [`Retrier`](super::Retrier) (and its clones):
/// retries may add `ratio` of the calls started within the last `window`, plus a floor of
/// `min_retries_per_sec` over the window for clients that send little. Finagle's semantics:
/// each call deposits one request, each retry withdraws one, both leave the budget when they
/// are older than the window.
///
/// [`RetryBudget::default()`] is Finagle's: 20 % of the calls of the last 10 s, plus 10 retries
/// a second (100 per window). Under a service that fails every request, a client sending 50
/// calls a second retries 20 a second (10 from the ratio, 10 from the floor) instead of 50;
/// when the service recovers, the calls no longer retry and the budget refills within a window.
///
/// Unlike the AWS [`RetryQuota`](super::RetryQuota) (a fixed bucket of 500 tokens, right for
/// AWS services), it scales with the traffic: 20 % is 1,000 retries a second at 5,000 calls a
/// second and 10 a second (the floor) for a client sending 2 calls a minute. A retrier may have
/// both ([`Retrier::with_budget`](super::Retrier::with_budget)); the budget is asked first.
///
/// Cheap to clone: clones share one budget. Lock-free: a call adds to one atomic slot, a retry
/// reads the ten slots and takes from one.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::retry::RetryBudget;
///
/// let budget = RetryBudget::default();
/// assert_eq!((budget.ratio(), budget.min_retries_per_sec(), budget.window()), (0.2, 10, Duration::from_secs(10)));
///
/// // Only the floor: one retry a second over a 2 s window, whatever the traffic.
/// # let rt = tokio::runtime::Builder::new_current_thread().enable_time().start_paused(true).build().unwrap();
/// # rt.block_on(async {
/// let budget = RetryBudget::new(0.0, 1, Duration::from_secs(2)).unwrap();
/// assert!(budget.try_withdraw() && budget.try_withdraw());
/// assert!(!budget.try_withdraw(), "two retries in the window already");
/// tokio::time::advance(Duration::from_secs(2)).await;
/// assert!(budget.try_withdraw(), "they left the window");
/// # });
/// ```
#[derive(Clone)]
pub struct RetryBudget {
    inner: Arc<Window>,
}

struct Window {
    /// Slot `i` covers `[origin + i * slot, origin + (i + 1) * slot)`, its number its epoch.
    origin: Instant,
    slot_nanos: u64,
    /// Per slot, its epoch (high 32 bits) and the units deposited minus those withdrawn in it
    /// (low 32 bits, an `i32`): one word, so that a slot is reused for a new epoch and added to
    /// by one compare-and-swap.
    slots: Box<[AtomicU64]>,
    /// Units a call deposits and a retry withdraws: `ratio` as the reduced fraction
    /// `deposit / withdrawal` of thousandths.
    deposit: i32,
    withdrawal: i32,
    /// The floor: `min_retries_per_sec * window` retries' worth of units, always there.
    reserve: i64,
    ratio: f64,
    min_retries_per_sec: u32,
    window: Duration,
}

/// A [`RetryBudget`] that cannot work, from [`RetryBudget::new`].
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::retry::{InvalidRetryBudget, RetryBudget};
///
/// let err = RetryBudget::new(0.2, 10, Duration::from_millis(500)).unwrap_err();
/// assert_eq!(err, InvalidRetryBudget::Window(Duration::from_millis(500)));
/// assert_eq!(err.to_string(), "invalid retry budget: the window is 500ms, it must be from 1 s to 60 s");
/// assert!(matches!(RetryBudget::new(f64::NAN, 10, Duration::from_secs(10)), Err(InvalidRetryBudget::Ratio(_))));
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum InvalidRetryBudget {
    /// The ratio is not a number from 0 to 1000, or is a positive one below 0.001 (the budget
    /// counts in thousandths of a retry per call).
    Ratio(f64),
    /// The window is shorter than 1 s or longer than 60 s (Finagle's bounds: deposits older than
    /// a minute say little about the traffic now).
    Window(Duration),
}

impl fmt::Display for InvalidRetryBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InvalidRetryBudget::Ratio(ratio) => write!(
                f,
                "invalid retry budget: the ratio is {ratio}, it must be 0, or from 0.001 to 1000 (0.2: retries add 20 % to the calls)"
            ),
            InvalidRetryBudget::Window(window) => write!(
                f,
                "invalid retry budget: the window is {window:?}, it must be from 1 s to 60 s"
            ),
        }
    }
}

impl std::error::Error for InvalidRetryBudget {}

/// What a retry took from the budget, to give back if it is not made.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Withdrawal {
    epoch: u32,
}

impl Default for RetryBudget {
    /// 20 % of the calls of the last 10 s, plus 10 retries a second: Finagle's default (and
    /// tower's `TpsBudget`'s, and reqwest's retries').
    fn default() -> Self {
        // 0.2 = 200 thousandths = 1/5: a call deposits 1 unit, a retry withdraws 5.
        Self::assemble(0.2, 10, Duration::from_secs(10), 1, 5)
    }
}

impl RetryBudget {
    /// A budget where retries may add `ratio` of the calls started within the last `window`
    /// (0.2: 20 %; from 0.001 to 1000, or 0 for the floor alone), plus `min_retries_per_sec`
    /// retries a second over the window, which clients that send few calls live on. The window
    /// is from 1 s to 60 s; its tenth is the granularity at which calls and retries leave it.
    pub fn new(
        ratio: f64,
        min_retries_per_sec: u32,
        window: Duration,
    ) -> Result<Self, InvalidRetryBudget> {
        if !(Duration::from_secs(1)..=Duration::from_secs(60)).contains(&window) {
            return Err(InvalidRetryBudget::Window(window));
        }
        if !(0.0..=1000.0).contains(&ratio) {
            // NaN is in no range.
            return Err(InvalidRetryBudget::Ratio(ratio));
        }
        // At most 1,000,000 thousandths: an i64 from a checked f64, exact.
        let thousandths = (ratio * 1000.0).round() as i64;
        if thousandths == 0 && ratio > 0.0 {
            return Err(InvalidRetryBudget::Ratio(ratio));
        }
        let (deposit, withdrawal) = if thousandths == 0 {
            (0, 1)
        } else {
            let g = gcd(thousandths, 1000);
            (thousandths / g, 1000 / g)
        };
        // Both at most 1,000,000.
        let (deposit, withdrawal) = (deposit as i32, withdrawal as i32);
        Ok(Self::assemble(
            ratio,
            min_retries_per_sec,
            window,
            deposit,
            withdrawal,
        ))
    }

    fn assemble(
        ratio: f64,
        min_retries_per_sec: u32,
        window: Duration,
        deposit: i32,
        withdrawal: i32,
    ) -> Self {
        // A window of at most 60 s: these fit an i64 with room to spare.
        let window_ms = window.as_millis() as i64;
        let reserve = i64::from(min_retries_per_sec) * window_ms * i64::from(withdrawal) / 1000;
        let slot_nanos = (window.as_nanos() / u128::from(SLOTS)) as u64;
        RetryBudget {
            inner: Arc::new(Window {
                origin: crate::timer::now(),
                slot_nanos: slot_nanos.max(1),
                slots: (0..SLOTS).map(|_| AtomicU64::new(pack(0, 0))).collect(),
                deposit,
                withdrawal,
                reserve,
                ratio,
                min_retries_per_sec,
                window,
            }),
        }
    }

    /// The share of the calls retries may add (0.2: 20 %).
    pub fn ratio(&self) -> f64 {
        self.inner.ratio
    }

    /// The floor: retries a second allowed whatever the traffic, over the window.
    pub fn min_retries_per_sec(&self) -> u32 {
        self.inner.min_retries_per_sec
    }

    /// How long calls and retries count.
    pub fn window(&self) -> Duration {
        self.inner.window
    }

    /// Whether two handles share one budget.
    pub fn shares_budget_with(&self, other: &RetryBudget) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// How many retries the budget allows now.
    pub fn available(&self) -> u64 {
        let window = &*self.inner;
        let balance = window.balance(window.epoch());
        u64::try_from(balance / i64::from(window.withdrawal)).unwrap_or(0)
    }

    /// A call starts: it adds its share to the budget. The [`Retrier`](super::Retrier) calls
    /// this before every call's first try; a hand-written retry loop does the same.
    #[inline]
    pub fn deposit(&self) {
        let window = &*self.inner;
        if window.deposit != 0 {
            window.add(window.epoch(), window.deposit);
        }
    }

    /// Takes one retry from the budget if it allows one; `false`: the retry is refused.
    pub fn try_withdraw(&self) -> bool {
        self.withdraw().is_some()
    }

    /// Takes one retry, with what to give back should the retry not be made.
    pub(crate) fn withdraw(&self) -> Option<Withdrawal> {
        let window = &*self.inner;
        let epoch = window.epoch();
        let cost = window.withdrawal;
        // Taken first, then the balance read: it must not have gone below zero. Two retries
        // taking the last of it at once may both give it back (a refusal too many under
        // contention, never a retry too many).
        window.add(epoch, -cost);
        if window.balance(epoch) < 0 {
            window.add(epoch, cost);
            return None;
        }
        Some(Withdrawal { epoch })
    }

    /// Gives back a withdrawal whose retry was not made (into its own slot: it leaves the
    /// window when it would have).
    pub(crate) fn refund(&self, withdrawal: Withdrawal) {
        let window = &*self.inner;
        if age(window.epoch(), withdrawal.epoch) < SLOTS as i64 {
            window.add(withdrawal.epoch, window.withdrawal);
        }
    }
}

impl Window {
    /// The slot number of now.
    #[inline]
    fn epoch(&self) -> u32 {
        let since = crate::timer::now().saturating_duration_since(self.origin);
        // Nanoseconds fit a u64 for 584 years (a u128 division costs several times more).
        let nanos = u64::try_from(since.as_nanos()).unwrap_or(u64::MAX);
        // Wraps after 2^32 slots (13 years of 100 ms slots): a slot is told live by its age.
        (nanos / self.slot_nanos) as u32
    }

    /// Adds `units` to the slot of `epoch` (resetting it if it holds an older epoch).
    #[inline]
    fn add(&self, epoch: u32, units: i32) {
        let slot = &self.slots[(epoch % SLOTS) as usize];
        let _ = slot.fetch_update(Ordering::AcqRel, Ordering::Acquire, |packed| {
            let (held, value) = unpack(packed);
            Some(if age(epoch, held) > 0 {
                pack(epoch, units)
            } else {
                // The same epoch, or a newer one written by a thread whose clock reading came
                // later: counted there.
                pack(held, value.saturating_add(units))
            })
        });
    }

    /// The floor plus what the slots of the window hold.
    fn balance(&self, epoch: u32) -> i64 {
        let held: i64 = self
            .slots
            .iter()
            .map(|slot| unpack(slot.load(Ordering::Acquire)))
            .filter(|&(held, _)| {
                let age = age(epoch, held);
                age > -(SLOTS as i64) && age < SLOTS as i64
            })
            .map(|(_, value)| i64::from(value))
            .sum();
        self.reserve + held
    }
}

/// How many slots `held` is older than `epoch` (negative: newer), on wrapping numbers.
#[inline]
fn age(epoch: u32, held: u32) -> i64 {
    i64::from(epoch.wrapping_sub(held) as i32)
}

#[inline]
fn pack(epoch: u32, value: i32) -> u64 {
    (u64::from(epoch) << 32) | u64::from(value as u32)
}

#[inline]
fn unpack(packed: u64) -> (u32, i32) {
    ((packed >> 32) as u32, packed as u32 as i32)
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl fmt::Debug for RetryBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RetryBudget")
            .field("ratio", &self.inner.ratio)
            .field("min_retries_per_sec", &self.inner.min_retries_per_sec)
            .field("window", &self.inner.window)
            .field("available", &self.available())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn ratios_become_reduced_fractions_of_thousandths() {
        let units = |ratio| {
            let b = RetryBudget::new(ratio, 0, secs(10)).unwrap();
            (b.inner.deposit, b.inner.withdrawal)
        };
        assert_eq!(units(0.2), (1, 5));
        assert_eq!(units(0.25), (1, 4));
        assert_eq!(units(0.3), (3, 10));
        assert_eq!(units(2.0), (2, 1));
        assert_eq!(units(1000.0), (1000, 1));
        assert_eq!(units(0.0), (0, 1));
        let default = RetryBudget::default();
        assert_eq!(
            (default.inner.deposit, default.inner.withdrawal),
            units(0.2)
        );
        assert_eq!(default.inner.reserve, 500, "100 retries of 5 units");
    }

    #[test]
    fn parameters_are_checked() {
        for ratio in [-0.1, f64::NAN, f64::INFINITY, 1000.5, 0.0004] {
            assert!(matches!(
                RetryBudget::new(ratio, 1, secs(10)),
                Err(InvalidRetryBudget::Ratio(_))
            ));
        }
        for window in [Duration::ZERO, Duration::from_millis(999), secs(61)] {
            assert_eq!(
                RetryBudget::new(0.2, 1, window).unwrap_err(),
                InvalidRetryBudget::Window(window)
            );
        }
        assert!(RetryBudget::new(0.0005, u32::MAX, secs(60)).is_ok());
    }

    #[test]
    fn slots_pack_and_age_across_the_wrap() {
        for (epoch, value) in [(0, 0), (7, -5), (u32::MAX, i32::MIN), (3, i32::MAX)] {
            assert_eq!(unpack(pack(epoch, value)), (epoch, value));
        }
        assert_eq!(age(2, u32::MAX), 3);
        assert_eq!(age(u32::MAX, 2), -3);
    }

    #[tokio::test(start_paused = true)]
    async fn deposits_and_withdrawals_leave_the_window_a_slot_at_a_time() {
        // 50 %, no floor, 1 s window of 100 ms slots.
        let budget = RetryBudget::new(0.5, 0, secs(1)).unwrap();
        assert!(!budget.try_withdraw(), "nothing deposited");
        budget.deposit();
        budget.deposit();
        assert_eq!(budget.available(), 1);
        tokio::time::advance(Duration::from_millis(950)).await;
        budget.deposit();
        assert!(budget.try_withdraw());
        assert!(!budget.try_withdraw(), "3 calls: one retry and a half");
        // The first two calls leave at 1 s; the retry stays until 1.95 s, so the third call's
        // half retry is all that is left, below one.
        tokio::time::advance(Duration::from_millis(100)).await;
        assert_eq!(budget.inner.balance(budget.inner.epoch()), -1);
        tokio::time::advance(Duration::from_secs(1)).await;
        assert_eq!(budget.available(), 0);
        assert_eq!(budget.inner.balance(budget.inner.epoch()), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn a_refund_goes_back_to_its_slot() {
        let budget = RetryBudget::new(0.0, 1, secs(1)).unwrap();
        let w = budget.withdraw().unwrap();
        assert_eq!(budget.available(), 0);
        tokio::time::advance(Duration::from_millis(500)).await;
        budget.refund(w);
        assert_eq!(budget.available(), 1);
        // A refund of a withdrawal already out of the window adds nothing.
        let w = budget.withdraw().unwrap();
        tokio::time::advance(secs(2)).await;
        budget.refund(w);
        assert_eq!(budget.available(), 1);
    }
}
