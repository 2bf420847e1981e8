//! A botocore waiter (a member of `waiters-2.json`'s `waiters`) into the model, as botocore's
//! `botocore/waiter.py` reads it:
//!
//! | botocore | the model |
//! |---|---|
//! | `delay` | `minDelay` (and `maxDelay` when above the default 120) |
//! | `maxAttempts` | the published maximum wait, `delay` x `maxAttempts` (metadata only) |
//! | `description` | `documentation` |
//! | `path`, string `expected` | `output`, `stringEquals` |
//! | `path`, boolean `expected` | `output`, `booleanEquals` |
//! | `path`, other `expected` (a number) | `output`, path ``(<argument>) == `<expected>` ``, `booleanEquals` `true` |
//! | `pathAll` / `pathAny` | `output`, `allStringEquals` / `anyStringEquals` |
//! | `error`, a code | `errorType` |
//! | `error`, `true` (any error) / `false` (no error) | `success: false` / `success: true` |
//! | `status` | the `status` matcher (the answer's HTTP status) |
//!
//! Every token of the result is at the attribute's path (`span`): messages name the file, the
//! waiter and the acceptor ([`Origin`](crate::waitable::model::Origin)).

use proc_macro2::Span;
use syn::LitStr;

use crate::ctxt::Ctxt;
use crate::jmespath::ast::Literal;
use crate::waitable::model::{
    Acceptor, Comparator, DEFAULT_MAX_DELAY_SECS, Matcher, PathMatcher, State, WaiterDef,
};

/// The waiter `name` (its value `value`), read into the model; errors in `cx` (whose context
/// names the file and the waiter).
pub(super) fn waiter(cx: &Ctxt, name: &str, value: &Literal, span: Span) -> Option<WaiterDef> {
    let Literal::Object(members) = value else {
        cx.error(span, "the waiter is not a JSON object");
        return None;
    };
    let whole = |key: &str| -> Option<u64> {
        match members.get(key) {
            Some(Literal::Number(n)) => match n.as_u64() {
                Some(n) if (1..=i32::MAX as u64).contains(&n) => Some(n),
                _ => {
                    cx.error(
                        span,
                        format!(
                            "`{key}` must be a whole number from 1 to {}, found {n}",
                            i32::MAX
                        ),
                    );
                    None
                }
            },
            Some(_) => {
                cx.error(span, format!("`{key}` must be a number"));
                None
            }
            None => {
                cx.error(
                    span,
                    format!("the waiter has no `{key}`, which botocore requires"),
                );
                None
            }
        }
    };
    let delay = whole("delay");
    let attempts = whole("maxAttempts");
    let documentation = match members.get("description") {
        Some(Literal::String(d)) => Some(d.clone()),
        _ => None,
    };
    let acceptors = match members.get("acceptors") {
        Some(Literal::Array(items)) if !items.is_empty() => items,
        _ => {
            cx.error(
                span,
                "the waiter has no `acceptors` list, which botocore requires",
            );
            return None;
        }
    };
    let read: Vec<Acceptor> = acceptors
        .iter()
        .enumerate()
        .filter_map(|(i, a)| acceptor(cx, i, a, span))
        .collect();
    Some(WaiterDef {
        documentation,
        acceptors_written: acceptors.len(),
        acceptors: read,
        min_delay: delay.map(|d| (d, span)),
        // botocore waits `delay` between attempts, whatever it is; the spec's default
        // `maxDelay` (120 s) stays unless that would put it below `minDelay`.
        max_delay: delay
            .filter(|d| *d > DEFAULT_MAX_DELAY_SECS)
            .map(|d| (d, span)),
        published_max_wait: delay.zip(attempts).map(|(d, a)| d * a),
        ..WaiterDef::named(name.to_owned(), span)
    })
}

