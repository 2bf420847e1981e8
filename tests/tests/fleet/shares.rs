//! The fleet's rate, shared: evenly between members that want more, max-min by demand, and
//! split again when a member joins or leaves.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use waiter_runtime::retry::{Retrier, RetryConfig};
use waiter_tests::redis_server::RedisServer;

use crate::support::{Capacity, Member, Throttled, near, within};

const SECOND: Duration = Duration::from_secs(1);

/// The rate at which each member's limiter let its requests go over `secs` seconds from now
/// (successes and throttles: what a share bounds; which of them the shared service throttled
/// is the service's draw, not the member's share).
fn rate_of(members: &[&Member], secs: f64) -> Vec<f64> {
    let sent = |m: &Member| m.ok.load(Ordering::Relaxed) + m.failed.load(Ordering::Relaxed);
    let before: Vec<u64> = members.iter().map(|m| sent(m)).collect();
    std::thread::sleep(Duration::from_secs_f64(secs));
    members
        .iter()
        .zip(before)
        .map(|(m, b)| (sent(m) - b) as f64 / secs)
        .collect()
}

/// Three members of equal demand against 200 requests/s: each leased, each paced at a third
/// of the fleet's rate, the service kept busy and rarely throttled once the fleet is on.
#[test]
fn members_of_equal_demand_share_the_rate_evenly() {
    let _one_at_a_time = crate::support::one_at_a_time();
    let redis = RedisServer::start().unwrap();
    let service = Capacity::new(200.0);
    let members: Vec<Member> = (0..3)
        .map(|_| Member::run(Member::join(&redis.url(), "even"), &service, 4, None))
        .collect();
    within(
        5 * SECOND,
        "every member leased with a share",
        || members.iter().map(Member::status).collect::<Vec<_>>(),
        |s| {
            s.iter()
                .all(|s| s.leased && s.share.is_some() && s.members == 3)
        },
    );
    std::thread::sleep(3 * SECOND); // the cold start's overshoot and first climb
    let (admitted, throttled) = service.counts();
    let rates = rate_of(&members.iter().collect::<Vec<_>>(), 4.0);
    let (admitted, throttled) = {
        let (a, t) = service.counts();
        (a - admitted, t - throttled)
    };
    assert!(
        rates.iter().all(|&r| near(r, rates[0], 0.2)),
        "rates {rates:?}"
    );
    // Each share is its member's at its last round, on a phase of its own: between two
    // rounds the fleet's rate moves (CUBIC's climb, a cut), and a member whose callers did
    // not wait twice in a round announces what it sent as its demand. Equal at one moment,
    // within 3 s (the rates above are the split over 4 s).
    within(
        3 * SECOND,
        "the shares within 10 % of each other",
        || members.iter().map(Member::share).collect::<Vec<_>>(),
        |shares| shares.iter().all(|&s| near(s, shares[0], 0.1)),
    );
    let used = admitted as f64 / (200.0 * 4.0);
    let throttled_share = throttled as f64 / (admitted + throttled) as f64;
    assert!(used > 0.8, "capacity used {used:.3}");
    assert!(throttled_share < 0.05, "throttled {throttled_share:.3}");
    for member in &members {
        assert_eq!(member.status().fallbacks, 0);
    }
}

/// Max-min by demand: a member sending 20 requests/s against 200 gets all of it (its share is
/// at least that); the two that want more share the rest evenly.
#[test]
fn a_member_asking_less_than_its_share_gets_all_it_asks() {
    let _one_at_a_time = crate::support::one_at_a_time();
    let redis = RedisServer::start().unwrap();
    let service = Capacity::new(200.0);
    let small = Member::run(
        Member::join(&redis.url(), "unequal"),
        &service,
        1,
        Some(Duration::from_millis(50)),
    );
    let big: Vec<Member> = (0..2)
        .map(|_| Member::run(Member::join(&redis.url(), "unequal"), &service, 4, None))
        .collect();
    within(
        5 * SECOND,
        "every member leased with a share",
        || {
            std::iter::once(&small)
                .chain(&big)
                .map(Member::status)
                .collect::<Vec<_>>()
        },
        |s| {
            s.iter()
                .all(|s| s.leased && s.share.is_some() && s.members == 3)
        },
    );
    std::thread::sleep(3 * SECOND);
    let rates = rate_of(&[&small, &big[0], &big[1]], 4.0);
    assert!(
        rates[0] > 17.0,
        "the small member got {:.1}/s of 20",
        rates[0]
    );
    assert!(small.share() >= 20.0, "its share {}", small.share());
    // The two others' shares equal at one moment (each is its member's at its last round),
    // and above the small one's.
    within(
        3 * SECOND,
        "the others' shares within 10 % of each other, above the small one's",
        || (big[0].share(), big[1].share(), small.share()),
        |&(a, b, small)| near(a, b, 0.1) && a > small,
    );
    assert!(near(rates[1], rates[2], 0.2), "rates {rates:?}");
}

