//! Procedural macros behind [`waiter-runtime`](https://docs.rs/waiter-runtime).
//!
//! Do not depend on this crate directly: `waiter-runtime` re-exports every macro, with its
//! documentation (the macros below carry none of their own, so that each has one text), and the
//! code the macros emit names items of `waiter-runtime` by absolute path (`::waiter_runtime::..`,
//! or the path given with `crate = ".."`).
//!
//! Each macro follows the same three phases as `serde_derive`: parse the input into an internal
//! model, check the model (collecting every error in one pass into the shared `ctxt::Ctxt`,
//! JMESPath compilation included), then expand it into Rust, or into a fallback with the same
//! items and signatures when there were errors, so that one mistake is one error.

#![forbid(unsafe_code)]
// The macros are documented where users see them: on `waiter-runtime`'s re-exports.
#![allow(missing_docs)]

use proc_macro::TokenStream;

mod closest;
mod ctxt;
mod error_metadata;
mod jmespath;
mod jmespath_macro;
mod krate;
mod read_cache;
mod searchable;
mod type_walk;
mod typed_paths;
mod waitable;

/// `build.rs`'s reading of the compiler's version, tested with the crate.
#[cfg(test)]
#[path = "../build.rs"]
#[allow(dead_code)]
mod build_script;

#[proc_macro_attribute]
pub fn waitable(attr: TokenStream, item: TokenStream) -> TokenStream {
    waitable::expand(attr.into(), item.into(), location().as_ref()).into()
}

/// Where the attribute being expanded starts: its file, line and column (Rust 1.88 and later,
/// the cfg `waiter_span_location` that `build.rs` sets).
#[cfg(waiter_span_location)]
// `build.rs` sets the cfg only where these exist, above the crate's `rust-version`.
#[clippy::msrv = "1.88"]
fn location() -> Option<waitable::Location> {
    let span = proc_macro::Span::call_site();
    Some(waitable::Location {
        file: span.local_file()?,
        line: span.line(),
        column: span.column(),
    })
}

#[cfg(not(waiter_span_location))]
fn location() -> Option<waitable::Location> {
    None
}

#[proc_macro]
pub fn jmespath(input: TokenStream) -> TokenStream {
    jmespath_macro::expand(input.into()).into()
}

#[doc(hidden)]
#[proc_macro]
pub fn __jmespath_verdict(input: TokenStream) -> TokenStream {
    jmespath_macro::expand_verdict(input.into()).into()
}

#[proc_macro_derive(Searchable, attributes(searchable, serde))]
pub fn derive_searchable(input: TokenStream) -> TokenStream {
    searchable::derive(input.into()).into()
}

#[proc_macro_derive(ProvideErrorMetadata, attributes(error_metadata))]
pub fn derive_error_metadata(input: TokenStream) -> TokenStream {
    error_metadata::derive(input.into()).into()
}
