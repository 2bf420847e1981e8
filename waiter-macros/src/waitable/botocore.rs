//! botocore's `waiters-2.json` format (the AWS SDKs' own) recognised where a Smithy `@waitable`
//! value is expected: one error that says how to translate it, and the waiters' names, so that
//! the fallback declares their functions and the callers report nothing more.

use proc_macro2::Span;

use super::model::WaiterDef;
use super::node::{Member, Node, NodeKind};

pub(super) const BOTOCORE: &str = "this is a botocore `waiters-2.json` waiter (the AWS SDKs' own format, with \
    `delay`, `maxAttempts` and `matcher: \"path\"`), not the value of a Smithy `@waitable` trait. \
    Paste the waiter from the service's Smithy model instead (the `@waitable( .. )` of the IDL, or the \
    `\"smithy.waiters#waitable\"` value of the JSON model), or translate it: `delay` -> `minDelay`, \
    `maxAttempts` -> the max wait you give `.wait(..)`, `matcher: \"path\"`/`\"pathAll\"`/`\"pathAny\"` with \
    `argument` -> `matcher: { output: { path: <argument>, expected: .., comparator: \"stringEquals\"` \
    (`\"allStringEquals\"`, `\"anyStringEquals\"`) `} }`, `\"status\"` -> `success`, `\"error\"` -> `errorType`";

/// Where `node` shows itself to be botocore's `waiters-2.json` format rather than a Smithy trait
/// value: the file's `version`/`waiters` keys, a waiter's `delay`/`maxAttempts`/`operation`, or
/// an acceptor whose `matcher` is a string.
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
            .find(|m| matches!(m.key.as_str(), "delay" | "maxAttempts" | "operation"))
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

/// The waiters of a botocore waiter (or of a whole `waiters-2.json`, under `waiters`), by name
/// only: what the fallback needs to declare `wait_until_*`.
pub(super) fn botocore_waiters(node: &Node) -> Vec<WaiterDef> {
    let NodeKind::Object(top) = &node.kind else {
        return Vec::new();
    };
    let waiters = match top.iter().find(|m| m.key == "waiters") {
        Some(Member {
            value:
                Node {
                    kind: NodeKind::Object(waiters),
                    ..
                },
            ..
        }) => waiters,
        _ => top,
    };
    waiters
        .iter()
        .filter(|m| matches!(m.value.kind, NodeKind::Object(_)))
        // A name the fallback can turn into `wait_until_<snake>`.
        .filter(|m| {
            m.key.starts_with(|c: char| c.is_ascii_uppercase())
                && m.key.chars().all(|c| c.is_ascii_alphanumeric())
        })
        .map(|m| WaiterDef {
            name: m.key.clone(),
            name_span: m.key_span,
            documentation: None,
            acceptors: Vec::new(),
            acceptors_written: 0,
            acceptors_span: m.value.span,
            min_delay: None,
            max_delay: None,
            deprecated: false,
            tags: Vec::new(),
        })
        .collect()
}
