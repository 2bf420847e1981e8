//! Ready-made `ProvideErrorMetadata` for foreign types, behind cargo features: `io` (default),
//! `http`, `reqwest`. The reqwest tests talk to a local TCP server.

#![cfg(feature = "io")]

use std::io;
use std::time::Duration;

use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::retry::{Retrier, RetryConfig, StopReason};

fn fast(max_attempts: u32) -> RetryConfig {
    RetryConfig::standard()
        .max_attempts(max_attempts)
        .transient_backoff(Duration::from_millis(1))
        .throttling_backoff(Duration::from_millis(1))
        .build()
}

#[tokio::test(start_paused = true)]
async fn io_errors_of_transient_kinds_are_retried() {
    let retrier = Retrier::new(fast(3));
    for kind in [
        io::ErrorKind::TimedOut,
        io::ErrorKind::ConnectionReset,
        io::ErrorKind::UnexpectedEof,
    ] {
        let report = retrier
            .run_report(|| async { Err::<(), _>(io::Error::from(kind)) })
            .await;
        assert_eq!(
            (report.attempts, report.stop),
            (3, StopReason::MaxAttempts),
            "{kind:?}"
        );
    }
    for kind in [
        io::ErrorKind::NotFound,
        io::ErrorKind::PermissionDenied,
        io::ErrorKind::InvalidData,
    ] {
        let report = retrier
            .run_report(|| async { Err::<(), _>(io::Error::from(kind)) })
            .await;
        assert_eq!(
            (report.attempts, report.stop),
            (1, StopReason::NotRetryable),
            "{kind:?}"
        );
    }
    assert_eq!(io::Error::other("x").code(), None);
}

#[cfg(feature = "http")]
mod http_feature {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn status_codes_and_responses_as_errors() {
        let retrier = Retrier::new(fast(3));
        let report = retrier
            .run_report(|| async { Err::<(), _>(http::StatusCode::BAD_GATEWAY) })
            .await;
        assert_eq!(report.attempts, 3);
        let report = retrier
            .run_report(|| async { Err::<(), _>(http::StatusCode::NOT_FOUND) })
            .await;
        assert_eq!(report.attempts, 1);

        let throttled = || {
            http::Response::builder()
                .status(400)
                .header(
                    "x-amzn-errortype",
                    "aws.protocoltests#ThrottlingException:http://internal/",
                )
                .header("x-amz-retry-after", "1500")
                .body(String::new())
                .unwrap()
        };
        assert_eq!(throttled().code(), Some("ThrottlingException"));
        let start = tokio::time::Instant::now();
        let report = retrier
            .run_report(|| async { Err::<(), _>(throttled()) })
            .await;
        assert_eq!(report.attempts, 3);
        assert_eq!(
            start.elapsed(),
            Duration::from_millis(3000),
            "two retries after the 1.5 s hint"
        );
    }

    #[test]
    fn derive_reads_status_codes_and_header_maps() {
        #[derive(Debug, ProvideErrorMetadata)]
        enum E {
            Unavailable {
                #[error_metadata(status)]
                status: http::StatusCode,
                #[error_metadata(retry_after)]
                headers: http::HeaderMap,
            },
        }
        let mut headers = http::HeaderMap::new();
        headers.insert("retry-after", "4".parse().unwrap());
        let e = E::Unavailable {
            status: http::StatusCode::SERVICE_UNAVAILABLE,
            headers,
        };
        assert_eq!(e.http_status(), Some(503));
        assert_eq!(e.retry_after(), Some(Duration::from_secs(4)));
        assert!(!e.retry_forbidden());
    }

    /// Issue 36: every hint of the table reaches a derived type through its header-map field,
    /// gRPC's "do not retry" included; a transparent variant forwards it.
    #[test]
    fn derive_reads_every_hint_from_a_header_map() {
        #[derive(Debug, ProvideErrorMetadata)]
        enum Inner {
            Unavailable(#[error_metadata(retry_after)] http::HeaderMap),
        }
        #[derive(Debug, ProvideErrorMetadata)]
        enum Outer {
            #[error_metadata(transparent)]
            Inner(Inner),
            Plain,
        }
        let with = |name: &'static str, value: &'static str| {
            let mut headers = http::HeaderMap::new();
            headers.insert(name, value.parse().unwrap());
            Outer::Inner(Inner::Unavailable(headers))
        };
        let ms = |ms| Some(Duration::from_millis(ms));
        assert_eq!(with("retry-after-ms", "120").retry_after(), ms(120));
        assert_eq!(with("x-ms-retry-after-ms", "130").retry_after(), ms(130));
        assert_eq!(with("ratelimit", "\"q\";r=0;t=2").retry_after(), ms(2000));
        assert_eq!(with("grpc-retry-pushback-ms", "140").retry_after(), ms(140));
        let no = with("grpc-retry-pushback-ms", "-1");
        assert_eq!((no.retry_after(), no.retry_forbidden()), (None, true));
        assert!(!Outer::Plain.retry_forbidden());
        // The classifiers forbid its retry.
        let result: Result<(), _> = Err(no);
        let action = waiter_runtime::retry::RetryClassifiers::defaults()
            .classify(&waiter_runtime::retry::ClassifyContext::new(&result, 1));
        assert_eq!(action, waiter_runtime::retry::RetryAction::RetryForbidden);
    }
}

#[cfg(feature = "reqwest")]
mod reqwest_feature {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU32, Ordering};

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;

