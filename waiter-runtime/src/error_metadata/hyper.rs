//! What a `hyper::Error` says about retrying (features `reqwest` and `tower`): the one verdict
//! both retry layers give, whichever client reports it.

/// Whether the request that failed with `error` is worth sending again, when hyper knows:
/// `Some(true)` when the connection was lost before the response was complete or before the
/// request went out, or timed out; `Some(false)` for a malformed response (a bad status line,
/// status `000`, headers too large or too many), which the same request gets again: the
/// server answered, wrongly. `None`: hyper's error does not say (look at what caused it).
pub(crate) fn hyper_verdict(error: &hyper::Error) -> Option<bool> {
    if error.is_incomplete_message()
        || error.is_canceled()
        || error.is_closed()
        || error.is_timeout()
    {
        Some(true)
    } else if error.is_parse() {
        Some(false)
    } else {
        None
    }
}
