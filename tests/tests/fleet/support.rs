//! What the fleet tests share: a service of fixed capacity (a token bucket on the system
//! clock), members with callers, waiting for a condition, the warnings the members log.

#![allow(dead_code)]

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Once, PoisonError};
use std::time::{Duration, Instant};

use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::retry::adaptive::{FleetRateLimiter, FleetStatus};
use waiter_runtime::retry::{Retrier, RetryConfig};

/// Held by each test that starts a Redis server: they measure rates and times against a real
/// clock, so they run one at a time (the name checks still run beside them), and two tests'
/// members never compete for the machine's two cores.
pub fn one_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The service's answer when it has no token.
#[derive(Debug, ProvideErrorMetadata)]
#[error_metadata(code = "ThrottlingException", status = 400)]
pub struct Throttled;

/// A service admitting `rate` requests per second (a tenth of a second's worth at once),
/// throttling the others, answering after 10 ms.
#[derive(Debug)]
pub struct Capacity {
    bucket: Mutex<(f64, Instant, f64)>,
    pub admitted: AtomicU64,
    pub throttled: AtomicU64,
}

impl Capacity {
    pub fn new(rate: f64) -> Arc<Self> {
        Arc::new(Capacity {
            bucket: Mutex::new((rate / 10.0, Instant::now(), rate)),
            admitted: AtomicU64::new(0),
            throttled: AtomicU64::new(0),
        })
    }

    /// One request: decided at once, answered after 10 ms (a service over a network).
    pub fn call(&self) -> Result<(), Throttled> {
        let out = self.decide();
        std::thread::sleep(Duration::from_millis(10));
        out
    }

    fn decide(&self) -> Result<(), Throttled> {
        let mut bucket = self.bucket.lock().unwrap();
        let (tokens, last, rate) = *bucket;
        let now = Instant::now();
        let tokens = (tokens + now.duration_since(last).as_secs_f64() * rate).min(rate / 10.0);
        if tokens >= 1.0 {
            *bucket = (tokens - 1.0, now, rate);
            self.admitted.fetch_add(1, Ordering::Relaxed);
            Ok(())
        } else {
            *bucket = (tokens, now, rate);
            self.throttled.fetch_add(1, Ordering::Relaxed);
            Err(Throttled)
        }
    }

    /// Admitted and throttled so far.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.admitted.load(Ordering::Relaxed),
            self.throttled.load(Ordering::Relaxed),
        )
    }
}

/// A member and the callers it runs: `callers` threads calling the service back to back
/// through `Retrier::run_blocking` until dropped (or every `every`, when given: a member whose
/// demand is that rate).
pub struct Member {
    pub limiter: FleetRateLimiter,
    stop: Arc<AtomicBool>,
    pub ok: Arc<AtomicU64>,
    pub failed: Arc<AtomicU64>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Member {
    pub fn join(url: &str, fleet: &str) -> FleetRateLimiter {
        install();
        FleetRateLimiter::new(url, fleet).expect("a valid fleet")
    }

    /// `callers` threads back to back, or one every `every` when given.
    pub fn run(
        limiter: FleetRateLimiter,
        service: &Arc<Capacity>,
        callers: usize,
        every: Option<Duration>,
    ) -> Member {
        let retrier = Retrier::new(RetryConfig::adaptive().max_attempts(1).build())
            .with_rate_limiter(Arc::new(limiter.clone()));
        let stop = Arc::new(AtomicBool::new(false));
        let (ok, failed) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
        let threads = (0..callers)
            .map(|_| {
                let (retrier, service, stop) = (retrier.clone(), service.clone(), stop.clone());
                let (ok, failed) = (ok.clone(), failed.clone());
                std::thread::spawn(move || {
                    let mut next = Instant::now();
                    while !stop.load(Ordering::Relaxed) {
                        if let Some(every) = every {
                            next += every;
                            if let Some(wait) = next.checked_duration_since(Instant::now()) {
                                std::thread::sleep(wait);
                            }
                        }
                        match retrier.run_blocking(|| service.call()) {
                            Ok(()) => ok.fetch_add(1, Ordering::Relaxed),
                            Err(Throttled) => failed.fetch_add(1, Ordering::Relaxed),
                        };
                    }
                })
            })
            .collect();
        Member {
            limiter,
            stop,
            ok,
            failed,
            threads,
        }
    }

    pub fn status(&self) -> FleetStatus {
        self.limiter.status()
    }

    pub fn share(&self) -> f64 {
        self.status().share.unwrap_or(f64::INFINITY)
    }

    /// Stops the callers and returns the member's limiter (dropping it leaves the fleet).
    pub fn stop(mut self) -> FleetRateLimiter {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            thread.join().unwrap();
        }
        self.limiter.clone()
    }
}

