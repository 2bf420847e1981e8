//! Members in separate OS processes: this test binary started again as workers
//! (`processes::worker`, ignored unless `FLEET_WORKER` is set), each printing its status.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use waiter_tests::redis_server::RedisServer;

use crate::support::{Capacity, Member, near, within};

const SECOND: Duration = Duration::from_secs(1);

/// A worker process's last status line: leased, share, members.
type Seen = Arc<Mutex<HashMap<usize, (bool, f64, u64)>>>;

/// Starts worker `index` of `fleet` at `url` in `mode`, with `env`; its status lines go to
/// `seen`.
fn spawn(
    index: usize,
    url: &str,
    fleet: &str,
    mode: &str,
    env: &[(&str, &str)],
    seen: &Seen,
) -> Child {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "processes::worker",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("FLEET_WORKER", format!("{mode} {fleet} {url}"))
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let seen = Arc::clone(seen);
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if let ["status", leased, share, members] = fields[..] {
                let status = (
                    leased == "1",
                    share.parse().unwrap_or(-1.0),
                    members.parse().unwrap_or(0),
                );
                seen.lock().unwrap().insert(index, status);
            }
        }
    });
    child
}

/// A worker: `FLEET_WORKER="<mode> <fleet> <url>"`. Mode `saturated`: 4 callers back to back
/// against a service of its own admitting 100 requests/s, for 20 s at most; mode `join`: no
/// callers, for 10 s at most. Prints `status <leased> <share> <members>` every 50 ms.
#[test]
#[ignore = "a worker process of the other tests in this module"]
fn worker() {
    let Ok(spec) = std::env::var("FLEET_WORKER") else {
        return;
    };
    let mut parts = spec.splitn(3, ' ');
    let (mode, fleet, url) = (
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().unwrap(),
    );
    let limiter = Member::join(url, fleet);
    let (service, callers, run) = match mode {
        "saturated" => (Capacity::new(100.0), 4, 20),
        _ => (Capacity::new(100.0), 0, 10),
    };
    let member = Member::run(limiter, &service, callers, None);
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(run) {
        let s = member.status();
        println!(
            "status {} {} {}",
            u8::from(s.leased),
            s.share.unwrap_or(-1.0),
            s.members
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Kills its worker processes when dropped.
struct Workers(Vec<Child>);

impl Drop for Workers {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Three processes of one fleet see each other and share the fleet's rate evenly; one
/// killed (SIGKILL: no goodbye), the two others see it gone and split the rate again
/// within 2 s.
#[test]
fn three_processes_share_one_fleet_and_one_killed_is_gone_within_2_s() {
    let _one_at_a_time = crate::support::one_at_a_time();
    let redis = RedisServer::start().unwrap();
    let seen: Seen = Arc::default();
    let mut workers = Workers(
        (0..3)
            .map(|i| spawn(i, &redis.url(), "processes", "saturated", &[], &seen))
            .collect(),
    );
    let snapshot = || {
        let seen = seen.lock().unwrap();
        let mut all: Vec<(usize, (bool, f64, u64))> = seen.iter().map(|(k, v)| (*k, *v)).collect();
        all.sort_by_key(|(k, _)| *k);
        all
    };
    within(
        10 * SECOND,
        "three leased members with even shares",
        snapshot,
        |all| {
            all.len() == 3
                && all.iter().all(|(_, (leased, share, members))| {
                    *leased && *members == 3 && *share > 0.0 && near(*share, all[0].1.1, 0.15)
                })
        },
    );
    let mut dead = workers.0.remove(2);
    dead.kill().unwrap();
    dead.wait().unwrap();
    seen.lock().unwrap().remove(&2);
    let took = within(
        2 * SECOND,
        "two members with even shares",
        snapshot,
        |all| {
            all.iter().all(|(_, (leased, share, members))| {
                *leased && *members == 2 && near(*share, all[0].1.1, 0.15)
            })
        },
    );
    println!("split again {took:?} after the kill");
}

/// `rediss://`: a member joins a Redis that speaks TLS only, its certificate signed by a CA
/// the member's process trusts (`SSL_CERT_FILE`, which the system's root store honours).
#[test]
fn a_member_joins_over_tls() {
    let _one_at_a_time = crate::support::one_at_a_time();
    let dir = std::env::temp_dir().join(format!("waiter-fleet-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let openssl = |args: &[&str]| {
        let status = Command::new("openssl")
            .args(args)
            .current_dir(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("openssl, to make the test's certificates");
        assert!(status.success(), "openssl {args:?}");
    };
    openssl(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-days",
        "1",
        "-subj",
        "/CN=waiter test CA",
    ]);
    openssl(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=localhost",
    ]);
    std::fs::write(
        dir.join("ext.cnf"),
        "subjectAltName=DNS:localhost,IP:127.0.0.1\n",
    )
    .unwrap();
    openssl(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.crt",
        "-days",
        "1",
        "-extfile",
        "ext.cnf",
    ]);
    let redis = RedisServer::tls(&dir.join("server.crt"), &dir.join("server.key")).unwrap();
    let url = format!("rediss://localhost:{}/0", redis.port());
    let seen: Seen = Arc::default();
    let ca = dir.join("ca.crt").display().to_string();
    let _workers = Workers(vec![spawn(
        0,
        &url,
        "tls",
        "join",
        &[("SSL_CERT_FILE", &ca)],
        &seen,
    )]);
    within(
        10 * SECOND,
        "leased over TLS",
        || seen.lock().unwrap().get(&0).copied(),
        |s| s.is_some_and(|(leased, _, members)| leased && members == 1),
    );
    // Without the CA, the same server is not trusted: no lease.
    let untrusted: Seen = Arc::default();
    let _other = Workers(vec![spawn(
        0,
        &url,
        "tls",
        "join",
        &[("SSL_CERT_FILE", "/nonexistent")],
        &untrusted,
    )]);
    std::thread::sleep(2 * SECOND);
    let status = untrusted.lock().unwrap().get(&0).copied();
    assert!(status.is_some_and(|(leased, _, _)| !leased), "{status:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
