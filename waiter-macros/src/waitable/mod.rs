//! `#[waitable(...)]`: the value of a Smithy `@waitable` trait on an `async fn`.
//!
//! Phases, as in `serde_derive`: [`node`] reads the tokens as a Smithy node value (IDL or JSON
//! form), [`model`] types it, [`check`] applies the cross-member rules, [`signature`] reads the
//! annotated function, and [`expand`] emits one `wait_until_*` function per waiter. Every phase
//! reports into one [`ctxt::Ctxt`], so all errors come out together.

use proc_macro2::TokenStream;
use quote::quote;

mod check;
mod ctxt;
mod expand;
mod model;
mod node;
mod paths;
mod signature;

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item_fn: syn::ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(_) => {
            let err = syn::Error::new(
                proc_macro2::Span::call_site(),
                "#[waitable] goes on an `async fn` with a body (a method taking `&self`, or a free function) returning `Result<O, E>`",
            )
            .to_compile_error();
            return quote!(#err #item);
        }
    };
    let mut cx = ctxt::Ctxt::default();
    let op = signature::read(&mut cx, &item_fn.sig);
    let model = match node::parse_trait_value(attr) {
        Ok(node) => Some(model::read(&mut cx, &node)),
        Err(err) => {
            cx.push(err);
            None
        }
    };
    let mut expanded = TokenStream::new();
    if let Some(model) = &model {
        check::check(&mut cx, model, op.as_ref());
        if let Some(op) = &op {
            if !cx.has_errors() {
                expanded = expand::expand(&mut cx, &item_fn, op, model);
            }
        }
    }
    match cx.into_errors() {
        Ok(warnings) => {
            let warnings = expand::warnings(&item_fn, &warnings);
            quote!(#item_fn #expanded #warnings)
        }
        Err(errors) => {
            let errors = errors.to_compile_error();
            quote!(#item_fn #errors)
        }
    }
}