    /// Serves `responses` in order (the last repeats), one per connection; counts requests.
    async fn serve(responses: Vec<&'static str>) -> (String, Arc<AtomicU32>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/thing", listener.local_addr().unwrap());
        let count = Arc::new(AtomicU32::new(0));
        let served = count.clone();
        tokio::spawn(async move {
            loop {
                let Ok((mut socket, _)) = listener.accept().await else {
                    return;
                };
                let n = served.fetch_add(1, Ordering::SeqCst) as usize;
                let response = responses[n.min(responses.len() - 1)];
                tokio::spawn(async move {
                    let mut buf = [0u8; 4096];
                    let _ = socket.read(&mut buf).await;
                    if response == "hang" {
                        tokio::time::sleep(Duration::from_secs(30)).await;
                    }
                    let _ = socket.write_all(response.as_bytes()).await;
                    let _ = socket.shutdown().await;
                });
            }
        });
        (url, count)
    }

    const UNAVAILABLE: &str = "HTTP/1.1 503 Service Unavailable\r\nretry-after: 0\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
    const OK: &str = "HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok";
    const NOT_FOUND: &str =
        "HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";

    #[tokio::test]
    async fn error_for_status_5xx_is_retried_with_no_code() {
        let (url, count) = serve(vec![UNAVAILABLE, UNAVAILABLE, OK]).await;
        let client = reqwest::Client::new();
        let retrier = Retrier::new(fast(3));
        let body = retrier
            .run(|| async {
                client
                    .get(&url)
                    .send()
                    .await?
                    .error_for_status()?
                    .text()
                    .await
            })
            .await
            .unwrap();
        assert_eq!(body, "ok");
        assert_eq!(count.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn client_errors_are_not_retried() {
        let (url, count) = serve(vec![NOT_FOUND]).await;
        let client = reqwest::Client::new();
        let report = Retrier::new(fast(3))
            .run_report(|| async { client.get(&url).send().await?.error_for_status() })
            .await;
        assert_eq!(report.result.unwrap_err().http_status(), Some(404));
        assert_eq!((report.attempts, count.load(Ordering::SeqCst)), (1, 1));
    }

    #[tokio::test]
    async fn responses_as_errors_carry_retry_after() {
        let (url, count) = serve(vec![UNAVAILABLE, OK]).await;
        let client = reqwest::Client::new();
        let report = Retrier::new(fast(3))
            .run_report(|| async {
                let response = client.get(&url).send().await.expect("local server answers");
                if response.status().is_success() {
                    Ok(response.status())
                } else {
                    Err(response)
                }
            })
            .await;
        assert_eq!(report.result.unwrap(), reqwest::StatusCode::OK);
        assert_eq!(count.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn refused_connections_are_transient() {
        // Bind then drop: nothing listens on that port any more.
        let addr = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap();
        let url = format!("http://{addr}/");
        let client = reqwest::Client::new();
        let report = Retrier::new(fast(3))
            .run_report(|| client.get(&url).send())
            .await;
        let err = report.result.unwrap_err();
        assert!(err.is_connect() && err.is_transient(), "{err:?}");
        assert_eq!(report.attempts, 3);
        assert_eq!(
            report.tokens_taken, 28,
            "transient retries cost 14 each (retry behavior 2.1)"
        );
    }

    #[tokio::test]
    async fn timeouts_are_transient() {
        let (url, count) = serve(vec!["hang", OK]).await;
        let client = reqwest::Client::builder()
            .timeout(Duration::from_millis(100))
            .build()
            .unwrap();
        let report = Retrier::new(fast(3))
            .run_report(|| async { client.get(&url).send().await?.text().await })
            .await;
        assert_eq!(report.result.unwrap(), "ok");
        assert_eq!((report.attempts, count.load(Ordering::SeqCst)), (2, 2));
    }
}
