//! Code generation.

pub(crate) mod describe;
mod object;

use super::model::*;
use object::object_impl;
use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

pub(super) fn rt() -> TokenStream {
    let p = crate::krate::private();
    quote!(#p::jmespath)
}

/// The node of one field, given an expression of type `&FieldType`.
pub(super) fn value(f: &Field, place: TokenStream) -> TokenStream {
    let p = rt();
    match &f.how {
        How::Node => quote!(#p::Searchable::node(#place)),
        How::Blob => quote!(#p::AsBlob::blob_node(#place)),
        How::Timestamp => quote!(#p::AsTimestamp::timestamp_node(#place)),
        How::Serde => quote!(#p::serialized(#place)),
        How::With(path) => quote!(#path(#place)),
    }
}

/// The impl emitted next to the derive's errors: `Searchable` with its one required method, so
/// that the type's uses (a waiter's output, `jmespath!` searches) report nothing more.
pub(crate) fn fallback(input: &DeriveInput) -> TokenStream {
    let p = rt();
    let ident = &input.ident;
    let (impl_g, ty_g, where_c) = input.generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_g #p::Searchable for #ident #ty_g #where_c {
            fn node(&self) -> #p::Node<'_> {
                ::core::unreachable!("#[derive(Searchable)] reported errors at compile time")
            }
        }
    }
}

pub(crate) fn expand(input: &DeriveInput, shape: &Shape) -> TokenStream {
    let mut tokens = expand_impls(input, shape);
    tokens.extend(describe::describe(input, shape));
    tokens
}

fn expand_impls(input: &DeriveInput, shape: &Shape) -> TokenStream {
    let p = rt();
    let ident = &input.ident;
    let mut generics = input.generics.clone();
    let params: Vec<syn::Ident> = generics.type_params().map(|t| t.ident.clone()).collect();
    {
        let wc = generics.make_where_clause();
        for t in &params {
            wc.predicates.push(syn::parse_quote!(#t: #p::Searchable));
        }
    }
    let (impl_g, ty_g, where_c) = generics.split_for_impl();
    let self_field = |m: &syn::Member| quote!(&self.#m);
    match shape {
        Shape::Object(fields) => {
            let (obj, into) = object_impl(fields, self_field);
            quote! {
                #[automatically_derived]
                impl #impl_g #p::Searchable for #ident #ty_g #where_c {
                    fn node(&self) -> #p::Node<'_> {
                        #p::Node::Object(#p::Object::View(self))
                    }
                    #[inline]
                    fn follow(&self, path: &[&str]) -> #p::Node<'_> {
                        if path.is_empty() {
                            #p::Node::Object(#p::Object::View(self))
                        } else {
                            #p::SearchObject::follow(self, path)
                        }
                    }
                    #into
                }
                #[automatically_derived]
                impl #impl_g #p::SearchObject for #ident #ty_g #where_c {
                    #obj
                }
            }
        }
        Shape::Newtype(f) => {
            let v = value(f, self_field(&f.member));
            quote! {
                #[automatically_derived]
                impl #impl_g #p::Searchable for #ident #ty_g #where_c {
                    fn node(&self) -> #p::Node<'_> { #v }
                }
            }
        }
        Shape::Tuple(fields) => {
            let items = fields.iter().map(|f| value(f, self_field(&f.member)));
            quote! {
                #[automatically_derived]
                impl #impl_g #p::Searchable for #ident #ty_g #where_c {
                    fn node(&self) -> #p::Node<'_> {
                        #p::owned_array(::std::vec![#(#items),*])
                    }
                }
            }
        }
        Shape::Unit => quote! {
            #[automatically_derived]
            impl #impl_g #p::Searchable for #ident #ty_g #where_c {
                fn node(&self) -> #p::Node<'_> { #p::Node::Null }
            }
        },
        Shape::Enum(variants) => {
            let arms = variants.iter().map(variant_arm);
            let body = if variants.is_empty() {
                quote!(match *self {})
            } else {
                quote!(match self { #(#arms)* })
            };
            // Enums of unit variants (Smithy enums): a projection pushes the name directly.
            let all_unit = !variants.is_empty()
                && variants
                    .iter()
                    .all(|v| matches!(v.fields, VariantFields::Unit) && !v.untagged);
            let into = if all_unit {
                let names = variants
                    .iter()
                    .map(|v| {
                        let id = &v.ident;
                        let wire = &v.wire;
                        quote!(Self::#id => #wire,)
                    })
                    .collect::<Vec<_>>();
                quote! {
                    #[inline]
                    fn follow_into<'__a>(
                        &'__a self,
                        path: &[&str],
                        out: &mut ::std::vec::Vec<#p::Node<'__a>>,
                    ) {
                        if path.is_empty() {
                            #p::push_str(out, match self { #(#names)* });
                        }
                    }
                    #[inline]
                    fn __follow_planned<'__a>(
                        &'__a self,
                        _: &[u16],
                        path: &[&str],
                        slot: &mut #p::Node<'__a>,
                    ) -> bool {
                        path.is_empty()
                            && #p::fill(slot, #p::Node::String(#p::__Cow::Borrowed(
                                match self { #(#names)* }
                            )))
                    }
                    #[inline]
                    fn __follow_resolved<'__a>(
                        &'__a self,
                        _: &[u16],
                        slot: &mut #p::Node<'__a>,
                    ) -> bool {
                        #p::fill(slot, #p::Node::String(#p::__Cow::Borrowed(
                            match self { #(#names)* }
                        )))
                    }
                }
            } else {
                TokenStream::new()
            };
            quote! {
                #[automatically_derived]
                impl #impl_g #p::Searchable for #ident #ty_g #where_c {
                    #[allow(unused_variables)]
                    #[inline]
                    fn node(&self) -> #p::Node<'_> { #body }
                    #into
                }
            }
        }
    }
}

