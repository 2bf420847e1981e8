//! The retry layers end to end, over loopback: `RetryMiddleware` on a reqwest-middleware
//! client and `RetryLayer` on a hyper-util client (tower), against `CapacityService`.
//!
//! Real sockets, so real time: every wait here is tens of milliseconds, or the one second a
//! `Retry-After` header can express.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use reqwest_middleware::{ClientBuilder, ClientWithMiddleware};
use tokio::time::Instant;
use tower::{Service, ServiceBuilder, ServiceExt};
use waiter_runtime::retry::adaptive::{ClientRateLimiter, RateLimiterState};
use waiter_runtime::retry::layer::{RetryLayer, RetryMiddleware, RetryService};
use waiter_runtime::retry::{Jitter, Retrier, RetryConfig, RetryQuota};
use waiter_runtime::waitable;
use waiter_tests::capacity::{CapacityService, Reply};

/// Fast retries: 3 attempts, 20 ms backoff without jitter, a 20 s cap for server hints.
pub(crate) fn fast() -> Retrier {
    Retrier::new(
        RetryConfig::standard()
            .transient_backoff(Duration::from_millis(20))
            .throttling_backoff(Duration::from_millis(20))
            .jitter(Jitter::None)
            .build(),
    )
}

pub(crate) fn reqwest_client(retrier: Retrier) -> ClientWithMiddleware {
    ClientBuilder::new(reqwest::Client::new())
        .with(RetryMiddleware::new(retrier))
        .build()
}

pub(crate) type Body = Full<Bytes>;

/// A hyper-util client behind the tower layer.
pub(crate) fn tower_client(retrier: Retrier) -> RetryService<HyperClient<HttpConnector, Body>> {
    let client = HyperClient::builder(TokioExecutor::new()).build_http::<Body>();
    ServiceBuilder::new()
        .layer(RetryLayer::new(retrier))
        .service(client)
}

async fn tower_get<S>(client: &mut S, url: &str) -> http::StatusCode
where
    S: Service<
            http::Request<Body>,
            Response = http::Response<hyper::body::Incoming>,
            Error = tower::BoxError,
        >,
{
    tower_send(client, url).await.unwrap().status()
}

/// A `GET` of `url` through `client`, once it is ready: the response, or the layer's error.
pub(crate) async fn tower_send<S>(client: &mut S, url: &str) -> Result<S::Response, tower::BoxError>
where
    S: Service<http::Request<Body>, Error = tower::BoxError>,
{
    let request = http::Request::get(url).body(Body::default()).unwrap();
    client.ready().await?.call(request).await
}

fn throttles_then_ok() -> [Reply; 3] {
    [
        Reply::throttle(),
        // A restXml-style throttling code in `x-amz-error-code`, on a 503.
        Reply::status(503).header("x-amz-error-code", "SlowDown"),
        Reply::status(200),
    ]
}

