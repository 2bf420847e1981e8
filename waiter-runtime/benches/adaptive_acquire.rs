//! Per-call cost of adaptive mode when tokens are plentiful, against standard mode, through the
//! retrier, with 1000 tasks on 1 and 2 threads.
//!
//! ```text
//! cargo bench -p waiter-benches --bench adaptive_acquire -- --warm-up-time 1 --measurement-time 3
//! ```
//!
//! * `standard`: `Retrier::new(RetryConfig::standard())`, the baseline;
//! * `adaptive_off`: adaptive mode before any throttle (the limiter only measures the rate);
//! * `adaptive_on`: adaptive mode after a throttle, with far more tokens than the calls take;
//! * `acquire_only_on`: taking a token alone (the limiter's `acquire`, on, plenty of tokens),
//!   without the retrier or the response update;
//! * `clock_read`: `tokio::time::Instant::now()` alone, which every response update needs once
//!   (benches are built with tokio's `test-util`, as the tests need it: that adds a look-up of
//!   the runtime's clock and a lock to each read);
//! * `clock_read_std`: `std::time::Instant::now()` alone, what the same read costs without
//!   `test-util`.

#![allow(missing_docs)] // criterion's macros generate undocumented items

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use waiter_benches::tasks::{Call, measure, runtime};
use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState};
use waiter_runtime::retry::{Retrier, RetryConfig};

#[derive(Debug, ProvideErrorMetadata)]
#[error_metadata(code = "ThrottlingException", status = 400)]
struct Throttled;

#[derive(Clone, Copy)]
enum Setup {
    Standard,
    AdaptiveOff,
    AdaptiveOn,
    AcquireOnlyOn,
    ClockRead,
    ClockReadStd,
}

enum Client {
    Retrier(Retrier),
    Limiter(ClientRateLimiter),
    Clock,
    StdClock,
}

impl Client {
    fn new(setup: Setup) -> Self {
        let plenty =
            || ClientRateLimiter::with_state(RateLimiterState::steady_at(1e12, 0.0).unwrap());
        match setup {
            Setup::Standard => Client::Retrier(Retrier::new(RetryConfig::standard().build())),
            Setup::AdaptiveOff => Client::Retrier(Retrier::new(RetryConfig::adaptive().build())),
            Setup::AdaptiveOn => Client::Retrier(
                Retrier::new(RetryConfig::adaptive().build()).with_rate_limiter(Arc::new(plenty())),
            ),
            Setup::AcquireOnlyOn => Client::Limiter(plenty()),
            Setup::ClockRead => Client::Clock,
            Setup::ClockReadStd => Client::StdClock,
        }
    }

    async fn request(&self, i: u64) -> Result<u64, Throttled> {
        match self {
            Client::Retrier(retrier) => retrier.run(|| async { Ok(black_box(i)) }).await,
            Client::Limiter(limiter) => {
                limiter.acquire().await;
                Ok(black_box(i))
            }
            Client::Clock => {
                black_box(tokio::time::Instant::now());
                Ok(black_box(i))
            }
            Client::StdClock => {
                black_box(Instant::now());
                Ok(black_box(i))
            }
        }
    }
}

impl Call for Client {
    async fn call(&self, i: u64) {
        black_box(self.request(i).await).ok();
    }
}

fn bench(c: &mut Criterion) {
    for threads in [1, 2] {
        let rt = runtime(threads);
        let mut group = c.benchmark_group(format!("adaptive_acquire/{threads}_thread"));
        for (name, setup) in [
            ("standard", Setup::Standard),
            ("adaptive_off", Setup::AdaptiveOff),
            ("adaptive_on", Setup::AdaptiveOn),
            ("acquire_only_on", Setup::AcquireOnlyOn),
            ("clock_read", Setup::ClockRead),
            ("clock_read_std", Setup::ClockReadStd),
        ] {
            group.bench_function(BenchmarkId::from_parameter(name), |b| {
                b.iter_custom(|iters| measure(&rt, &Arc::new(Client::new(setup)), iters))
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = bench
}
criterion_main!(benches);
