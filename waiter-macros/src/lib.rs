//! Procedural macros behind [`waiter-runtime`](https://docs.rs/waiter-runtime).
//!
//! Do not depend on this crate directly: `waiter-runtime` re-exports every macro, and the code
//! the macros emit names items of `waiter-runtime` by absolute path (`::waiter_runtime::...`).
//!
//! Each macro follows the same three phases as `serde_derive`: parse the input into an internal
//! model, check the model (collecting every error in one pass), then expand it into Rust.

#![forbid(unsafe_code)]

use proc_macro::TokenStream;

mod ctxt;
mod error_metadata;
mod jmespath;
mod krate;
mod searchable;
mod waitable;

/// Generates `wait_until_<name>` waiter functions from a Smithy `@waitable` trait value.
///
/// See `waiter_runtime::waitable` for the documentation.
#[proc_macro_attribute]
pub fn waitable(attr: TokenStream, item: TokenStream) -> TokenStream {
    waitable::expand(attr.into(), item.into()).into()
}

/// Compiles a JMESPath expression into Rust at macro time.
///
/// See `waiter_runtime::jmespath!` for the documentation.
#[proc_macro]
pub fn jmespath(input: TokenStream) -> TokenStream {
    jmespath::expand_macro(input.into()).into()
}

/// The compile-time verdict on a JMESPath expression, as a value (compliance tests only).
#[doc(hidden)]
#[proc_macro]
pub fn __jmespath_verdict(input: TokenStream) -> TokenStream {
    jmespath::expand_verdict(input.into()).into()
}

/// Expands into the official JMESPath compliance suite (`GIVENS` and `fn cases()`), read from
/// the `jmespath` crate's package (compliance tests only).
#[doc(hidden)]
#[proc_macro]
pub fn __jmespath_compliance(input: TokenStream) -> TokenStream {
    jmespath::compliance::expand(input.into()).into()
}

/// Derives `waiter_runtime::jmespath::Searchable`, the borrowed JMESPath view of a type.
///
/// See `waiter_runtime::Searchable` for the documentation.
#[proc_macro_derive(Searchable, attributes(searchable, serde))]
pub fn derive_searchable(input: TokenStream) -> TokenStream {
    searchable::derive(input.into()).into()
}

/// Derives `waiter_runtime::ProvideErrorMetadata` for an error enum.
///
/// See `waiter_runtime::ProvideErrorMetadata` for the documentation.
#[proc_macro_derive(ProvideErrorMetadata, attributes(error_metadata))]
pub fn derive_error_metadata(input: TokenStream) -> TokenStream {
    error_metadata::derive(input.into()).into()
}
