//! Redis down, restarted empty, slow, or holding garbage: members keep their share until
//! their lease ends, then run their local controller, and rejoin; one warning per change of
//! state; no call fails because of Redis.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use waiter_tests::redis_server::RedisServer;

use crate::support::{Capacity, Member, count, redis_command, warnings, within};

const SECOND: Duration = Duration::from_secs(1);

/// Redis killed for 3 s, then restarted empty on the same port: each member holds its lease
/// for 2 s, then runs its local controller (calls go on), and rejoins once Redis answers,
/// the fleet's state made again from the highest rate the members knew in their last 5 to
/// 10 s. Three warnings per member: joined, lease expired, rejoined.
#[test]
fn redis_killed_then_restarted_empty() {
    let _one_at_a_time = crate::support::one_at_a_time();
    let mut redis = RedisServer::start().unwrap();
    let service = Capacity::new(200.0);
    let members: Vec<Member> = (0..2)
        .map(|_| Member::run(Member::join(&redis.url(), "killed"), &service, 4, None))
        .collect();
    let statuses = || members.iter().map(Member::status).collect::<Vec<_>>();
    within(5 * SECOND, "both leased with a share", statuses, |s| {
        s.iter().all(|s| s.leased && s.share.is_some())
    });
    std::thread::sleep(SECOND);
    let rate_before = members[0].status().fleet_rate.unwrap();
    redis.stop();
    let killed = Instant::now();
    std::thread::sleep(SECOND);
    assert!(
        members.iter().all(|m| m.status().leased),
        "the lease holds for 2 s: {:?}",
        statuses()
    );
    let took = within(
        2 * SECOND,
        "both on their local controller",
        statuses,
        |s| s.iter().all(|s| !s.leased && s.fallbacks == 1),
    );
    let expired_after = SECOND + took;
    assert!(
        expired_after >= Duration::from_millis(1800),
        "{expired_after:?}"
    );
    let ok_before = members[0].ok.load(Ordering::Relaxed);
    let failed_before = members[0].failed.load(Ordering::Relaxed);
    std::thread::sleep(SECOND);
    let ok = members[0].ok.load(Ordering::Relaxed) - ok_before;
    let failed = members[0].failed.load(Ordering::Relaxed) - failed_before;
    // At the local controller's pace, from the last share (whatever the fleet's rate was
    // when Redis died: 22/s, not yet climbed back after the first cut, was seen).
    let share = members[0].status().share.unwrap();
    println!("{ok} succeeded and {failed} throttled in 1 s, from a share of {share:.1}/s");
    assert!(
        ok as f64 >= 0.3 * share && ok > 0,
        "calls go on without Redis: {ok} succeeded and {failed} throttled in 1 s ({:?})",
        statuses()
    );
    assert!(killed.elapsed() < 4 * SECOND);
    redis.restart().unwrap();
    let took = within(2 * SECOND, "both rejoined", statuses, |s| {
        s.iter().all(|s| s.leased && s.share.is_some())
    });
    println!("rejoined {took:?} after Redis came back");
    let rate_after = members[0].status().fleet_rate.unwrap();
    assert!(
        rate_after > 0.5 * rate_before,
        "the fleet's rate made again from the members' last: {rate_after} (was {rate_before})"
    );
    let warned = warnings("killed");
    assert_eq!(
        count(&warned, "joined the fleet, lease held"),
        2,
        "{warned:#?}"
    );
    assert_eq!(count(&warned, "lease expired"), 2, "{warned:#?}");
    assert_eq!(count(&warned, "rejoined"), 2, "{warned:#?}");
    assert_eq!(warned.len(), 6, "{warned:#?}");
}

/// A member that never reaches Redis runs its local controller from the start: one
/// warning, calls answered, throttles handled by its own controller.
#[test]
fn a_member_that_cannot_reach_redis_runs_its_local_controller() {
    let _one_at_a_time = crate::support::one_at_a_time();
    let service = Capacity::new(50.0);
    let port = std::net::TcpListener::bind(("127.0.0.1", 0))
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("redis://127.0.0.1:{port}/0");
    let member = Member::run(Member::join(&url, "unreachable"), &service, 4, None);
    within(
        2 * SECOND,
        "on its local controller",
        || member.status(),
        |s| !s.leased && s.fallbacks == 1,
    );
    std::thread::sleep(2 * SECOND);
    let (admitted, throttled) = service.counts();
    assert!(admitted > 50, "{admitted} admitted");
    assert!(
        (throttled as f64) < 0.5 * (admitted + throttled) as f64,
        "the local controller paces: {throttled} throttled of {}",
        admitted + throttled
    );
    let warned = warnings("unreachable");
    assert_eq!(warned.len(), 1, "{warned:#?}");
    assert!(warned[0].contains("does not answer"), "{warned:#?}");
}