#[tokio::test]
async fn reqwest_throttles_are_retried() {
    let service = CapacityService::unlimited().await.unwrap();
    service.script(throttles_then_ok());
    let client = reqwest_client(fast());
    let response = client.get(service.url("/a")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(service.stats().requests, 3);
    // Not retried: a 400 without a retryable code, given back as a response.
    service.script([Reply::status(400).header("x-amzn-errortype", "ValidationException")]);
    assert_eq!(
        client.get(service.url("/b")).send().await.unwrap().status(),
        400
    );
    assert_eq!(service.stats().requests, 4);
}

#[tokio::test]
async fn tower_throttles_are_retried() {
    let service = CapacityService::unlimited().await.unwrap();
    service.script(throttles_then_ok());
    let mut client = tower_client(fast());
    assert_eq!(tower_get(&mut client, &service.url("/a")).await, 200);
    assert_eq!(service.stats().requests, 3);
    // No retry left: the last response comes back as a response.
    service.always(Reply::status(502));
    assert_eq!(tower_get(&mut client, &service.url("/b")).await, 502);
    assert_eq!(service.stats().requests, 6);
}

#[tokio::test]
async fn connection_errors_are_transient_and_retried() {
    // Nothing listens on this port once the listener is dropped: connections are refused.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    drop(listener);
    let attempts = Arc::new(std::sync::atomic::AtomicU32::new(0));
    let counted = Arc::clone(&attempts);
    let retrier = fast().on_retry(move |_| {
        counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
    let error = reqwest_client(retrier.clone())
        .get(&url)
        .send()
        .await
        .unwrap_err();
    assert!(error.is_connect(), "{error:?}");
    assert_eq!(attempts.load(std::sync::atomic::Ordering::Relaxed), 2);

    let mut client = tower_client(retrier);
    let error = tower_send(&mut client, &url).await.unwrap_err();
    assert!(error.to_string().contains("client error"), "{error}");
    assert_eq!(attempts.load(std::sync::atomic::Ordering::Relaxed), 4);
}

#[tokio::test]
async fn retry_after_hints_are_honoured() {
    let service = CapacityService::unlimited().await.unwrap();
    let client = reqwest_client(fast());
    let mut tower = tower_client(fast());

    // `Retry-After` in seconds (the smallest it can say: 1 s), on a 503.
    service.script([
        Reply::status(503).header("retry-after", "1"),
        Reply::status(200),
    ]);
    let start = Instant::now();
    assert_eq!(
        client.get(service.url("/a")).send().await.unwrap().status(),
        200
    );
    let waited = start.elapsed();
    assert!(
        waited >= Duration::from_secs(1) && waited < Duration::from_secs(5),
        "{waited:?}"
    );

    // `x-amz-retry-after` in milliseconds wins over `Retry-After`.
    service.script([
        Reply::throttle()
            .header("x-amz-retry-after", "300")
            .header("retry-after", "10"),
        Reply::status(200),
    ]);
    let start = Instant::now();
    assert_eq!(tower_get(&mut tower, &service.url("/b")).await, 200);
    let waited = start.elapsed();
    assert!(
        waited >= Duration::from_millis(300) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
}

/// Ten calls at once, each through its own clone of a client, on each layer (tower's, then
/// reqwest-middleware's) with the retrier `retrier` makes, against a service answering `503`
/// to everything: the requests each service saw.
pub(crate) async fn storm(retrier: impl Fn() -> Retrier) -> [u64; 2] {
    let service = CapacityService::unlimited().await.unwrap();
    service.always(Reply::status(503));
    let client = tower_client(retrier());
    let calls: Vec<_> = (0..10)
        .map(|_| {
            let mut client = client.clone();
            let url = service.url("/storm");
            tokio::spawn(async move { tower_get(&mut client, &url).await })
        })
        .collect();
    for call in calls {
        assert_eq!(call.await.unwrap(), 503);
    }
    let tower = service.stats().requests;

    let service = CapacityService::unlimited().await.unwrap();
    service.always(Reply::status(503));
    let client = reqwest_client(retrier());
    let calls: Vec<_> = (0..10)
        .map(|_| {
            let client = client.clone();
            let url = service.url("/storm");
            tokio::spawn(async move { client.get(url).send().await.unwrap().status() })
        })
        .collect();
    for call in calls {
        assert_eq!(call.await.unwrap(), 503);
    }
    [tower, service.stats().requests]
}

#[tokio::test]
async fn the_quota_shared_by_clones_stops_a_retry_storm() {
    // 4 retries' worth of tokens for the whole client, every clone included.
    let quota = || RetryQuota::builder().capacity(20).retry_cost(5).build();
    // Without the quota: 30 requests (3 attempts each).
    assert_eq!(storm(|| fast().with_quota(quota())).await, [10 + 4, 10 + 4]);
}

/// An adaptive retrier whose rate limiter the test can look at.
fn adaptive(limiter: &ClientRateLimiter) -> Retrier {
    Retrier::new(
        RetryConfig::adaptive()
            .transient_backoff(Duration::from_millis(20))
            .throttling_backoff(Duration::from_millis(20))
            .jitter(Jitter::None)
            .build(),
    )
    .with_rate_limiter(Arc::new(limiter.clone()))
}

#[tokio::test]
async fn adaptive_mode_paces_requests_and_slows_down_on_throttles() {
    let service = CapacityService::unlimited().await.unwrap();
    // Steady at 20 requests/s with a full bucket: 20 at once, then one every 50 ms.
    let limiter = ClientRateLimiter::with_state(RateLimiterState::steady_at(20.0, 0.0).unwrap());
    let client = reqwest_client(adaptive(&limiter));
    let start = Instant::now();
    for _ in 0..30 {
        assert_eq!(
            client.get(service.url("/p")).send().await.unwrap().status(),
            200
        );
    }
    let took = start.elapsed();
    // 10 requests past the burst at 20/s: at least 500 ms (less a little for the refill while
    // the first 20 were sent).
    assert!(took >= Duration::from_millis(400), "{took:?}");
    let log = service.log();
    let late = log[20..]
        .windows(2)
        .filter(|w| w[1].at - w[0].at >= Duration::from_millis(30));
    assert!(late.count() >= 5, "requests past the burst are spaced out");

    // A throttle through the tower layer cuts the shared limiter's rate.
    let before = limiter.state().fill_rate();
    service.script([Reply::throttle(), Reply::status(200)]);
    let mut tower = tower_client(adaptive(&limiter));
    assert_eq!(tower_get(&mut tower, &service.url("/t")).await, 200);
    let after = limiter.state().fill_rate();
    assert!(after < before, "{before} -> {after}");
}

#[tokio::test]
async fn adaptive_mode_starting_in_a_storm_keeps_most_of_the_capacity() {
    // 20 callers start at once against 200 requests/s (bursts of 10): the first throttles come
    // within milliseconds, before the limiter has measured any rate. The AWS SDKs' algorithm
    // cuts to its 0.5/s floor there and takes seconds to climb back (a dozen requests in the
    // first 1.5 s); this limiter cuts to 0.7x the rate the service admitted.
    let service = CapacityService::start(200.0, 10.0, None).await.unwrap();
    let limiter = ClientRateLimiter::new();
    let client = reqwest_client(adaptive(&limiter));
    let deadline = Instant::now() + Duration::from_millis(1500);
    let callers: Vec<_> = (0..20)
        .map(|_| {
            let client = client.clone();
            let url = service.url("/storm");
            tokio::spawn(async move {
                while Instant::now() < deadline {
                    let _ = client.get(&url).send().await;
                }
            })
        })
        .collect();
    for caller in callers {
        caller.await.unwrap();
    }
    let stats = service.stats();
    let state = limiter.state();
    assert!(state.is_enabled(), "the storm throttled the client");
    assert!(state.fill_rate() > 20.0, "fill rate {}", state.fill_rate());
    assert!(
        stats.succeeded >= 100,
        "{} admitted of the ~310 the service had",
        stats.succeeded
    );
    assert!(
        stats.throttled * 5 < stats.requests,
        "{} of {} throttled",
        stats.throttled,
        stats.requests
    );
}

#[tokio::test]
async fn adaptive_mode_throttles_less_than_standard_against_a_fixed_capacity() {
    async fn run(client: ClientWithMiddleware, service: &CapacityService) -> u64 {
        let calls: Vec<_> = (0..10)
            .map(|_| {
                let client = client.clone();
                let url = service.url("/c");
                tokio::spawn(async move {
                    for _ in 0..12 {
                        let _ = client.get(&url).send().await;
                    }
                })
            })
            .collect();
        for call in calls {
            call.await.unwrap();
        }
        service.stats().throttled
    }
    let retrier = |config: waiter_runtime::retry::RetryConfigBuilder| {
        Retrier::new(
            config
                .transient_backoff(Duration::from_millis(50))
                .throttling_backoff(Duration::from_millis(50))
                .max_attempts(5)
                .build(),
        )
    };
    let standard_service = CapacityService::start(40.0, 5.0, None).await.unwrap();
    let standard = run(
        reqwest_client(retrier(RetryConfig::standard())),
        &standard_service,
    )
    .await;
    let adaptive_service = CapacityService::start(40.0, 5.0, None).await.unwrap();
    let adaptive = run(
        reqwest_client(retrier(RetryConfig::adaptive())),
        &adaptive_service,
    )
    .await;
    assert!(
        adaptive < standard,
        "adaptive {adaptive} throttled, standard {standard}"
    );
}

#[tokio::test]
async fn a_request_whose_body_cannot_be_cloned_is_sent_once() {
    let service = CapacityService::unlimited().await.unwrap();
    service.always(Reply::status(503));
    let client = reqwest_client(fast());
    let stream =
        futures_util::stream::iter([Ok::<_, std::io::Error>(Bytes::from_static(b"streamed"))]);
    let response = client
        .post(service.url("/once"))
        .body(reqwest::Body::wrap_stream(stream))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 503);
    assert_eq!(service.stats().requests, 1);
    // The same request with a body in memory is retried.
    let response = client
        .post(service.url("/again"))
        .body("in memory")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 503);
    assert_eq!(service.stats().requests, 4);
    assert!(service.log().iter().all(|seen| seen.body_len > 0));

    // tower: a body type that is not `Clone`, and a layer told it cannot copy such requests.
    type Streamed = UnsyncBoxBody<Bytes, Infallible>;
    let hyper = HyperClient::builder(TokioExecutor::new()).build_http::<Streamed>();
    let mut client = ServiceBuilder::new()
        .layer(RetryLayer::new(fast()).clone_requests_with(|_: &http::Request<Streamed>| None))
        .service(hyper);
    let body = Full::new(Bytes::from_static(b"streamed")).boxed_unsync();
    let request = http::Request::post(service.url("/once"))
        .body(body)
        .unwrap();
    let response = client.ready().await.unwrap().call(request).await.unwrap();
    assert_eq!(response.status(), 503);
    assert_eq!(service.stats().requests, 5);
}

#[tokio::test]
async fn inside_a_waiters_poll_an_error_its_acceptors_name_is_not_retried() {
    async fn wait(
        client: &ThingClient,
    ) -> Result<(), waiter_runtime::WaiterError<u16, ThingError>> {
        client
            .wait_until_thing_up_or_throttled()
            .min_delay(Duration::from_millis(10))
            .max_delay(Duration::from_millis(20))
            .wait(Duration::from_secs(10))
            .await
            .map(drop)
    }

    let service = CapacityService::unlimited().await.unwrap();
    let url = service.url("/poll");
    let clients = [
        ThingClient {
            transport: Transport::Middleware(reqwest_client(fast())),
            url: url.clone(),
        },
        ThingClient {
            transport: Transport::Tower(tower_client(fast())),
            url,
        },
    ];
    // The waiter's acceptors name `ThrottlingException` (a `failure` acceptor).
    service.always(Reply::throttle());
    let mut requests = 0;
    for client in &clients {
        let err = wait(client).await.unwrap_err();
        assert!(
            matches!(err, waiter_runtime::WaiterError::FailureState { .. }),
            "{err:?}"
        );
        requests += 1;
        assert_eq!(
            service.stats().requests,
            requests,
            "named: returned at once"
        );
    }

    // An error the acceptors do not name is retried inside the poll as outside.
    service.clear();
    for client in &clients {
        service.script([Reply::status(503), Reply::status(200)]);
        wait(client).await.unwrap();
        requests += 2;
        assert_eq!(service.stats().requests, requests);
    }

    // Outside a poll the throttle is retried.
    service.always(Reply::throttle());
    let status = reqwest_client(fast())
        .get(service.url("/out"))
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(status, 429);
    assert_eq!(service.stats().requests, requests + 3);
}

/// A hand-written client on the retry middleware or the tower layer, with waiters.
struct ThingClient {
    transport: Transport,
    url: String,
}

enum Transport {
    Middleware(ClientWithMiddleware),
    Tower(RetryService<HyperClient<HttpConnector, Body>>),
}

#[derive(Debug, waiter_runtime::ProvideErrorMetadata)]
enum ThingError {
    Service {
        #[error_metadata(code)]
        code: Option<String>,
        #[error_metadata(status)]
        status: u16,
    },
    #[error_metadata(no_code)]
    Transport(#[error_metadata(message)] String),
}

impl ThingClient {
    #[waitable(
        ThingUpOrThrottled: {
            acceptors: [
                { state: "success", matcher: { success: true } }
                { state: "failure", matcher: { errorType: "ThrottlingException" } }
            ]
        }
        ThingUp: {
            acceptors: [
                { state: "success", matcher: { success: true } }
                { state: "retry", matcher: { errorType: "NotFound" } }
            ]
        }
    )]
    async fn get_thing(&self) -> Result<u16, ThingError> {
        let transport = |e: &dyn std::fmt::Display| ThingError::Transport(e.to_string());
        let (status, headers) = match &self.transport {
            Transport::Middleware(http) => {
                let response = http
                    .get(&self.url)
                    .send()
                    .await
                    .map_err(|e| transport(&e))?;
                (response.status(), response.headers().clone())
            }
            Transport::Tower(service) => {
                let response = tower_send(&mut service.clone(), &self.url)
                    .await
                    .map_err(|e| transport(&e))?;
                (response.status(), response.headers().clone())
            }
        };
        if status.as_u16() >= 400 {
            let code = headers
                .get("x-amzn-errortype")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            return Err(ThingError::Service {
                code,
                status: status.as_u16(),
            });
        }
        Ok(status.as_u16())
    }
}

#[tokio::test]
async fn a_waiter_on_the_middleware_gets_the_throttle_its_acceptor_names_at_once() {
    let service = CapacityService::unlimited().await.unwrap();
    service.always(Reply::throttle());
    let client = ThingClient {
        transport: Transport::Middleware(reqwest_client(fast())),
        url: service.url("/thing"),
    };
    // `failure` on `ThrottlingException`: the first throttle ends the wait, one request.
    let err = client
        .wait_until_thing_up_or_throttled()
        .min_delay(Duration::from_millis(10))
        .max_delay(Duration::from_millis(20))
        .wait(Duration::from_secs(10))
        .await
        .unwrap_err();
    assert!(
        matches!(err, waiter_runtime::WaiterError::FailureState { .. }),
        "{err:?}"
    );
    assert_eq!(service.stats().requests, 1);

    // No acceptor names it: the middleware retries it inside the poll (3 attempts), then the
    // waiter sees an error no acceptor matches.
    let err = client
        .wait_until_thing_up()
        .min_delay(Duration::from_millis(10))
        .max_delay(Duration::from_millis(20))
        .wait(Duration::from_secs(10))
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            waiter_runtime::WaiterError::OperationFailed { polls: 1, .. }
        ),
        "{err:?}"
    );
    assert_eq!(service.stats().requests, 1 + 3);
}

