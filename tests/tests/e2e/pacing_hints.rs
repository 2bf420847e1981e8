//! Every pacing hint a server sends (issue 36), over loopback, through each HTTP path: a reqwest
//! client returning the response as its error, the reqwest-middleware layer, the tower layer on
//! hyper-util, and a ureq client (blocking) returning the `http::Response` as its error. Each
//! hint alone and together: what the classifiers see (one attempt each, recorded by a
//! classifier), then real retries paced by a hint, and gRPC's "do not retry".
//!
//! Real sockets, so real time: the hints that are waited for are in milliseconds.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::Full;
use hyper::body::Bytes;
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::rt::TokioExecutor;
use reqwest_middleware::ClientBuilder;
use tower::{Service, ServiceBuilder, ServiceExt};
use waiter_runtime::retry::layer::{HttpFailure, RetryLayer, RetryMiddleware};
use waiter_runtime::retry::{
    Jitter, Retrier, RetryAction, RetryClassifierPriority, RetryConfig, classifier_fn,
};
use waiter_tests::capacity::{CapacityService, Reply};

/// What the classifiers saw of each failed attempt: its hint, and whether it forbade a retry.
type Seen = Arc<Mutex<Vec<(Option<Duration>, bool)>>>;

/// `config`, plus a classifier recording what each error says.
fn recording(config: RetryConfig, seen: &Seen) -> Retrier {
    let seen = Arc::clone(seen);
    Retrier::new(config).retry_classifier(
        classifier_fn("record", move |ctx| {
            if let Some(e) = ctx.error() {
                seen.lock()
                    .unwrap()
                    .push((e.retry_after(), e.retry_forbidden()));
            }
            RetryAction::NoActionIndicated
        })
        // First: the server pushback classifier's "no" ends the chain.
        .with_priority(RetryClassifierPriority::run_before(
            RetryClassifierPriority::server_pushback_classifier(),
        )),
    )
}

#[derive(Clone, Copy, Debug)]
enum Path {
    Reqwest,
    Middleware,
    Tower,
    Ureq,
}

const PATHS: [Path; 4] = [Path::Reqwest, Path::Middleware, Path::Tower, Path::Ureq];

/// One call of `url` through `path` with `retrier`: the final status.
// The error is the whole response, as a ureq client with `http_status_as_error(false)` has it.
#[allow(clippy::result_large_err)]
async fn get(path: Path, retrier: Retrier, url: String) -> u16 {
    match path {
        Path::Reqwest => {
            let client = reqwest::Client::new();
            let out = retrier
                .run(|| async {
                    let response = client
                        .get(&url)
                        .send()
                        .await
                        .map_err(HttpFailure::Transport)?;
                    if response.status().as_u16() >= 400 {
                        Err(HttpFailure::Response(response))
                    } else {
                        Ok(response.status().as_u16())
                    }
                })
                .await;
            match out {
                Ok(status) => status,
                Err(HttpFailure::Response(response)) => response.status().as_u16(),
                Err(HttpFailure::Transport(e)) => panic!("{e}"),
            }
        }
        Path::Middleware => {
            let client = ClientBuilder::new(reqwest::Client::new())
                .with(RetryMiddleware::new(retrier))
                .build();
            client.get(&url).send().await.unwrap().status().as_u16()
        }
        Path::Tower => {
            let client = HyperClient::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
            let mut client = ServiceBuilder::new()
                .layer(RetryLayer::new(retrier))
                .service(client);
            let request = http::Request::get(&url).body(Full::default()).unwrap();
            let ready = client.ready().await.unwrap();
            ready.call(request).await.unwrap().status().as_u16()
        }
        Path::Ureq => tokio::task::spawn_blocking(move || {
            let agent = ureq::Agent::config_builder()
                .http_status_as_error(false)
                .build()
                .new_agent();
            let out = retrier.run_blocking(|| {
                let response = agent.get(&url).call().map_err(HttpFailure::Transport)?;
                if response.status().as_u16() >= 400 {
                    Err(HttpFailure::Response(response))
                } else {
                    Ok(response.status().as_u16())
                }
            });
            match out {
                Ok(status) => status,
                Err(HttpFailure::Response(response)) => response.status().as_u16(),
                Err(HttpFailure::Transport(e)) => panic!("{e}"),
            }
        })
        .await
        .unwrap(),
    }
}

fn ms(ms: u64) -> Option<Duration> {
    Some(Duration::from_millis(ms))
}

/// A response's headers.
type Headers = Vec<(&'static str, &'static str)>;

