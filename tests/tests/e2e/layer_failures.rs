//! The retry layers on bad days, over loopback: a request that can
//! be copied for one retry only keeps its last response, and a malformed response gets the
//! same verdict from both layers (not transient: one request).

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use http_body_util::Full;
use hyper::body::Bytes;
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::rt::TokioExecutor;
use reqwest_middleware::ClientBuilder;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tower::{Service, ServiceBuilder, ServiceExt};
use waiter_runtime::retry::layer::{CloneBody, CloneRequest, RetryLayer, RetryMiddleware};
use waiter_runtime::retry::{ErrorKind, Jitter, Retrier, RetryConfig};
use waiter_tests::capacity::{CapacityService, Reply};

type Body = Full<Bytes>;

/// Fast retries: 3 attempts, 20 ms backoff without jitter.
fn fast() -> Retrier {
    Retrier::new(
        RetryConfig::standard()
            .transient_backoff(Duration::from_millis(20))
            .throttling_backoff(Duration::from_millis(20))
            .jitter(Jitter::None)
            .build(),
    )
}

#[tokio::test]
async fn a_request_copied_for_one_retry_only_gets_its_last_response_and_no_phantom_token() {
    let service = CapacityService::unlimited().await.unwrap();
    service.always(Reply::status(503));
    let copies = Arc::new(AtomicU32::new(0));
    let counted = copies.clone();
    // A copy for the first retry, none after.
    let first_copy_only = move |request: &http::Request<Body>| {
        (counted.fetch_add(1, Ordering::Relaxed) == 0)
            .then(|| CloneBody.clone_request(request))
            .flatten()
    };
    let layer = RetryLayer::new(fast()).clone_requests_with(first_copy_only);
    let quota = layer.retrier().quota().clone();
    let hyper = HyperClient::builder(TokioExecutor::new()).build_http::<Body>();
    let mut client = ServiceBuilder::new().layer(layer).service(hyper);
    let request = http::Request::get(service.url("/flaky"))
        .body(Body::default())
        .unwrap();
    let response = client
        .ready()
        .await
        .unwrap()
        .call(request)
        .await
        .expect("the last response, as the docs promise (it used to be an error)");
    assert_eq!(response.status(), 503);
    assert_eq!(service.stats().requests, 2, "two real requests");
    assert_eq!(copies.load(Ordering::Relaxed), 2);
    // One retry made, one token charge: no token for an attempt that could not be made.
    assert_eq!(
        quota.available(),
        quota.capacity() - quota.cost_of(ErrorKind::ServerError)
    );
}

/// A server on loopback that answers every request with `reply` (raw bytes) and closes the
/// connection; counts the requests.
async fn raw_server(reply: Vec<u8>) -> (String, Arc<AtomicU32>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/malformed", listener.local_addr().unwrap());
    let requests = Arc::new(AtomicU32::new(0));
    let counted = requests.clone();
    let reply: Arc<[u8]> = reply.into();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let reply = reply.clone();
            let counted = counted.clone();
            tokio::spawn(async move {
                // Read the request head, then answer.
                let mut head = Vec::new();
                let mut buf = [0u8; 1024];
                while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                counted.fetch_add(1, Ordering::Relaxed);
                // The client may stop reading a reply it finds too large.
                let _ = socket.write_all(&reply).await;
                let _ = socket.shutdown().await;
            });
        }
    });
    (url, requests)
}

fn malformed_replies() -> Vec<(&'static str, Vec<u8>)> {
    let mut big_header = b"HTTP/1.1 200 OK\r\nx-big: ".to_vec();
    big_header.extend(std::iter::repeat_n(b'a', 1 << 20));
    big_header.extend_from_slice(b"\r\ncontent-length: 0\r\n\r\n");
    let mut many_headers = b"HTTP/1.1 200 OK\r\n".to_vec();
    for i in 0..5_000 {
        many_headers.extend_from_slice(format!("x-h{i}: 1\r\n").as_bytes());
    }
    many_headers.extend_from_slice(b"content-length: 0\r\n\r\n");
    vec![
        (
            "a bad status line",
            b"HTTP/1.1 OK\r\ncontent-length: 0\r\n\r\n".to_vec(),
        ),
        (
            "status 000",
            b"HTTP/1.1 000 Zero\r\ncontent-length: 0\r\n\r\n".to_vec(),
        ),
        ("a 1 MiB header", big_header),
        ("5,000 headers", many_headers),
    ]
}

#[tokio::test]
async fn both_layers_send_a_request_answered_malformed_once() {
    for (what, reply) in malformed_replies() {
        // reqwest-middleware
        let (url, requests) = raw_server(reply.clone()).await;
        let client = ClientBuilder::new(reqwest::Client::new())
            .with(RetryMiddleware::new(fast()))
            .build();
        let err = client.get(&url).send().await.unwrap_err();
        assert_eq!(
            requests.load(Ordering::Relaxed),
            1,
            "{what} through RetryMiddleware: {err:?}"
        );

        // tower, on a hyper-util client
        let (url, requests) = raw_server(reply).await;
        let hyper = HyperClient::builder(TokioExecutor::new()).build_http::<Body>();
        let mut client = ServiceBuilder::new()
            .layer(RetryLayer::new(fast()))
            .service(hyper);
        let request = http::Request::get(&url).body(Body::default()).unwrap();
        let err = client
            .ready()
            .await
            .unwrap()
            .call(request)
            .await
            .unwrap_err();
        assert_eq!(
            requests.load(Ordering::Relaxed),
            1,
            "{what} through RetryLayer: {err:?}"
        );
    }
}

#[tokio::test]
async fn a_malformed_response_is_not_a_transient_error() {
    use waiter_runtime::ProvideErrorMetadata;
    for (what, reply) in malformed_replies() {
        let (url, _) = raw_server(reply).await;
        let err = reqwest::get(&url).await.unwrap_err();
        assert!(!err.is_transient(), "{what}: {err:?}");
    }
    // A connection closed before the answer still is (the same hyper verdict).
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut buf = [0u8; 1024];
            let _ = socket.read(&mut buf).await;
            drop(socket);
        }
    });
    let err = reqwest::get(&url).await.unwrap_err();
    assert!(err.is_transient(), "{err:?}");
}
