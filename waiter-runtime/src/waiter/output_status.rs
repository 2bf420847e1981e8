//! The HTTP status an operation's output came with, which botocore's `status` matcher reads
//! when the poll succeeded (on an error it reads
//! [`ProvideErrorMetadata::http_status`](crate::ProvideErrorMetadata::http_status)).

/// What an operation's output says of the HTTP status it came with: read by the `status`
/// matchers of waiters read from botocore's `waiters-2.json`
/// (`#[waitable(botocore = "..")]`), on a poll that returned `Ok`.
///
/// An output that came with a successful answer needs no more than the empty impl: the default
/// `None` reads as 200, the status of every successful answer botocore's waiters expect
/// (`status: 200` matches, `status: 404` does not). An output that carries the response's
/// status (a client returning `Ok` for a 404, an output holding the `http::Response`) returns
/// it.
///
/// ```
/// use waiter_runtime::OutputStatus;
///
/// /// A `HeadBucket` answer: a successful response has no body to read.
/// struct HeadBucketOutput;
/// impl OutputStatus for HeadBucketOutput {}
///
/// /// A client that returns every response as `Ok`, with its status.
/// struct Answer { status: u16 }
/// impl OutputStatus for Answer {
///     fn http_status(&self) -> Option<u16> {
///         Some(self.status)
///     }
/// }
/// assert_eq!(HeadBucketOutput.http_status(), None); // read as 200
/// assert_eq!(Answer { status: 404 }.http_status(), Some(404));
/// ```
///
/// Implemented for `()` (an operation without output) and, with the `http` feature, for
/// `http::Response<B>` and `http::StatusCode` (their own status). A waiter with a `status`
/// acceptor on an operation whose output type lacks it is one compile error, at the model file,
/// saying to add the impl.
#[diagnostic::on_unimplemented(
    message = "a `status` acceptor reads the HTTP status of the operation's output too, but `{Self}` does not implement `OutputStatus`",
    label = "this waiter has a `status` acceptor",
    note = "add `impl waiter_runtime::OutputStatus for {Self} {{}}` (an output that came with a successful answer: read as status 200), or return the response's status from its `http_status`"
)]
pub trait OutputStatus {
    /// The HTTP status the output came with; `None` (the default): a successful answer, read
    /// as 200.
    fn http_status(&self) -> Option<u16> {
        None
    }
}

impl OutputStatus for () {}

impl<T: OutputStatus + ?Sized> OutputStatus for &T {
    fn http_status(&self) -> Option<u16> {
        (**self).http_status()
    }
}

impl<T: OutputStatus + ?Sized> OutputStatus for Box<T> {
    fn http_status(&self) -> Option<u16> {
        (**self).http_status()
    }
}

#[cfg(feature = "http")]
impl<B> OutputStatus for http::Response<B> {
    fn http_status(&self) -> Option<u16> {
        Some(self.status().as_u16())
    }
}

#[cfg(feature = "http")]
impl OutputStatus for http::StatusCode {
    fn http_status(&self) -> Option<u16> {
        Some(self.as_u16())
    }
}

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::OutputStatus;

    #[test]
    fn http_types_say_their_own_status() {
        let response = http::Response::builder().status(404).body(()).unwrap();
        assert_eq!(response.http_status(), Some(404));
        assert_eq!(http::StatusCode::CREATED.http_status(), Some(201));
        assert_eq!(().http_status(), None);
    }
}
