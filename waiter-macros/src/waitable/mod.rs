//! PLACEHOLDER: the `#[waitable]` attribute (parse the Smithy trait value, check, expand).

use proc_macro2::TokenStream;

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let _ = attr;
    let mut out =
        syn::Error::new(proc_macro2::Span::call_site(), "not implemented yet").to_compile_error();
    out.extend(item);
    out
}