/// The headers of each case, and what the classifiers must see.
fn cases() -> Vec<(Headers, (Option<Duration>, bool))> {
    let all = [
        ("RateLimit-Remaining", "0"),
        ("RateLimit-Reset", "7"),
        ("RateLimit", r#""default";r=0;t=6"#),
        ("Retry-After", "5"),
        ("x-ms-retry-after-ms", "4000"),
        ("retry-after-ms", "3000"),
        ("x-amz-retry-after", "2000"),
        ("grpc-retry-pushback-ms", "1000"),
    ];
    let mut cases = vec![
        // Each alone.
        (vec![("grpc-retry-pushback-ms", "250")], (ms(250), false)),
        (vec![("grpc-retry-pushback-ms", "-1")], (None, true)),
        (vec![("grpc-retry-pushback-ms", "soon")], (None, true)),
        (vec![("x-amz-retry-after", "300")], (ms(300), false)),
        (vec![("retry-after-ms", "350")], (ms(350), false)),
        (vec![("x-ms-retry-after-ms", "400")], (ms(400), false)),
        (vec![("Retry-After", "2")], (ms(2_000), false)),
        (
            vec![("RateLimit", r#""default";r=0;t=4"#)],
            (ms(4_000), false),
        ),
        (
            vec![("RateLimit", "limit=5, remaining=0, reset=3")],
            (ms(3_000), false),
        ),
        (
            vec![("RateLimit-Remaining", "0"), ("RateLimit-Reset", "6")],
            (ms(6_000), false),
        ),
        // Ignored: absurd, negative, something remaining.
        (vec![("Retry-After", "31536000")], (None, false)),
        (vec![("retry-after-ms", "-5")], (None, false)),
        (vec![("RateLimit", r#""default";r=3;t=4"#)], (None, false)),
        // Together: the gRPC pushback's "no" over every delay; an invalid one skipped.
        (
            vec![("Retry-After", "2"), ("grpc-retry-pushback-ms", "-1")],
            (None, true),
        ),
        (
            vec![("retry-after-ms", "later"), ("Retry-After", "2")],
            (ms(2_000), false),
        ),
    ];
    // Each with the next in the table (in the reverse order on the wire): the first wins.
    for pair in all.windows(2) {
        let winner = match pair[1].0 {
            "grpc-retry-pushback-ms" => 1_000,
            "x-amz-retry-after" => 2_000,
            "retry-after-ms" => 3_000,
            "x-ms-retry-after-ms" => 4_000,
            "Retry-After" => 5_000,
            "RateLimit" => 6_000,
            _ => continue, // the older RateLimit fields come as a pair
        };
        cases.push((pair.to_vec(), (ms(winner), false)));
    }
    cases.push((all.to_vec(), (ms(1_000), false)));
    cases
}

#[tokio::test]
async fn every_path_reads_every_hint_alone_and_together() {
    let service = CapacityService::unlimited().await.unwrap();
    let url = service.url("/hint");
    let cases = cases();
    for path in PATHS {
        let seen: Seen = Arc::default();
        let retrier = recording(RetryConfig::standard().max_attempts(1).build(), &seen);
        for (headers, _) in &cases {
            let mut reply = Reply::status(503);
            for (name, value) in headers {
                reply = reply.header(name, *value);
            }
            service.script([reply]);
            assert_eq!(
                get(path, retrier.clone(), url.clone()).await,
                503,
                "{path:?}"
            );
        }
        let seen = seen.lock().unwrap();
        let expected: Vec<_> = cases.iter().map(|(_, expected)| *expected).collect();
        for ((headers, _), (got, want)) in cases.iter().zip(seen.iter().zip(&expected)) {
            assert_eq!(got, want, "{path:?}: {headers:?}");
        }
        assert_eq!(seen.len(), cases.len(), "{path:?}");
    }
}

/// A retry waits what the hint says (within retry behavior 2.1's bound: here the computed
/// backoff is 1 ms, so at most 5 s), and a gRPC "no" stops the retries with attempts left.
#[tokio::test]
async fn every_path_waits_what_the_hint_says_and_stops_at_a_grpc_no() {
    let service = CapacityService::unlimited().await.unwrap();
    let url = service.url("/paced");
    let config = || {
        RetryConfig::standard()
            .transient_backoff(Duration::from_millis(1))
            .jitter(Jitter::None)
            .build()
    };
    for path in PATHS {
        service.script([
            Reply::status(503)
                .header("retry-after-ms", "150")
                .header("Retry-After", "30"),
            Reply::status(200),
        ]);
        let before = service.log().len();
        assert_eq!(
            get(path, Retrier::new(config()), url.clone()).await,
            200,
            "{path:?}"
        );
        let log = service.log();
        let gap = log[before + 1].at - log[before].at;
        assert!(
            gap >= Duration::from_millis(150) && gap < Duration::from_secs(5),
            "{path:?}: {gap:?}"
        );

        service.script([
            Reply::status(503).header("grpc-retry-pushback-ms", "-1"),
            Reply::status(200),
        ]);
        let before = service.stats().requests;
        assert_eq!(
            get(path, Retrier::new(config()), url.clone()).await,
            503,
            "{path:?}"
        );
        assert_eq!(
            service.stats().requests,
            before + 1,
            "{path:?}: not retried"
        );
        service.clear();
    }
}
