//! How the impls spell one member: the runtime's path and the member's place at the span of
//! the member's type, and the member's node by how it is read (`Searchable`, bytes, timestamp,
//! `serde`, `with`).

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

use super::super::model::{Field, How};

/// The runtime's JMESPath helpers for the emitted impls (`__private_v0_1::jmespath`).
pub(super) fn rt() -> TokenStream {
    let p = crate::krate::private();
    quote!(#p::jmespath)
}

/// The runtime's path and a member's place (`&self.field`), at the span of the member's type:
/// every `Searchable` call on a member is spelled with them, so that a member type that is not
/// `Searchable` is reported at the member's type, the same error at the same place each time
/// (which rustc shows once), with `Searchable`'s hint.
pub(super) fn at_member(f: &Field, place: TokenStream) -> (TokenStream, TokenStream, Span) {
    let span = syn::spanned::Spanned::span(&f.ty);
    (
        crate::krate::respan(rt(), span),
        crate::krate::respan(place, span),
        span,
    )
}

/// The node of one field, given an expression of type `&FieldType`.
pub(super) fn value(f: &Field, place: TokenStream) -> TokenStream {
    let p = rt();
    match &f.how {
        How::Node => {
            let (p, place, span) = at_member(f, place);
            quote_spanned!(span=> #p::Searchable::node(#place))
        }
        How::Blob => quote!(#p::AsBlob::blob_node(#place)),
        How::Timestamp => quote!(#p::AsTimestamp::timestamp_node(#place)),
        How::Serde => quote!(#p::serialized(#place)),
        How::With(path) => quote!(#path(#place)),
    }
}
