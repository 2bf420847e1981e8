//! [`RetryLayer`] and [`RetryService`]: the retrier as a `tower::Layer`.

use std::error::Error as StdError;
use std::fmt;
use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use http::{Request, Response};
use tower::{BoxError, Layer, Service};

use super::{HttpFailure, http_retrier, is_failure};
use crate::ProvideErrorMetadata;
use crate::error_metadata::{hyper_verdict, is_transient_io_kind};
use crate::retry::{AttemptError, Retrier, RetryConfig};

/// Runs every request of a `tower` HTTP client through a [`Retrier`] (see the
/// [module](super) for what is retried): a `Layer` for any `Service<http::Request<B>>` whose
/// responses are `http::Response<_>`.
///
/// ```
/// use tower::ServiceBuilder;
/// use waiter_runtime::retry::layer::RetryLayer;
///
/// # let client = tower::service_fn(|_req: http::Request<String>| async {
/// #     Ok::<_, std::io::Error>(http::Response::new(()))
/// # });
/// // `client`: a hyper-util `Client`, a tonic `Channel`, any `Service<http::Request<B>>`.
/// let client = ServiceBuilder::new().layer(RetryLayer::standard()).service(client);
/// # drop(client);
/// ```
///
/// Following tower's conventions: `poll_ready` drives the inner service, `call` sends the first
/// attempt on that ready service and every retry on a clone of it (made ready first), so the
/// inner service must be `Clone`; the errors become [`BoxError`]s (like `tower::timeout`'s).
/// A request is copied for a retry by a [`CloneRequest`]: [`CloneBody`] (the default) clones
/// requests whose body is `Clone`; for a body that is not, give one with
/// [`clone_requests_with`](Self::clone_requests_with) (a request it cannot copy is sent once).
#[derive(Clone, Debug)]
pub struct RetryLayer<C = CloneBody> {
    retrier: Retrier,
    clone_request: C,
}

impl RetryLayer {
    /// Retries as `retrier` does, plus `429` as throttling; requests are copied with
    /// [`CloneBody`].
    pub fn new(retrier: Retrier) -> Self {
        RetryLayer {
            retrier: http_retrier(retrier),
            clone_request: CloneBody,
        }
    }

    /// The standard mode with its defaults.
    pub fn standard() -> Self {
        Self::new(Retrier::new(RetryConfig::standard().build()))
    }

    /// The adaptive mode with its defaults.
    pub fn adaptive() -> Self {
        Self::new(Retrier::new(RetryConfig::adaptive().build()))
    }
}

impl<C> RetryLayer<C> {
    /// Copies requests for retries with `clone_request` (a closure
    /// `Fn(&http::Request<B>) -> Option<http::Request<B>>` will do): a request it cannot copy
    /// (`None`) is sent once.
    ///
    /// ```
    /// use waiter_runtime::retry::layer::RetryLayer;
    ///
    /// struct Stream; // a body that cannot be copied
    /// let layer = RetryLayer::standard()
    ///     .clone_requests_with(|_: &http::Request<Stream>| None::<http::Request<Stream>>);
    /// # drop(layer);
    /// ```
    pub fn clone_requests_with<D>(self, clone_request: D) -> RetryLayer<D> {
        RetryLayer {
            retrier: self.retrier,
            clone_request,
        }
    }

    /// The retrier (its quota, its configuration).
    pub fn retrier(&self) -> &Retrier {
        &self.retrier
    }
}

impl<S, C: Clone> Layer<S> for RetryLayer<C> {
    type Service = RetryService<S, C>;

    fn layer(&self, inner: S) -> Self::Service {
        RetryService {
            inner,
            retrier: self.retrier.clone(),
            clone_request: self.clone_request.clone(),
        }
    }
}

/// The service [`RetryLayer`] wraps around an HTTP client service.
#[derive(Clone, Debug)]
pub struct RetryService<S, C = CloneBody> {
    inner: S,
    retrier: Retrier,
    clone_request: C,
}

