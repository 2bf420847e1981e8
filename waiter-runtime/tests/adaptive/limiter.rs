//! The shared rate limiter on tokio's paused clock: off until a throttle, sleeps instead of
//! polling, wakes on rate changes, serves callers in arrival order.

use std::future::Future;
use std::pin::{Pin, pin};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use tokio::time::Instant;
use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState, Tuning};

/// A state steady at `rate` with the SDKs' constants and bursts of a second (`Tuning::AWS`):
/// these tests are about the shared limiter's mechanics, on whole buckets of tokens.
fn steady(rate: f64, now: f64) -> Result<RateLimiterState, Box<dyn std::error::Error>> {
    Ok(RateLimiterState::steady_at_with_tuning(
        Tuning::AWS,
        rate,
        now,
    )?)
}

#[tokio::test(start_paused = true)]
async fn off_until_the_first_throttle() {
    let limiter = ClientRateLimiter::new();
    let start = Instant::now();
    for _ in 0..10_000 {
        limiter.acquire().await;
        limiter.on_response(false);
    }
    assert_eq!(start.elapsed(), Duration::ZERO);
    assert!(!limiter.state().is_enabled());

    limiter.on_response(true);
    assert!(limiter.state().is_enabled());
}

#[tokio::test(start_paused = true)]
async fn paces_requests_at_the_fill_rate() {
    let limiter = ClientRateLimiter::with_state(steady(10.0, 0.0).unwrap());
    let start = Instant::now();
    for _ in 0..10 {
        limiter.acquire().await; // the 10 tokens of a full bucket
    }
    assert_eq!(start.elapsed(), Duration::ZERO);
    for i in 1..=20u32 {
        limiter.acquire().await;
        let elapsed = start.elapsed();
        let expected = Duration::from_millis(100) * i;
        // tokio's timer has millisecond resolution and deadlines round up.
        assert!(
            elapsed >= expected && elapsed <= expected + Duration::from_millis(1) * i,
            "token {i} at {elapsed:?}, expected {expected:?}"
        );
    }
    assert!(limiter.state().capacity() >= 0.0);
}

