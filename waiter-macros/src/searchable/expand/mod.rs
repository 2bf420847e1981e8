//! Code generation: the `Searchable` impls (structs' in [`object`], newtypes', tuples', unit
//! structs' and enums' here, each member spelled by [`member`]), the description typed paths
//! read ([`describe`]), and on error the fallback impl.

mod describe;
mod member;
mod object;

use super::model::*;
use member::{rt, value};
use object::object_impl;
use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

/// The type parameters that appear in the types of searchable (not skipped) fields.
fn used_params(shape: &Shape, params: &[syn::Ident]) -> Vec<syn::Ident> {
    fn scan(tokens: TokenStream, params: &[syn::Ident], used: &mut Vec<bool>) {
        for t in tokens {
            match t {
                proc_macro2::TokenTree::Ident(i) => {
                    if let Some(k) = params.iter().position(|p| *p == i) {
                        used[k] = true;
                    }
                }
                proc_macro2::TokenTree::Group(g) => scan(g.stream(), params, used),
                _ => {}
            }
        }
    }
    let mut used = vec![false; params.len()];
    // A converted field (`with`, `serde`, `blob`, `timestamp`) needs no `T: Searchable`.
    let mut visit = |f: &Field| {
        if matches!(f.how, How::Node) {
            let ty = &f.ty;
            scan(quote!(#ty), params, &mut used);
        }
    };
    match shape {
        Shape::Object(fs) | Shape::Tuple(fs) => fs.iter().for_each(&mut visit),
        Shape::Newtype(f) => visit(f),
        Shape::Unit => {}
        Shape::Enum(vs) => {
            for v in vs {
                match &v.fields {
                    VariantFields::Unit => {}
                    VariantFields::Newtype(f) => visit(f),
                    VariantFields::Tuple(fs) | VariantFields::Named(fs) => {
                        fs.iter().for_each(&mut visit)
                    }
                }
            }
        }
    }
    params
        .iter()
        .zip(used)
        .filter(|(_, u)| *u)
        .map(|(p, _)| p.clone())
        .collect()
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
    // As serde does: only parameters of searchable fields are bounded (`#[serde(skip)]`
    // fields and converted fields put no bound on theirs).
    let used = used_params(shape, &params);
    {
        let (_, ty_g, _) = input.generics.split_for_impl();
        let wc = generics.make_where_clause();
        for t in &used {
            wc.predicates
                .push(syn::parse_quote!(#t: #p::Searchable + ::core::marker::Sync));
        }
        // A struct is viewed in place, and views are `Sync` (search results are `Send + Sync`).
        if matches!(shape, Shape::Object(_)) && !params.is_empty() {
            wc.predicates
                .push(syn::parse_quote!(#ident #ty_g: ::core::marker::Sync));
        }
    }
    let (impl_g, ty_g, where_c) = generics.split_for_impl();
    let self_field = |m: &syn::Member| quote!(&self.#m);
    match shape {
        Shape::Object(fields) => {
            let (obj, searchable, by_name) = object_impl(ident, &input.generics, fields);
            quote! {
                #[automatically_derived]
                impl #impl_g #p::Searchable for #ident #ty_g #where_c {
                    fn node(&self) -> #p::Node<'_> {
                        #p::Node::Object(#p::Object::View(self))
                    }
                    #searchable
                }
                #[automatically_derived]
                impl #impl_g #p::SearchObject for #ident #ty_g #where_c {
                    #obj
                }
                #[automatically_derived]
                impl #impl_g #ident #ty_g #where_c {
                    #by_name
                }
            }
        }
        Shape::Newtype(f) => {
            let v = value(f, self_field(&f.member));
            let walk = match f.how {
                How::Node => {
                    let place = self_field(&f.member);
                    quote! {
                        #[inline]
                        fn follow(&self, path: &[&str]) -> #p::Node<'_> {
                            #p::Searchable::follow(#place, path)
                        }
                        #[inline]
                        fn __walk<'__a>(&'__a self, walk: #p::Walk<'_>, sink: &mut #p::Sink<'_, '__a>) {
                            #p::Searchable::__walk(#place, walk, sink)
                        }
                        #[inline]
                        fn __record(&self, plan: &mut #p::Plan, at: usize) {
                            #p::Searchable::__record(#place, plan, at)
                        }
                    }
                }
                _ => TokenStream::new(),
            };
            quote! {
                #[automatically_derived]
                impl #impl_g #p::Searchable for #ident #ty_g #where_c {
                    fn node(&self) -> #p::Node<'_> { #v }
                    #walk
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
            let walk = if all_unit {
                // A table indexed by the variant: no branch per element in a projection.
                let indices = variants.iter().enumerate().map(|(i, v)| {
                    let id = &v.ident;
                    quote!(Self::#id => #i,)
                });
                let wires = variants.iter().map(|v| &v.wire);
                let n = variants.len();
                quote! {
                    #[inline]
                    fn __walk<'__a>(&'__a self, walk: #p::Walk<'_>, sink: &mut #p::Sink<'_, '__a>) {
                        const __NAMES: [&str; #n] = [#(#wires),*];
                        walk.str(__NAMES[match self { #(#indices)* }], sink)
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
                    #walk
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