impl<S> RetryService<S> {
    /// `inner` with retries as `retrier` does them, plus `429` as throttling.
    pub fn new(inner: S, retrier: Retrier) -> Self {
        RetryLayer::new(retrier).layer(inner)
    }
}

impl<S, C> RetryService<S, C> {
    /// The retrier (its quota, its configuration).
    pub fn retrier(&self) -> &Retrier {
        &self.retrier
    }

    /// The wrapped service.
    pub fn get_ref(&self) -> &S {
        &self.inner
    }
}

/// Copies a request for another attempt, or says it cannot (`None`: the request is sent once).
/// Implemented by [`CloneBody`] and by closures `Fn(&http::Request<B>) -> Option<http::Request<B>>`.
pub trait CloneRequest<B> {
    /// A copy of `request`, if one can be made.
    fn clone_request(&self, request: &Request<B>) -> Option<Request<B>>;
}

/// Copies requests whose body is `Clone`: method, URI, version, headers, extensions and body.
///
/// ```
/// use waiter_runtime::retry::layer::{CloneBody, CloneRequest};
///
/// let request = http::Request::post("http://localhost/").header("x-a", "1").body("hi".to_owned()).unwrap();
/// let copy = CloneBody.clone_request(&request).unwrap();
/// assert_eq!((copy.method(), copy.uri(), copy.headers(), copy.body()), (request.method(), request.uri(), request.headers(), request.body()));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct CloneBody;

impl<B: Clone> CloneRequest<B> for CloneBody {
    fn clone_request(&self, request: &Request<B>) -> Option<Request<B>> {
        let mut copy = Request::new(request.body().clone());
        *copy.method_mut() = request.method().clone();
        *copy.uri_mut() = request.uri().clone();
        *copy.version_mut() = request.version();
        *copy.headers_mut() = request.headers().clone();
        *copy.extensions_mut() = request.extensions().clone();
        Some(copy)
    }
}

impl<B, F> CloneRequest<B> for F
where
    F: Fn(&Request<B>) -> Option<Request<B>>,
{
    fn clone_request(&self, request: &Request<B>) -> Option<Request<B>> {
        self(request)
    }
}

/// A tower service's error, as the retry classifiers see it: transient when it is (or was
/// caused by) an IO error of a transient kind (refused, reset, aborted, timed out...), a
/// `tower::timeout` timeout, a `hyper::Error` for a request that lost its connection (closed
/// before the response was complete, as "connection closed before message completed", or
/// before the request went out) or timed out, or a transient `reqwest::Error`. A request
/// whose connection closed mid-response may have been processed: as in the AWS SDKs, it is
/// retried all the same. Classifiers can downcast to it
/// ([`ClassifyContext::downcast_error`](crate::retry::ClassifyContext::downcast_error)) and
/// look at the error itself with [`get_ref`](Self::get_ref).
pub struct TransportError {
    error: BoxError,
    transient: bool,
}

impl TransportError {
    /// Wraps `error`.
    pub fn new(error: impl Into<BoxError>) -> Self {
        let error = error.into();
        let transient = is_transient_error(&*error);
        TransportError { error, transient }
    }

    /// The error.
    pub fn get_ref(&self) -> &(dyn StdError + Send + Sync + 'static) {
        &*self.error
    }

    /// The error, unwrapped.
    pub fn into_inner(self) -> BoxError {
        self.error
    }
}

impl fmt::Debug for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.error, f)
    }
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

/// Transparent, as its `Display` is: the source is the wrapped error's own source, so an error
/// chain does not show the same message twice.
impl StdError for TransportError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.error.source()
    }
}

impl ProvideErrorMetadata for TransportError {
    fn code(&self) -> Option<&str> {
        None
    }
    fn retry_after(&self) -> Option<Duration> {
        None
    }
    fn is_transient(&self) -> bool {
        self.transient
    }
}

