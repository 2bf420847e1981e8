//! The timer the waiters and retries sleep on, whatever runs them.
//!
//! Nothing to turn on: inside a tokio runtime (when `tokio::runtime::Handle::try_current()`
//! finds one) every sleep is a tokio timer, so tokio's paused clock (`start_paused`, `advance`)
//! drives waits and retries in tests; anywhere else (`smol::block_on`,
//! `futures::executor::block_on`, async-std, a thread of your own) the sleeps are
//! [futures-timer](https://docs.rs/futures-timer)'s, which run on one helper thread started on
//! first use and need no reactor. The blocking forms
//! ([`blocking::Waiter`](crate::blocking::Waiter), [`Retrier::run_blocking`]) sleep on the
//! calling thread, always (a runtime's timer might never fire while its thread is blocked):
//! they sleep with `std::thread::sleep`, or park until futures-timer's thread wakes them where
//! they wait for something shared with async callers (the adaptive rate limiter's line), and
//! read the system clock.
//!
//! Where neither fits (embedded, wasm, a runtime with a timer of its own), supply a timer: an
//! [`AsyncSleep`], given to one waiter ([`Waiter::sleep_impl`](crate::Waiter::sleep_impl)), one
//! retrier ([`Retrier::with_sleep_impl`]), or to the whole process with [`set_default_sleep`].
//! The order: the waiter's or retrier's own, then the process default, then tokio's when in a
//! tokio runtime, then futures-timer's. The adaptive rate limiter, shared by a client's calls,
//! sleeps on the process default.
//!
//! ```
//! use std::time::Duration;
//! use waiter_runtime::timer::{AsyncSleep, SharedAsyncSleep, Sleep};
//!
//! /// A timer of your platform's (here, tokio's: any future that ends after `duration` fits).
//! #[derive(Debug)]
//! struct PlatformSleep;
//!
//! impl AsyncSleep for PlatformSleep {
//!     fn sleep(&self, duration: Duration) -> Sleep {
//!         Sleep::new(tokio::time::sleep(duration))
//!     }
//! }
//!
//! let sleep = SharedAsyncSleep::new(PlatformSleep);
//! // Per waiter: `.sleep_impl(sleep.clone())`; per retrier: `.with_sleep_impl(sleep.clone())`;
//! // for the process: `waiter_runtime::timer::set_default_sleep(sleep)`.
//! # let _ = sleep;
//! ```
//!
//! # Wasm and embedded (a design: no such target is built here)
//!
//! * **wasm32 in a browser**: `gloo-timers`' `gloo_timers::future::sleep(duration)` is the
//!   future to wrap (`Sleep::new` needs `Send`: wrap it in `send_wrapper::SendWrapper`, as
//!   futures-timer's own `wasm-bindgen` feature does, since the browser runs one thread).
//!   Set it once with [`set_default_sleep`] before the first wait. The clock: `std::time::Instant`
//!   panics on `wasm32-unknown-unknown`, and tokio's `Instant` is std's, so the waiter's own
//!   deadline bookkeeping needs a clock too: this is why wasm stays a design here.
//! * **embassy**: `embassy_time::Timer::after(embassy_duration)` is the future; convert the
//!   [`Duration`] to `embassy_time::Duration::from_micros(..)`. The same clock caveat applies on
//!   targets without `std`.
//!
//! [`Retrier::with_sleep_impl`]: crate::retry::Retrier::with_sleep_impl
//! [`Retrier::run_blocking`]: crate::retry::Retrier::run_blocking
#![doc = ""]
#![doc = include_str!("docs/executors.md")]

use std::cell::Cell;
use std::fmt;
use std::future::{Future, poll_fn};
use std::pin::{Pin, pin};
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime};

use tokio::time::Instant;

/// A timer: a future that ends after a given duration. Implement it to run waiters and retries
/// on a timer of your own (see the [module](self) docs).
pub trait AsyncSleep: fmt::Debug + Send + Sync {
    /// A future that ends after `duration` (as close to it as the timer can).
    fn sleep(&self, duration: Duration) -> Sleep;
}