/// A member joining, then one leaving (dropped): every member sees the new count and an even
/// share within 2 s.
#[test]
fn shares_are_split_again_within_2_s_of_a_join_or_a_leave() {
    let _one_at_a_time = crate::support::one_at_a_time();
    let redis = RedisServer::start().unwrap();
    let service = Capacity::new(300.0);
    let mut members: Vec<Member> = (0..2)
        .map(|_| Member::run(Member::join(&redis.url(), "churn"), &service, 4, None))
        .collect();
    let statuses = |members: &[Member]| members.iter().map(Member::status).collect::<Vec<_>>();
    within(
        5 * SECOND,
        "two members leased",
        || statuses(&members),
        |s| {
            s.iter()
                .all(|s| s.leased && s.share.is_some() && s.members == 2)
        },
    );
    std::thread::sleep(SECOND);
    let split = |s: &Vec<waiter_runtime::retry::adaptive::FleetStatus>, n: u64| {
        let first = s[0].share.unwrap_or(0.0);
        s.iter()
            .all(|s| s.members == n && s.share.is_some_and(|x| near(x, first, 0.15)))
    };
    let joined = Instant::now();
    members.push(Member::run(
        Member::join(&redis.url(), "churn"),
        &service,
        4,
        None,
    ));
    let took = within(
        2 * SECOND,
        "three even shares after the join",
        || statuses(&members),
        |s| split(s, 3),
    );
    println!(
        "split again {took:?} after the join ({:?} since)",
        joined.elapsed()
    );
    let left = members.pop().unwrap().stop();
    drop(left);
    let took = within(
        2 * SECOND,
        "two even shares after the leave",
        || statuses(&members),
        |s| split(s, 2),
    );
    println!("split again {took:?} after the leave");
}

/// One member, callers of every kind at once: tokio tasks, a `futures::executor` thread and
/// blocking threads, all through one retrier; every call answered.
#[test]
fn async_callers_on_any_executor_and_blocking_callers_share_one_member() {
    let _one_at_a_time = crate::support::one_at_a_time();
    let redis = RedisServer::start().unwrap();
    let service = Capacity::new(100.0);
    let limiter = Member::join(&redis.url(), "executors");
    let retrier = Retrier::new(RetryConfig::adaptive().max_attempts(1).build())
        .with_rate_limiter(Arc::new(limiter.clone()));
    within(5 * SECOND, "leased", || limiter.status(), |s| s.leased);
    let calls = 60;
    std::thread::scope(|s| {
        let tokio_side = s.spawn(|| {
            tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
                .unwrap()
                .block_on(async {
                    let mut answered = 0;
                    for _ in 0..calls {
                        let out: Result<(), Throttled> =
                            retrier.run(|| async { service.call() }).await;
                        answered += usize::from(out.is_ok() || out.is_err());
                    }
                    answered
                })
        });
        let futures_side = s.spawn(|| {
            futures::executor::block_on(async {
                let mut answered = 0;
                for _ in 0..calls {
                    let out = retrier.run(|| async { service.call() }).await;
                    answered += usize::from(out.is_ok() || out.is_err());
                }
                answered
            })
        });
        let blocking_side = s.spawn(|| {
            let mut answered = 0;
            for _ in 0..calls {
                let out = retrier.run_blocking(|| service.call());
                answered += usize::from(out.is_ok() || out.is_err());
            }
            answered
        });
        assert_eq!(tokio_side.join().unwrap(), calls);
        assert_eq!(futures_side.join().unwrap(), calls);
        assert_eq!(blocking_side.join().unwrap(), calls);
    });
    let (admitted, throttled) = service.counts();
    assert_eq!(admitted + throttled, 3 * calls as u64);
}

/// A member's rounds are bounded whatever its request rate: a member throttled all the time
/// (every round early, after a fresh throttle) makes at most 10 script calls a second, and
/// one every 200 ms when nothing happens; counted by Redis itself (`INFO commandstats`).
#[test]
fn a_member_makes_at_most_10_redis_calls_a_second() {
    let _one_at_a_time = crate::support::one_at_a_time();
    let redis = RedisServer::start().unwrap();
    let calls = || {
        let info = crate::support::redis_command(&redis.url(), &["INFO", "commandstats"]).unwrap();
        let redis::Value::BulkString(text) = info else {
            panic!("INFO: {info:?}")
        };
        let text = String::from_utf8(text).unwrap();
        ["cmdstat_evalsha:calls=", "cmdstat_eval:calls="]
            .iter()
            .filter_map(|key| {
                let rest = &text[text.find(key)? + key.len()..];
                rest.split(',').next()?.parse::<u64>().ok()
            })
            .sum::<u64>()
    };
    // A service of 20 requests/s and 8 callers: throttles every round.
    let service = Capacity::new(20.0);
    let member = Member::run(Member::join(&redis.url(), "bounded"), &service, 8, None);
    within(
        5 * SECOND,
        "leased",
        || member.status(),
        |s| s.leased && s.share.is_some(),
    );
    let (before, start) = (calls(), Instant::now());
    std::thread::sleep(3 * SECOND);
    let busy = (calls() - before) as f64 / start.elapsed().as_secs_f64();
    drop(member);
    // An idle member: one round every 200 ms.
    let idle = Member::join(&redis.url(), "idle");
    within(5 * SECOND, "leased", || idle.status(), |s| s.leased);
    let (before, start) = (calls(), Instant::now());
    std::thread::sleep(3 * SECOND);
    let quiet = (calls() - before) as f64 / start.elapsed().as_secs_f64();
    println!("script calls per second: {busy:.1} throttled all the time, {quiet:.1} idle");
    assert!(busy <= 10.5, "{busy:.1} calls a second");
    assert!((4.0..=5.5).contains(&quiet), "{quiet:.1} calls a second");
}
