//! `#[derive(Searchable)]`: the borrowed JMESPath view of a struct or enum.
//!
//! Phases: [`parse`] reads the attributes into a model (collecting every error), [`expand`]
//! writes the `Searchable` / `SearchObject` impls. Names follow serde's wire names:
//! `#[serde(rename)]`, `#[serde(rename_all)]`, overridden by `#[searchable(..)]`.

use proc_macro2::TokenStream;
use syn::DeriveInput;

pub(crate) fn derive(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(i) => i,
        Err(e) => return e.to_compile_error(),
    };
    match parse::container(&input) {
        Ok(model) => expand::expand(&input, &model),
        Err(e) => e.to_compile_error(),
    }
}

/// The internal model of the annotated type.
mod model {
    use syn::{Ident, Path};

    pub(crate) enum Shape {
        /// Struct with named fields: an object.
        Object(Vec<Field>),
        /// `struct Id(String)`: the inner value.
        Newtype(Field),
        /// Tuple struct with several fields: an array.
        Tuple(Vec<Field>),
        /// Unit struct: null.
        Unit,
        Enum(Vec<Variant>),
    }

    pub(crate) struct Field {
        /// `self.<member>`: a name or a tuple index.
        pub member: syn::Member,
        /// The field's type (statically resolved member chains recurse into it).
        pub ty: Box<syn::Type>,
        pub wire: String,
        pub how: How,
        pub flatten: bool,
    }

    pub(crate) enum How {
        Node,
        Blob,
        Timestamp,
        Serde,
        With(Path),
    }

    pub(crate) struct Variant {
        pub ident: Ident,
        pub wire: String,
        pub untagged: bool,
        pub fields: VariantFields,
    }

    pub(crate) enum VariantFields {
        Unit,
        Newtype(Field),
        Tuple(Vec<Field>),
        Named(Vec<Field>),
    }
}

/// Attribute parsing and checks, collecting every error before failing.
mod parse {
    use super::model::*;
    use super::rename::Rule;
    use syn::{Attribute, Data, DeriveInput, Fields, LitStr, spanned::Spanned};

    #[derive(Default)]
    struct Errors(Option<syn::Error>);

    impl Errors {
        fn push(&mut self, e: syn::Error) {
            match &mut self.0 {
                Some(all) => all.combine(e),
                None => self.0 = Some(e),
            }
        }
    }

    #[derive(Default)]
    struct Attrs {
        serde_rename: Option<String>,
        rename: Option<String>,
        serde_rename_all: Option<Rule>,
        rename_all: Option<Rule>,
        skip: bool,
        flatten: bool,
        untagged: bool,
        how: Option<(How, proc_macro2::Span)>,
    }

    fn rule(lit: &LitStr, errors: &mut Errors) -> Option<Rule> {
        let r = Rule::from_str(&lit.value());
        if r.is_none() {
            errors.push(syn::Error::new(
                lit.span(),
                format!(
                    "unknown rename rule `{}`; expected one of {}",
                    lit.value(),
                    super::rename::NAMES.join(", ")
                ),
            ));
        }
        r
    }

    fn set_how(a: &mut Attrs, how: How, span: proc_macro2::Span, errors: &mut Errors) {
        if a.how.is_some() {
            errors.push(syn::Error::new(
                span,
                "only one of `blob`, `timestamp`, `serde`, `with = ..` may be given for a field",
            ));
        }
        a.how = Some((how, span));
    }