/// The future an [`AsyncSleep`] returns: any `Send` future of `()`, boxed.
#[must_use = "a sleep does nothing unless awaited"]
pub struct Sleep(Pin<Box<dyn Future<Output = ()> + Send + 'static>>);

impl Sleep {
    /// Wraps `future`, which ends when the sleep is over.
    pub fn new(future: impl Future<Output = ()> + Send + 'static) -> Self {
        Sleep(Box::pin(future))
    }
}

impl fmt::Debug for Sleep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Sleep")
    }
}

impl Future for Sleep {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        self.0.as_mut().poll(cx)
    }
}

/// A shared [`AsyncSleep`]: cheap to clone, what the options take.
#[derive(Clone, Debug)]
pub struct SharedAsyncSleep(Arc<dyn AsyncSleep>);

impl SharedAsyncSleep {
    /// Shares `sleep`.
    pub fn new(sleep: impl AsyncSleep + 'static) -> Self {
        SharedAsyncSleep(Arc::new(sleep))
    }
}

impl AsyncSleep for SharedAsyncSleep {
    fn sleep(&self, duration: Duration) -> Sleep {
        self.0.sleep(duration)
    }
}

static DEFAULT: OnceLock<SharedAsyncSleep> = OnceLock::new();

/// Sets the timer of every waiter and retrier of the process that has none of its own, and of
/// the adaptive rate limiter. Once per process: a second call returns its timer back, as
/// `Err`, and changes nothing.
///
/// ```
/// use std::time::Duration;
/// use waiter_runtime::timer::{AsyncSleep, SharedAsyncSleep, Sleep, set_default_sleep};
///
/// #[derive(Debug)]
/// struct TokioSleep;
/// impl AsyncSleep for TokioSleep {
///     fn sleep(&self, duration: Duration) -> Sleep {
///         Sleep::new(tokio::time::sleep(duration))
///     }
/// }
///
/// assert!(set_default_sleep(SharedAsyncSleep::new(TokioSleep)).is_ok());
/// assert!(set_default_sleep(SharedAsyncSleep::new(TokioSleep)).is_err()); // once
/// ```
pub fn set_default_sleep(sleep: SharedAsyncSleep) -> Result<(), SharedAsyncSleep> {
    DEFAULT.set(sleep)
}

/// Longer than any wait that matters (tokio's own far future): the timers below are given at
/// most this, so that no `Instant` overflows.
const FAR: Duration = Duration::from_secs(30 * 365 * 86_400);

