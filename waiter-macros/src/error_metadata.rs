//! `#[derive(ProvideErrorMetadata)]`: parse -> check -> expand, each phase its own module.
//!
//! * [`parse`] reads the item and its `#[error_metadata(...)]` attributes into [`model`],
//!   collecting every malformed attribute in one pass;
//! * [`check`] validates the model as a whole (conflicts, duplicates, field counts);
//! * [`expand`] writes the `impl ProvideErrorMetadata`.

mod check;
mod codes;
mod expand;
mod model;
mod parse;

use proc_macro2::TokenStream;

pub(crate) fn derive(input: TokenStream) -> TokenStream {
    let input = match syn::parse2::<syn::DeriveInput>(input) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error(),
    };
    let cx = crate::ctxt::Ctxt::new();
    let container = parse::container(&cx, &input);
    if let Some(container) = &container {
        check::container(&cx, container);
    }
    match (cx.check().map(drop), container) {
        (Ok(()), Some(container)) => expand::container(&container),
        (Err(err), container) => {
            // Like thiserror: also emit an impl, so the errors above are not followed by a
            // cascade of "method not found" at every use of the type.
            let mut tokens = err.to_compile_error();
            if let Some(container) = &container {
                tokens.extend(expand::fallback(container));
            }
            tokens
        }
        (Ok(()), None) => unreachable!("parsing failed without reporting an error"),
    }
}

/// A code as `errorType` matchers compare it (the part before a `:`, after a `#`, trimmed),
/// applied at compile time to derived codes and `errorType`s.
///
/// The twin of the runtime's `waiter_runtime::error_metadata::normalize_code`, which the matcher
/// applies at run time: the runtime depends on this crate and a proc-macro crate exports only
/// macros, so neither can call the other's. `waiter-runtime/tests/waitable/macro_runtime_agreement.rs`
/// keeps the two equal.
pub(crate) fn normalize_code(code: &str) -> String {
    let code = code.split_once(':').map_or(code, |(before, _)| before);
    let code = code.split_once('#').map_or(code, |(_, after)| after);
    code.trim().to_owned()
}
