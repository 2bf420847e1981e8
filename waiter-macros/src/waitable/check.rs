//! Rules that span several members: waiter names, the required `success` acceptor, delays,
//! `message` placement, and matchers that need an output.

use std::collections::HashMap;

use proc_macro2::TokenStream;

use super::model::{DEFAULT_MAX_DELAY_SECS, DEFAULT_MIN_DELAY_SECS, Matcher, State, Waitable};
use super::paths;
use super::signature::Operation;
use crate::ctxt::Ctxt;
use crate::typed_paths::{Need, Root, check_path};

/// What the check phase compiled for one acceptor: the condition of a path matcher and the
/// failure message (`None` when the acceptor has neither).
pub(crate) struct AcceptorCode {
    pub condition: Option<TokenStream>,
    pub message: TokenStream,
    /// The typed-path checks of its path and message (`const _` items).
    pub typed: TokenStream,
}

/// Checks the model and compiles every path, so that JMESPath errors and type errors come out
/// with the other errors. Returns the compiled code per waiter, per acceptor.
pub(crate) fn check(cx: &Ctxt, model: &Waitable, op: &Operation) -> Vec<Vec<AcceptorCode>> {
    rules(cx, model, Some(op));
    // Whether an `errorType` check was emitted yet: only the first says that the error type's
    // codes are not known (once per attribute, not once per acceptor).
    let mut error_type_checked = false;
    model
        .waiters
        .iter()
        .map(|waiter| {
            waiter
                .acceptors
                .iter()
                .enumerate()
                .map(|(index, acceptor)| {
                    // A waiter read from a model file: its messages say where in the file.
                    let origin = model
                        .origin
                        .as_ref()
                        .map(|o| o.acceptor(&waiter.name, index));
                    cx.in_context(origin.clone(), || {
                        let errors_before = cx.error_count();
                        let (condition, on_list) = match &acceptor.matcher {
                            Matcher::Output(m) => {
                                let (condition, on_list) = paths::condition(cx, op, m, false);
                                (Some(condition), on_list)
                            }
                            Matcher::InputOutput(m) => {
                                let (condition, on_list) = paths::condition(cx, op, m, true);
                                (Some(condition), on_list)
                            }
                            Matcher::Success(_) | Matcher::ErrorType(_) | Matcher::Status(..) => {
                                (None, false)
                            }
                        };
                        let message = paths::message(cx, op, acceptor);
                        // The typed-path checks run after expansion (const evaluation); an acceptor
                        // whose paths already have an error gets none, so that one mistake is one
                        // error. The others get theirs even when the attribute has errors elsewhere
                        // (the fallback emits them): every error arrives in one pass.
                        // The one error about a non-boolean `expected` leaves the path's field
                        // chain worth checking.
                        let own_errors = match &acceptor.matcher {
                            Matcher::Output(m) | Matcher::InputOutput(m) => {
                                usize::from(m.expected_not_boolean)
                            }
                            Matcher::Success(_) | Matcher::ErrorType(_) | Matcher::Status(..) => 0,
                        };
                        let typed = if acceptor.read_cleanly
                            && cx.error_count() == errors_before + own_errors
                        {
                            let origin = origin.as_deref().unwrap_or_default();
                            typed_checks(op, acceptor, on_list, &mut error_type_checked, origin)
                        } else {
                            TokenStream::new()
                        };
                        AcceptorCode {
                            condition,
                            message,
                            typed,
                        }
                    })
                })
                .collect()
        })
        .collect()
}

