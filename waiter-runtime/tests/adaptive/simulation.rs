//! The headline behaviour end to end, on the paused clock: 100 callers against a service that
//! admits 50 requests/s, through the real retrier. Adaptive mode keeps the service busy with few
//! throttles; standard mode floods it. (The full table is the `adaptive_simulation` example.)

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::time::Instant;
use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::retry::{Retrier, RetryConfig};

const C: f64 = 50.0;
const BURST: f64 = 5.0;
const RUN: Duration = Duration::from_secs(60);

#[derive(Debug, ProvideErrorMetadata)]
#[error_metadata(code = "ThrottlingException", status = 400)]
struct Throttled;

#[derive(Default)]
struct Counts {
    admitted: AtomicU32,
    throttled: AtomicU32,
}

struct Service {
    bucket: Mutex<(f64, Instant)>,
    counts: Counts,
}

impl Service {
    async fn send(&self) -> Result<(), Throttled> {
        let admitted = {
            let mut bucket = self.bucket.lock().unwrap();
            let now = Instant::now();
            bucket.0 = (bucket.0 + (now - bucket.1).as_secs_f64() * C).min(BURST);
            bucket.1 = now;
            let admitted = bucket.0 >= 1.0;
            if admitted {
                bucket.0 -= 1.0;
            }
            admitted
        };
        let count = if admitted {
            &self.counts.admitted
        } else {
            &self.counts.throttled
        };
        count.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(50)).await;
        if admitted { Ok(()) } else { Err(Throttled) }
    }
}

/// Returns (goodput / C, share of requests throttled).
async fn simulate(retrier: Retrier, callers: usize) -> (f64, f64) {
    let service = Arc::new(Service {
        bucket: Mutex::new((BURST, Instant::now())),
        counts: Counts::default(),
    });
    let start = Instant::now();
    let tasks: Vec<_> = (0..callers)
        .map(|_| {
            let (service, retrier) = (service.clone(), retrier.clone());
            tokio::spawn(async move {
                while start.elapsed() < RUN {
                    let _ = retrier.run(|| service.send()).await;
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    let admitted = f64::from(service.counts.admitted.load(Ordering::Relaxed));
    let throttled = f64::from(service.counts.throttled.load(Ordering::Relaxed));
    (
        admitted / (C * RUN.as_secs_f64()),
        throttled / (admitted + throttled),
    )
}

#[tokio::test(start_paused = true)]
async fn adaptive_mode_keeps_the_service_busy_with_few_throttles_where_standard_floods_it() {
    let (adaptive_goodput, adaptive_throttled) =
        simulate(Retrier::new(RetryConfig::adaptive().build()), 100).await;
    let (standard_goodput, standard_throttled) =
        simulate(Retrier::new(RetryConfig::standard().build()), 100).await;
    // The goals of the issue (the example measures 0.91 C and 3.9 %, jitter moves them little).
    assert!(
        adaptive_goodput >= 0.9,
        "adaptive goodput {adaptive_goodput}"
    );
    assert!(
        adaptive_throttled <= 0.05,
        "adaptive throttled {adaptive_throttled}"
    );
    assert!(
        standard_goodput >= 0.95,
        "the service is saturated: {standard_goodput}"
    );
    assert!(
        standard_throttled >= 0.9,
        "standard throttled {standard_throttled}"
    );
}
