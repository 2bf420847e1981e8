//! Reads the `@waitable` trait value from the node tree into the [model](super::model). Wrong
//! value types, missing required members and unknown values are reported here (all of them, in
//! one pass); unknown member keys become warnings, as Smithy makes them.

use proc_macro2::Span;
use syn::LitStr;

use super::botocore::{botocore, botocore_message, botocore_waiters, leftover_advice};
use super::model::{Acceptor, Comparator, Matcher, PathMatcher, State, Waitable, WaiterDef};
use super::node::{Member, Node, NodeKind};
use crate::ctxt::Ctxt;

/// Reads the trait value. Returns what could be read; errors are in `cx`.
pub(crate) fn read(cx: &Ctxt, node: &Node) -> Waitable {
    let mut waiters = Vec::new();
    if let Some(span) = botocore(node) {
        cx.error(span, botocore_message(node));
        // Its waiters' names, so that the fallback declares their functions and the callers
        // report nothing more: the translation advice is the one error.
        return Waitable {
            waiters: botocore_waiters(node),
            origin: None,
        };
    }
    if let Some(members) = object(
        cx,
        node,
        "the `@waitable` trait value (a map of waiter names to waiters)",
    ) {
        for member in members {
            if let Some(waiter) = read_waiter(cx, member) {
                waiters.push(waiter);
            }
        }
    }
    Waitable {
        waiters,
        origin: None,
    }
}

fn object<'a>(cx: &Ctxt, node: &'a Node, what: &str) -> Option<&'a [Member]> {
    match &node.kind {
        NodeKind::Object(members) => Some(members),
        _ => {
            cx.error(
                node.span,
                format!(
                    "expected {what} as an object `{{ ... }}`, found {}",
                    node.kind_name()
                ),
            );
            None
        }
    }
}

fn string(cx: &Ctxt, member: &Member) -> Option<LitStr> {
    match &member.value.kind {
        NodeKind::String(s) => Some(s.clone()),
        _ => {
            cx.error(
                member.value.span,
                format!(
                    "`{}` must be a string in double quotes, found {}",
                    member.key,
                    member.value.kind_name()
                ),
            );
            None
        }
    }
}

fn boolean(cx: &Ctxt, member: &Member) -> Option<bool> {
    match &member.value.kind {
        NodeKind::Bool(b) => Some(*b),
        _ => {
            cx.error(
                member.value.span,
                format!(
                    "`{}` must be a boolean (`true` or `false`), found {}",
                    member.key,
                    member.value.kind_name()
                ),
            );
            None
        }
    }
}

fn delay(cx: &Ctxt, member: &Member) -> Option<(u64, Span)> {
    let span = member.value.span;
    match &member.value.kind {
        NodeKind::Number(text) => match text.parse::<i128>() {
            // The model's `WaiterDelay` is a Smithy `integer`: 32 bits.
            Ok(n) if n >= 1 => match i32::try_from(n) {
                Ok(n) => Some((n.unsigned_abs().into(), span)),
                Err(_) => {
                    cx.error(
                        span,
                        format!(
                            "`{}` is too large: delays are Smithy `integer`s, at most {} seconds (68 years)",
                            member.key,
                            i32::MAX
                        ),
                    );
                    None
                }
            },
            Ok(_) => {
                cx.error(
                    span,
                    format!(
                        "`{}` must be at least 1 (seconds), found {text}",
                        member.key
                    ),
                );
                None
            }
            Err(_) => {
                cx.error(
                    span,
                    format!(
                        "`{}` must be a whole number of seconds, found {text}",
                        member.key
                    ),
                );
                None
            }
        },
        _ => {
            cx.error(
                span,
                format!(
                    "`{}` must be an integer number of seconds, found {}",
                    member.key,
                    member.value.kind_name()
                ),
            );
            None
        }
    }
}

