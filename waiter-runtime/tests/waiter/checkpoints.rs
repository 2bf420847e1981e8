//! Checkpoints: a wait dropped after any poll and taken up (`Waiter::resume`) keeps its
//! deadline, poll count, successes in a row and backoff position; a checkpoint of another
//! waiter or past its deadline is a typed error (paused clock, and one real-clock test).

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use futures_util::StreamExt;
use tokio::time::Instant;
use waiter_runtime::__private_v0_1::{Matched, Polled, waiter as new_waiter};
use waiter_runtime::waiter::{
    AcceptorState, CheckpointError, PollEvent, WaitCheckpoint, WaitUpdate, Waiter, WaiterError,
    WaiterMetadata,
};

const fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// A waiter whose polls log their start (from `origin`) and whose poll `n` (counted across
/// waiters by `calls`) answers `script[n]`: `"ready"` matches success, anything else nothing.
fn scripted(
    name: &'static str,
    delays: (Duration, Duration),
    script: Arc<[&'static str]>,
    calls: Arc<Mutex<Vec<Duration>>>,
    origin: Instant,
) -> Waiter<'static, &'static str, ()> {
    let metadata = WaiterMetadata::new(name, "get").with_delays(delays.0, delays.1);
    new_waiter(metadata, move || {
        let mut log = calls.lock().unwrap();
        let result = script[log.len().min(script.len() - 1)];
        log.push(origin.elapsed());
        async move {
            let matched = (result == "ready").then(|| Matched::new(0, AcceptorState::Success));
            Polled::new(Ok(result), matched)
        }
    })
}

/// The polls' times and the outcome of a wait dropped after poll `stop` and resumed, next to
/// the same wait uninterrupted.
async fn interrupted_and_whole(
    delays: (Duration, Duration),
    script: &[&'static str],
    successes: u32,
    max_wait: Duration,
    stop: u32,
) -> [(Vec<Duration>, u32, Duration, bool); 2] {
    let script: Arc<[&'static str]> = script.into();
    let run = |calls: &Arc<Mutex<Vec<Duration>>>, origin| {
        scripted("Ready", delays, script.clone(), calls.clone(), origin)
            .consecutive_successes(successes)
            .seed(7)
    };
    let outcome = |r: Result<waiter_runtime::FinalPoll<_, ()>, WaiterError<_, ()>>| match r {
        Ok(done) => (done.polls, done.elapsed, true),
        Err(WaiterError::ExceededMaxWait { polls, elapsed, .. }) => (polls, elapsed, false),
        Err(other) => panic!("{other:?}"),
    };

    let calls = Arc::new(Mutex::new(Vec::new()));
    let origin = Instant::now();
    let whole = outcome(run(&calls, origin).wait(max_wait).await);
    let whole_times = calls.lock().unwrap().clone();

    let calls = Arc::new(Mutex::new(Vec::new()));
    let origin = Instant::now();
    let mut stream = run(&calls, origin).stream(max_wait);
    let mut checkpoint = None;
    for _ in 0..stop {
        match stream.next().await {
            Some(WaitUpdate::Polled { event, .. }) => checkpoint = event.checkpoint(),
            other => panic!("the wait ended before poll {stop}: {other:?}"),
        }
    }
    drop(stream);
    let checkpoint = checkpoint.unwrap();
    assert_eq!(checkpoint.polls, stop);
    let resumed = outcome(
        run(&calls, origin)
            .resume(&checkpoint)
            .unwrap()
            .wait()
            .await,
    );
    let resumed_times = calls.lock().unwrap().clone();
    [
        (whole_times, whole.0, whole.1, whole.2),
        (resumed_times, resumed.0, resumed.1, resumed.2),
    ]
}

/// Equal within 2 ms: the resumed wait's start is taken back from the wall clock, which
/// moves by microseconds while the paused clock stands still (and the timer rounds to 1 ms).
fn assert_close(a: Duration, b: Duration) {
    assert!(
        a.abs_diff(b) <= Duration::from_millis(2),
        "{a:?} against {b:?}"
    );
}

/// The same polls, at the same times (within 2 ms), with the same outcome.
fn assert_same(a: &(Vec<Duration>, u32, Duration, bool), b: &(Vec<Duration>, u32, Duration, bool)) {
    assert_eq!(
        (a.0.len(), a.1, a.3),
        (b.0.len(), b.1, b.3),
        "{a:?} against {b:?}"
    );
    for (x, y) in a.0.iter().zip(&b.0) {
        assert_close(*x, *y);
    }
    assert_close(a.2, b.2);
}

#[tokio::test(start_paused = true)]
async fn a_resumed_wait_polls_when_the_whole_wait_would_have() {
    // Backoff (1 s doubling to 8 s, jittered): the checkpoint keeps the jitter's seed, so the
    // resumed wait draws the delays the whole wait drew: the same polls at the same times.
    for stop in 1..=6 {
        let [whole, resumed] =
            interrupted_and_whole((secs(1), secs(8)), &["creating"], 1, secs(40), stop).await;
        assert_same(&whole, &resumed);
        assert!(!resumed.3);
    }
    // Fixed delays: the same polls at the same times.
    let [whole, resumed] =
        interrupted_and_whole((secs(3), secs(3)), &["creating"], 1, secs(20), 2).await;
    assert_same(&whole, &resumed);
}

#[tokio::test(start_paused = true)]
async fn the_backoff_goes_on_from_its_position() {
    // After 5 polls of a 1 s to 64 s backoff, delays are drawn up to 16 s; a backoff started
    // anew would draw 1 s, then up to 2 s.
    let script: Arc<[&'static str]> = Arc::from(["creating"]);
    let waiter = || {
        scripted(
            "Ready",
            (secs(1), secs(64)),
            script.clone(),
            Default::default(),
            Instant::now(),
        )
        .seed(3)
    };
    let mut stream = waiter().stream(secs(3600));
    let mut checkpoint = None;
    for _ in 0..5 {
        if let Some(WaitUpdate::Polled { event, .. }) = stream.next().await {
            checkpoint = event.checkpoint();
        }
    }
    drop(stream);
    let checkpoint = checkpoint.unwrap();
    assert_eq!((checkpoint.polls, checkpoint.retries), (5, 5));
    let mut delays = Vec::new();
    let mut stream = waiter().resume(&checkpoint).unwrap().stream();
    for _ in 0..3 {
        let Some(WaitUpdate::Polled { event, .. }) = stream.next().await else {
            panic!()
        };
        delays.push(event.next_delay.unwrap());
        assert_eq!(event.poll, 6 + delays.len() as u32 - 1);
    }
    drop(stream);
    assert_eq!(delays.len(), 3);
    assert!(delays.iter().all(|d| *d >= secs(1) && *d <= secs(64)));
    assert!(delays.iter().any(|d| *d > secs(2)), "{delays:?}");
}

#[tokio::test(start_paused = true)]
async fn successes_in_a_row_go_on_across_the_resume() {
    let script = ["creating", "ready", "ready", "ready"];
    let [whole, resumed] = interrupted_and_whole((secs(2), secs(2)), &script, 3, secs(60), 2).await;
    assert_same(&whole, &resumed);
    assert_eq!((resumed.1, resumed.3), (4, true));
    assert_close(resumed.2, secs(6));
}

fn checkpoint_of(name: &'static str) -> (WaitCheckpoint, Waiter<'static, &'static str, ()>) {
    let waiter = scripted(
        name,
        (secs(2), secs(2)),
        Arc::from(["creating"]),
        Default::default(),
        Instant::now(),
    );
    (sample(name), waiter)
}

/// A checkpoint of `name` after its first poll, in a wait of 60 s.
fn sample(name: &'static str) -> WaitCheckpoint {
    let calls = Arc::new(Mutex::new(Vec::new()));
    let mut checkpoint = None;
    let mut stream = scripted(
        name,
        (secs(2), secs(2)),
        Arc::from(["creating"]),
        calls,
        Instant::now(),
    )
    .stream(secs(60));
    let first = futures_util::FutureExt::now_or_never(stream.next());
    if let Some(Some(WaitUpdate::Polled { event, .. })) = first {
        checkpoint = event.checkpoint();
    }
    checkpoint.expect("a checkpoint after the first poll")
}

#[tokio::test(start_paused = true)]
async fn another_waiters_or_a_past_deadlines_checkpoint_is_an_error() {
    let (checkpoint, _) = checkpoint_of("Ready");
    let other = scripted(
        "Other",
        (secs(2), secs(2)),
        Arc::from(["creating"]),
        Default::default(),
        Instant::now(),
    );
    let err = other.resume(&checkpoint).unwrap_err();
    assert_eq!(
        err,
        CheckpointError::OtherWaiter {
            waiter: "Other",
            checkpoint: "Ready".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "cannot resume waiter `Other` from a checkpoint of waiter `Ready`"
    );

    // Started two hours ago by the wall clock, for at most an hour.
    let (mut old, waiter) = checkpoint_of("Ready");
    old.started_at = SystemTime::now() - secs(7200);
    let err = waiter.resume(&old).unwrap_err();
    assert!(
        matches!(err, CheckpointError::DeadlinePassed { waiter: "Ready", max_wait, elapsed } if max_wait == secs(60) && elapsed >= secs(7199)),
        "{err:?}"
    );
    // Its own count past its maximum (a clock that does not follow the wall clock).
    let (mut spent, waiter) = checkpoint_of("Ready");
    spent.elapsed = secs(61);
    assert!(matches!(
        waiter.resume(&spent),
        Err(CheckpointError::DeadlinePassed { .. })
    ));
    // Further back than the monotonic clock may reach (where it cannot go below its origin):
    // an error, never a panic.
    let (mut ancient, waiter) = checkpoint_of("Ready");
    ancient.started_at = SystemTime::UNIX_EPOCH;
    ancient.max_wait = Duration::MAX;
    assert!(matches!(
        waiter.resume(&ancient).map(|_| ()),
        Ok(()) | Err(CheckpointError::OutOfClockRange { .. })
    ));
}

#[tokio::test(start_paused = true)]
async fn a_checkpoint_is_taken_after_any_poll_but_the_last() {
    let calls = Arc::new(Mutex::new(Vec::new()));
    let mut checkpoints = Vec::new();
    let _ = scripted(
        "Ready",
        (secs(2), secs(2)),
        Arc::from(["creating"]),
        calls,
        Instant::now(),
    )
    .on_poll(|e: &PollEvent| checkpoints.push(e.checkpoint()))
    .wait(secs(7))
    .await;
    let polls: Vec<Option<(u32, Duration, Duration)>> = checkpoints
        .iter()
        .map(|c| c.as_ref().map(|c| (c.polls, c.elapsed, c.next_poll_in)))
        .collect();
    assert_eq!(
        polls,
        [
            Some((1, secs(0), secs(2))),
            Some((2, secs(2), secs(2))),
            Some((3, secs(4), secs(3) - Duration::from_millis(1))),
            None
        ]
    );
    let third = checkpoints[2].as_ref().unwrap();
    assert_eq!(
        (third.retries, third.last_poll_planned, third.max_wait),
        (3, true, secs(7))
    );
}

#[cfg(feature = "serde")]
#[test]
fn a_checkpoint_is_plain_data() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap();
    let checkpoint = rt.block_on(async { sample("Ready") });
    let json = serde_json::to_string(&checkpoint).unwrap();
    let back: WaitCheckpoint = serde_json::from_str(&json).unwrap();
    assert_eq!(back, checkpoint);
    assert!(json.contains("\"waiter\":\"Ready\""), "{json}");
    // One shape, with or without the feature.
    assert_eq!(json, checkpoint.to_json());
    assert_eq!(WaitCheckpoint::from_json(&json).unwrap(), checkpoint);
    // A newer format fails to deserialize, saying so.
    let newer = json.replacen("\"format\":2", "\"format\":3", 1);
    let err = serde_json::from_str::<WaitCheckpoint>(&newer).unwrap_err();
    assert!(err.to_string().contains("format 3"), "{err}");
}

/// The real clock: the time the wait was not running counts, by the wall clock.
#[tokio::test]
async fn a_resumed_wait_keeps_its_deadline_on_the_real_clock() {
    let ms = Duration::from_millis;
    let calls = Arc::new(Mutex::new(Vec::new()));
    let origin = Instant::now();
    let waiter = || {
        scripted(
            "Ready",
            (ms(50), ms(50)),
            Arc::from(["creating"]),
            calls.clone(),
            origin,
        )
    };
    let mut stream = waiter().stream(ms(400));
    let Some(WaitUpdate::Polled { event, .. }) = stream.next().await else {
        panic!("no first poll")
    };
    let checkpoint = event.checkpoint().unwrap();
    drop(stream);
    // The process is down for 150 ms.
    std::thread::sleep(ms(150));
    let err = waiter()
        .resume(&checkpoint)
        .unwrap()
        .wait()
        .await
        .unwrap_err();
    let WaiterError::ExceededMaxWait { elapsed, polls, .. } = err else {
        panic!("{err:?}")
    };
    let total = origin.elapsed();
    // The deadline is the first start's plus 400 ms, not the resume's plus 400 ms (the last
    // poll leaves a little before it).
    assert!(
        elapsed >= ms(390) && elapsed <= ms(420) && total < ms(520),
        "elapsed {elapsed:?}, total {total:?}"
    );
    // Nothing polled while the process was down.
    let times = calls.lock().unwrap().clone();
    assert!(
        times.iter().all(|t| *t < ms(20) || *t >= ms(150)),
        "{times:?}"
    );
    assert!(polls >= 4, "{polls}");
}
