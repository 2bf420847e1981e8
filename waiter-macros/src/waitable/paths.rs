//! `output` and `inputOutput` matchers and failure `message`s: JMESPath compiled by
//! [`crate::jmespath`](mod@crate::jmespath), checked against the comparator and the operation's
//! signature, and compared at run time by the comparator helpers of `waiter_runtime::jmespath`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::LitStr;

use super::model::{Acceptor, Comparator, Matcher, PathMatcher, State};
use super::signature::Operation;
use crate::ctxt::Ctxt;
use crate::jmespath::{StaticType, compile_search};
use crate::krate;

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

/// The `&T` expression a path searches: the output, or `{"input": .., "output": ..}` built
/// inside the search function from its `__output` and `__input` parameters.
fn data_expr(data: Data, span: proc_macro2::Span) -> TokenStream {
    match data {
        Data::Output => quote_spanned!(span=> __output),
        Data::InputOutput => quote_spanned!(span=> &__data),
    }
}

/// A `bool` or `Option<String>` expression (`ret`) computing `finish` from `__value`, the result
/// of `eval` over what `data` names, for `__output: &O` in scope.
///
/// The search runs in a function generic over the output type, bounded by
/// `OutputSearchable` (and the parameters go through `searchable_input`), and called at the
/// path's span: an output or parameter type that is not `Searchable` is one error there,
/// saying to derive it, and nothing else.
fn search(
    op: &Operation,
    data: Data,
    span: proc_macro2::Span,
    eval: TokenStream,
    ret: TokenStream,
    finish: TokenStream,
) -> TokenStream {
    let p = krate::private();
    let at = krate::private_at(span);
    match data {
        Data::Output => {
            let call = quote_spanned!(span=> __search(__output));
            quote! {{
                fn __search<__O: #p::OutputSearchable>(__output: &__O) -> #ret {
                    let __value = #eval;
                    #finish
                }
                #call
            }}
        }
        Data::InputOutput => {
            let input = match op.params.as_slice() {
                [one] => {
                    let mut ident = one.ident.clone();
                    ident.set_span(span);
                    quote_spanned!(span=> #at::searchable_input(&#ident))
                }
                params => {
                    let fields = params.iter().map(|param| {
                        let mut ident = param.ident.clone();
                        ident.set_span(span);
                        let name = &param.name;
                        quote_spanned!(span=> (#name, #at::searchable_input(&#ident)))
                    });
                    quote_spanned!(span=> &#at::Fields(&[#(#fields),*]))
                }
            };
            let call = quote_spanned!(span=> __search(__output, #input));
            quote! {{
                fn __search<__O: #p::OutputSearchable>(
                    __output: &__O,
                    __input: &dyn #p::Searchable,
                ) -> #ret {
                    let __data = #p::InputOutput::new(__input, __output);
                    let __value = #eval;
                    #finish
                }
                #call
            }}
        }
    }
}

/// Compiles `path` and checks the field chains it reads from the root against the signature.
/// Returns the search expression over what `data` names, and the result's static type.
fn compile(
    cx: &Ctxt,
    op: &Operation,
    path: &LitStr,
    data: Data,
) -> Option<(TokenStream, StaticType)> {
    let compiled = match compile_search(path, data_expr(data, path.span())) {
        Ok(c) => c,
        Err(e) => {
            cx.syn_error(e);
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
    ok.then_some((compiled.eval, compiled.ty))
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

/// Whether `ty` is a list whose elements the untyped check cannot see (`services[].status`
/// reads a list of what `status` holds).
fn list_of_unseen(ty: &StaticType) -> bool {
    match ty {
        StaticType::Array(elem) => matches!(**elem, StaticType::Any) || list_of_unseen(elem),
        _ => false,
    }
}

/// The condition (a `bool` expression over `__result: &Result<O, E>`) of a path matcher, and
/// whether its comparator (`stringEquals`, `booleanEquals`) is applied to a list whose elements
/// only the typed check sees: that check then reports the mistake, naming them
/// ([`crate::typed_paths::Need::ComparatorOnList`]).
pub(crate) fn condition(
    cx: &Ctxt,
    op: &Operation,
    matcher: &PathMatcher,
    input_output: bool,
) -> (TokenStream, bool) {
    let data = if input_output {
        Data::InputOutput
    } else {
        Data::Output
    };
    let compiled = compile(cx, op, &matcher.path, data);
    if matcher.expected_not_boolean {
        let ty = compiled.as_ref().map(|(_, ty)| ty);
        super::read::expected_not_a_boolean(cx, &matcher.expected, ty);
    }
    let Some((eval, ty)) = compiled else {
        return (quote!(false), false);
    };
    let on_list = !matcher.expected_not_boolean
        && data == Data::Output
        && matches!(
            matcher.comparator,
            Comparator::StringEquals | Comparator::BooleanEquals
        )
        && list_of_unseen(&ty)
        && crate::typed_paths::checks_leaf(op, &matcher.path);
    // An `expected` that is not a boolean has its error, which says to use `stringEquals`.
    if !matcher.expected_not_boolean && !on_list && !can_satisfy(matcher.comparator, &ty) {
        let needs = match matcher.comparator {
            Comparator::StringEquals => "a string",
            Comparator::BooleanEquals => "a boolean",
            Comparator::AllStringEquals | Comparator::AnyStringEquals => "an array of strings",
        };
        let advice = match (matcher.comparator, &ty) {
            (Comparator::StringEquals, StaticType::Array(elem))
                if matches!(**elem, StaticType::String | StaticType::Any) =>
            {
                "; to compare every element use `\"allStringEquals\"`, to find one `\"anyStringEquals\"`"
            }
            (Comparator::AllStringEquals | Comparator::AnyStringEquals, StaticType::String) => {
                "; to compare one string use `\"stringEquals\"`"
            }
            (Comparator::BooleanEquals, StaticType::String) => {
                "; to compare a string use `\"stringEquals\"`"
            }
            _ => "",
        };
        cx.error(
            matcher.path.span(),
            format!(
                "`{}` needs {needs}, but \"{}\" is {}, so this acceptor could never match{advice}",
                matcher.comparator.name(),
                matcher.path.value(),
                describe(&ty)
            ),
        );
        return (quote!(false), false);
    }
    let expected = &matcher.expected;
    let p = krate::private();
    let compare = match matcher.comparator {
        Comparator::StringEquals => quote!(#p::string_equals(&__value, #expected)),
        Comparator::BooleanEquals => {
            let b = expected.value() == "true";
            quote!(#p::boolean_equals(&__value, #b))
        }
        Comparator::AllStringEquals => quote!(#p::all_string_equals(&__value, #expected)),
        Comparator::AnyStringEquals => quote!(#p::any_string_equals(&__value, #expected)),
    };
    let search = search(op, data, matcher.path.span(), eval, quote!(bool), compare);
    let condition = quote! {
        match __result {
            ::core::result::Result::Ok(__output) => #search,
            ::core::result::Result::Err(_) => false,
        }
    };
    (condition, on_list)
}

/// The failure message (an `Option<String>` expression) of a failure acceptor: its `message`
/// evaluated against what its matcher searches (the output, or input and output; for `success`
/// and `errorType` matchers the output, when the poll succeeded).
pub(crate) fn message(cx: &Ctxt, op: &Operation, acceptor: &Acceptor) -> TokenStream {
    let Some(message) = &acceptor.message else {
        return quote!(::core::option::Option::None);
    };
    // A `message` off a failure acceptor is one mistake, reported once by `check`: its path is
    // not looked at too.
    if acceptor.state != State::Failure {
        return quote!(::core::option::Option::None);
    }
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
    let p = krate::private();
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
    let search = search(
        op,
        data,
        message.span(),
        eval,
        quote!(::core::option::Option<::std::string::String>),
        quote!(#p::failure_message(&__value)),
    );
    quote! {
        match __result {
            ::core::result::Result::Ok(__output) => #search,
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