fn unknown(cx: &Ctxt, member: &Member, of: &str, known: &[&str]) {
    cx.warn(
        member.key_span,
        format!(
            "unknown member `{}` of {of} is ignored (Smithy ignores it too); known members: {}{}",
            member.key,
            known.join(", "),
            leftover_advice(&member.key).unwrap_or_default()
        ),
    );
}

fn duplicate(cx: &Ctxt, members: &[Member], member: &Member) -> bool {
    let first = members.iter().position(|m| m.key == member.key);
    let is_dup = first.is_some_and(|i| !std::ptr::eq(&members[i], member));
    if is_dup {
        cx.error(member.key_span, format!("`{}` is given twice", member.key));
    }
    is_dup
}

fn read_waiter(cx: &Ctxt, entry: &Member) -> Option<WaiterDef> {
    let members = object(cx, &entry.value, &format!("the waiter `{}`", entry.key))?;
    let mut waiter = WaiterDef {
        acceptors_span: entry.value.span,
        ..WaiterDef::named(entry.key.clone(), entry.key_span)
    };
    let mut has_acceptors = false;
    const KNOWN: &[&str] = &[
        "documentation",
        "acceptors",
        "minDelay",
        "maxDelay",
        "deprecated",
        "tags",
    ];
    for member in members {
        if duplicate(cx, members, member) {
            continue;
        }
        match member.key.as_str() {
            "documentation" => waiter.documentation = string(cx, member).map(|s| s.value()),
            "acceptors" => {
                has_acceptors = true;
                waiter.acceptors_span = member.key_span;
                match &member.value.kind {
                    NodeKind::Array(items) => {
                        waiter.acceptors_written = items.len();
                        waiter.acceptors = items
                            .iter()
                            .filter_map(|item| read_acceptor(cx, item))
                            .collect();
                        if items.is_empty() {
                            cx.error(
                                member.value.span,
                                "`acceptors` must not be empty: add at least one acceptor with `state: \"success\"`",
                            );
                        }
                    }
                    _ => cx.error(
                        member.value.span,
                        format!(
                            "`acceptors` must be a list `[ ... ]` of acceptors, found {}",
                            member.value.kind_name()
                        ),
                    ),
                }
            }
            "minDelay" => waiter.min_delay = delay(cx, member),
            "maxDelay" => waiter.max_delay = delay(cx, member),
            "deprecated" => waiter.deprecated = boolean(cx, member).unwrap_or(false),
            "tags" => match &member.value.kind {
                NodeKind::Array(items) => {
                    for item in items {
                        match &item.kind {
                            NodeKind::String(s) if s.value().is_empty() => cx.error(
                                item.span,
                                "`tags` must not hold an empty string (Smithy's `NonEmptyString`): remove it or name the tag",
                            ),
                            NodeKind::String(s) => waiter.tags.push(s.value()),
                            _ => cx.error(
                                item.span,
                                format!("`tags` must be strings, found {}", item.kind_name()),
                            ),
                        }
                    }
                }
                _ => cx.error(
                    member.value.span,
                    format!(
                        "`tags` must be a list of strings, found {}",
                        member.value.kind_name()
                    ),
                ),
            },
            _ => unknown(cx, member, &format!("waiter `{}`", entry.key), KNOWN),
        }
    }
    if !has_acceptors {
        cx.error(
            entry.key_span,
            format!(
                "waiter `{}` is missing the required member `acceptors`: add `acceptors: [ {{ state: \"success\", matcher: {{ ... }} }} ]`",
                entry.key
            ),
        );
    }
    Some(waiter)
}

