//! The path of the runtime crate the emitted code names: `::waiter_runtime` unless the macro
//! is given `crate = "path"` (for a crate that re-exports `waiter-runtime` under another name,
//! like serde's `#[serde(crate = "..")]`).
//!
//! Every macro sets it for the duration of its expansion with [`with`]; code generators read it
//! with [`runtime`] and [`private`]. A proc macro expands on one thread, one invocation at a
//! time, so a thread-local holds it without threading a parameter through every generator.

use std::cell::RefCell;

use proc_macro2::{TokenStream, TokenTree};
use quote::{ToTokens, quote};

thread_local! {
    static CRATE: RefCell<Option<TokenStream>> = const { RefCell::new(None) };
}

/// Runs `f` with `path` (or `::waiter_runtime`) as the runtime crate.
pub(crate) fn with<R>(path: Option<&syn::Path>, f: impl FnOnce() -> R) -> R {
    let previous = CRATE.with(|c| c.replace(path.map(ToTokens::to_token_stream)));
    let out = f();
    CRATE.with(|c| *c.borrow_mut() = previous);
    out
}

/// The runtime crate's path.
pub(crate) fn runtime() -> TokenStream {
    CRATE
        .with(|c| c.borrow().clone())
        .unwrap_or_else(|| quote!(::waiter_runtime))
}

/// The runtime's hidden module of everything the emitted code calls.
pub(crate) fn private() -> TokenStream {
    let rt = runtime();
    quote!(#rt::__private_v0_1)
}

/// Splits a leading `crate = "path",` off a macro's input (`#[waitable(crate = "..", ..)]`,
/// `jmespath!(crate = "..", ..)`): the path, and the tokens after it. The derives read the
/// same option as one of their attributes' keys, with [`parse_path`].
pub(crate) fn split_option(input: TokenStream) -> syn::Result<(Option<syn::Path>, TokenStream)> {
    let tokens: Vec<TokenTree> = input.clone().into_iter().collect();
    match tokens.as_slice() {
        [TokenTree::Ident(kw), TokenTree::Punct(eq), rest @ ..]
            if kw == "crate" && eq.as_char() == '=' =>
        {
            let (lit, rest) = match rest {
                [TokenTree::Literal(lit), rest @ ..] => (lit, rest),
                _ => {
                    return Err(syn::Error::new(
                        eq.span(),
                        "expected `crate = \"path\"`, such as `crate = \"my_sdk::waiters\"`",
                    ));
                }
            };
            let lit: syn::LitStr = syn::parse2(TokenTree::Literal(lit.clone()).into())?;
            let path = parse_path(&lit)?;
            let rest = match rest {
                [TokenTree::Punct(p), rest @ ..] if p.as_char() == ',' => rest,
                rest => rest,
            };
            Ok((Some(path), rest.iter().cloned().collect()))
        }
        _ => Ok((None, input)),
    }
}

/// Parses the value of a `crate = "path"` option.
pub(crate) fn parse_path(lit: &syn::LitStr) -> syn::Result<syn::Path> {
    lit.parse::<syn::Path>().map_err(|_| {
        syn::Error::new(
            lit.span(),
            format!(
                "`crate = \"{}\"` must be a path to the runtime crate, such as \"::waiter_runtime\" or \"my_sdk::waiters\"",
                lit.value()
            ),
        )
    })
}

/// [`private`] with every token at `span`, for a call whose errors must point there.
pub(crate) fn private_at(span: proc_macro2::Span) -> TokenStream {
    respan(private(), span)
}

pub(crate) fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tt| {
            if let proc_macro2::TokenTree::Group(g) = &tt {
                let mut group = proc_macro2::Group::new(g.delimiter(), respan(g.stream(), span));
                group.set_span(span);
                tt = proc_macro2::TokenTree::Group(group);
            } else {
                tt.set_span(span);
            }
            tt
        })
        .collect()
}