    fn attrs(list: &[Attribute], errors: &mut Errors) -> Attrs {
        let mut a = Attrs::default();
        for attr in list {
            if attr.path().is_ident("serde") {
                // Only the attributes that change wire names or presence; serde checks the rest.
                let _ = attr.parse_nested_meta(|meta| {
                    let p = &meta.path;
                    if p.is_ident("rename") || p.is_ident("rename_all") {
                        let all = p.is_ident("rename_all");
                        let value = if meta.input.peek(syn::Token![=]) {
                            Some(meta.value()?.parse::<LitStr>()?)
                        } else {
                            // rename(serialize = "..", deserialize = "..")
                            let mut ser = None;
                            meta.parse_nested_meta(|inner| {
                                if inner.path.is_ident("serialize") {
                                    ser = Some(inner.value()?.parse::<LitStr>()?);
                                } else {
                                    let _ = inner.value()?.parse::<LitStr>()?;
                                }
                                Ok(())
                            })?;
                            ser
                        };
                        if let Some(v) = value {
                            if all {
                                a.serde_rename_all = rule(&v, errors);
                            } else {
                                a.serde_rename = Some(v.value());
                            }
                        }
                    } else if p.is_ident("skip") || p.is_ident("skip_serializing") {
                        a.skip = true;
                    } else if p.is_ident("flatten") {
                        a.flatten = true;
                    } else if p.is_ident("untagged") {
                        a.untagged = true;
                    } else if p.is_ident("tag") || p.is_ident("content") {
                        errors.push(syn::Error::new(
                            p.span(),
                            "`#[derive(Searchable)]` supports externally tagged enums (Smithy \
                             unions: an object with one member); for another shape implement \
                             `Searchable` by hand or search through `jmespath::Serialized`",
                        ));
                        let _ = meta.value().and_then(|v| v.parse::<LitStr>());
                    } else if meta.input.peek(syn::Token![=]) {
                        let _ = meta.value()?.parse::<syn::Expr>()?;
                    } else if meta.input.peek(syn::token::Paren) {
                        let _content;
                        syn::parenthesized!(_content in meta.input);
                        let _ = _content.parse::<TokenStream2>();
                    }
                    Ok(())
                });
            } else if attr.path().is_ident("searchable") {
                let r = attr.parse_nested_meta(|meta| {
                    let p = &meta.path;
                    if p.is_ident("rename") {
                        a.rename = Some(meta.value()?.parse::<LitStr>()?.value());
                    } else if p.is_ident("rename_all") {
                        let v = meta.value()?.parse::<LitStr>()?;
                        a.rename_all = rule(&v, errors);
                    } else if p.is_ident("skip") {
                        a.skip = true;
                    } else if p.is_ident("flatten") {
                        a.flatten = true;
                    } else if p.is_ident("untagged") {
                        a.untagged = true;
                    } else if p.is_ident("blob") {
                        set_how(&mut a, How::Blob, p.span(), errors);
                    } else if p.is_ident("timestamp") {
                        set_how(&mut a, How::Timestamp, p.span(), errors);
                    } else if p.is_ident("serde") {
                        set_how(&mut a, How::Serde, p.span(), errors);
                    } else if p.is_ident("with") {
                        let path: syn::Path = meta.value()?.parse()?;
                        set_how(&mut a, How::With(path), p.span(), errors);
                    } else {
                        return Err(meta.error(
                            "unknown `searchable` attribute; expected `rename = \"..\"`, \
                             `rename_all = \"..\"`, `skip`, `flatten`, `untagged`, `blob`, \
                             `timestamp`, `serde` or `with = path::to::fn`",
                        ));
                    }
                    Ok(())
                });
                if let Err(e) = r {
                    errors.push(e);
                }
            }
        }
        a
    }

    type TokenStream2 = proc_macro2::TokenStream;

    fn fields(fs: &Fields, rule: Option<Rule>, errors: &mut Errors) -> Vec<Field> {
        let mut out = Vec::new();
        for (i, f) in fs.iter().enumerate() {
            let a = attrs(&f.attrs, errors);
            if let Some((_, span)) = &a.how {
                if a.flatten {
                    errors.push(syn::Error::new(
                        *span,
                        "a flattened field cannot also be converted",
                    ));
                }
            }
            if a.rename_all.is_some() || a.serde_rename_all.is_some() || a.untagged {
                errors.push(syn::Error::new(
                    f.span(),
                    "`rename_all` and `untagged` apply to types and variants, not fields",
                ));
            }
            if a.skip {
                continue;
            }
            let (member, wire) = match &f.ident {
                Some(id) => {
                    let raw = id.to_string();
                    let raw = raw.strip_prefix("r#").unwrap_or(&raw).to_owned();
                    let wire = a
                        .rename
                        .clone()
                        .or(a.serde_rename.clone())
                        .unwrap_or_else(|| rule.map_or(raw.clone(), |r| r.apply_to_field(&raw)));
                    (syn::Member::Named(id.clone()), wire)
                }
                None => (syn::Member::Unnamed(syn::Index::from(i)), i.to_string()),
            };
            out.push(Field {
                member,
                ty: Box::new(f.ty.clone()),
                wire,
                how: a.how.map_or(How::Node, |(h, _)| h),
                flatten: a.flatten,
            });
        }
        let mut seen = std::collections::HashSet::new();
        for (f, src) in out.iter().zip(fs.iter()) {
            if !f.flatten && !seen.insert(f.wire.clone()) {
                errors.push(syn::Error::new(
                    src.span(),
                    format!("two members are named `{}` on the wire; rename one", f.wire),
                ));
            }
        }
        out
    }