fn read_acceptor(cx: &Ctxt, node: &Node) -> Option<Acceptor> {
    let errors_before = cx.error_count();
    let members = object(cx, node, "an acceptor")?;
    let mut state = None;
    let mut matcher = None;
    let mut message = None;
    let mut message_key_span = node.span;
    let (mut has_state, mut has_matcher) = (false, false);
    let mut misplaced_matcher = false;
    const KNOWN: &[&str] = &["state", "matcher", "message"];
    for member in members {
        if duplicate(cx, members, member) {
            continue;
        }
        match member.key.as_str() {
            "state" => {
                has_state = true;
                if let Some(s) = string(cx, member) {
                    state = match s.value().as_str() {
                        "success" => Some(State::Success),
                        "failure" => Some(State::Failure),
                        "retry" => Some(State::Retry),
                        other => {
                            cx.error(
                                s.span(),
                                format!("unknown acceptor state \"{other}\": expected \"success\", \"failure\" or \"retry\""),
                            );
                            None
                        }
                    };
                }
            }
            "matcher" => {
                has_matcher = true;
                matcher = read_matcher(cx, member);
            }
            "message" => {
                message_key_span = member.key_span;
                message = string(cx, member);
            }
            "output" | "inputOutput" | "success" | "errorType" => {
                misplaced_matcher = true;
                cx.error(
                    member.key_span,
                    format!(
                        "`{key}` is a matcher: put it inside the acceptor's `matcher`, as in `matcher: {{ {key}: ... }}`",
                        key = member.key
                    ),
                );
            }
            _ => unknown(cx, member, "an acceptor", KNOWN),
        }
    }
    if !has_state {
        cx.error(
            node.span,
            "acceptor is missing the required member `state`: add `state: \"success\"` (or \"failure\", \"retry\")",
        );
    }
    if !has_matcher && !misplaced_matcher {
        cx.error(
            node.span,
            "acceptor is missing the required member `matcher`: add one of `matcher: { success: true }`, \
             `{ errorType: \"...\" }`, `{ output: { ... } }`, `{ inputOutput: { ... } }`",
        );
    }
    let matcher = matcher?;
    Some(Acceptor {
        state: state?,
        matcher,
        message,
        message_key_span,
        read_cleanly: cx.error_count() == errors_before,
    })
}

const MATCHERS: &str = "`output`, `inputOutput`, `success` or `errorType`";

/// The error for a matcher key the spec does not have. `input`, `and`, `or` and `not` were
/// matchers in drafts of the Smithy waiters spec (Smithy's 1.0 test models still use them):
/// the error says how today's spec writes them.
fn unknown_matcher(key: &str) -> String {
    let advice = match key {
        "input" => {
            "; the spec has no `input` matcher (it was in early drafts): write \
             `inputOutput: { path: \"input.<path>\", .. }`, whose paths read `input` and `output`"
        }
        "and" | "or" | "not" => {
            "; matchers do not combine (`and`, `or` and `not` were in early drafts of the spec): \
             write the condition as one JMESPath `path` (`a && b`, `a || b`, `!a`) with \
             `comparator: \"booleanEquals\"`, or use one acceptor per alternative"
        }
        _ => "",
    };
    format!("unknown matcher `{key}`: expected {MATCHERS}{advice}")
}

fn read_matcher(cx: &Ctxt, member: &Member) -> Option<Matcher> {
    let members = object(cx, &member.value, "a matcher")?;
    let known: Vec<&Member> = members
        .iter()
        .filter(|m| {
            matches!(
                m.key.as_str(),
                "output" | "inputOutput" | "success" | "errorType"
            )
        })
        .collect();
    for m in members
        .iter()
        .filter(|m| !known.iter().any(|k| std::ptr::eq(*k, *m)))
    {
        cx.error(m.key_span, unknown_matcher(&m.key));
    }
    match known.as_slice() {
        [] => {
            if members.is_empty() {
                cx.error(
                    member.value.span,
                    format!("a matcher must set exactly one of {MATCHERS}; it sets none"),
                );
            }
            None
        }
        [one] => match one.key.as_str() {
            "success" => boolean(cx, one).map(Matcher::Success),
            "errorType" => string(cx, one).map(Matcher::ErrorType),
            "output" => read_path_matcher(cx, one).map(Matcher::Output),
            _ => read_path_matcher(cx, one).map(Matcher::InputOutput),
        },
        [_, rest @ ..] => {
            for extra in rest {
                cx.error(
                    extra.key_span,
                    format!("a matcher must set exactly one of {MATCHERS}; remove `{}` or move it to its own acceptor", extra.key),
                );
            }
            None
        }
    }
}

