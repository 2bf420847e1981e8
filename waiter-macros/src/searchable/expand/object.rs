//! `Searchable` and `SearchObject` bodies for named fields (structs, flattened members).

use super::super::model::*;
use super::{rt, value};
use proc_macro2::TokenStream;
use quote::quote;

/// The bodies for an object with named `fields` reached through `access`: the `SearchObject`
/// items, and the `Searchable` items beyond `node` (`follow`, the hidden `__walk`).
pub(super) fn object_impl(
    ident: &syn::Ident,
    fields: &[Field],
    access: impl Fn(&syn::Member) -> TokenStream,
) -> (TokenStream, TokenStream, TokenStream) {
    let p = rt();
    let (flat, plain): (Vec<&Field>, Vec<&Field>) = fields.iter().partition(|f| f.flatten);
    let plain_names: Vec<&String> = plain.iter().map(|f| &f.wire).collect();
    let arms = plain.iter().map(|f| {
        let wire = &f.wire;
        let v = value(f, access(&f.member));
        quote!(#wire => #p::__Option::Some(#v),)
    });
    // Flattened members: their members are ours, except names a plain member already has (the
    // plain member wins) and names an earlier flattened member already gave (the first wins);
    // `field`, `len`, `for_each_entry` agree on that.
    let flat_get = flat.iter().map(|f| {
        let v = value(f, access(&f.member));
        quote!(if let #p::__Option::Some(o) = #p::flat(#v) {
            if let #p::__Option::Some(n) = o.get(name) { return #p::__Option::Some(n); }
        })
    });
    let n = plain.len();
    let flat_entries = flat.iter().map(|f| {
        let v = value(f, access(&f.member));
        quote!(#p::flat_entries(#p::flat(#v), &[#(#plain_names),*], &mut __seen, f);)
    });
    let has_flat = !flat.is_empty();
    let (len, entries_tail) = if has_flat {
        (
            quote!({
                let mut __count = 0usize;
                #p::SearchObject::for_each_entry(self, &mut |_, _| __count += 1);
                __count
            }),
            quote! {
                let mut __seen = ::std::collections::HashSet::<&'__a str>::new();
                #(#flat_entries)*
            },
        )
    } else {
        (quote!(#n), TokenStream::new())
    };
    let entries = plain.iter().map(|f| {
        let wire = &f.wire;
        let v = value(f, access(&f.member));
        quote!(f(#wire, #v);)
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
    // The walk of compiled projections: by the array's plan (member index) or by name.
    let member_arms = plain.iter().enumerate().map(|(i, f)| {
        let place = access(&f.member);
        match &f.how {
            How::Node => quote!(#i => #p::Searchable::__walk(#place, walk),),
            _ => {
                let v = value(f, place);
                quote!(#i => walk.node(#v),)
            }
        }
    });
    let name_arms = plain.iter().enumerate().map(|(i, f)| {
        let wire = &f.wire;
        let place = access(&f.member);
        match &f.how {
            How::Node => quote!(#wire => #p::Searchable::__walk(#place, walk.resolved(#i)),),
            _ => {
                let v = value(f, place);
                quote!(#wire => walk.resolved(#i).node(#v),)
            }
        }
    });
    let searchable = quote! {
        #[inline]
        fn follow(&self, path: &[&str]) -> #p::Node<'_> {
            if path.is_empty() {
                #p::Node::Object(#p::Object::View(self))
            } else {
                #p::SearchObject::follow(self, path)
            }
        }
        #[inline]
        fn __walk<'__a>(&'__a self, walk: #p::Walk<'_, '__a>) {
            // Its address identifies this type in array plans.
            static __KEY: &str = ::core::concat!(
                ::core::module_path!(), "::", ::core::stringify!(#ident)
            );
            // The plan's index: the path of every element after an array's first, kept small
            // so that it inlines into the loop; by name out of line.
            match walk.step(&__KEY) {
                #p::Step::Member(index, walk) => match index {
                    #(#member_arms)*
                    _ => {}
                },
                step => Self::__searchable_walk_by_name(self, step),
            }
        }
    };
    let by_name = quote! {
        #[doc(hidden)]
        #[cold]
        #[inline(never)]
        fn __searchable_walk_by_name<'__a>(&'__a self, step: #p::Step<'_, '__a>) {
            match step {
                #p::Step::Name(first, walk) => match first {
                    #(#name_arms)*
                    _ => walk.field(self, first),
                },
                #p::Step::Here(walk) => walk.object(self),
                #p::Step::Member(..) => {}
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
            #len
        }
        fn for_each_entry<'__a>(&'__a self, f: &mut dyn FnMut(&'__a str, #p::Node<'__a>)) {
            #(#entries)*
            #entries_tail
        }
    };
    (obj, searchable, by_name)
}
