//! `jmespath!([crate = "path",] [Type,] "expr")` and `__jmespath_verdict!("expr")`: the macros'
//! input, read into the runtime's path, the type a path is checked against and the expression;
//! the expression compiled by [`crate::jmespath`](mod@crate::jmespath), with the typed-path checks of
//! [`crate::typed_paths`] when a type is given.

use proc_macro2::{TokenStream, TokenTree};
use quote::quote;
use syn::LitStr;

/// `jmespath!([crate = "path",] [Type,] "expr")`: an `Expression` value.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    let (krate, input) = match crate::krate::split_option(input) {
        Ok(split) => split,
        Err(e) => return expression_error(e),
    };
    crate::krate::with(krate.as_ref(), || {
        // `jmespath!(Type, "path")`: the path's field chains are checked against `Type`.
        let (ty, input) = match typed_input(input) {
            Ok(split) => split,
            Err(e) => return expression_error(e),
        };
        let lit = match parse_input(input) {
            Ok(l) => l,
            Err(e) => return expression_error(e),
        };
        match crate::jmespath::compile_expression(&lit) {
            Ok(e) => {
                let checks = ty
                    .map(|ty| crate::typed_paths::check_type(&lit, &ty))
                    .unwrap_or_default();
                quote!({ #checks #e })
            }
            Err(e) => expression_error(e),
        }
    })
}

/// `__jmespath_verdict!("expr")`: the compile-time verdict as a value, for the compliance suite.
pub(crate) fn expand_verdict(input: TokenStream) -> TokenStream {
    match parse_input(input) {
        Ok(lit) => crate::jmespath::verdict(&lit),
        Err(e) => e.to_compile_error(),
    }
}

fn parse_input(input: TokenStream) -> Result<LitStr, syn::Error> {
    syn::parse2::<LitStr>(input).map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected a string literal holding a JMESPath expression, as in \
             `jmespath!(\"Reservations[].Instances[].State.Name\")`",
        )
    })
}

/// Splits a leading `Type,` (anything before the last comma) off the macro's input.
fn typed_input(input: TokenStream) -> Result<(Option<syn::Type>, TokenStream), syn::Error> {
    let tokens: Vec<TokenTree> = input.clone().into_iter().collect();
    let comma = tokens
        .iter()
        .rposition(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','));
    match comma {
        // A trailing comma after the string is not a type.
        Some(i) if i + 1 < tokens.len() => {
            let ty: syn::Type = syn::parse2(tokens[..i].iter().cloned().collect()).map_err(|e| {
                syn::Error::new(
                    e.span(),
                    "expected `jmespath!(Type, \"path\")` (the type the path is checked against) or `jmespath!(\"path\")`",
                )
            })?;
            Ok((Some(ty), tokens[i + 1..].iter().cloned().collect()))
        }
        _ => Ok((None, input)),
    }
}

/// Several `compile_error!`s in expression position: a block whose value is an `Expression`
/// (one that returns its input), so that no follow-on type error is reported and the caller's
/// next statements are not "unreachable" (as after a diverging tail): one mistake, one error.
fn expression_error(e: syn::Error) -> TokenStream {
    let errors = e.to_compile_error();
    let p = crate::jmespath::runtime_path();
    quote!({ #errors #p::Expression::__new("", |node| ::core::result::Result::Ok(node)) })
}