fn read_path_matcher(cx: &Ctxt, member: &Member) -> Option<PathMatcher> {
    let members = object(cx, &member.value, &format!("the `{}` matcher", member.key))?;
    let (mut path, mut expected, mut comparator) = (None, None, None);
    let (mut has_path, mut has_expected, mut has_comparator) = (false, false, false);
    const KNOWN: &[&str] = &["path", "expected", "comparator"];
    for m in members {
        if duplicate(cx, members, m) {
            continue;
        }
        match m.key.as_str() {
            "path" => {
                has_path = true;
                path = string(cx, m);
            }
            "expected" => {
                has_expected = true;
                expected = string(cx, m);
            }
            "comparator" => {
                has_comparator = true;
                if let Some(s) = string(cx, m) {
                    comparator = match s.value().as_str() {
                        "stringEquals" => Some(Comparator::StringEquals),
                        "booleanEquals" => Some(Comparator::BooleanEquals),
                        "allStringEquals" => Some(Comparator::AllStringEquals),
                        "anyStringEquals" => Some(Comparator::AnyStringEquals),
                        other => {
                            // `arrayEmpty` was a comparator in drafts of the spec.
                            let advice = if other == "arrayEmpty" {
                                "; to test for an empty list compare its length: path \"length(<path>) == `0`\", comparator \"booleanEquals\", expected \"true\""
                            } else {
                                ""
                            };
                            cx.error(
                                s.span(),
                                format!(
                                    "unknown comparator \"{other}\": expected \"stringEquals\", \"booleanEquals\", \"allStringEquals\" or \"anyStringEquals\"{advice}"
                                ),
                            );
                            None
                        }
                    };
                }
            }
            _ => unknown(cx, m, &format!("the `{}` matcher", member.key), KNOWN),
        }
    }
    for (has, key, example) in [
        (has_path, "path", "path: \"status\" (a JMESPath expression)"),
        (has_expected, "expected", "expected: \"...\""),
        (has_comparator, "comparator", "comparator: \"stringEquals\""),
    ] {
        if !has {
            cx.error(
                member.value.span,
                format!(
                    "the `{}` matcher is missing the required member `{key}`: add `{example}`",
                    member.key
                ),
            );
        }
    }
    let mut expected_not_boolean = false;
    if let (Some(Comparator::BooleanEquals), Some(e)) = (comparator, &expected) {
        if e.value() != "true" && e.value() != "false" {
            expected_not_boolean = true;
            // With a path, the error is reported where the path's type is known (the advice
            // depends on it: `stringEquals`, or `allStringEquals`/`anyStringEquals` on a list).
            if path.is_none() {
                expected_not_a_boolean(cx, e, None);
            }
        }
    }
    Some(PathMatcher {
        path: path?,
        expected: expected?,
        comparator: comparator?,
        key_span: member.key_span,
        expected_not_boolean,
    })
}

/// `booleanEquals` with an `expected` other than "true"/"false": the error at `expected`,
/// advising the comparator that fits the path's result (`path_type`, when it is known): a
/// string comparator for one value, `allStringEquals`/`anyStringEquals` for a list.
pub(super) fn expected_not_a_boolean(
    cx: &Ctxt,
    expected: &LitStr,
    path_type: Option<&crate::jmespath::StaticType>,
) {
    let advice = match path_type {
        Some(crate::jmespath::StaticType::Array(_)) => {
            "the path gives a list: to compare every element with it, write `comparator: \
             \"allStringEquals\"`; to find one element equal to it, `comparator: \"anyStringEquals\"`"
        }
        _ => "to compare the path with a string, write `comparator: \"stringEquals\"`",
    };
    cx.error(
        expected.span(),
        format!(
            "with `booleanEquals`, `expected` must be \"true\" or \"false\", found \"{}\"; {advice}",
            expected.value()
        ),
    );
}