    pub(crate) fn container(input: &DeriveInput) -> syn::Result<Shape> {
        let mut errors = Errors::default();
        let a = attrs(&input.attrs, &mut errors);
        let rule = a.rename_all.or(a.serde_rename_all);
        if a.untagged {
            errors.push(syn::Error::new(
                input.ident.span(),
                "`#[derive(Searchable)]` does not support untagged enums: a Smithy union is an \
                 object with one member; mark single variants `#[searchable(untagged)]` instead, \
                 or search through `jmespath::Serialized`",
            ));
        }
        if a.how.is_some() || a.flatten || a.skip {
            errors.push(syn::Error::new(
                input.ident.span(),
                "`blob`, `timestamp`, `serde`, `with`, `flatten` and `skip` apply to fields",
            ));
        }
        let shape = match &input.data {
            Data::Struct(s) => match &s.fields {
                Fields::Named(_) => Shape::Object(fields(&s.fields, rule, &mut errors)),
                Fields::Unnamed(u) if u.unnamed.len() == 1 => {
                    let mut fs = fields(&s.fields, rule, &mut errors);
                    match fs.pop() {
                        Some(f) => Shape::Newtype(f),
                        None => Shape::Unit,
                    }
                }
                Fields::Unnamed(_) => Shape::Tuple(fields(&s.fields, rule, &mut errors)),
                Fields::Unit => Shape::Unit,
            },
            Data::Enum(e) => {
                let mut variants = Vec::new();
                for v in &e.variants {
                    let va = attrs(&v.attrs, &mut errors);
                    if va.skip {
                        errors.push(syn::Error::new(
                            v.ident.span(),
                            "variants cannot be skipped: a value of this variant must still \
                             be searchable",
                        ));
                    }
                    let raw = v.ident.to_string();
                    let wire = va
                        .rename
                        .clone()
                        .or(va.serde_rename.clone())
                        .unwrap_or_else(|| rule.map_or(raw.clone(), |r| r.apply_to_variant(&raw)));
                    let inner_rule = va.rename_all.or(va.serde_rename_all);
                    let fields = match &v.fields {
                        Fields::Unit => VariantFields::Unit,
                        Fields::Unnamed(u) if u.unnamed.len() == 1 => {
                            match fields(&v.fields, None, &mut errors).pop() {
                                Some(f) => VariantFields::Newtype(f),
                                None => VariantFields::Unit,
                            }
                        }
                        Fields::Unnamed(_) => {
                            VariantFields::Tuple(fields(&v.fields, None, &mut errors))
                        }
                        Fields::Named(_) => {
                            VariantFields::Named(fields(&v.fields, inner_rule, &mut errors))
                        }
                    };
                    variants.push(Variant {
                        ident: v.ident.clone(),
                        wire,
                        untagged: va.untagged,
                        fields,
                    });
                }
                Shape::Enum(variants)
            }
            Data::Union(u) => {
                errors.push(syn::Error::new(
                    u.union_token.span,
                    "`#[derive(Searchable)]` works on structs and enums, not unions; a Smithy \
                     union is a Rust enum with one variant per member",
                ));
                Shape::Unit
            }
        };
        match errors.0 {
            Some(e) => Err(e),
            None => Ok(shape),
        }
    }
}

/// serde's `rename_all` rules, applied exactly as serde does.
mod rename {
    #[derive(Clone, Copy)]
    pub(crate) enum Rule {
        Lower,
        Upper,
        Pascal,
        Camel,
        Snake,
        ScreamingSnake,
        Kebab,
        ScreamingKebab,
    }

    pub(crate) const NAMES: &[&str] = &[
        "\"lowercase\"",
        "\"UPPERCASE\"",
        "\"PascalCase\"",
        "\"camelCase\"",
        "\"snake_case\"",
        "\"SCREAMING_SNAKE_CASE\"",
        "\"kebab-case\"",
        "\"SCREAMING-KEBAB-CASE\"",
    ];

    impl Rule {
        pub(crate) fn from_str(s: &str) -> Option<Rule> {
            Some(match s {
                "lowercase" => Rule::Lower,
                "UPPERCASE" => Rule::Upper,
                "PascalCase" => Rule::Pascal,
                "camelCase" => Rule::Camel,
                "snake_case" => Rule::Snake,
                "SCREAMING_SNAKE_CASE" => Rule::ScreamingSnake,
                "kebab-case" => Rule::Kebab,
                "SCREAMING-KEBAB-CASE" => Rule::ScreamingKebab,
                _ => return None,
            })
        }

