//! Feature `metrics`: a member's share, the members it sees and its fallbacks, as gauges and a
//! counter labelled with the fleet's name, recorded from the member's background thread (so
//! through a recorder installed for the whole process, not one thread).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use metrics::{
    Counter, CounterFn, Gauge, GaugeFn, Histogram, Key, KeyName, Metadata, Recorder, SharedString,
    Unit,
};
use waiter_tests::redis_server::RedisServer;

use crate::support::{Capacity, Member, within};

const SECOND: Duration = Duration::from_secs(1);

/// Every gauge's last value and every counter's total, by `name{label=value,...}`.
#[derive(Default)]
struct Recording {
    values: Mutex<BTreeMap<String, f64>>,
}

struct Handle(&'static Recording, String);

impl Handle {
    fn update(&self, f: impl FnOnce(&mut f64)) {
        f(self
            .0
            .values
            .lock()
            .unwrap()
            .entry(self.1.clone())
            .or_default());
    }
}

impl CounterFn for Handle {
    fn increment(&self, value: u64) {
        self.update(|v| *v += value as f64);
    }
    fn absolute(&self, value: u64) {
        self.update(|v| *v = value as f64);
    }
}

impl GaugeFn for Handle {
    fn increment(&self, value: f64) {
        self.update(|v| *v += value);
    }
    fn decrement(&self, value: f64) {
        self.update(|v| *v -= value);
    }
    fn set(&self, value: f64) {
        self.update(|v| *v = value);
    }
}

struct Global(&'static Recording);

fn name(key: &Key) -> String {
    let labels: Vec<String> = key
        .labels()
        .map(|l| format!("{}={}", l.key(), l.value()))
        .collect();
    format!("{}{{{}}}", key.name(), labels.join(","))
}

impl Recorder for Global {
    fn describe_counter(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_gauge(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_histogram(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn register_counter(&self, key: &Key, _: &Metadata<'_>) -> Counter {
        Counter::from_arc(Arc::new(Handle(self.0, name(key))))
    }
    fn register_gauge(&self, key: &Key, _: &Metadata<'_>) -> Gauge {
        Gauge::from_arc(Arc::new(Handle(self.0, name(key))))
    }
    fn register_histogram(&self, _: &Key, _: &Metadata<'_>) -> Histogram {
        Histogram::noop()
    }
}

/// The process's recording (installed on first use; the other fleet tests record into it
/// too, under fleet names of their own).
fn recording() -> &'static Recording {
    static RECORDING: OnceLock<&'static Recording> = OnceLock::new();
    RECORDING.get_or_init(|| {
        let recording: &'static Recording = Box::leak(Box::default());
        metrics::set_global_recorder(Global(recording)).expect("the only global recorder");
        recording
    })
}

fn value(name: &str) -> Option<f64> {
    recording().values.lock().unwrap().get(name).copied()
}

/// A throttled member's share and member count are its status's, as gauges; a lease that
/// ends without Redis counts one fallback.
#[test]
fn a_members_share_members_and_fallbacks_are_recorded() {
    let _one_at_a_time = crate::support::one_at_a_time();
    recording();
    let mut redis = RedisServer::start().unwrap();
    let service = Capacity::new(100.0);
    let member = Member::run(Member::join(&redis.url(), "observed"), &service, 4, None);
    within(
        5 * SECOND,
        "leased with a share",
        || member.status(),
        |s| s.leased && s.share.is_some(),
    );
    // The gauges follow every round: read them against a status taken at once, retried
    // while a round falls between the two reads.
    within(
        2 * SECOND,
        "the share gauge equal to the status's share",
        || (value("retry_fleet_share{fleet=observed}"), member.status()),
        |(gauge, status)| *gauge == status.share,
    );
    assert_eq!(value("retry_fleet_members{fleet=observed}"), Some(1.0));
    assert_eq!(value("retry_fleet_fallbacks_total{fleet=observed}"), None);

    redis.stop();
    within(
        4 * SECOND,
        "on its local controller",
        || member.status(),
        |s| !s.leased && s.fallbacks == 1,
    );
    assert_eq!(
        value("retry_fleet_fallbacks_total{fleet=observed}"),
        Some(1.0)
    );
    drop(member);
}