impl Drop for Member {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// Waits until `condition` holds, at most `limit`; returns how long it took, or panics with
/// `what` and the last value it saw.
pub fn within<T: std::fmt::Debug>(
    limit: Duration,
    what: &str,
    mut probe: impl FnMut() -> T,
    mut condition: impl FnMut(&T) -> bool,
) -> Duration {
    let start = Instant::now();
    loop {
        let value = probe();
        if condition(&value) {
            return start.elapsed();
        }
        if start.elapsed() > limit {
            panic!("{what}: not within {limit:?}; last: {value:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether `a` and `b` differ by at most `share` of the larger.
pub fn near(a: f64, b: f64, share: f64) -> bool {
    (a - b).abs() <= share * a.abs().max(b.abs())
}

/// The warnings logged so far whose `fleet` field is `fleet`: their messages (every field
/// but `fleet`'s, as text), in order. Installs the capturing subscriber on first use.
pub fn warnings(fleet: &str) -> Vec<String> {
    install();
    WARNINGS
        .lock()
        .unwrap()
        .iter()
        .filter(|(f, _)| f == fleet)
        .map(|(_, text)| text.clone())
        .collect()
}

/// Everything logged so far, every level, as text (to look for a secret in it).
pub fn everything_logged() -> String {
    install();
    ALL.lock().unwrap().join("\n")
}

static WARNINGS: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());
static ALL: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Installs the capturing subscriber (once per process, before any member logs).
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        tracing::subscriber::set_global_default(Capture).expect("no other subscriber");
    });
}

struct Capture;

#[derive(Default)]
struct Fields {
    fleet: Option<String>,
    text: String,
}

impl tracing::field::Visit for Fields {
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        if field.name() == "fleet" {
            self.fleet = Some(value.to_owned());
        }
        self.text.push_str(&format!("{}={value} ", field.name()));
    }
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        if field.name() == "fleet" {
            self.fleet = Some(format!("{value:?}").trim_matches('"').to_owned());
        }
        self.text.push_str(&format!("{}={value:?} ", field.name()));
    }
}

impl tracing::Subscriber for Capture {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        let mut fields = Fields::default();
        event.record(&mut fields);
        ALL.lock().unwrap().push(fields.text.clone());
        match fields.fleet {
            Some(fleet) if *event.metadata().level() == tracing::Level::WARN => {
                WARNINGS.lock().unwrap().push((fleet, fields.text));
            }
            _ => {}
        }
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

/// A command to the Redis at `url`, on a connection of its own.
pub fn redis_command(url: &str, args: &[&str]) -> redis::RedisResult<redis::Value> {
    let mut conn = redis::Client::open(url)?.get_connection()?;
    let mut cmd = redis::cmd(args[0]);
    for arg in &args[1..] {
        cmd.arg(*arg);
    }
    cmd.query(&mut conn)
}

/// How many of `warnings` contain `text`.
pub fn count(warnings: &[String], text: &str) -> usize {
    warnings.iter().filter(|w| w.contains(text)).count()
}
