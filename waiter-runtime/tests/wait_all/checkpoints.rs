//! A set resumes whole (issue 37, 2): its checkpoint keeps the deadline, the fail-fast state
//! and every member's checkpoint or ending; a set dropped mid-way and resumed from it (through
//! its JSON, as another process would) polls each member exactly as the whole wait did, and
//! polls no finished member again.

use waiter_runtime::waiter::{
    CheckpointError, Ended, MemberCheckpoint, ResumedResult, WaitAllCheckpoint, WaitAllCheckpoints,
};

use super::*;

/// Each member bound to its own index, so that a member given to another is refused.
fn keyed(service: &Service) -> Vec<Waiter<'_, usize, Error>> {
    (0..service.resources.len())
        .map(|i| service.waiter(i).checkpoint_key(&i))
        .collect()
}

/// The requests each resource received, in order, at the service's times.
fn requests_by_resource(service: &Service) -> Vec<Vec<Duration>> {
    let mut by = vec![Vec::new(); service.resources.len()];
    for (i, at) in service.log.lock().unwrap().iter() {
        by[*i].push(*at);
    }
    by
}

/// How a member ended: kind, polls, elapsed.
fn ending(
    result: &Result<FinalPoll<usize, Error>, WaiterError<usize, Error>>,
) -> (Ended, u32, Duration) {
    match result {
        Ok(done) => (Ended::Succeeded, done.polls, done.elapsed),
        Err(WaiterError::FailureState {
            acceptor,
            final_poll,
            ..
        }) => (
            Ended::FailureState {
                acceptor: *acceptor,
            },
            final_poll.polls,
            final_poll.elapsed,
        ),
        Err(WaiterError::ExceededMaxWait { polls, elapsed, .. }) => {
            (Ended::ExceededMaxWait, *polls, *elapsed)
        }
        Err(WaiterError::Stopped {
            by, polls, elapsed, ..
        }) => (Ended::Stopped { by: *by }, *polls, *elapsed),
        Err(other) => panic!("{other:?}"),
    }
}

fn resumed_ending(result: &ResumedResult<usize, Error>) -> (Ended, u32, Duration) {
    match result {
        ResumedResult::Waited(result) => ending(result),
        ResumedResult::Earlier(outcome) => (outcome.ended, outcome.polls, outcome.elapsed),
    }
}

