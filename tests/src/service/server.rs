//! The accept loop: one hyper HTTP/1 connection per TCP connection, fault injection in front
//! of the router, connection tracking.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderValue, Request, Response, StatusCode};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, oneshot};
use tokio::task::JoinSet;
use tower::ServiceExt;

use super::Shared;
use super::faults::Fault;
use super::model::ErrorBody;
use super::stats::Outcome;

pub(crate) async fn serve(
    listener: TcpListener,
    shared: Arc<Shared>,
    router: Router,
    mut shutdown: oneshot::Receiver<()>,
) {
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    connections.spawn(serve_connection(stream, Arc::clone(&shared), router.clone()));
                }
                Err(error) => {
                    // Out of file descriptors and the like: back off instead of spinning.
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    connections.shutdown().await;
}

/// Counts a connection as closed when its task ends, however it ends (even aborted).
struct ConnectionGuard(Arc<Shared>);

impl Drop for ConnectionGuard {
    fn drop(&mut self) {
        self.0.stats.update(|s| s.connections_closed += 1);
    }
}

/// Counts a hanging request as cancelled when hyper drops its handler (the client went away).
struct HangGuard(Arc<Shared>);

impl Drop for HangGuard {
    fn drop(&mut self) {
        self.0.stats.update(|s| s.hung_cancelled += 1);
    }
}

async fn serve_connection(stream: TcpStream, shared: Arc<Shared>, router: Router) {
    let _ = stream.set_nodelay(true);
    shared.stats.update(|s| s.connections_opened += 1);
    let _guard = ConnectionGuard(Arc::clone(&shared));
    let kill = Arc::new(Notify::new());
    let service = {
        let kill = Arc::clone(&kill);
        service_fn(move |req| handle(req, Arc::clone(&shared), router.clone(), Arc::clone(&kill)))
    };
    let mut conn = http1::Builder::new()
        .timer(TokioTimer::new())
        .serve_connection(TokioIo::new(stream), service);
    let killed = tokio::select! {
        _ = &mut conn => false,
        _ = kill.notified() => true,
    };
    if killed {
        // Close with a reset (SO_LINGER 0): the client sees "connection reset by peer".
        let stream = conn.into_parts().io.into_inner();
        let _ = socket_reset(&stream);
    }
}

fn socket_reset(stream: &TcpStream) -> std::io::Result<()> {
    #[allow(deprecated)] // `set_zero_linger` is not in every tokio 1.x we accept.
    stream.set_linger(Some(Duration::ZERO))
}

async fn handle(
    req: Request<Incoming>,
    shared: Arc<Shared>,
    router: Router,
    kill: Arc<Notify>,
) -> Result<Response<Body>, Infallible> {
    let method = req.method().to_string();
    let path = req.uri().path().to_owned();
    let decision = shared.faults.decide();
    if !decision.latency.is_zero() {
        tokio::time::sleep(decision.latency).await;
    }
    let throttle = |status: StatusCode, code: &str, outcome: Outcome| {
        shared.stats.record(&method, &path, outcome);
        error_response(status, code, shared.faults.retry_after())
    };
    match decision.fault {
        None => {}
        Some(Fault::Delay(extra)) => tokio::time::sleep(extra).await,
        Some(Fault::Throttle) => {
            return Ok(throttle(
                StatusCode::TOO_MANY_REQUESTS,
                "ThrottlingException",
                Outcome::Throttled,
            ));
        }
        Some(Fault::SlowDown) => {
            return Ok(throttle(
                StatusCode::SERVICE_UNAVAILABLE,
                "SlowDown",
                Outcome::Throttled,
            ));
        }
        Some(Fault::Unavailable) => {
            shared.stats.record(&method, &path, Outcome::Unavailable);
            return Ok(error_response(
                StatusCode::SERVICE_UNAVAILABLE,
                "ServiceUnavailable",
                None,
            ));
        }
        Some(Fault::Reset) => {
            shared.stats.record(&method, &path, Outcome::Reset);
            kill.notify_one();
            return std::future::pending().await;
        }
        Some(Fault::Hang) => {
            shared.stats.record(&method, &path, Outcome::Hung);
            let _guard = HangGuard(Arc::clone(&shared));
            return std::future::pending().await;
        }
    }
    let response = router.oneshot(req).await?;
    shared.stats.record(
        &method,
        &path,
        Outcome::Answered(response.status().as_u16()),
    );
    Ok(response)
}

fn error_response(status: StatusCode, code: &str, retry_after: Option<Duration>) -> Response<Body> {
    let message = match status {
        StatusCode::TOO_MANY_REQUESTS => "rate exceeded, slow down",
        _ if code == "SlowDown" => "please reduce your request rate",
        _ => "the service is temporarily unavailable",
    };
    let body = serde_json::to_vec(&ErrorBody {
        code: code.to_owned(),
        message: message.to_owned(),
    })
    .expect("serializing a struct of strings cannot fail");
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert("content-type", HeaderValue::from_static("application/json"));
    if let Some(after) = retry_after {
        let secs = after.as_secs() + u64::from(after.subsec_nanos() > 0);
        headers.insert("retry-after", HeaderValue::from(secs));
        headers.insert(
            "x-amz-retry-after",
            HeaderValue::from(after.as_millis() as u64),
        );
    }
    response
}
