//! `#[derive(Searchable)]`: the borrowed JMESPath view of a struct or enum.
//!
//! Phases, as in serde_derive: [`attr`] reads `#[serde(..)]` / `#[searchable(..)]` attributes,
//! [`parse`] builds the [`model`] of the type, [`check`] validates it (every error collected in
//! one [`attr::Errors`]), [`expand`] writes the `Searchable` / `SearchObject` impls. Names follow serde's wire names:
//! `#[serde(rename)]`, `#[serde(rename_all)]`, overridden by `#[searchable(..)]`.

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
    match parse::container(&input) {
        Ok(model) => expand::expand(&input, &model),
        Err(e) => e.to_compile_error(),
    }
}
