//! `output` and `inputOutput` matchers and failure `message`s: JMESPath compiled by
//! [`crate::jmespath`], checked against the comparator and the operation's signature, and
//! compared at run time by the comparator helpers of `waiter_runtime::jmespath`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::LitStr;

use super::ctxt::Ctxt;
use super::model::{Acceptor, Comparator, Matcher, PathMatcher};
use super::signature::Operation;
use crate::jmespath::{StaticType, compile_search};

/// What a path searches: the output alone, or `{"input": .., "output": ..}`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Data {
    Output,
    InputOutput,
}

/// Whether a waiter reads its input after the call (so the call gets clones of the parameters).
pub(crate) fn reads_input(acceptors: &[Acceptor]) -> bool {
    acceptors
        .iter()
        .any(|a| matches!(a.matcher, Matcher::InputOutput(_)))
}

/// Statements binding `__data`, the `T: Searchable` searched for `data` (with `__output: &O`
/// in scope), and the `&T` expression to search.
fn data_tokens(op: &Operation, data: Data, span: proc_macro2::Span) -> (TokenStream, TokenStream) {
    match data {
        Data::Output => (TokenStream::new(), quote_spanned!(span=> __output)),
        Data::InputOutput => {
            let input = match op.params.as_slice() {
                [one] => {
                    let ident = &one.ident;
                    quote_spanned!(span=> let __input = &#ident;)
                }
                params => {
                    let fields = params.iter().map(|p| {
                        let (ident, name) = (&p.ident, &p.name);
                        quote_spanned!(span=> (#name, &#ident as &dyn ::waiter_runtime::jmespath::Searchable))
                    });
                    quote_spanned! {span=>
                        let __fields: &[(&'static str, &dyn ::waiter_runtime::jmespath::Searchable)] = &[#(#fields),*];
                        let __input = &::waiter_runtime::jmespath::Fields(__fields);
                    }
                }
            };
            let setup = quote_spanned! {span=>
                #input
                let __data = ::waiter_runtime::jmespath::InputOutput::new(__input, __output);
            };
            (setup, quote_spanned!(span=> &__data))
        }
    }
}

/// Compiles `path` and checks the field chains it reads from the root against the signature.
/// Returns statements binding `__value` (the search result) and the result's static type.
fn compile(
    cx: &mut Ctxt,
    op: &Operation,
    path: &LitStr,
    data: Data,
) -> Option<(TokenStream, StaticType)> {
    let (setup, data_expr) = data_tokens(op, data, path.span());
    let compiled = match compile_search(path, data_expr) {
        Ok(c) => c,
        Err(e) => {
            cx.push(e);
            return None;
        }
    };
    let mut ok = true;
    if data == Data::InputOutput {
        for root in &compiled.root_paths {
            let Some(top) = root.first() else { continue };
            match top.as_str() {
                "output" if op.unit_output => {
                    cx.error(
                        path.span(),
                        format!(
                            "`{}` reads `output`, but this operation returns `Result<(), E>`: there is no output to read",
                            root.join(".")
                        ),
                    );
                    ok = false;
                }
                "output" => {}
                "input" => match (op.params.as_slice(), root.get(1)) {
                    ([], Some(field)) => {
                        cx.error(
                            path.span(),
                            format!(
                                "`input.{field}` reads a parameter, but this function has none (`input` is an empty object); read `output` instead"
                            ),
                        );
                        ok = false;
                    }
                    (params @ [_, _, ..], Some(field))
                        if !params.iter().any(|p| &p.name == field) =>
                    {
                        let names: Vec<_> = params
                            .iter()
                            .map(|p| format!("`input.{}`", p.name))
                            .collect();
                        cx.error(
                            path.span(),
                            format!(
                                "`input.{field}`: this function has no parameter `{field}`; with several parameters `input` is an object of them: {}",
                                names.join(", ")
                            ),
                        );
                        ok = false;
                    }
                    _ => {}
                },
                other => {
                    cx.error(
                        path.span(),
                        format!(
                            "an `inputOutput` path starts from `input` or `output`, not `{other}`: write `output.{other}` or `input.{other}`"
                        ),
                    );
                    ok = false;
                }
            }
        }
    }
    let eval = compiled.eval;
    ok.then_some((quote!(#setup let __value = #eval;), compiled.ty))
}

fn can_satisfy(comparator: Comparator, ty: &StaticType) -> bool {
    match comparator {
        Comparator::StringEquals => matches!(ty, StaticType::String | StaticType::Any),
        Comparator::BooleanEquals => matches!(ty, StaticType::Boolean | StaticType::Any),
        Comparator::AllStringEquals | Comparator::AnyStringEquals => match ty {
            StaticType::Any => true,
            StaticType::Array(elem) => matches!(**elem, StaticType::String | StaticType::Any),
            _ => false,
        },
    }
}

fn describe(ty: &StaticType) -> String {
    match ty {
        StaticType::Array(elem) => format!("an array of {}", describe(elem)),
        StaticType::Null => "always null".to_owned(),
        StaticType::Any => "anything".to_owned(),
        other => format!("a {}", other.name()),
    }
}

/// The condition (a `bool` expression over `__result: &Result<O, E>`) of a path matcher.
pub(crate) fn condition(
    cx: &mut Ctxt,
    op: &Operation,
    matcher: &PathMatcher,
    input_output: bool,
) -> TokenStream {
    let data = if input_output {
        Data::InputOutput
    } else {
        Data::Output
    };
    let Some((eval, ty)) = compile(cx, op, &matcher.path, data) else {
        return quote!(false);
    };
    if !can_satisfy(matcher.comparator, &ty) {
        let needs = match matcher.comparator {
            Comparator::StringEquals => "a string",
            Comparator::BooleanEquals => "a boolean",
            Comparator::AllStringEquals | Comparator::AnyStringEquals => "an array of strings",
        };
        cx.error(
            matcher.path.span(),
            format!(
                "`{}` needs {needs}, but \"{}\" is {}, so this acceptor could never match",
                matcher.comparator.name(),
                matcher.path.value(),
                describe(&ty)
            ),
        );
        return quote!(false);
    }
    let expected = &matcher.expected;
    let compare = match matcher.comparator {
        Comparator::StringEquals => {
            quote!(::waiter_runtime::jmespath::string_equals(&__value, #expected))
        }
        Comparator::BooleanEquals => {
            let b = expected.value() == "true";
            quote!(::waiter_runtime::jmespath::boolean_equals(&__value, #b))
        }
        Comparator::AllStringEquals => {
            quote!(::waiter_runtime::jmespath::all_string_equals(&__value, #expected))
        }
        Comparator::AnyStringEquals => {
            quote!(::waiter_runtime::jmespath::any_string_equals(&__value, #expected))
        }
    };
    quote! {
        match __result {
            ::core::result::Result::Ok(__output) => {
                #eval
                #compare
            }
            ::core::result::Result::Err(_) => false,
        }
    }
}

/// The failure message (an `Option<String>` expression) of a failure acceptor: its `message`
/// evaluated against what its matcher searches (the output, or input and output; for `success`
/// and `errorType` matchers the output, when the poll succeeded).
pub(crate) fn message(cx: &mut Ctxt, op: &Operation, acceptor: &Acceptor) -> TokenStream {
    let Some(message) = &acceptor.message else {
        return quote!(::core::option::Option::None);
    };
    let data = match acceptor.matcher {
        Matcher::InputOutput(_) => Data::InputOutput,
        _ => Data::Output,
    };
    if data == Data::Output && op.unit_output {
        cx.error(
            message.span(),
            "`message` is searched in the output, but this operation returns `Result<(), E>`; remove it",
        );
        return quote!(::core::option::Option::None);
    }
    let Some((eval, ty)) = compile(cx, op, message, data) else {
        return quote!(::core::option::Option::None);
    };
    let fits = match &ty {
        StaticType::String | StaticType::Any => true,
        StaticType::Array(elem) => matches!(**elem, StaticType::String | StaticType::Any),
        _ => false,
    };
    if !fits {
        cx.error(
            message.span(),
            format!(
                "a failure `message` must evaluate to a string or a list of strings, but \"{}\" is {}",
                message.value(),
                describe(&ty)
            ),
        );
        return quote!(::core::option::Option::None);
    }
    quote! {
        match __result {
            ::core::result::Result::Ok(__output) => {
                #eval
                ::waiter_runtime::jmespath::failure_message(&__value)
            }
            ::core::result::Result::Err(_) => ::core::option::Option::None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparators_and_types() {
        let arr = |t| StaticType::Array(Box::new(t));
        assert!(can_satisfy(Comparator::StringEquals, &StaticType::String));
        assert!(can_satisfy(Comparator::StringEquals, &StaticType::Any));
        assert!(!can_satisfy(Comparator::StringEquals, &StaticType::Boolean));
        assert!(!can_satisfy(Comparator::BooleanEquals, &StaticType::Number));
        assert!(!can_satisfy(Comparator::BooleanEquals, &StaticType::Null));
        assert!(can_satisfy(
            Comparator::AllStringEquals,
            &arr(StaticType::String)
        ));
        assert!(can_satisfy(
            Comparator::AnyStringEquals,
            &arr(StaticType::Any)
        ));
        assert!(!can_satisfy(
            Comparator::AnyStringEquals,
            &arr(StaticType::Number)
        ));
        assert!(!can_satisfy(
            Comparator::AllStringEquals,
            &StaticType::String
        ));
    }
}