fn variant_arm(v: &Variant) -> TokenStream {
    let p = rt();
    let id = &v.ident;
    let wire = &v.wire;
    let bind = |m: &syn::Member| match m {
        syn::Member::Named(n) => quote!(#n),
        syn::Member::Unnamed(i) => {
            let b = quote::format_ident!("__f{}", i.index);
            quote!(#b)
        }
    };
    let wrap = |inner: TokenStream| {
        if v.untagged {
            inner
        } else {
            quote!(#p::union(#wire, #inner))
        }
    };
    match &v.fields {
        VariantFields::Unit => {
            if v.untagged {
                quote!(Self::#id { .. } => #p::Node::Null,)
            } else {
                quote!(Self::#id { .. } => #p::string(#wire),)
            }
        }
        VariantFields::Newtype(f) => {
            let inner = value(f, quote!(__f0));
            let body = wrap(inner);
            quote!(Self::#id(__f0) => #body,)
        }
        VariantFields::Tuple(fields) => {
            let n = fields
                .iter()
                .map(|f| match &f.member {
                    syn::Member::Unnamed(i) => i.index,
                    _ => 0,
                })
                .max()
                .unwrap_or(0);
            let binds = (0..=n).map(|i| quote::format_ident!("__f{}", i));
            let items = fields.iter().map(|f| value(f, bind(&f.member)));
            let body = wrap(quote!(#p::owned_array(::std::vec![#(#items),*])));
            quote!(Self::#id(#(#binds,)* ..) => #body,)
        }
        VariantFields::Named(fields) => {
            let binds = fields.iter().map(|f| bind(&f.member));
            let members = fields.iter().filter(|f| !f.flatten).map(|f| {
                let w = &f.wire;
                let b = bind(&f.member);
                let v = value(f, quote!(#b));
                quote!((#w, #v))
            });
            let body = wrap(quote!(#p::owned_object(::std::vec![#(#members),*])));
            quote!(Self::#id { #(#binds,)* .. } => #body,)
        }
    }
}