#[tokio::test]
async fn user_classifiers_see_the_response() {
    use waiter_runtime::retry::layer::HttpFailure;
    use waiter_runtime::retry::{RetryAction, classifier_fn};

    // Retry `409 Conflict` when the service says the lock is held (a header), for both layers.
    type ReqwestFailure = HttpFailure<reqwest::Response, reqwest_middleware::Error>;
    type TowerFailure = HttpFailure<
        http::Response<hyper::body::Incoming>,
        waiter_runtime::retry::layer::TransportError,
    >;
    let lock_held = |headers: &http::HeaderMap| headers.contains_key("x-lock-held");
    let retrier = fast().retry_classifier(classifier_fn("conflict", move |ctx| {
        let headers = match (
            ctx.downcast_error::<ReqwestFailure>(),
            ctx.downcast_error::<TowerFailure>(),
        ) {
            (Some(HttpFailure::Response(r)), _) => r.headers(),
            (_, Some(HttpFailure::Response(r))) => r.headers(),
            _ => return RetryAction::NoActionIndicated,
        };
        if lock_held(headers) {
            RetryAction::client_error()
        } else {
            RetryAction::NoActionIndicated
        }
    }));
    let service = CapacityService::unlimited().await.unwrap();
    let conflict = || Reply::status(409).header("x-lock-held", "1");

    service.script([conflict(), Reply::status(200)]);
    let client = reqwest_client(retrier.clone());
    assert_eq!(
        client.get(service.url("/c")).send().await.unwrap().status(),
        200
    );
    assert_eq!(service.stats().requests, 2);

    service.script([conflict(), Reply::status(200)]);
    let mut tower = tower_client(retrier);
    assert_eq!(tower_get(&mut tower, &service.url("/c")).await, 200);
    assert_eq!(service.stats().requests, 4);

    // A 409 without the header is not retried.
    service.script([Reply::status(409)]);
    assert_eq!(tower_get(&mut tower, &service.url("/c")).await, 409);
    assert_eq!(service.stats().requests, 5);
}