/// A warning when an `errorType` names a code the operation's error type does not model: its
/// `#[derive(ProvideErrorMetadata)]` publishes the codes of its variants, of its catch-all's
/// and `transparent` variants' `codes = [..]` (a `transparent` variant wrapping a transport
/// error the runtime describes adds none), with the warning's notes (the codes, or "did you
/// mean" the closest). Smithy warns the same (an `errorType` the operation does not list).
/// Codes that cannot be known (a hand-written `ProvideErrorMetadata`, a catch-all declaring
/// none) are not checked; when a `transparent` variant hides them, the `first` check says so.
///
/// The warning is a deprecated method of the derive's, chosen by a const-evaluated index and
/// called at the `errorType` string: rustc's `deprecated` lint, with the note as its text.
fn error_type_check(op: &Operation, error_type: &syn::LitStr, first: bool) -> TokenStream {
    let Some((_, error)) = &op.parts else {
        return TokenStream::new();
    };
    let Some(error) = crate::typed_paths::nameable(error, op) else {
        return TokenStream::new();
    };
    let code = crate::error_metadata::normalize_code(&error_type.value());
    let p = crate::krate::private();
    let check = proc_macro2::Ident::new("errorType", error_type.span());
    let codes = quote::quote!(#p::ErrorCodes::<#error>::CODES);
    let hint = if first {
        quote::quote!(#p::first_error_type_hint(#codes, #p::ErrorCodes::<#error>::UNKNOWN_HINT, #code))
    } else {
        quote::quote!(#p::error_type_hint(#codes, #code))
    };
    quote::quote! {
        #[allow(non_snake_case, dead_code, clippy::all)]
        {
            #[allow(unused_imports)]
            use #p::UnknownErrorCodes as _;
            fn check() {
                #p::ErrorCodes::<#error>::new()
                    .hint::<{ #hint }>()
                    .#check()
            }
        }
    }
}

/// The typed-path checks of an acceptor's path and message.
fn typed_checks(
    op: &Operation,
    acceptor: &super::model::Acceptor,
    on_list: bool,
    error_type_checked: &mut bool,
    origin: &str,
) -> TokenStream {
    let mut tokens = TokenStream::new();
    if let Matcher::ErrorType(error_type) = &acceptor.matcher {
        let check = error_type_check(op, error_type, !*error_type_checked);
        *error_type_checked |= !check.is_empty();
        tokens.extend(check);
    }
    let root = match &acceptor.matcher {
        Matcher::Output(m) => {
            tokens.extend(check_path(
                op,
                &m.path,
                Root::Output,
                comparator_need(m, on_list),
                origin,
            ));
            Root::Output
        }
        Matcher::InputOutput(m) => {
            tokens.extend(check_path(
                op,
                &m.path,
                Root::InputOutput,
                comparator_need(m, on_list),
                origin,
            ));
            Root::InputOutput
        }
        Matcher::Success(_) | Matcher::ErrorType(_) | Matcher::Status(..) => Root::Output,
    };
    if let Some(message) = &acceptor.message {
        tokens.extend(check_path(op, message, root, Some(Need::Message), origin));
    }
    tokens
}

/// What the path's result must be for its comparator; nothing when `expected` already has an
/// error (`booleanEquals` with "ACTIVE": the error says to compare with `stringEquals`). On a
/// list whose elements the untyped check cannot see (`on_list`), a need that never fits and
/// names them.
fn comparator_need(m: &super::model::PathMatcher, on_list: bool) -> Option<Need> {
    if m.expected_not_boolean {
        None
    } else if on_list {
        Some(Need::ComparatorOnList(m.comparator))
    } else {
        Some(Need::Comparator(m.comparator))
    }
}

fn rules(cx: &Ctxt, model: &Waitable, op: Option<&Operation>) {
    if model.waiters.is_empty() && !cx.has_errors() {
        cx.error(
            proc_macro2::Span::call_site(),
            "the `@waitable` trait value has no waiter: add one, as in \
             `BucketExists: { acceptors: [{ state: \"success\", matcher: { success: true } }] }`",
        );
    }
    let mut seen: HashMap<String, &str> = HashMap::new();
    for waiter in &model.waiters {
        let context = model.origin.as_ref().map(|o| o.waiter(&waiter.name));
        cx.in_context(context, || waiter_rules(cx, waiter, op, &mut seen));
    }
}

/// The rules of one waiter (`seen`: the names so far, folded to lower case).
fn waiter_rules<'m>(
    cx: &Ctxt,
    waiter: &'m super::model::WaiterDef,
    op: Option<&Operation>,
    seen: &mut HashMap<String, &'m str>,
) {
    {
        let name = waiter.name.as_str();
        if !is_valid_name(name) {
            cx.error(
                waiter.name_span,
                format!(
                    "invalid waiter name `{name}`: waiter names are UpperCamelCase, letters and digits only (`^[A-Z][A-Za-z0-9]*$`), e.g. `{}`",
                    suggest_name(name)
                ),
            );
        }
        match seen.get(&name.to_ascii_lowercase()) {
            Some(first) => cx.error(
                waiter.name_span,
                format!("waiter `{name}` has the same name as waiter `{first}` ignoring case; waiter names must be unique ignoring case"),
            ),
            None => {
                seen.insert(name.to_ascii_lowercase(), name);
            }
        }
        if waiter.acceptors_written > 0
            && waiter.acceptors.len() == waiter.acceptors_written
            && !waiter.acceptors.iter().any(|a| a.state == State::Success)
        {
            cx.error(
                waiter.acceptors_span,
                format!("waiter `{name}` has no acceptor with `state: \"success\"`, so it could never succeed; add one"),
            );
        }
        if let (Some((min, _)), Some((max, max_span))) = (waiter.min_delay, waiter.max_delay) {
            if min > max {
                cx.error(
                    max_span,
                    format!("`maxDelay` ({max}) must be at least `minDelay` ({min})"),
                );
            }
        } else if let (Some((min, span)), None) = (waiter.min_delay, waiter.max_delay) {
            if min > DEFAULT_MAX_DELAY_SECS {
                cx.error(span, format!("`minDelay` ({min}) is above the default `maxDelay` ({DEFAULT_MAX_DELAY_SECS}): set `maxDelay` too"));
            }
        } else if let (None, Some((max, span))) = (waiter.min_delay, waiter.max_delay) {
            if max < DEFAULT_MIN_DELAY_SECS {
                cx.error(
                    span,
                    format!(
                        "`maxDelay` ({max}) is below the default `minDelay` ({DEFAULT_MIN_DELAY_SECS}): set `minDelay` too"
                    ),
                );
            }
        }
        for acceptor in &waiter.acceptors {
            if acceptor.message.is_some() && acceptor.state != State::Failure {
                cx.error(
                    acceptor.message_key_span,
                    "`message` is only allowed on an acceptor with `state: \"failure\"`; remove it",
                );
            }
            if let (Matcher::Output(m), Some(op)) = (&acceptor.matcher, op) {
                if op.unit_output {
                    cx.error(
                        m.key_span,
                        "an `output` matcher needs an output, but this operation returns `Result<(), E>`; match with `success` or `errorType` instead",
                    );
                }
            }
        }
    }
}

/// `^[A-Z][A-Za-z0-9]*$`
fn is_valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase()) && chars.all(|c| c.is_ascii_alphanumeric())
}

fn suggest_name(name: &str) -> String {
    let camel = heck::ToUpperCamelCase::to_upper_camel_case(name);
    let cleaned: String = camel.chars().filter(char::is_ascii_alphanumeric).collect();
    if is_valid_name(&cleaned) {
        cleaned
    } else {
        "BucketExists".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_valid_name("BucketExists"));
        assert!(is_valid_name("DBInstanceAvailable2"));
        for bad in [
            "bucketExists",
            "Bucket_Exists",
            "",
            "1Bucket",
            "Bücket",
            "Bucket-Exists",
        ] {
            assert!(!is_valid_name(bad), "{bad}");
        }
        assert_eq!(suggest_name("bucket_exists"), "BucketExists");
    }
}