/// Whether `error` or one of its causes is a transient transport error.
fn is_transient_error(error: &(dyn StdError + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(e) = cause {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            if is_transient_io_kind(io.kind()) {
                return true;
            }
        }
        if e.is::<tower::timeout::error::Elapsed>() {
            return true;
        }
        // A hyper(-util) client's request that lost its connection: closed before the response
        // was complete, or before the request was sent. Transient, as in the AWS SDKs' hyper
        // connector (which reports them as IO errors).
        // A malformed response is not (`hyper_verdict`, shared with the reqwest layer).
        if let Some(verdict) = e.downcast_ref::<hyper::Error>().and_then(hyper_verdict) {
            return verdict;
        }
        #[cfg(feature = "reqwest")]
        if let Some(e) = e.downcast_ref::<reqwest::Error>() {
            if e.is_transient() {
                return true;
            }
        }
        #[cfg(feature = "reqwest-0_12")]
        if let Some(e) = e.downcast_ref::<reqwest_0_12::Error>() {
            if e.is_transient() {
                return true;
            }
        }
        cause = e.source();
    }
    false
}

type Failure<R> = HttpFailure<R, TransportError>;

impl<S, B, ResB, C> Service<Request<B>> for RetryService<S, C>
where
    S: Service<Request<B>, Response = Response<ResB>> + Clone + Send + 'static,
    S::Error: Into<BoxError>,
    S::Future: Send + 'static,
    B: Send + 'static,
    ResB: Send + 'static,
    C: CloneRequest<B> + Clone + Send + 'static,
{
    type Response = Response<ResB>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Response<ResB>, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        // The ready service sends the first attempt; this service keeps a fresh clone, which
        // is also what retries are sent on (each made ready first).
        let template = self.inner.clone();
        let ready = std::mem::replace(&mut self.inner, template.clone());
        let retrier = self.retrier.clone();
        let clone_request = self.clone_request.clone();
        Box::pin(async move {
            // The copy for the next attempt is made before each attempt is sent; the retrier
            // asks whether there is one before it schedules a retry (no phantom attempt, no
            // token taken for it: the caller gets the last response).
            let mut spare = clone_request.clone_request(&request);
            let has_copy = AtomicBool::new(spare.is_some());
            let has_copy = &has_copy;
            let mut first = Some((ready, request));
            let op = move || {
                let attempt = first.take().map(|(svc, req)| (svc, req, true)).or_else(|| {
                    let req = spare.take()?;
                    spare = clone_request.clone_request(&req);
                    has_copy.store(spare.is_some(), Ordering::Relaxed);
                    Some((template.clone(), req, false))
                });
                async move {
                    let Some((mut svc, req, is_ready)) = attempt else {
                        // Not reached: the retrier asks `has_copy` before every retry.
                        return Err(Failure::Transport(TransportError::new(
                            "the request could not be copied for another attempt",
                        )));
                    };
                    if !is_ready {
                        poll_fn(|cx| svc.poll_ready(cx))
                            .await
                            .map_err(|e| Failure::Transport(TransportError::new(e)))?;
                    }
                    match svc.call(req).await {
                        Ok(response) if is_failure(response.status().as_u16()) => {
                            Err(Failure::Response(response))
                        }
                        Ok(response) => Ok(response),
                        Err(e) => Err(Failure::Transport(TransportError::new(e))),
                    }
                }
            };
            let report = retrier
                .run_report_while(op, &|| has_copy.load(Ordering::Relaxed))
                .await;
            match report.result {
                Ok(response) | Err(AttemptError::Failed(HttpFailure::Response(response))) => {
                    Ok(response)
                }
                Err(AttemptError::Failed(HttpFailure::Transport(e))) => Err(e.into_inner()),
                Err(AttemptError::TimedOut(timed_out)) => Err(timed_out.into()),
            }
        })
    }
}
