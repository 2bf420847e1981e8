//! The compiler rebuilds a crate when a file it read changed, and it knows of the files
//! `include_bytes!` reads (they are in the dep-info Cargo reads), not of those a proc macro
//! reads (`proc_macro::tracked_path` is unstable). So the expansion includes the model file in
//! an unnamed constant that nothing uses: editing or replacing the file rebuilds the crate,
//! which reads it again.

use std::path::Path;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::LitStr;

/// `const _: &[u8] = include_bytes!("<path>");` for the file at `path` (absolute).
pub(super) fn tracking(path: &Path) -> TokenStream {
    let Some(path) = path.to_str() else {
        // A path that is not UTF-8 cannot be written in a literal: the file is read, untracked.
        return TokenStream::new();
    };
    let path = LitStr::new(path, Span::call_site());
    quote! {
        const _: &[u8] = ::core::include_bytes!(#path);
    }
}