/// Acceptor `index` (from 0).
fn acceptor(cx: &Ctxt, index: usize, value: &Literal, span: Span) -> Option<Acceptor> {
    let number = index + 1;
    let Literal::Object(members) = value else {
        cx.error(span, format!("acceptor {number} is not a JSON object"));
        return None;
    };
    let text = |key: &str| match members.get(key) {
        Some(Literal::String(s)) => Some(s.as_str()),
        _ => None,
    };
    let state = match text("state") {
        Some("success") => Some(State::Success),
        Some("failure") => Some(State::Failure),
        Some("retry") => Some(State::Retry),
        other => {
            cx.error(
                span,
                format!(
                    "acceptor {number}: `state` must be \"success\", \"failure\" or \"retry\", \
                     found {}",
                    other.map_or("nothing".to_owned(), |s| format!("\"{s}\""))
                ),
            );
            None
        }
    };
    let expected = members.get("expected");
    let lit = |s: &str| LitStr::new(s, span);
    let path = |comparator: Comparator, path: String, expected: &str| {
        Matcher::Output(PathMatcher {
            path: lit(&path),
            expected: lit(expected),
            comparator,
            key_span: span,
            expected_not_boolean: false,
        })
    };
    let unsupported = |what: String| {
        cx.error(span, format!("acceptor {number}: {what}"));
        None
    };
    let matcher = match (text("matcher"), expected) {
        (Some(kind @ ("path" | "pathAll" | "pathAny")), Some(expected)) => {
            let Some(argument) = text("argument") else {
                return unsupported(format!(
                    "a `{kind}` matcher needs its JMESPath expression in `argument`"
                ));
            };
            let argument = argument.to_owned();
            match (kind, expected) {
                ("path", Literal::String(e)) => Some(path(Comparator::StringEquals, argument, e)),
                ("path", Literal::Bool(b)) => Some(path(
                    Comparator::BooleanEquals,
                    argument,
                    if *b { "true" } else { "false" },
                )),
                // botocore compares with Python's `==`: JMESPath's `==` with the literal.
                ("path", Literal::Number(n)) => Some(path(
                    Comparator::BooleanEquals,
                    format!("({argument}) == `{n}`"),
                    "true",
                )),
                ("path", Literal::Null) => Some(path(
                    Comparator::BooleanEquals,
                    format!("({argument}) == `null`"),
                    "true",
                )),
                ("pathAll", Literal::String(e)) => {
                    Some(path(Comparator::AllStringEquals, argument, e))
                }
                ("pathAny", Literal::String(e)) => {
                    Some(path(Comparator::AnyStringEquals, argument, e))
                }
                _ => {
                    return unsupported(format!(
                        "a `{kind}` matcher with `expected` {}: only a string (`pathAll`, \
                         `pathAny`) or a string, boolean, number or null (`path`) can be read",
                        kind_name(expected)
                    ));
                }
            }
        }
        (Some("error"), Some(Literal::String(code))) => Some(Matcher::ErrorType(lit(code))),
        // botocore's `expected: true` matches any error, `false` a successful answer.
        (Some("error"), Some(Literal::Bool(any_error))) => Some(Matcher::Success(!any_error)),
        (Some("status"), Some(Literal::Number(n))) => {
            match n.as_u64().and_then(|n| u16::try_from(n).ok()) {
                Some(status @ 100..=599) => Some(Matcher::Status(status, span)),
                _ => {
                    return unsupported(format!(
                        "a `status` matcher expects an HTTP status (100 to 599), found {n}"
                    ));
                }
            }
        }
        (Some(kind @ ("error" | "status")), Some(other)) => {
            return unsupported(format!(
                "an `{kind}` matcher with `expected` {}: botocore reads {}",
                kind_name(other),
                if kind == "error" {
                    "an error code, `true` (any error) or `false` (no error)"
                } else {
                    "an HTTP status"
                }
            ));
        }
        (Some(kind), None) => {
            return unsupported(format!("the `{kind}` matcher has no `expected`"));
        }
        (Some(other), _) => {
            return unsupported(format!(
                "unknown matcher \"{other}\": botocore's are \"path\", \"pathAll\", \
                 \"pathAny\", \"error\" and \"status\""
            ));
        }
        (None, _) => return unsupported("no `matcher`".to_owned()),
    };
    Some(Acceptor {
        state: state?,
        matcher: matcher?,
        message: None,
        message_key_span: span,
        read_cleanly: true,
    })
}

fn kind_name(value: &Literal) -> &'static str {
    match value {
        Literal::Null => "null",
        Literal::Bool(_) => "a boolean",
        Literal::Number(_) => "a number",
        Literal::String(_) => "a string",
        Literal::Array(_) => "a list",
        Literal::Object(_) => "an object",
    }
}
