//! What a path can find in the type, published at compile time for typed paths:
//! `impl<N: Depth> Described<N>`, the wire members, each with the wrappers around its innermost
//! type (decided from the field's type as written) and a link to that type's description, looked
//! up once here where the field types are concrete. See `waiter_runtime::__private_v0_1::typed`.
//!
//! What cannot be described is left out, and is then "unknown" (anything goes below it):
//! newtype and tuple structs, struct variants, `serde`/`with` conversions, enums whose unit
//! variants (strings) sit beside variants that are not strings, members whose type is a type
//! parameter. A string enum with an untagged string catch-all (`#[serde(untagged)]
//! Unknown(String)`) is a string. A `flatten`ed derived struct's members join the type's; any
//! other `flatten`ed field (a map, an unknown type) makes every name valid.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{DeriveInput, GenericArgument, PathArguments, Type};

use super::super::model::{Field, How, Shape, Variant, VariantFields};
use crate::typed_paths::description::{hash, unwrap};

struct Entry {
    name: String,
    rust: String,
    wraps: Vec<&'static str>,
    /// The innermost type, or `None` when it is not described (unknown).
    ty: Option<TokenStream>,
}

fn entry(f: &Field) -> Entry {
    let (mut wraps, inner) = unwrap(&f.ty);
    let ty = match &f.how {
        How::Node => Some(quote!(#inner)),
        How::Blob => {
            // Bytes become one base64 string: drop the byte layer.
            wraps.pop();
            Some(quote!(::std::string::String))
        }
        How::Timestamp => Some(quote!(f64)),
        How::Serde | How::With(_) => {
            wraps.clear();
            None
        }
    };
    let rust = match &f.member {
        syn::Member::Named(id) => {
            let s = id.to_string();
            s.strip_prefix("r#").unwrap_or(&s).to_owned()
        }
        syn::Member::Unnamed(i) => i.index.to_string(),
    };
    Entry {
        name: f.wire.clone(),
        rust,
        wraps,
        ty,
    }
}

/// Whether `v` is a string on the wire: a unit variant, or an untagged newtype variant whose
/// field is a string (`String`, `Box<str>`, `Cow<str>`...).
fn string_variant(v: &Variant) -> bool {
    match &v.fields {
        VariantFields::Unit => true,
        VariantFields::Newtype(f) if v.untagged && matches!(f.how, How::Node) => {
            let (wraps, inner) = unwrap(&f.ty);
            wraps.is_empty() && is_str(&inner)
        }
        _ => false,
    }
}

fn is_str(ty: &Type) -> bool {
    let Type::Path(p) = ty else { return false };
    let Some(last) = p.path.segments.last() else {
        return false;
    };
    match last.ident.to_string().as_str() {
        "String" | "str" => true,
        "Cow" => match &last.arguments {
            PathArguments::AngleBracketed(a) => a.args.iter().any(
                |a| matches!(a, GenericArgument::Type(Type::Path(t)) if t.path.is_ident("str")),
            ),
            _ => false,
        },
        _ => false,
    }
}

pub(crate) fn describe(input: &DeriveInput, shape: &Shape) -> TokenStream {
    let p = crate::krate::private();
    let t = quote!(#p::typed);
    let ident = &input.ident;
    let name = ident.to_string();
    // The type parameters: a member of one of these types is unknown (the derive cannot see
    // what it will be); written out as unknown rather than looked up, which would find nothing.
    let params: Vec<String> = input
        .generics
        .type_params()
        .map(|p| p.ident.to_string())
        .collect();
    let link = |ty: &Option<TokenStream>| match ty {
        Some(ty) if !is_param(ty, &params) => quote!(#t::Probe::<#ty, __N>::LINK),
        _ => quote!(#t::Desc::UNKNOWN),
    };
    let (kind, entries, flattened, open) = match shape {
        Shape::Object(fields) => (
            quote!(Object),
            fields
                .iter()
                .filter(|f| !f.flatten)
                .map(entry)
                .collect::<Vec<_>>(),
            // A flattened struct's members are the type's; anything else flattened (a map, a
            // type that is not described) accepts every name.
            fields
                .iter()
                .filter(|f| f.flatten)
                .map(|f| {
                    let e = entry(f);
                    if e.wraps.is_empty() {
                        link(&e.ty)
                    } else {
                        quote!(#t::Desc::UNKNOWN)
                    }
                })
                .collect::<Vec<_>>(),
            false,
        ),
        Shape::Enum(variants)
            if variants
                .iter()
                .all(|v| matches!(v.fields, VariantFields::Unit)) =>
        {
            (quote!(String), Vec::new(), Vec::new(), false)
        }
        // A string enum with a catch-all for values it does not know (`#[serde(untagged)]
        // Unknown(String)`, the forward-compatible Smithy enum) is a string all the same.
        Shape::Enum(variants) if variants.iter().all(string_variant) => {
            (quote!(String), Vec::new(), Vec::new(), false)
        }
        // A tagged unit variant is a string where the other variants are objects or whatever an
        // untagged variant holds: it could be either, so it is not described (anything goes).
        Shape::Enum(variants)
            if variants
                .iter()
                .any(|v| matches!(v.fields, VariantFields::Unit) && !v.untagged) =>
        {
            return TokenStream::new();
        }
        Shape::Enum(variants) => {
            let mut open = false;
            let entries = variants
                .iter()
                .filter_map(|v| {
                    if v.untagged {
                        open = true;
                        return None;
                    }
                    Some(match &v.fields {
                        VariantFields::Newtype(f) => Entry {
                            name: v.wire.clone(),
                            rust: v.ident.to_string(),
                            ..entry(f)
                        },
                        _ => Entry {
                            name: v.wire.clone(),
                            rust: v.ident.to_string(),
                            wraps: Vec::new(),
                            ty: None,
                        },
                    })
                })
                .collect();
            (quote!(Object), entries, Vec::new(), open)
        }
        Shape::Newtype(_) | Shape::Tuple(_) | Shape::Unit => return TokenStream::new(),
    };
    let members = entries.iter().map(|e| {
        let (name, rust) = (&e.name, &e.rust);
        let wraps = e.wraps.iter().map(|w| {
            let w = syn::Ident::new(w, proc_macro2::Span::call_site());
            quote!(#t::Wrap::#w)
        });
        let hash = hash(name);
        let ty = link(&e.ty);
        quote!(#t::Member { name: #name, hash: #hash, rust: #rust, wraps: &[#(#wraps),*], ty: #ty })
    });
    let mut generics = input.generics.clone();
    generics.params.push(syn::parse_quote!(__N: #t::Depth));
    let (impl_g, _, _) = generics.split_for_impl();
    let (_, ty_g, where_c) = input.generics.split_for_impl();
    quote! {
        const _: () = {
            #[allow(unused_imports)]
            use #t::Undescribed as _;
            #[automatically_derived]
            #[doc(hidden)]
            impl #impl_g #t::Described<__N> for #ident #ty_g #where_c {
                const DESC: &'static #t::Desc = &#t::Desc {
                    name: #name,
                    kind: #t::Kind::#kind,
                    members: &[#(#members),*],
                    flattened: &[#(#flattened),*],
                    open: #open,
                };
            }
        };
    }
}

/// Whether `ty` is one of the type parameters `params` (a bare `T`).
fn is_param(ty: &TokenStream, params: &[String]) -> bool {
    let mut tokens = ty.clone().into_iter();
    match (tokens.next(), tokens.next()) {
        (Some(proc_macro2::TokenTree::Ident(i)), None) => params.contains(&i.to_string()),
        _ => false,
    }
}