/// A raw loopback server: the first `drops` connections read a request and close without an
/// answer (hyper: "connection closed before message completed"), the later ones answer `200`.
/// Returns the URL and the count of connections accepted.
async fn closes_before_answering(drops: u32) -> (String, Arc<std::sync::atomic::AtomicU32>) {
    use std::sync::atomic::{AtomicU32, Ordering};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    let accepted = Arc::new(AtomicU32::new(0));
    let count = Arc::clone(&accepted);
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let n = count.fetch_add(1, Ordering::Relaxed);
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buf = [0u8; 1024];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(read) => request.extend_from_slice(&buf[..read]),
                    }
                }
                if n >= drops {
                    let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
                    let _ = stream.write_all(ok).await;
                    // Keep the connection until the client is done with it.
                    let _ = stream.read(&mut buf).await;
                }
                // Otherwise dropped here: closed with the request read and no answer.
            });
        }
    });
    (url, accepted)
}

#[tokio::test]
async fn tower_retries_a_connection_closed_before_the_response() {
    let (url, accepted) = closes_before_answering(1).await;
    let mut client = tower_client(fast());
    assert_eq!(tower_get(&mut client, &url).await, 200);
    assert_eq!(accepted.load(std::sync::atomic::Ordering::Relaxed), 2);

    // Every connection closed: three attempts, then hyper's error comes back.
    let (url, accepted) = closes_before_answering(u32::MAX).await;
    let error = tower_send(&mut client, &url).await.unwrap_err();
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(&*error);
    let mut incomplete = false;
    while let Some(e) = cause {
        incomplete |= e
            .downcast_ref::<hyper::Error>()
            .is_some_and(hyper::Error::is_incomplete_message);
        cause = e.source();
    }
    assert!(incomplete, "{error:?}");
    assert_eq!(accepted.load(std::sync::atomic::Ordering::Relaxed), 3);
}
