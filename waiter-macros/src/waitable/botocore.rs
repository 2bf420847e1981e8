//! botocore's `waiters-2.json` format (the AWS SDKs' own) recognised where a Smithy `@waitable`
//! value is expected: one error that says to read the file with `botocore = ".."` or how to
//! translate it, and the waiters' names, so that the fallback declares their functions and the
//! callers report nothing more. (Reading the file itself: [`super::file`].)

use proc_macro2::Span;

use super::model::WaiterDef;
use super::node::{Member, Node, NodeKind};

/// The one error for a pasted botocore waiter: how to translate it, with the max wait its
/// `delay` and `maxAttempts` give (`delay` x `maxAttempts`, per waiter pasted).
pub(super) fn botocore_message(node: &Node) -> String {
    let max_waits: Vec<String> = waiters(node)
        .iter()
        .filter_map(|waiter| {
            let NodeKind::Object(members) = &waiter.value.kind else {
                return None;
            };
            let number = |key: &str| {
                members
                    .iter()
                    .find(|m| m.key == key)
                    .and_then(|m| match &m.value.kind {
                        NodeKind::Number(n) => n.parse::<u64>().ok(),
                        _ => None,
                    })
            };
            let (delay, attempts) = (number("delay")?, number("maxAttempts")?);
            let secs = delay.checked_mul(attempts)?;
            Some(format!(
                "`{}`: {delay} s x {attempts} = {secs} s, `.wait(Duration::from_secs({secs}))`",
                waiter.key
            ))
        })
        .collect();
    let max_wait = if max_waits.is_empty() {
        "`maxAttempts` -> the max wait you give `.wait(..)`, `delay` x `maxAttempts` seconds"
            .to_owned()
    } else {
        format!(
            "`maxAttempts` -> the max wait you give `.wait(..)`, `delay` x `maxAttempts` ({})",
            max_waits.join("; ")
        )
    };
    format!(
        "this is a botocore `waiters-2.json` waiter (the AWS SDKs' own format, with `delay`, \
         `maxAttempts` and `matcher: \"path\"`), not the value of a Smithy `@waitable` trait. \
         Read botocore's file itself instead: save it in your crate and write \
         `#[waitable(botocore = \"models/<service>/waiters-2.json\")]` (the waiters of this \
         function's operation; `waiters = [\"Name\"]` for some of them). Or paste the waiter \
         from the service's Smithy model (the `@waitable( .. )` of the IDL, or the \
         `\"smithy.waiters#waitable\"` value of the JSON model), or translate it: `delay` -> \
         `minDelay`, {max_wait}, drop `operation` (the function under `#[waitable]` is the \
         operation), `description` -> `documentation`, `matcher: \"path\"`/`\"pathAll\"`/\
         `\"pathAny\"` with `argument` -> `matcher: {{ output: {{ path: <argument>, expected: \
         .., comparator: \"stringEquals\"` (`\"allStringEquals\"`, `\"anyStringEquals\"`) `}} \
         }}`, a boolean `expected: true` -> `comparator: \"booleanEquals\", expected: \"true\"`, \
         `\"error\"` -> `errorType`, but `\"error\"` with `expected: false` (no error) -> \
         `success: true` and with `expected: true` (any error) -> `success: false`, `\"status\"` \
         has no Smithy form (`status: 200` is `success: true`; any other status needs the file \
         read with `botocore = \"..\"`)"
    )
}

/// Where `node` shows itself to be botocore's `waiters-2.json` format rather than a Smithy trait
/// value: the file's `version`/`waiters` keys, a waiter's `delay`/`maxAttempts`, or an
/// acceptor whose `matcher` is a string. A waiter otherwise translated that keeps botocore's
/// `operation` is not one: its `operation` gets its own warning ([`leftover_advice`]).
pub(super) fn botocore(node: &Node) -> Option<Span> {
    let NodeKind::Object(top) = &node.kind else {
        return None;
    };
    if let Some(m) = top
        .iter()
        .find(|m| m.key == "waiters" || m.key == "version")
    {
        if top.iter().all(|m| m.key == "waiters" || m.key == "version") {
            return Some(m.key_span);
        }
    }
    for waiter in top {
        let NodeKind::Object(members) = &waiter.value.kind else {
            continue;
        };
        if let Some(m) = members
            .iter()
            .find(|m| matches!(m.key.as_str(), "delay" | "maxAttempts"))
        {
            return Some(m.key_span);
        }
        let Some(acceptors) = members.iter().find(|m| m.key == "acceptors") else {
            continue;
        };
        let NodeKind::Array(items) = &acceptors.value.kind else {
            continue;
        };
        for item in items {
            let NodeKind::Object(fields) = &item.kind else {
                continue;
            };
            if let Some(m) = fields.iter().find(|m| {
                m.key == "argument"
                    || (m.key == "matcher" && matches!(m.value.kind, NodeKind::String(_)))
            }) {
                return Some(m.value.span);
            }
        }
    }
    None
}

/// What to do with a botocore member left in a translated waiter (appended to the unknown
/// member's warning): `operation` is dropped, `description` renamed.
pub(super) fn leftover_advice(key: &str) -> Option<&'static str> {
    match key {
        "operation" => Some(
            "; `operation` is botocore's: a Smithy waiter's operation is the function under \
             `#[waitable]`, remove it",
        ),
        "description" => Some("; botocore's `description` is Smithy's `documentation`: rename it"),
        _ => None,
    }
}

/// The waiters of a botocore paste: under `waiters` (a whole `waiters-2.json`), else the top
/// level's members.
fn waiters(node: &Node) -> &[Member] {
    let NodeKind::Object(top) = &node.kind else {
        return &[];
    };
    match top.iter().find(|m| m.key == "waiters") {
        Some(Member {
            value:
                Node {
                    kind: NodeKind::Object(waiters),
                    ..
                },
            ..
        }) => waiters,
        _ => top,
    }
}

/// The waiters of a botocore waiter (or of a whole `waiters-2.json`, under `waiters`), by name
/// only: what the fallback needs to declare `wait_until_*`.
pub(super) fn botocore_waiters(node: &Node) -> Vec<WaiterDef> {
    waiters(node)
        .iter()
        .filter(|m| matches!(m.value.kind, NodeKind::Object(_)))
        // A name the fallback can turn into `wait_until_<snake>`.
        .filter(|m| {
            m.key.starts_with(|c: char| c.is_ascii_uppercase())
                && m.key.chars().all(|c| c.is_ascii_alphanumeric())
        })
        .map(|m| WaiterDef {
            acceptors_span: m.value.span,
            ..WaiterDef::named(m.key.clone(), m.key_span)
        })
        .collect()
}
