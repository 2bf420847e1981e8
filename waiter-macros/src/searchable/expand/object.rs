//! `Searchable` and `SearchObject` bodies for named fields (structs, flattened members).

use super::super::model::*;
use super::member::{at_member, rt, value};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

/// The bodies for an object with named `fields` reached through `access`: the `SearchObject`
/// items, and the `Searchable` items beyond `node` (`follow`, the hidden `__walk`).
///
/// A member read as `Searchable` is reached through its accessor (`__searchable_member_<i>`,
/// see [`accessors`]), whose return type is `impl Searchable` at the member type's span: a
/// member type that is not `Searchable` is one error there, and the bodies, which see only the
/// opaque type, report nothing more (a `where Member: Searchable` bound would do the same, but
/// makes recursive types overflow).
pub(super) fn object_impl(
    ident: &syn::Ident,
    generics: &syn::Generics,
    fields: &[Field],
) -> (TokenStream, TokenStream, TokenStream) {
    let p = rt();
    let accessor = |f: &Field| {
        let i = fields
            .iter()
            .position(|g| std::ptr::eq(f, g))
            .expect("a field of the object");
        quote::format_ident!("__searchable_member_{}", i)
    };
    let place = |f: &Field, recv: TokenStream| match f.how {
        How::Node => {
            let acc = accessor(f);
            quote!(Self::#acc(#recv))
        }
        _ => {
            let m = &f.member;
            quote!(&#recv.#m)
        }
    };
    let access = |f: &Field| place(f, quote!(self));
    let elem_access = |f: &Field| place(f, quote!(__el));
    let accessor_fns = accessors(generics, fields, accessor);
    let (flat, plain): (Vec<&Field>, Vec<&Field>) = fields.iter().partition(|f| f.flatten);
    let plain_names: Vec<&String> = plain.iter().map(|f| &f.wire).collect();
    let arms = plain.iter().map(|f| {
        let wire = &f.wire;
        let v = value(f, access(f));
        quote!(#wire => #p::__Option::Some(#v),)
    });
    // Flattened members: their members are ours, except names a plain member already has (the
    // plain member wins) and names an earlier flattened member already gave (the first wins);
    // `field`, `len`, `for_each_entry` agree on that.
    let flat_get = flat.iter().map(|f| {
        let v = value(f, access(f));
        quote!(if let #p::__Option::Some(n) = #p::flat_get(#v, name) {
            return #p::__Option::Some(n);
        })
    });
    let n = plain.len();
    let flat_entries = flat.iter().map(|f| {
        let v = value(f, access(f));
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
        let v = value(f, access(f));
        quote!(f(#wire, #v);)
    });
    let follow_arms = plain.iter().map(|f| {
        let wire = &f.wire;
        let place = access(f);
        let v = match &f.how {
            How::Node => {
                let (p, place, span) = at_member(f, place);
                quote_spanned!(span=> #p::Searchable::follow(#place, rest))
            }
            _ => {
                let v = value(f, place);
                quote!(#p::follow_node(#v, rest))
            }
        };
        quote!(#wire => #v,)
    });
    // Locals of the generated code are hygienic: a user's `with = get` path is not one of them.
    let [walk, sink, items, arrays, get, plan, at, name, index] = [
        "walk", "sink", "items", "arrays", "get", "plan", "at", "name", "index",
    ]
    .map(|n| proc_macro2::Ident::new(n, proc_macro2::Span::mixed_site()));
    // The walk of compiled projections: by the array's plan (member index) or by name.
    let walk_one = |f: &Field, place: TokenStream| match &f.how {
        How::Node => {
            let (p, place, span) = at_member(f, place);
            quote_spanned!(span=> #p::Searchable::__walk(#place, #walk, #sink))
        }
        _ => {
            let v = value(f, place);
            quote!(#walk.node(#v, #sink))
        }
    };
    let member_arms = plain.iter().enumerate().map(|(i, f)| {
        let w = walk_one(f, access(f));
        quote!(#i => #w,)
    });
    // The same over the elements of a slice: the member is chosen once, then one loop, in
    // which the member's type has chosen its own member (`__walk_in`). Standard leaves (strings,
    // numbers) have no member to choose: a plain loop, and no generic instance per member.
    let slice_arms = plain.iter().enumerate().map(|(i, f)| {
        let place = elem_access(f);
        let ty = &f.ty;
        if matches!(f.how, How::Node) && !maybe_unsized(ty) && !std_leaf(ty) {
            // The member's type is inferred from its accessor's (opaque) type.
            let walk_in = {
                let (p, _, span) = at_member(f, TokenStream::new());
                quote_spanned!(span=> #p::Searchable::__walk_in)
            };
            quote!(#i => #walk_in(
                #items,
                |__el: &'__a Self| ::core::option::Option::Some(#place),
                #walk,
                #sink,
            ),)
        } else {
            let w = walk_one(f, place);
            quote!(#i => for __el in #items { #w },)
        }
    });
    // The same over the elements of many arrays (`__walk_arrays`): the member chosen once for
    // all of them, then nested loops, in which the member's type has chosen its own member
    // (`__walk_in_arrays`).
    let arrays_arms = plain.iter().enumerate().map(|(i, f)| {
        let place = elem_access(f);
        let ty = &f.ty;
        if matches!(f.how, How::Node) && !maybe_unsized(ty) && !std_leaf(ty) {
            let walk_in_arrays = {
                let (p, _, span) = at_member(f, TokenStream::new());
                quote_spanned!(span=> #p::Searchable::__walk_in_arrays)
            };
            quote!(#i => #walk_in_arrays(
                #arrays,
                |__el: &'__a Self| ::core::option::Option::Some(#place),
                #walk,
                #sink,
            ),)
        } else {
            let w = walk_one(f, place);
            quote!(#i => while let ::core::option::Option::Some(#items) = #arrays() { for __el in #items { #w } },)
        }
    });
    let in_arrays_arms = plain.iter().enumerate().map(|(i, f)| {
        let w = walk_one(f, elem_access(f));
        quote!(#i => while let ::core::option::Option::Some(#items) = #arrays() {
            for __p in #items {
                if let ::core::option::Option::Some(__el) = #get(__p) { #w }
            }
        },)
    });
    let in_arms = plain.iter().enumerate().map(|(i, f)| {
        let w = walk_one(f, elem_access(f));
        quote!(#i => for __p in #items {
            if let ::core::option::Option::Some(__el) = #get(__p) { #w }
        },)
    });
    let name_arms = plain.iter().map(|f| {
        let wire = &f.wire;
        let w = walk_one(f, access(f));
        quote!(#wire => #w,)
    });
    // `name[].a.b[].c.d` from this object: a member viewed as itself walks its elements in
    // place (a `Vec`'s with static dispatch); the others go by their node.
    let member_items_arms = plain
        .iter()
        .filter(|f| matches!(f.how, How::Node))
        .map(|f| {
            let wire = &f.wire;
            let (p, place, span) = at_member(f, access(f));
            let w = quote_spanned!(span=> #p::Searchable::__walk_as_items(#place, #plan, #sink));
            quote!(#wire => #w,)
        });
    let record_arms = plain.iter().enumerate().map(|(i, f)| {
        let wire = &f.wire;
        let place = access(f);
        match &f.how {
            How::Node => {
                let (p, place, span) = at_member(f, place);
                let record =
                    quote_spanned!(span=> #p::Searchable::__record(#place, #plan, #at + 1));
                quote!(#wire => {
                    #plan.push(Self::__searchable_key(), #i);
                    #record
                })
            }
            // A converted member is a leaf: its node is computed per element.
            _ => quote!(#wire => #plan.push(Self::__searchable_key(), #i),),
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
        fn __walk<'__a>(&'__a self, #walk: #p::Walk<'_>, #sink: &mut #p::Sink<'_, '__a>) {
            // The plan's index: kept small so that it inlines into the loop over an array;
            // by name out of line.
            match #walk.member(Self::__searchable_key()) {
                ::core::option::Option::Some(#index) => {
                    let #walk = #walk.next();
                    match #index {
                        #(#member_arms)*
                        _ => {}
                    }
                }
                ::core::option::Option::None => Self::__searchable_walk_by_name(self, #walk, #sink),
            }
        }
        #[inline]
        fn __walk_slice<'__a>(
            #items: &'__a [Self],
            #walk: #p::Walk<'_>,
            #sink: &mut #p::Sink<'_, '__a>,
        ) {
            match #walk.member(Self::__searchable_key()) {
                ::core::option::Option::Some(#index) => {
                    let #walk = #walk.next();
                    match #index {
                        #(#slice_arms)*
                        _ => {}
                    }
                }
                ::core::option::Option::None => {
                    for __el in #items {
                        Self::__searchable_walk_by_name(__el, #walk, #sink)
                    }
                }
            }
        }
        #[inline]
        fn __walk_in<'__a, __P, __G>(
            #items: &'__a [__P],
            #get: __G,
            #walk: #p::Walk<'_>,
            #sink: &mut #p::Sink<'_, '__a>,
        ) where
            Self: '__a,
            __G: Fn(&'__a __P) -> ::core::option::Option<&'__a Self>,
        {
            match #walk.member(Self::__searchable_key()) {
                ::core::option::Option::Some(#index) => {
                    let #walk = #walk.next();
                    match #index {
                        #(#in_arms)*
                        _ => {}
                    }
                }
                ::core::option::Option::None => {
                    for __p in #items {
                        if let ::core::option::Option::Some(__el) = #get(__p) {
                            Self::__searchable_walk_by_name(__el, #walk, #sink)
                        }
                    }
                }
            }
        }
        #[inline]
        fn __walk_arrays<'__a>(
            #arrays: &mut dyn ::core::ops::FnMut() -> ::core::option::Option<&'__a [Self]>,
            #walk: #p::Walk<'_>,
            #sink: &mut #p::Sink<'_, '__a>,
        ) where
            Self: '__a,
        {
            match #walk.member(Self::__searchable_key()) {
                ::core::option::Option::Some(#index) => {
                    let #walk = #walk.next();
                    match #index {
                        #(#arrays_arms)*
                        _ => {}
                    }
                }
                ::core::option::Option::None => {
                    while let ::core::option::Option::Some(#items) = #arrays() {
                        for __el in #items {
                            Self::__searchable_walk_by_name(__el, #walk, #sink)
                        }
                    }
                }
            }
        }
        #[inline]
        fn __walk_in_arrays<'__a, __P, __G>(
            #arrays: &mut dyn ::core::ops::FnMut() -> ::core::option::Option<&'__a [__P]>,
            #get: __G,
            #walk: #p::Walk<'_>,
            #sink: &mut #p::Sink<'_, '__a>,
        ) where
            Self: '__a,
            __P: '__a,
            __G: Fn(&'__a __P) -> ::core::option::Option<&'__a Self>,
        {
            match #walk.member(Self::__searchable_key()) {
                ::core::option::Option::Some(#index) => {
                    let #walk = #walk.next();
                    match #index {
                        #(#in_arrays_arms)*
                        _ => {}
                    }
                }
                ::core::option::Option::None => {
                    while let ::core::option::Option::Some(#items) = #arrays() {
                        for __p in #items {
                            if let ::core::option::Option::Some(__el) = #get(__p) {
                                Self::__searchable_walk_by_name(__el, #walk, #sink)
                            }
                        }
                    }
                }
            }
        }
        #[inline]
        fn __record(&self, #plan: &mut #p::Plan, #at: usize) {
            if let ::core::option::Option::Some(#name) = #plan.name(#at) {
                match #name {
                    #(#record_arms)*
                    _ => {}
                }
            }
        }
    };
    let by_name = quote! {
        #accessor_fns
        /// Identifies this type in array plans (the address of a static).
        #[doc(hidden)]
        #[inline(always)]
        fn __searchable_key() -> &'static &'static str {
            static __KEY: &str = ::core::concat!(
                ::core::module_path!(), "::", ::core::stringify!(#ident)
            );
            &__KEY
        }
        #[doc(hidden)]
        #[cold]
        #[inline(never)]
        fn __searchable_walk_by_name<'__a>(
            &'__a self,
            #walk: #p::Walk<'_>,
            #sink: &mut #p::Sink<'_, '__a>,
        ) {
            match #walk.name() {
                ::core::option::Option::Some(#name) => {
                    let #walk = #walk.next();
                    match #name {
                        #(#name_arms)*
                        _ => #walk.field(self, #name, #sink),
                    }
                }
                ::core::option::Option::None => #walk.object(self, #sink),
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
        #[inline]
        fn __walk_member_items<'__a>(
            &'__a self,
            #name: &str,
            #plan: &mut #p::Plan,
            #sink: &mut #p::Sink<'_, '__a>,
        ) -> bool {
            match #name {
                #(#member_items_arms)*
                _ => #p::walk_node_items(#p::SearchObject::field(self, #name), #plan, #sink),
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

/// One accessor per member read as `Searchable`: `&self.member` as `&impl Searchable`, the
/// bound at the member type's span (capturing the type's generics, in any edition). A member
/// that may be unsized keeps `?Sized`; the others are known `Sized` (`__walk_in` needs it).
fn accessors(
    generics: &syn::Generics,
    fields: &[Field],
    accessor: impl Fn(&Field) -> syn::Ident,
) -> TokenStream {
    let captured: Vec<TokenStream> = generics
        .params
        .iter()
        .map(|param| match param {
            syn::GenericParam::Lifetime(l) => {
                let l = &l.lifetime;
                quote!(#l)
            }
            syn::GenericParam::Type(t) => {
                let t = &t.ident;
                quote!(#t)
            }
            syn::GenericParam::Const(c) => {
                let c = &c.ident;
                quote!(#c)
            }
        })
        .collect();
    fields
        .iter()
        .filter(|f| matches!(f.how, How::Node))
        .map(|f| {
            let acc = accessor(f);
            let m = &f.member;
            let (p, _, span) = at_member(f, TokenStream::new());
            let unsized_ = maybe_unsized(&f.ty).then(|| quote!(+ ?::core::marker::Sized));
            let bound = quote_spanned!(span=> impl #p::Searchable #unsized_ + use<#(#captured),*>);
            // All at the member type's span: the one error is reported there.
            let body = crate::krate::respan(quote!(&self.#m), span);
            quote_spanned! {span=>
                #[doc(hidden)]
                #[inline(always)]
                fn #acc(&self) -> &(#bound) {
                    #body
                }
            }
        })
        .collect()
}

/// Whether a field's type may be unsized (`str`, a slice, a trait object: the last field of an
/// unsized struct), so that no method needing `Sized` is called on it.
fn maybe_unsized(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Slice(_) | syn::Type::TraitObject(_) => true,
        syn::Type::Path(p) => p.qself.is_none() && p.path.is_ident("str"),
        syn::Type::Paren(p) => maybe_unsized(&p.elem),
        syn::Type::Group(g) => maybe_unsized(&g.elem),
        _ => false,
    }
}

/// Whether a field's type is a standard leaf (a string, a number, `bool`), possibly in an
/// `Option` or a pointer: its `__walk_in` would be the plain loop, so the loop is emitted
/// instead of one more generic instance. Judged by the last path segment, as written: a wrong
/// guess only costs speed (both walk the same way).
fn std_leaf(ty: &syn::Type) -> bool {
    const LEAVES: &[&str] = &[
        "String",
        "str",
        "Cow",
        "bool",
        "char",
        "u8",
        "u16",
        "u32",
        "u64",
        "u128",
        "usize",
        "i8",
        "i16",
        "i32",
        "i64",
        "i128",
        "isize",
        "f32",
        "f64",
        "SystemTime",
    ];
    const WRAPPERS: &[&str] = &["Option", "Box", "Rc", "Arc"];
    match ty {
        syn::Type::Reference(r) => std_leaf(&r.elem),
        syn::Type::Paren(p) => std_leaf(&p.elem),
        syn::Type::Group(g) => std_leaf(&g.elem),
        syn::Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return false;
            };
            let name = last.ident.to_string();
            if LEAVES.contains(&name.as_str()) {
                return true;
            }
            if WRAPPERS.contains(&name.as_str()) {
                if let syn::PathArguments::AngleBracketed(a) = &last.arguments {
                    if let [syn::GenericArgument::Type(inner)] =
                        a.args.iter().collect::<Vec<_>>().as_slice()
                    {
                        return std_leaf(inner);
                    }
                }
            }
            false
        }
        _ => false,
    }
}