        pub(crate) fn apply_to_variant(self, v: &str) -> String {
            match self {
                Rule::Pascal => v.to_owned(),
                Rule::Lower => v.to_ascii_lowercase(),
                Rule::Upper => v.to_ascii_uppercase(),
                Rule::Camel => v[..1].to_ascii_lowercase() + &v[1..],
                Rule::Snake => {
                    let mut s = String::new();
                    for (i, c) in v.char_indices() {
                        if i > 0 && c.is_uppercase() {
                            s.push('_');
                        }
                        s.push(c.to_ascii_lowercase());
                    }
                    s
                }
                Rule::ScreamingSnake => Rule::Snake.apply_to_variant(v).to_ascii_uppercase(),
                Rule::Kebab => Rule::Snake.apply_to_variant(v).replace('_', "-"),
                Rule::ScreamingKebab => Rule::ScreamingSnake.apply_to_variant(v).replace('_', "-"),
            }
        }

        pub(crate) fn apply_to_field(self, f: &str) -> String {
            match self {
                Rule::Lower | Rule::Snake => f.to_owned(),
                Rule::Upper | Rule::ScreamingSnake => f.to_ascii_uppercase(),
                Rule::Pascal => {
                    let mut s = String::new();
                    let mut cap = true;
                    for c in f.chars() {
                        if c == '_' {
                            cap = true;
                        } else if cap {
                            s.extend(c.to_uppercase());
                            cap = false;
                        } else {
                            s.push(c);
                        }
                    }
                    s
                }
                Rule::Camel => {
                    let p = Rule::Pascal.apply_to_field(f);
                    p[..1].to_ascii_lowercase() + &p[1..]
                }
                Rule::Kebab => f.replace('_', "-"),
                Rule::ScreamingKebab => f.to_ascii_uppercase().replace('_', "-"),
            }
        }
    }

    #[cfg(test)]
    mod tests {
        use super::Rule;

        #[test]
        fn rules_match_serde() {
            assert_eq!(Rule::Pascal.apply_to_field("table_status"), "TableStatus");
            assert_eq!(Rule::Camel.apply_to_field("table_status"), "tableStatus");
            assert_eq!(Rule::ScreamingKebab.apply_to_field("a_b"), "A-B");
            assert_eq!(
                Rule::Snake.apply_to_variant("ShuttingDown"),
                "shutting_down"
            );
            assert_eq!(
                Rule::ScreamingSnake.apply_to_variant("InService"),
                "IN_SERVICE"
            );
            assert_eq!(
                Rule::Kebab.apply_to_variant("ShuttingDown"),
                "shutting-down"
            );
            assert_eq!(Rule::Camel.apply_to_variant("InService"), "inService");
        }
    }
}

/// Code generation.
mod expand {
    use super::model::*;
    use proc_macro2::TokenStream;
    use quote::quote;
    use syn::DeriveInput;

    fn rt() -> TokenStream {
        quote!(::waiter_runtime::jmespath::__private)
    }

    /// The node of one field, given an expression of type `&FieldType`.
    fn value(f: &Field, place: TokenStream) -> TokenStream {
        let p = rt();
        match &f.how {
            How::Node => quote!(#p::Searchable::node(#place)),
            How::Blob => quote!(#p::AsBlob::blob_node(#place)),
            How::Timestamp => quote!(#p::AsTimestamp::timestamp_node(#place)),
            How::Serde => quote!(#p::serialized(#place)),
            How::With(path) => quote!(#path(#place)),
        }
    }

    /// `field`, `len` and `for_each_entry` bodies for named fields reached through `access`.
    fn object_impl(
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

    pub(crate) fn expand(input: &DeriveInput, shape: &Shape) -> TokenStream {
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
                    impl #impl_g #p::SearchObject for #ident #ty_g #where_c {
                        #obj
                    }
                }
            }
            Shape::Newtype(f) => {
                let v = value(f, self_field(&f.member));
                quote! {
                    impl #impl_g #p::Searchable for #ident #ty_g #where_c {
                        fn node(&self) -> #p::Node<'_> { #v }
                    }
                }
            }
            Shape::Tuple(fields) => {
                let items = fields.iter().map(|f| value(f, self_field(&f.member)));
                quote! {
                    impl #impl_g #p::Searchable for #ident #ty_g #where_c {
                        fn node(&self) -> #p::Node<'_> {
                            #p::owned_array(::std::vec![#(#items),*])
                        }
                    }
                }
            }
            Shape::Unit => quote! {
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
}
