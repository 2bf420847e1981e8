//! `Searchable` and `SearchObject` bodies for named fields (structs, flattened members).

use super::super::model::*;
use super::{rt, value};
use proc_macro2::TokenStream;
use quote::quote;

/// `field`, `len` and `for_each_entry` bodies for named fields reached through `access`.
pub(super) fn object_impl(
    fields: &[Field],
    access: impl Fn(&syn::Member) -> TokenStream,
) -> (TokenStream, TokenStream) {
    let p = rt();
    let (flat, plain): (Vec<&Field>, Vec<&Field>) = fields.iter().partition(|f| f.flatten);
    let arms = plain.iter().map(|f| {
        let wire = &f.wire;
        let v = value(f, access(&f.member));
        quote!(#wire => #p::__Option::Some(#v),)
    });
    let flat_get = flat.iter().map(|f| {
        let v = value(f, access(&f.member));
        quote!(if let #p::__Option::Some(o) = #p::flat(#v) {
            if let #p::__Option::Some(n) = o.get(name) { return #p::__Option::Some(n); }
        })
    });
    let n = plain.len();
    let flat_len = flat.iter().map(|f| {
        let v = value(f, access(&f.member));
        quote!(+ #p::flat(#v).map_or(0, |o| o.len()))
    });
    let entries = plain.iter().map(|f| {
        let wire = &f.wire;
        let v = value(f, access(&f.member));
        quote!(f(#wire, #v);)
    });
    let flat_entries = flat.iter().map(|f| {
        let v = value(f, access(&f.member));
        quote!(if let #p::__Option::Some(o) = #p::flat(#v) {
            match o {
                #p::Object::View(view) => view.for_each_entry(f),
                // Owned members cannot be lent for `'a`; objects from views are views.
                #p::Object::Owned(_) => {}
            }
        })
    });
    let follow_arms = plain.iter().map(|f| {
        let wire = &f.wire;
        let place = access(&f.member);
        let v = match &f.how {
            How::Node => quote!(#p::Searchable::follow(#place, rest)),
            _ => {
                let v = value(f, place);
                quote!(#p::follow_node(#v, rest))
            }
        };
        quote!(#wire => #v,)
    });
    let into_arms = plain.iter().map(|f| {
        let wire = &f.wire;
        let place = access(&f.member);
        match &f.how {
            How::Node => quote!(#wire => #p::Searchable::follow_into(#place, rest, out),),
            _ => {
                let v = value(f, place);
                quote!(#wire => {
                    let n = #p::follow_node(#v, rest);
                    if !n.is_null() { out.push(n); }
                })
            }
        }
    });
    let into = quote! {
        /// Follows `path` and pushes a non-null result (see `Searchable::follow_into`).
        #[inline]
        fn follow_into<'__a>(
            &'__a self,
            path: &[&str],
            out: &mut ::std::vec::Vec<#p::Node<'__a>>,
        ) {
            let ::core::option::Option::Some((first, rest)) = path.split_first() else {
                out.push(#p::Node::Object(#p::Object::View(self)));
                return;
            };
            match *first {
                #(#into_arms)*
                _ => {
                    let n = #p::follow_node(
                        #p::SearchObject::field(self, first).unwrap_or(#p::Node::Null),
                        rest,
                    );
                    if !n.is_null() { out.push(n); }
                }
            }
        }
    };
    // Member chains resolved once per array (`__plan`), then walked per element by index.
    let plan_arms = plain.iter().enumerate().map(|(i, f)| {
        let wire = &f.wire;
        let i = i as u16;
        let ty = &f.ty;
        match &f.how {
            How::Node => quote!(#wire => {
                *slot = #i;
                1 + <#ty as #p::Searchable>::__plan(rest, plan_rest)
            }),
            _ => quote!(#wire => { *slot = #i; 1 }),
        }
    });
    let planned_arms = plain.iter().enumerate().map(|(i, f)| {
        let i = i as u16;
        let place = access(&f.member);
        match &f.how {
            How::Node => quote!(#i => #p::Searchable::__follow_planned(
                #place, plan_rest, rest, slot,
            ),),
            _ => {
                let v = value(f, place);
                quote!(#i => #p::follow_node_cold(#v, rest, slot),)
            }
        }
    });
    let resolved_arms = plain.iter().enumerate().map(|(i, f)| {
        let i = i as u16;
        let place = access(&f.member);
        match &f.how {
            How::Node => {
                quote!(#i => #p::Searchable::__follow_resolved(#place, plan_rest, slot),)
            }
            _ => {
                let v = value(f, place);
                quote!(#i => #p::follow_node_cold(#v, &[], slot),)
            }
        }
    });
    let extend_arms = plain.iter().enumerate().map(|(i, f)| {
        let i = i as u16;
        let place = access(&f.member);
        match &f.how {
            How::Node => quote!(#i => #p::Searchable::__follow_planned_extend(
                #place, plan_rest, rest, then, out,
            ),),
            _ => {
                let v = value(f, place);
                quote!(#i => #p::flat_extend_follow(#p::follow_node(#v, rest), then.path(), out),)
            }
        }
    });
    let into = quote! {
        #into
        #[inline]
        fn __follow_planned_extend<'__a>(
            &'__a self,
            plan: &[u16],
            path: &[&str],
            then: &mut #p::Then<'_>,
            out: &mut ::std::vec::Vec<#p::Node<'__a>>,
        ) {
            let (
                ::core::option::Option::Some((index, plan_rest)),
                ::core::option::Option::Some((_, rest)),
            ) = (plan.split_first(), path.split_first()) else {
                return #p::flat_extend_follow(#p::Searchable::follow(self, path), then.path(), out);
            };
            match *index {
                #(#extend_arms)*
                _ => #p::flat_extend_follow(#p::Searchable::follow(self, path), then.path(), out),
            }
        }
        #[inline]
        fn __follow_resolved<'__a>(
            &'__a self,
            plan: &[u16],
            slot: &mut #p::Node<'__a>,
        ) -> bool {
            let ::core::option::Option::Some((index, plan_rest)) = plan.split_first() else {
                return #p::follow_cold(self, &[], slot);
            };
            match *index {
                #(#resolved_arms)*
                _ => #p::follow_cold(self, &[], slot),
            }
        }
        #[inline]
        fn __flat_follow_extend<'__a>(
            &'__a self,
            plan: &[u16],
            path: &[&str],
            then: &mut #p::Then<'_>,
            out: &mut ::std::vec::Vec<#p::Node<'__a>>,
        ) {
            // An object, never an array: nothing to splice.
            #p::Searchable::__follow_planned_extend(self, plan, path, then, out)
        }
        #[inline]
        fn __plan(path: &[&str], plan: &mut [u16]) -> usize {
            let (
                ::core::option::Option::Some((first, rest)),
                ::core::option::Option::Some((slot, plan_rest)),
            ) = (path.split_first(), plan.split_first_mut()) else {
                return 0;
            };
            match *first {
                #(#plan_arms)*
                _ => 0,
            }
        }
        #[inline]
        fn __follow_planned<'__a>(
            &'__a self,
            plan: &[u16],
            path: &[&str],
            slot: &mut #p::Node<'__a>,
        ) -> bool {
            let (
                ::core::option::Option::Some((index, plan_rest)),
                ::core::option::Option::Some((_, rest)),
            ) = (plan.split_first(), path.split_first()) else {
                return #p::follow_cold(self, path, slot);
            };
            match *index {
                #(#planned_arms)*
                _ => #p::follow_cold(self, path, slot),
            }
        }
    };
    let obj = quote! {
        #[inline]
        fn follow(&self, path: &[&str]) -> #p::Node<'_> {
            let ::core::option::Option::Some((first, rest)) = path.split_first() else {
                return #p::Node::Null;
            };
            match *first {
                #(#follow_arms)*
                _ => #p::follow_node(
                    #p::SearchObject::field(self, first).unwrap_or(#p::Node::Null),
                    rest,
                ),
            }
        }
        fn field(&self, name: &str) -> #p::__Option<#p::Node<'_>> {
            match name {
                #(#arms)*
                _ => {
                    #(#flat_get)*
                    #p::__Option::None
                }
            }
        }
        fn len(&self) -> usize {
            #n #(#flat_len)*
        }
        fn for_each_entry<'__a>(&'__a self, f: &mut dyn FnMut(&'__a str, #p::Node<'__a>)) {
            #(#entries)*
            #(#flat_entries)*
        }
    };
    (obj, into)
}