/// 500 resources, ready, failing or never ready at random times.
fn resources() -> Vec<Resource> {
    let mut rng = SmallRng::seed_from_u64(37);
    (0..500)
        .map(|_| match rng.random_range(0..10) {
            0 => Resource::Never,
            1 => Resource::FailsAt(secs(rng.random_range(0..900))),
            _ => Resource::ReadyAt(secs(rng.random_range(0..900))),
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_set_of_500_resumed_whole_polls_each_member_as_if_nothing_happened() {
    let max_wait = secs(600);

    // The whole wait.
    let whole = Service::new(resources(), Duration::ZERO);
    let results = WaitAll::new(keyed(&whole)).wait(max_wait).await;
    let whole_requests = requests_by_resource(&whole);
    let whole_endings: Vec<_> = results.iter().map(ending).collect();

    // The same wait, its process stopped after 240 s, taken up by another one from the
    // checkpoint's JSON.
    let service = Service::new(resources(), Duration::ZERO);
    let checkpoints = WaitAllCheckpoints::new();
    let first = WaitAll::new(keyed(&service))
        .checkpoints(&checkpoints)
        .wait(max_wait);
    assert!(tokio::time::timeout(secs(240), first).await.is_err());
    let saved = checkpoints.checkpoint().unwrap().to_json();
    let before = service.requests();
    let checkpoint = WaitAllCheckpoint::from_json(&saved).unwrap();
    let finished = checkpoint
        .members
        .iter()
        .filter(|m| matches!(m, MemberCheckpoint::Finished(_)))
        .count();
    let waiting = checkpoint
        .members
        .iter()
        .filter(|m| matches!(m, MemberCheckpoint::Waiting(_)))
        .count();
    assert!(
        finished > 50 && waiting > 50,
        "{finished} finished, {waiting} waiting"
    );
    assert_eq!(finished + waiting, 500);

    let results = WaitAll::new(keyed(&service))
        .resume(&checkpoint)
        .unwrap()
        .wait()
        .await;
    assert!(service.requests() > before);

    // Every member polled at the same times, as many times, and ended the same way.
    let requests = requests_by_resource(&service);
    for (i, (whole, resumed)) in whole_requests.iter().zip(&requests).enumerate() {
        assert_eq!(whole, resumed, "resource {i}");
    }
    let mut earlier = 0;
    for (i, (whole, resumed)) in whole_endings.iter().zip(&results).enumerate() {
        // The same ending, after as many polls, at the same time (each process reads the
        // wall clock once, then counts on its own clock: the paused one here).
        assert_eq!(*whole, resumed_ending(resumed), "resource {i}: {resumed:?}");
        earlier += usize::from(matches!(resumed, ResumedResult::Earlier(_)));
    }
    assert_eq!(earlier, finished);
}

#[tokio::test(start_paused = true)]
async fn a_stopped_set_resumes_stopped() {
    // Fail-fast: resource 1 fails at 10 s and stops the others; the checkpoint says so, and
    // the resumed set sends nothing: its unfinished members end as stopped by resource 1.
    let service = Service::new(
        vec![
            Resource::Never,
            Resource::FailsAt(secs(10)),
            Resource::Never,
        ],
        Duration::ZERO,
    );
    let checkpoints = WaitAllCheckpoints::new();
    let results = WaitAll::new(keyed(&service))
        .fail_fast(true)
        .checkpoints(&checkpoints)
        .wait(secs(600))
        .await;
    assert!(is_stopped_by(&results[0], 1) && is_stopped_by(&results[2], 1));
    let checkpoint = checkpoints.checkpoint().unwrap();
    assert_eq!(
        (checkpoint.fail_fast, checkpoint.stopped_by),
        (true, Some(1))
    );
    // A checkpoint saved between the failure and the others' ends: members 0 and 2 still
    // waiting.
    let mut between = checkpoint.clone();
    for i in [0, 2] {
        let MemberCheckpoint::Finished(outcome) = &checkpoint.members[i] else {
            panic!("{:?}", checkpoint.members[i])
        };
        assert_eq!(outcome.ended, Ended::Stopped { by: 1 });
        between.members[i] = MemberCheckpoint::Pending {
            waiter: outcome.waiter.clone(),
            definition: outcome.definition,
            input: outcome.input,
        };
    }
    let sent = service.requests();
    let results = WaitAll::new(keyed(&service))
        .resume(&between)
        .unwrap()
        .wait()
        .await;
    assert_eq!(service.requests(), sent);
    for i in [0, 2] {
        assert!(
            matches!(&results[i], ResumedResult::Waited(r) if is_stopped_by(r, 1)),
            "{:?}",
            results[i]
        );
    }
    assert!(matches!(
        &results[1],
        ResumedResult::Earlier(outcome) if outcome.ended == Ended::FailureState { acceptor: 1 }
            && outcome.message.as_deref() == Some("resource 1 failed")
    ));
}

#[tokio::test(start_paused = true)]
async fn a_set_checkpoint_resumed_on_other_waiters_is_refused() {
    let service = Service::new(vec![Resource::Never; 3], Duration::ZERO);
    let checkpoints = WaitAllCheckpoints::new();
    let set = WaitAll::new(keyed(&service))
        .checkpoints(&checkpoints)
        .wait(secs(600));
    let _ = tokio::time::timeout(secs(30), set).await;
    let checkpoint = checkpoints.checkpoint().unwrap();
    // Fewer waiters.
    let err = WaitAll::new(keyed(&service).into_iter().take(2))
        .resume(&checkpoint)
        .unwrap_err();
    assert_eq!(
        err,
        CheckpointError::SetSize {
            checkpoint: 3,
            waiters: 2
        }
    );
    // The same waiters in another order: member 0 is resource 1's.
    let mut reordered = keyed(&service);
    reordered.swap(0, 1);
    let err = WaitAll::new(reordered).resume(&checkpoint).unwrap_err();
    assert!(
        matches!(&err, CheckpointError::Member { index: 0, error } if matches!(**error, CheckpointError::OtherInput { .. })),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("set member 0: cannot resume waiter `Ready`")
    );
    // A future format.
    let mut newer = checkpoint.clone();
    newer.format += 1;
    assert!(matches!(
        WaitAll::new(keyed(&service)).resume(&newer),
        Err(CheckpointError::Format { .. })
    ));
    // Past its deadline.
    let mut old = checkpoint.clone();
    old.started_at = std::time::SystemTime::now() - secs(601);
    assert!(matches!(
        WaitAll::new(keyed(&service)).resume(&old),
        Err(CheckpointError::DeadlinePassed {
            waiter: "WaitAll",
            ..
        })
    ));
}

#[tokio::test(start_paused = true)]
async fn a_set_checkpoint_is_json_checked_field_by_field() {
    let service = Service::new(
        vec![
            Resource::ReadyAt(secs(5)),
            Resource::Never,
            Resource::FailsAt(secs(8)),
        ],
        Duration::ZERO,
    );
    let checkpoints = WaitAllCheckpoints::new();
    assert!(checkpoints.checkpoint().is_none());
    let set = WaitAll::new(keyed(&service))
        .checkpoints(&checkpoints)
        .wait(secs(600));
    let _ = tokio::time::timeout(secs(20), set).await;
    let checkpoint = checkpoints.checkpoint().unwrap();
    let json = checkpoint.to_json();
    assert!(json.starts_with(r#"{"format":2,"started_at":"#), "{json}");
    assert!(
        json.contains(r#""state":"finished","waiter":"Doomed""#),
        "{json}"
    );
    assert!(
        json.contains(r#""outcome":"failure_state","acceptor":1"#),
        "{json}"
    );
    assert!(
        json.contains(r#""state":"waiting","checkpoint":{"format":2"#),
        "{json}"
    );
    assert_eq!(WaitAllCheckpoint::from_json(&json).unwrap(), checkpoint);
    for end in (0..json.len()).step_by(7) {
        assert!(matches!(
            WaitAllCheckpoint::from_json(&json[..end]),
            Err(CheckpointError::Corrupt { .. })
        ));
    }
    let edited = json.replacen(r#""state":"waiting""#, r#""state":"sleeping""#, 1);
    assert!(matches!(
        WaitAllCheckpoint::from_json(&edited),
        Err(CheckpointError::Corrupt { reason }) if reason.contains("sleeping")
    ));
    #[cfg(feature = "serde")]
    {
        assert_eq!(serde_json::to_string(&checkpoint).unwrap(), json);
        let back: WaitAllCheckpoint = serde_json::from_str(&json).unwrap();
        assert_eq!(back, checkpoint);
    }
}
