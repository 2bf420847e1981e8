//! The compiler rebuilds a crate when a file it read changed, and it knows of the files
//! `include_bytes!` reads (they are in the dep-info Cargo reads), not of those a proc macro
//! reads (`proc_macro::tracked_path` is unstable). So the first waiter function's body includes
//! the model file, in a statement that drops it: editing or replacing the file rebuilds the
//! crate, which reads it again.
//!
//! `let _ = include_bytes!(..);` costs the compiler next to nothing and adds nothing to the
//! compiled crate (measured on DynamoDB's 1.1 MB Smithy model: a library's `.rlib` is the same
//! size), where a constant (`const _: &[u8] = include_bytes!(..);`) is evaluated and kept in the
//! crate's metadata, twice (2.3 MB), and took some 40 ms more to compile.

use std::path::Path;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::LitStr;

/// `let _ = include_bytes!("<path>");` for the file at `path` (absolute): a statement.
pub(super) fn tracking(path: &Path) -> TokenStream {
    let Some(path) = path.to_str() else {
        // A path that is not UTF-8 cannot be written in a literal: the file is read, untracked.
        return TokenStream::new();
    };
    let path = LitStr::new(path, Span::call_site());
    quote! {
        let _ = ::core::include_bytes!(#path);
    }
}
