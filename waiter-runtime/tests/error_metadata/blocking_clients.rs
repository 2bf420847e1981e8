//! Blocking HTTP clients' errors, made for real against a loopback server and retried by
//! `Retrier::run_report_blocking`: ureq 3's `ureq::Error` (feature `ureq`) and a
//! `reqwest::blocking` client's `reqwest::Error` (feature `reqwest`; reqwest's `blocking`
//! feature is a dev-dependency only).

#![cfg(any(feature = "ureq", feature = "reqwest"))]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::thread;
use std::time::Duration;

use waiter_runtime::ProvideErrorMetadata;
use waiter_runtime::retry::classifiers::HttpStatusCodeClassifier;
use waiter_runtime::retry::{Retrier, RetryConfig, StopReason};

/// What the loopback server does with one connection.
#[derive(Clone, Copy, Debug)]
enum Answer {
    /// Reads the request, writes this response, closes.
    Send(&'static str),
    /// Waits until the request arrives, then closes without reading it: the kernel resets
    /// the connection (unread data in the receive buffer).
    Reset,
    /// Reads the request and answers nothing for 30 s.
    Hang,
}

const UNAVAILABLE: Answer = Answer::Send(
    "HTTP/1.1 503 Service Unavailable\r\nretry-after: 0\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
);
const TOO_MANY: Answer = Answer::Send(
    "HTTP/1.1 429 Too Many Requests\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
);
const NOT_FOUND: Answer =
    Answer::Send("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
const OK: Answer =
    Answer::Send("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok");
const MALFORMED: Answer = Answer::Send("HTTP/1.1 2x0 Nonsense\r\n\r\n");

/// A loopback server on its own thread answering connection `n` with `answers[n]` (the last
/// repeats). Returns its URL and the count of connections accepted.
fn serve(answers: Vec<Answer>) -> (String, Arc<AtomicU32>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/thing", listener.local_addr().unwrap());
    let count = Arc::new(AtomicU32::new(0));
    let accepted = Arc::clone(&count);
    thread::spawn(move || {
        for socket in listener.incoming() {
            let Ok(socket) = socket else { return };
            let n = accepted.fetch_add(1, Ordering::SeqCst) as usize;
            let answer = answers[n.min(answers.len() - 1)];
            thread::spawn(move || answer_one(socket, answer));
        }
    });
    (url, count)
}

fn answer_one(mut socket: TcpStream, answer: Answer) {
    let mut buf = [0u8; 4096];
    match answer {
        Answer::Send(response) => {
            let _ = socket.read(&mut buf);
            let _ = socket.write_all(response.as_bytes());
        }
        Answer::Reset => {
            let _ = socket.peek(&mut buf);
        }
        Answer::Hang => {
            let _ = socket.read(&mut buf);
            thread::sleep(Duration::from_secs(30));
        }
    }
}

/// A port nothing listens on (bound, then released).
fn refused_url() -> String {
    let addr = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    format!("http://{addr}/thing")
}

fn fast(max_attempts: u32) -> Retrier {
    Retrier::new(
        RetryConfig::standard()
            .max_attempts(max_attempts)
            .transient_backoff(Duration::from_millis(1))
            .throttling_backoff(Duration::from_millis(1))
            .build(),
    )
}

#[cfg(feature = "ureq")]
mod ureq_errors {
    use super::*;

    fn agent(timeout: Option<Duration>) -> ureq::Agent {
        ureq::Agent::config_builder()
            .timeout_global(timeout)
            .build()
            .new_agent()
    }

    fn get(agent: &ureq::Agent, url: &str) -> Result<String, ureq::Error> {
        agent.get(url).call()?.body_mut().read_to_string()
    }

    #[test]
    fn server_errors_are_retried_by_status_and_client_errors_are_not() {
        let (url, count) = serve(vec![UNAVAILABLE, UNAVAILABLE, OK]);
        let agent = agent(None);
        let report = fast(3).run_report_blocking(|| get(&agent, &url));
        assert_eq!(report.result.unwrap(), "ok");
        assert_eq!((report.attempts, count.load(Ordering::SeqCst)), (3, 3));
        assert_eq!(report.tokens_taken, 28, "two server-error retries, 14 each");

        let (url, count) = serve(vec![NOT_FOUND]);
        let report = fast(3).run_report_blocking(|| get(&agent, &url));
        let err = report.result.unwrap_err();
        assert!(matches!(err, ureq::Error::StatusCode(404)), "{err:?}");
        assert_eq!((err.http_status(), err.code()), (Some(404), None));
        assert!(!err.is_transient());
        assert_eq!(
            (report.attempts, report.stop, count.load(Ordering::SeqCst)),
            (1, StopReason::NotRetryable, 1)
        );
    }

    #[test]
    fn too_many_requests_is_throttling_where_a_classifier_names_429() {
        let agent = agent(None);
        // As for reqwest: 429 is not retried by the built-in status classifier...
        let (url, _) = serve(vec![TOO_MANY, OK]);
        let report = fast(3).run_report_blocking(|| get(&agent, &url));
        assert_eq!(report.result.unwrap_err().http_status(), Some(429));
        assert_eq!(
            (report.attempts, report.stop),
            (1, StopReason::NotRetryable)
        );
        // ... and is retried as throttling (5 tokens) once a classifier names it.
        let (url, count) = serve(vec![TOO_MANY, OK]);
        let retrier = fast(3).retry_classifier(HttpStatusCodeClassifier::new_from_codes([429]));
        let report = retrier.run_report_blocking(|| get(&agent, &url));
        assert_eq!(report.result.unwrap(), "ok");
        assert_eq!((report.attempts, report.tokens_taken), (2, 5));
        assert_eq!(count.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn refused_connections_are_transient() {
        let url = refused_url();
        let agent = agent(None);
        let report = fast(3).run_report_blocking(|| get(&agent, &url));
        let err = report.result.unwrap_err();
        assert!(
            matches!(&err, ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused),
            "{err:?}"
        );
        assert!(err.is_transient() && err.http_status().is_none());
        assert_eq!((report.attempts, report.stop), (3, StopReason::MaxAttempts));
        assert_eq!(report.tokens_taken, 28, "transient retries cost 14 each");
    }

    #[test]
    fn reset_connections_are_transient() {
        let (url, count) = serve(vec![Answer::Reset, OK]);
        let agent = agent(None);
        let mut errors = Vec::new();
        let report = fast(3).run_report_blocking(|| {
            get(&agent, &url).inspect_err(|e| errors.push(format!("{e:?}")))
        });
        assert_eq!(report.result.unwrap(), "ok", "{errors:?}");
        assert_eq!((report.attempts, count.load(Ordering::SeqCst)), (2, 2));
        assert!(
            errors[0].contains("ConnectionReset") || errors[0].contains("UnexpectedEof"),
            "{errors:?}"
        );
    }

    #[test]
    fn timeouts_are_transient() {
        let (url, count) = serve(vec![Answer::Hang, OK]);
        let agent = agent(Some(Duration::from_millis(100)));
        let mut first = None;
        let report = fast(3).run_report_blocking(|| {
            get(&agent, &url).inspect_err(|e| {
                first.get_or_insert_with(|| format!("{e:?}"));
            })
        });
        assert_eq!(report.result.unwrap(), "ok");
        assert_eq!((report.attempts, count.load(Ordering::SeqCst)), (2, 2));
        assert_eq!(first.as_deref(), Some("Timeout(Global)"));
    }

    #[test]
    fn malformed_responses_are_not_transient() {
        let (url, count) = serve(vec![MALFORMED, OK]);
        let agent = agent(None);
        let report = fast(3).run_report_blocking(|| get(&agent, &url));
        let err = report.result.unwrap_err();
        assert!(matches!(err, ureq::Error::Protocol(_)), "{err:?}");
        assert!(!err.is_transient() && err.http_status().is_none());
        assert_eq!((report.attempts, count.load(Ordering::SeqCst)), (1, 1));
    }

    #[test]
    fn other_errors_are_transient_when_a_transient_io_error_caused_them() {
        use std::io;
        let reset = ureq::Error::Other(Box::new(io::Error::from(io::ErrorKind::ConnectionReset)));
        assert!(reset.is_transient());
        let denied = ureq::Error::Other(Box::new(io::Error::from(io::ErrorKind::PermissionDenied)));
        assert!(!denied.is_transient());
        let opaque = ureq::Error::Other("no route in the bespoke connector".into());
        assert!(!opaque.is_transient());
        assert!(ureq::Error::ConnectionFailed.is_transient());
        assert!(ureq::Error::Timeout(ureq::Timeout::RecvBody).is_transient());
        assert!(!ureq::Error::BadUri("x".into()).is_transient());
        assert!(!ureq::Error::TooManyRedirects.is_transient());
    }

    #[test]
    fn a_transparent_variant_forwards_to_the_ureq_error() {
        #[derive(Debug, ProvideErrorMetadata)]
        enum GetThingError {
            #[error_metadata(code = "NotFound", status = 404)]
            NotFound,
            #[error_metadata(transparent)]
            Http(ureq::Error),
        }
        let (url, _) = serve(vec![UNAVAILABLE, OK]);
        let agent = agent(None);
        let report = fast(3).run_report_blocking(|| {
            get(&agent, &url).map_err(|e| match e {
                ureq::Error::StatusCode(404) => GetThingError::NotFound,
                e => GetThingError::Http(e),
            })
        });
        assert_eq!((report.result.unwrap(), report.attempts), ("ok".into(), 2));

        let e = GetThingError::Http(ureq::Error::StatusCode(503));
        assert_eq!((e.code(), e.http_status()), (None, Some(503)));
        assert!(GetThingError::Http(ureq::Error::Timeout(ureq::Timeout::Connect)).is_transient());
        assert_eq!(GetThingError::NotFound.code(), Some("NotFound"));
    }

    #[test]
    fn a_response_returned_as_the_error_carries_retry_after() {
        let (url, count) = serve(vec![UNAVAILABLE, OK]);
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let report = fast(3).run_report_blocking(|| {
            let response = agent.get(&url).call().expect("the server answers");
            if response.status().is_success() {
                Ok(response.status())
            } else {
                // Boxed, as clippy asks of a large error: `Box<T>` forwards the metadata.
                Err(Box::new(response))
            }
        });
        assert_eq!(report.result.unwrap(), 200);
        assert_eq!(count.load(Ordering::SeqCst), 2);

        let (url, _) = serve(vec![UNAVAILABLE]);
        let response = agent.get(&url).call().unwrap();
        assert_eq!(response.http_status(), Some(503));
        assert_eq!(response.retry_after(), Some(Duration::ZERO));
    }
}

#[cfg(feature = "reqwest")]
mod reqwest_blocking_errors {
    use super::*;

    fn get(client: &reqwest::blocking::Client, url: &str) -> Result<String, reqwest::Error> {
        client.get(url).send()?.error_for_status()?.text()
    }

    #[test]
    fn status_errors_are_classified_by_status() {
        let client = reqwest::blocking::Client::new();
        let (url, count) = serve(vec![UNAVAILABLE, OK]);
        let report = fast(3).run_report_blocking(|| get(&client, &url));
        assert_eq!(report.result.unwrap(), "ok");
        assert_eq!((report.attempts, count.load(Ordering::SeqCst)), (2, 2));

        let (url, count) = serve(vec![NOT_FOUND]);
        let report = fast(3).run_report_blocking(|| get(&client, &url));
        let err = report.result.unwrap_err();
        assert_eq!((err.http_status(), err.is_transient()), (Some(404), false));
        assert_eq!((report.attempts, count.load(Ordering::SeqCst)), (1, 1));
    }

    #[test]
    fn refused_connections_and_timeouts_are_transient() {
        let client = reqwest::blocking::Client::builder()
            .timeout(Duration::from_millis(100))
            .build()
            .unwrap();
        let url = refused_url();
        let report = fast(3).run_report_blocking(|| get(&client, &url));
        let err = report.result.unwrap_err();
        assert!(err.is_connect() && err.is_transient(), "{err:?}");
        assert_eq!((report.attempts, report.stop), (3, StopReason::MaxAttempts));

        let (url, count) = serve(vec![Answer::Hang, OK]);
        let report = fast(3).run_report_blocking(|| get(&client, &url));
        assert_eq!(report.result.unwrap(), "ok");
        assert_eq!((report.attempts, count.load(Ordering::SeqCst)), (2, 2));
    }
}
