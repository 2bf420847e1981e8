//! `#[derive(Searchable)]`: the borrowed JMESPath view of a struct or enum.
//!
//! Phases, as in serde_derive: [`attr`] reads `#[serde(..)]` / `#[searchable(..)]` attributes,
//! [`parse`] builds the [`model`] of the type, [`check`] validates it (every error collected in
//! the crate's shared [`Ctxt`](crate::ctxt::Ctxt)), [`expand`] writes the `Searchable` /
//! `SearchObject` impls, or on error a fallback `Searchable` impl so that uses of the type do not
//! fail too. Names follow serde's wire names: `#[serde(rename)]`, `#[serde(rename_all)]`,
//! overridden by `#[searchable(..)]`.

mod attr;
mod check;
mod expand;
mod model;
mod parse;
mod rename;

use proc_macro2::TokenStream;
use syn::DeriveInput;

pub(crate) fn derive(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    let mut cx = crate::ctxt::Ctxt::new();
    let (model, krate) = parse::container(&input, &mut cx);
    crate::krate::with(krate.as_ref(), || match cx.check() {
        Ok(_) => expand::expand(&input, &model),
        Err(e) => {
            let mut tokens = e.to_compile_error();
            tokens.extend(expand::fallback(&input));
            tokens
        }
    })
}