thread_local! {
    /// Set while a blocking caller drives a future on its own thread: tokio's timer, which only
    /// a runtime's thread drives, is then not used (a blocked runtime thread would never fire
    /// it).
    static BLOCKING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` as a blocking caller: the futures it polls sleep on the fallback timer (or a
/// supplied one), never on tokio's.
pub(crate) fn as_blocking<R>(f: impl FnOnce() -> R) -> R {
    /// Puts the flag back, even if `f` panics.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            BLOCKING.with(|b| b.set(self.0));
        }
    }
    let _restore = Restore(BLOCKING.with(|b| b.replace(true)));
    f()
}

/// Drives `fut` to its end on the calling thread, parking it while `fut` waits (its waker
/// unparks it): how a blocking caller waits on the crate's futures (the rate limiter's line,
/// say), sharing them with async callers. Its sleeps use the fallback timer (see
/// [`as_blocking`]).
pub(crate) fn block_on<F: Future>(fut: F) -> F::Output {
    struct Unpark(std::thread::Thread);
    impl std::task::Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
        fn wake_by_ref(self: &Arc<Self>) {
            self.0.unpark();
        }
    }
    thread_local! {
        /// The thread's waker, made once per thread.
        static WAKER: std::task::Waker = Arc::new(Unpark(std::thread::current())).into();
    }
    as_blocking(|| {
        let waker = WAKER.with(std::task::Waker::clone);
        let mut cx = Context::from_waker(&waker);
        let mut fut = pin!(fut);
        loop {
            if let Poll::Ready(out) = fut.as_mut().poll(&mut cx) {
                return out;
            }
            // A spurious wake-up (or one left by an earlier future) only costs one more poll.
            std::thread::park();
        }
    })
}

/// Which timer a sleep starting now uses.
enum Source {
    Own(SharedAsyncSleep),
    Tokio,
    Fallback,
}

fn source(own: Option<&SharedAsyncSleep>) -> Source {
    if BLOCKING.with(Cell::get) {
        // A blocking caller parks its own thread until futures-timer's thread wakes it: a
        // timer that needs a runtime's thread (tokio's, a supplied one) might never fire.
        return Source::Fallback;
    }
    if let Some(own) = own.or_else(|| DEFAULT.get()) {
        return Source::Own(own.clone());
    }
    if tokio::runtime::Handle::try_current().is_ok() {
        Source::Tokio
    } else {
        Source::Fallback
    }
}

/// The time now on the clock the current caller's sleeps follow: tokio's (its paused clock in
/// tests), or the system's for a blocking caller, whose thread tokio's paused clock would not
/// see move.
pub(crate) fn now() -> Instant {
    if BLOCKING.with(Cell::get) {
        Instant::from_std(std::time::Instant::now())
    } else {
        Instant::now()
    }
}

/// The wall clock as the current caller's clock sees it: `SystemTime::now()` read once per
/// process, then the time [`now`] measured since. Checkpoints count the wall-clock time between
/// two processes with it; within a process, a start and a later time differ by what the
/// waiter's clock measured (tokio's paused clock in tests, which the system's wall clock does
/// not follow), and a wall clock set back or forward meanwhile does not move them.
pub(crate) fn wall_now() -> SystemTime {
    static ANCHOR: OnceLock<(SystemTime, std::time::Instant)> = OnceLock::new();
    let (wall, at) = *ANCHOR.get_or_init(|| (SystemTime::now(), std::time::Instant::now()));
    let now = now().into_std();
    match now.checked_duration_since(at) {
        Some(since) => wall.checked_add(since).unwrap_or(wall),
        None => wall.checked_sub(at - now).unwrap_or(wall),
    }
}

/// Whether the current thread is a blocking caller's (see [`as_blocking`]).
pub(crate) fn is_blocking() -> bool {
    BLOCKING.with(Cell::get)
}

/// Sleeps for `duration` on `own` or the default timer (see the module docs).
pub(crate) async fn sleep(own: Option<&SharedAsyncSleep>, duration: Duration) {
    match source(own) {
        Source::Tokio => tokio::time::sleep(duration).await,
        source => Timer::new(source, duration).await,
    }
}

/// Runs `fut` until `deadline`: `None` if the deadline came first (`fut` is dropped). As
/// tokio's `timeout_at`, `fut` is polled before the timer.
pub(crate) async fn timeout_at<F: Future>(
    own: Option<&SharedAsyncSleep>,
    deadline: Instant,
    fut: F,
) -> Option<F::Output> {
    match source(own) {
        Source::Tokio => tokio::time::timeout_at(deadline, fut).await.ok(),
        source => {
            let mut fut = pin!(fut);
            // The timer is armed only once `fut` has to wait: a poll that is ready at once
            // costs no timer.
            let (mut source, mut timer) = (Some(source), None);
            poll_fn(|cx| {
                if let Poll::Ready(out) = fut.as_mut().poll(cx) {
                    return Poll::Ready(Some(out));
                }
                let timer = timer.get_or_insert_with(|| {
                    let source = source.take().unwrap_or(Source::Fallback);
                    Timer::new(source, deadline.saturating_duration_since(now()))
                });
                Pin::new(timer).poll(cx).map(|()| None)
            })
            .await
        }
    }
}

/// Lets the runtime run other tasks once this task has spent its budget (tokio's cooperative
/// scheduling), so that a loop of operations that are ready at once cannot hold a thread; a
/// no-op outside tokio.
pub(crate) async fn consume_budget() {
    if matches!(source(None), Source::Tokio) {
        tokio::task::consume_budget().await;
    }
}

/// A timer that can be moved to a new deadline, for a future that keeps one across its polls
/// (the adaptive rate limiter's `Acquire`).
pub(crate) struct Timer(Kind);

enum Kind {
    Tokio(Pin<Box<tokio::time::Sleep>>),
    Fallback(futures_timer::Delay),
    Own(SharedAsyncSleep, Sleep),
}

impl Timer {
    /// A timer ending at `deadline`, on the process default timer (see the module docs).
    pub(crate) fn at(deadline: Instant) -> Timer {
        match source(None) {
            Source::Tokio => Timer(Kind::Tokio(Box::pin(tokio::time::sleep_until(deadline)))),
            source => Timer::new(source, deadline.saturating_duration_since(Instant::now())),
        }
    }

    fn new(source: Source, duration: Duration) -> Timer {
        let duration = duration.min(FAR);
        Timer(match source {
            Source::Tokio => Kind::Tokio(Box::pin(tokio::time::sleep(duration))),
            Source::Fallback => Kind::Fallback(futures_timer::Delay::new(duration)),
            Source::Own(own) => {
                let sleep = own.sleep(duration);
                Kind::Own(own, sleep)
            }
        })
    }

    /// Moves the timer to `deadline`.
    pub(crate) fn reset(self: Pin<&mut Self>, deadline: Instant) {
        let this = self.get_mut();
        let left = deadline.saturating_duration_since(Instant::now()).min(FAR);
        match &mut this.0 {
            Kind::Tokio(sleep) => sleep.as_mut().reset(deadline),
            Kind::Fallback(delay) => delay.reset(left),
            Kind::Own(own, sleep) => *sleep = own.sleep(left),
        }
    }
}

impl Future for Timer {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        match &mut self.get_mut().0 {
            Kind::Tokio(sleep) => sleep.as_mut().poll(cx),
            Kind::Fallback(delay) => Pin::new(delay).poll(cx),
            Kind::Own(_, sleep) => Pin::new(sleep).poll(cx),
        }
    }
}

impl fmt::Debug for Timer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Kind::Tokio(_) => "Timer(tokio)",
            Kind::Fallback(_) => "Timer(futures-timer)",
            Kind::Own(..) => "Timer(own)",
        })
    }
}

/// Warns once per process, through `tracing`, when a blocking call (`what`) runs on a thread
/// inside a tokio runtime's `block_on`, where it blocks the runtime. The one case that can be
/// told: a task's thread (a worker's, or `spawn_blocking`'s) cannot be told apart.
pub(crate) fn warn_if_blocking_a_runtime(what: &'static str) {
    use std::sync::atomic::{AtomicBool, Ordering};

    static WARNED: AtomicBool = AtomicBool::new(false);
    if is_blocking() || WARNED.load(Ordering::Relaxed) {
        return;
    }
    let blocks_runtime =
        tokio::runtime::Handle::try_current().is_ok() && tokio::task::try_id().is_none();
    if blocks_runtime && !WARNED.swap(true, Ordering::Relaxed) {
        tracing::warn!(
            what,
            "a blocking wait runs on a thread driving a tokio runtime (inside `block_on`): the runtime runs nothing else on it meanwhile; call it through `tokio::task::spawn_blocking`, or use the async form (warned once)"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_tokio_the_fallback_timer_sleeps() {
        let start = std::time::Instant::now();
        block_on(sleep(None, Duration::from_millis(20)));
        assert!(start.elapsed() >= Duration::from_millis(20));
        let start = std::time::Instant::now();
        let out = block_on(timeout_at(
            None,
            Instant::now() + Duration::from_millis(10),
            std::future::pending::<()>(),
        ));
        assert!(out.is_none() && start.elapsed() >= Duration::from_millis(10));
        // A deadline past what `Instant` holds is a far future, not a panic.
        let out = block_on(timeout_at(None, Instant::now(), async { 7 }));
        assert_eq!(out, Some(7));
        let _far = Timer::new(Source::Fallback, Duration::MAX);
    }

    #[tokio::test(start_paused = true)]
    async fn inside_tokio_the_paused_clock_drives_the_sleeps() {
        let start = Instant::now();
        sleep(None, Duration::from_secs(3600)).await;
        assert_eq!(start.elapsed(), Duration::from_secs(3600));
        let mut timer = Box::pin(Timer::at(start + Duration::from_secs(7200)));
        timer.as_mut().reset(start + Duration::from_secs(3601));
        timer.await;
        assert_eq!(start.elapsed(), Duration::from_secs(3601));
        // A blocking caller on a runtime thread does not use tokio's timer.
        assert!(as_blocking(|| matches!(source(None), Source::Fallback)));
        assert!(matches!(source(None), Source::Tokio));
    }
}