#[tokio::test(start_paused = true)]
async fn a_throttle_slows_the_next_requests() {
    let limiter = ClientRateLimiter::new();
    // 20 responses/s for 3 s.
    for _ in 0..60 {
        tokio::time::advance(Duration::from_millis(50)).await;
        limiter.acquire().await;
        limiter.on_response(false);
    }
    limiter.on_response(true);
    let state = limiter.state();
    let rate = state.fill_rate();
    assert!((13.0..=15.0).contains(&rate), "0.7 x ~20/s, got {rate}");

    // Drain the bucket, then tokens come at about the new rate.
    let start = Instant::now();
    let n = 30;
    for _ in 0..n {
        limiter.acquire().await;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let achieved = n as f64 / elapsed;
    assert!(
        achieved <= rate * 1.6,
        "sent {achieved}/s with a fill rate of {rate}/s"
    );
}

#[tokio::test(start_paused = true)]
async fn transient_errors_do_not_cut_the_rate() {
    let limiter = ClientRateLimiter::with_state(steady(20.0, 0.0).unwrap());
    let before = limiter.state().fill_rate();
    // Responses at 20/s, none of them a throttle (successes or transient errors alike).
    for _ in 0..20 {
        tokio::time::advance(Duration::from_millis(50)).await;
        limiter.on_response(false);
    }
    assert!(limiter.state().fill_rate() >= before * 0.99);
    limiter.on_response(true);
    assert!(limiter.state().fill_rate() <= before * 0.7 + 1e-9);
}

#[tokio::test(start_paused = true)]
async fn callers_are_served_in_arrival_order() {
    let limiter = ClientRateLimiter::with_state(steady(5.0, 0.0).unwrap());
    for _ in 0..5 {
        limiter.acquire().await; // empty the bucket
    }
    let order = Arc::new(Mutex::new(Vec::new()));
    let mut tasks = Vec::new();
    for i in 0..50 {
        let (limiter, order) = (limiter.clone(), order.clone());
        tasks.push(tokio::spawn(async move {
            limiter.acquire().await;
            order.lock().unwrap().push((i, Instant::now()));
        }));
        tokio::task::yield_now().await; // let task i queue before task i + 1 arrives
    }
    for task in tasks {
        task.await.unwrap();
    }
    let order = order.lock().unwrap();
    let ids: Vec<_> = order.iter().map(|(i, _)| *i).collect();
    assert_eq!(ids, (0..50).collect::<Vec<_>>());
    // One token every 200 ms: no caller got two while another starved.
    for pair in order.windows(2) {
        let gap = pair[1].1 - pair[0].1;
        assert!(gap >= Duration::from_millis(199), "gap {gap:?}");
    }
}

#[tokio::test(start_paused = true)]
async fn a_rate_increase_wakes_the_sleeper_before_its_deadline() {
    // Half-second buckets of any count (the SDKs'), so that the rate follows every response.
    let limiter = ClientRateLimiter::with_tuning(Tuning::AWS).unwrap();
    let responses = |n: usize, every: Duration| {
        let limiter = limiter.clone();
        async move {
            for _ in 0..n {
                tokio::time::advance(every).await;
                limiter.on_response(false);
            }
        }
    };
    responses(60, Duration::from_millis(50)).await; // 20/s
    limiter.on_response(true);
    // Traffic then drops to one response every 2 s: CUBIC allows plenty, but the bucket is
    // capped at twice the measured rate, about 1/s.
    responses(10, Duration::from_secs(2)).await;
    let slow = limiter.state().fill_rate();
    assert!((0.9..=1.2).contains(&slow), "{slow}");
    limiter.acquire().await; // empties the one-token bucket

    let waiter = {
        let limiter = limiter.clone();
        tokio::spawn(async move {
            let start = Instant::now();
            limiter.acquire().await;
            start.elapsed()
        })
    };
    tokio::task::yield_now().await;
    // Other calls' responses come back at 40/s: the measured rate, and with it the cap, jump
    // at the next half-second bucket, and the sleeper must not wait out its 1 s deadline.
    // The clock moves a millisecond at a time, so the wake-up time is exact.
    for ms in 1..=750 {
        tokio::time::advance(Duration::from_millis(1)).await;
        if ms % 25 == 0 {
            limiter.on_response(false);
        }
    }
    let waited = waiter.await.unwrap();
    let rate = limiter.state().fill_rate();
    assert!(rate > 20.0, "{rate}");
    // At 500 ms the rate jumps from 1/s to ~64/s with half a token in the bucket: the token is
    // there 8 ms later.
    assert!(
        waited <= Duration::from_millis(510),
        "woke after {waited:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_cancelled_waiter_takes_no_token_and_lets_the_next_one_go() {
    let limiter = ClientRateLimiter::with_state(steady(1.0, 0.0).unwrap());
    limiter.acquire().await; // empty
    let first = {
        let limiter = limiter.clone();
        tokio::spawn(async move { limiter.acquire().await })
    };
    tokio::task::yield_now().await;
    let second = {
        let limiter = limiter.clone();
        tokio::spawn(async move {
            limiter.acquire().await;
            Instant::now()
        })
    };
    tokio::task::yield_now().await;
    let start = Instant::now();
    first.abort();
    let got = second.await.unwrap();
    assert_eq!(
        got - start,
        Duration::from_secs(1),
        "the second gets the first's token"
    );
    assert!(limiter.state().capacity() >= 0.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_tasks_on_two_threads_never_overdraw() {
    // Plenty of tokens: nobody sleeps; what is checked is the accounting under contention.
    let limiter = ClientRateLimiter::with_state(steady(1e6, 0.0).unwrap());
    let mut tasks = Vec::new();
    for _ in 0..100 {
        let limiter = limiter.clone();
        tasks.push(tokio::spawn(async move {
            for _ in 0..100 {
                limiter.acquire().await;
                limiter.on_response(false);
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let state = limiter.state();
    assert!(state.capacity() >= 0.0 && state.capacity() <= state.max_capacity());
}

#[tokio::test(start_paused = true)]
async fn a_retry_keeps_its_place_in_line() {
    let limiter = ClientRateLimiter::with_state(steady(5.0, 0.0).unwrap());
    for _ in 0..5 {
        limiter.acquire().await; // empty the bucket
    }
    let retrying_call = limiter.ticket(); // this call started first...
    let order = Arc::new(Mutex::new(Vec::new()));
    let mut tasks = Vec::new();
    for i in 0..5 {
        let (limiter, order) = (limiter.clone(), order.clone());
        tasks.push(tokio::spawn(async move {
            limiter.acquire().await;
            order.lock().unwrap().push(i);
        }));
        tokio::task::yield_now().await;
    }
    // ...and comes back for its retry after five newer calls queued: it goes first.
    limiter.acquire_with(retrying_call).await;
    order.lock().unwrap().push(99);
    for task in tasks {
        task.await.unwrap();
    }
    assert_eq!(*order.lock().unwrap(), [99, 0, 1, 2, 3, 4]);
    assert_eq!(limiter.waiting(), 0);
}

/// Counts how often the future inside is polled.
struct CountPolls<F> {
    inner: Pin<Box<F>>,
    polls: Arc<AtomicUsize>,
}

impl<F: Future> Future for CountPolls<F> {
    type Output = F::Output;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        self.polls.fetch_add(1, Ordering::Relaxed);
        self.inner.as_mut().poll(cx)
    }
}

#[tokio::test(start_paused = true)]
async fn waiters_are_not_polled_in_a_loop() {
    // 100 callers behind an empty bucket filling at 10/s: each waits up to 10 s. A waiter is
    // woken when it becomes first in line and when its timer fires: a handful of polls each,
    // not one per token handed out or per millisecond.
    let limiter = ClientRateLimiter::with_state(steady(10.0, 0.0).unwrap());
    for _ in 0..10 {
        limiter.acquire().await;
    }
    let polls = Arc::new(AtomicUsize::new(0));
    let tasks: Vec<_> = (0..100)
        .map(|_| {
            let limiter = limiter.clone();
            let polls = polls.clone();
            tokio::spawn(async move {
                let acquire = async move { limiter.acquire().await };
                CountPolls {
                    inner: Box::pin(acquire),
                    polls,
                }
                .await
            })
        })
        .collect();
    let start = Instant::now();
    for task in tasks {
        task.await.unwrap();
    }
    let elapsed = start.elapsed();
    assert!(elapsed >= Duration::from_secs(10) && elapsed <= Duration::from_millis(10_200));
    let polls = polls.load(Ordering::Relaxed);
    // Three polls per waiter, plus one now and then when float rounding leaves a token
    // 0.99999 full at the deadline and the first in line sleeps one more timer tick.
    assert!(polls <= 100 * 4, "{polls} polls for 100 waiters");
}

#[tokio::test(start_paused = true)]
async fn try_acquire_never_jumps_the_line() {
    let limiter = ClientRateLimiter::with_state(steady(10.0, 0.0).unwrap());
    while limiter.try_acquire() {}
    let mut cx = Context::from_waker(Waker::noop());
    let mut waiter = pin!(limiter.acquire());
    assert!(waiter.as_mut().poll(&mut cx).is_pending());
    assert_eq!(limiter.waiting(), 1);
    // 150 ms later a token is there, but it is the waiter's (not polled since).
    tokio::time::advance(Duration::from_millis(150)).await;
    assert!(!limiter.try_acquire());
    assert!(waiter.as_mut().poll(&mut cx).is_ready());
    assert_eq!(limiter.waiting(), 0);
    assert!(!limiter.try_acquire(), "half a token left");
    tokio::time::advance(Duration::from_millis(50)).await;
    assert!(limiter.try_acquire());
}

#[test]
fn the_acquire_future_is_send() {
    fn assert_send<T: Send>(_: &T) {}
    let limiter = ClientRateLimiter::new();
    assert_send(&limiter.acquire());
}

#[tokio::test(start_paused = true)]
async fn successes_counted_without_the_lock_give_the_algorithms_state() {
    // The limiter (whose successes mostly skip the lock once the rate is capped) and the
    // plain state machine, fed the same responses at the same instants, agree.
    let limiter = ClientRateLimiter::new();
    let mut reference = RateLimiterState::new(0.0);
    let start = Instant::now();
    let respond = |reference: &mut RateLimiterState, throttled: bool| {
        limiter.on_response(throttled);
        reference.on_response(start.elapsed().as_secs_f64(), throttled);
    };
    // Off, then a throttle, then on: 7 s of bursts of successes, 20 per 10 ms.
    for step in 0..700 {
        if step == 150 {
            respond(&mut reference, true);
            let state = limiter.state();
            assert_eq!(state.fill_rate(), reference.fill_rate());
            // Off, the bucket is refilled lazily: never more tokens when it turns on.
            assert!(state.capacity() <= reference.capacity());
        }
        for _ in 0..20 {
            respond(&mut reference, false);
        }
        tokio::time::advance(Duration::from_millis(10)).await;
    }
    respond(&mut reference, false); // closes the last bucket, a full update on both
    let state = limiter.state();
    assert!(state.is_enabled());
    assert_eq!(
        state.measured_transmit_rate(),
        reference.measured_transmit_rate()
    );
    assert_eq!(state.fill_rate(), reference.fill_rate());
    assert_eq!(state.calculated_rate(), reference.calculated_rate());
    assert_eq!(state.max_rate(), reference.max_rate());
    assert_eq!(state.last_throttle(), reference.last_throttle());
    assert!(state.fill_rate() > 100.0, "{}", state.fill_rate());
}

#[tokio::test(start_paused = true)]
async fn taking_a_token_without_the_lock_never_overtakes_a_waiter() {
    let limiter = ClientRateLimiter::with_state(steady(10.0, 0.0).unwrap());
    // The first take goes through the lock, which then leaves 9 whole tokens to take without it.
    while limiter.try_acquire() {}
    let mut cx = Context::from_waker(Waker::noop());
    let mut first = pin!(limiter.acquire());
    assert!(first.as_mut().poll(&mut cx).is_pending());
    // 5 s later the bucket is full again (10 tokens), but the line is not empty: neither a
    // `try_acquire` nor a new `acquire` may take one of them.
    tokio::time::advance(Duration::from_secs(5)).await;
    assert!(!limiter.try_acquire());
    let mut second = pin!(limiter.acquire());
    assert!(second.as_mut().poll(&mut cx).is_pending());
    // A response taking the lock (and refilling the bucket) does not open the way either.
    limiter.on_response(false);
    assert!(!limiter.try_acquire());
    let mut third = pin!(limiter.acquire());
    assert!(third.as_mut().poll(&mut cx).is_pending());
    assert_eq!(limiter.waiting(), 3);
    // The waiters are served first, in order; then the others take the rest without waiting.
    assert!(second.as_mut().poll(&mut cx).is_pending());
    assert!(first.as_mut().poll(&mut cx).is_ready());
    assert!(third.as_mut().poll(&mut cx).is_pending());
    assert!(second.as_mut().poll(&mut cx).is_ready());
    assert!(third.as_mut().poll(&mut cx).is_ready());
    assert_eq!(limiter.waiting(), 0);
    let capacity = limiter.state().capacity();
    let mut taken = 0;
    while limiter.try_acquire() {
        taken += 1;
    }
    assert_eq!(taken, capacity.floor() as usize);
    assert!(limiter.state().capacity() < 1.0);
}

#[tokio::test(start_paused = true)]
async fn tokens_taken_without_the_lock_are_the_state_machines_tokens() {
    // The same takes on the plain state machine, at the instants they happen, and through the
    // limiter (most of them without its lock, some with it when the whole tokens run out) are
    // granted alike.
    let start = steady(7.3, 0.0).unwrap();
    let limiter = ClientRateLimiter::with_state(start);
    let mut reference = start;
    let t0 = Instant::now();
    for step in 0..60 {
        if step % 3 == 0 {
            tokio::time::advance(Duration::from_millis(130)).await;
        }
        let now = (Instant::now() - t0).as_secs_f64();
        let took = reference.try_acquire(now).is_ok();
        assert_eq!(limiter.try_acquire(), took, "step {step}");
        if step % 7 == 6 {
            // A look at the state in between (a critical section) changes nothing.
            let _ = limiter.state();
        }
    }
}

/// How many tokens `limiter` gives at once (`try_acquire` until it says no).
fn burst(limiter: &ClientRateLimiter) -> u64 {
    let mut taken = 0;
    while limiter.try_acquire() {
        taken += 1;
        assert!(taken <= 1_000_000, "the limiter does not limit");
    }
    taken
}

/// How many tokens the plain state machine gives at once at `now`.
fn reference_burst(state: &mut RateLimiterState, now: f64) -> u64 {
    let mut taken = 0;
    while state.try_acquire(now).is_ok() {
        taken += 1;
    }
    taken
}

#[tokio::test(start_paused = true)]
async fn a_burst_after_an_idle_period_never_exceeds_the_state_machines() {
    // Regression: the tokens taken without the lock were counted at the last critical
    // section's instant and the bucket refilled to now after them. Once the bucket had filled
    // up in between (idle), the refill gave back what its cap had dropped: steady at 10/s,
    // after 10 s idle, 20 tokens at once (the state machine and botocore give 10); at 50/s,
    // 100 instead of 50.
    for (rate, idle_secs, expected) in [(10.0, 10.0, 10), (50.0, 10.0, 50)] {
        let limiter = ClientRateLimiter::with_state(steady(rate, 0.0).unwrap());
        // One take through the lock at 0, which leaves the rest to take without it.
        assert!(limiter.try_acquire());
        tokio::time::advance(Duration::from_secs_f64(idle_secs)).await;
        assert_eq!(
            burst(&limiter),
            expected,
            "{rate}/s after {idle_secs} s idle"
        );
    }

    // The same for various rates, idle periods and takes before the idle period: at every
    // instant a burst gets at most what the state machine grants then, and exactly that when
    // the takes before the idle period ended with a look under the lock.
    for rate in [0.5, 1.0, 3.7, 10.0, 50.0, 333.3] {
        for before in [0, 1, 2, 5, usize::MAX] {
            for idle_ms in [0, 1, 99, 100, 250, 1_000, 10_000, 1_000_000] {
                // The limiter's time zero is now: so is the reference's.
                let t0 = Instant::now();
                let limiter = ClientRateLimiter::with_state(steady(rate, 0.0).unwrap());
                let mut reference = steady(rate, 0.0).unwrap();
                let start = 0.0;
                let taken_before = if before == usize::MAX {
                    let taken = burst(&limiter);
                    assert_eq!(taken, reference_burst(&mut reference, start));
                    taken
                } else {
                    let mut taken = 0;
                    for _ in 0..before {
                        let took = limiter.try_acquire();
                        assert_eq!(took, reference.try_acquire(start).is_ok());
                        taken += u64::from(took);
                    }
                    taken
                };
                let ended_under_the_lock = before == usize::MAX;
                tokio::time::advance(Duration::from_millis(idle_ms)).await;
                let now = (Instant::now() - t0).as_secs_f64();
                let got = burst(&limiter);
                let allowed = reference_burst(&mut reference, now);
                let case =
                    format!("{rate}/s, {before} before ({taken_before} taken), {idle_ms} ms idle");
                assert!(got <= allowed, "{case}: {got} > {allowed}");
                if ended_under_the_lock || before <= 1 {
                    assert_eq!(got, allowed, "{case}");
                }
                // And the bucket is at most full after that: the next burst is the refill.
                tokio::time::advance(Duration::from_secs(1)).await;
                let now = (Instant::now() - t0).as_secs_f64();
                let (got, allowed) = (burst(&limiter), reference_burst(&mut reference, now));
                assert!(got <= allowed, "{case}, 1 s later: {got} > {allowed}");
            }
        }
    }
}

#[tokio::test(start_paused = true)]
async fn an_early_throttle_paces_at_the_admitted_rate_not_at_the_floor() {
    // Callers start together; the service admits 200/s for 0.1 s, then throttles, before the
    // first half-second bucket has been measured. The SDKs would now send 0.5 requests/s;
    // this limiter sends about 0.75 x 200 = 150/s (see `RateLimiterState::on_response`).
    let limiter = ClientRateLimiter::new();
    for _ in 0..20 {
        tokio::time::advance(Duration::from_millis(5)).await;
        limiter.acquire().await;
        limiter.on_response(false);
    }
    limiter.on_response(true);
    let state = limiter.state();
    assert_eq!(state.measured_transmit_rate(), 0.0, "nothing measured yet");
    let admitted = 20.0 / 0.1;
    assert!(
        (state.fill_rate() - Tuning::DEFAULT.beta * admitted).abs() < 1e-6,
        "{}",
        state.fill_rate()
    );
    // Fifteen requests take about 0.1 s, one token at a time (no burst).
    let start = Instant::now();
    for _ in 0..15 {
        limiter.acquire().await;
    }
    let elapsed = start.elapsed();
    assert!(
        elapsed >= Duration::from_millis(90) && elapsed <= Duration::from_millis(120),
        "{elapsed:?}"
    );
}