/// Garbage under the fleet's keys (NaN, a negative or a huge number, a key of another
/// type, a member from the future): never believed, cleared by the next round, the member
/// holding its lease meanwhile (a round lost is no fallback).
#[test]
fn garbage_under_the_fleets_keys_is_cleared_and_never_believed() {
    let _one_at_a_time = crate::support::one_at_a_time();
    let redis = RedisServer::start().unwrap();
    let url = redis.url();
    let service = Capacity::new(200.0);
    let member = Member::run(Member::join(&url, "garbage"), &service, 4, None);
    within(
        5 * SECOND,
        "leased with a share",
        || member.status(),
        |s| s.leased && s.share.is_some(),
    );
    let garbage: [&[&str]; 7] = [
        &["HSET", "waiter:{garbage}:state", "wmax", "nan"],
        &["HSET", "waiter:{garbage}:state", "measured", "-5"],
        &["HSET", "waiter:{garbage}:state", "wmax", "1e300"],
        &["HSET", "waiter:{garbage}:state", "epoch", "banana"],
        &["DEL", "waiter:{garbage}:state"],
        &["ZADD", "waiter:{garbage}:seen", "1e300", "from-the-future"],
        &["HSET", "waiter:{garbage}:demand", "from-the-future", "-7"],
    ];
    for args in garbage {
        redis_command(&url, args).unwrap();
        if args[0] == "DEL" {
            // A key of another type where the state goes.
            redis_command(&url, &["SET", "waiter:{garbage}:state", "x"]).unwrap();
        }
        let start = Instant::now();
        while start.elapsed() < SECOND / 2 {
            let status = member.status();
            let share = status.share.expect("a share");
            assert!((0.0..1e6).contains(&share), "{args:?}: {status:?}");
            assert!(status.members <= 1, "{args:?}: {status:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(member.status().leased, "{args:?}");
    }
    assert_eq!(member.status().fallbacks, 0);
    // A writer that keeps the garbage there for 3 s: Redis answers nothing believable, so
    // the lease ends; the member rejoins once the writer stops.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (url, stop) = (url.clone(), stop.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let _ = redis_command(&url, &["HSET", "waiter:{garbage}:state", "wmax", "nan"]);
                std::thread::sleep(Duration::from_millis(5));
            }
        })
    };
    within(
        4 * SECOND,
        "on the local controller",
        || member.status(),
        |s| !s.leased && s.fallbacks == 1,
    );
    stop.store(true, Ordering::Relaxed);
    writer.join().unwrap();
    within(2 * SECOND, "rejoined", || member.status(), |s| s.leased);
    let warned = warnings("garbage");
    assert_eq!(warned.len(), 3, "{warned:#?}");
}

/// A Redis that answers too late (blocked for 3 s by `DEBUG SLEEP`): rounds time out, the
/// lease ends, the local controller runs, calls go on; the member rejoins after.
#[test]
fn a_slow_redis_ends_the_lease_not_the_calls() {
    let _one_at_a_time = crate::support::one_at_a_time();
    let redis = RedisServer::with_args(&["--enable-debug-command", "yes"]).unwrap();
    let url = redis.url();
    let service = Capacity::new(200.0);
    let member = Member::run(Member::join(&url, "slow"), &service, 4, None);
    within(5 * SECOND, "leased", || member.status(), |s| s.leased);
    let sleeper = {
        let url = url.clone();
        std::thread::spawn(move || redis_command(&url, &["DEBUG", "SLEEP", "3.5"]))
    };
    std::thread::sleep(SECOND / 10);
    let ok = member.ok.load(Ordering::Relaxed);
    within(
        3 * SECOND,
        "on the local controller",
        || member.status(),
        |s| !s.leased && s.fallbacks == 1,
    );
    assert!(member.ok.load(Ordering::Relaxed) > ok + 20, "calls go on");
    sleeper.join().unwrap().unwrap();
    within(2 * SECOND, "rejoined", || member.status(), |s| s.leased);
}
