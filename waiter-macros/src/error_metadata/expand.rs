//! Writes `impl ProvideErrorMetadata` from a checked model.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::check::{reads_code, static_code};
use super::model::{Container, Data, Field, Role, Variant};

pub(crate) fn container(c: &Container) -> TokenStream {
    let krate = &c.krate;
    let ident = c.ident;
    let variants: Vec<&Variant> = match &c.data {
        Data::Enum(variants) => variants.iter().collect(),
        Data::Struct(v) => vec![v],
    };

    let mut generics = c.generics.clone();
    let type_params: Vec<&syn::Ident> = c.generics.type_params().map(|p| &p.ident).collect();
    // Fields whose type names a type parameter need a bound on it, like serde's derives add.
    for v in &variants {
        for field in v.fields.iter().filter(|f| mentions_any(f.ty, &type_params)) {
            let ty = field.ty;
            let bounds: Vec<TokenStream> = if v.attrs.transparent.is_some() {
                vec![quote!(#krate::ProvideErrorMetadata)]
            } else {
                field
                    .roles
                    .iter()
                    .map(|(role, _)| match role {
                        Role::Code | Role::Message => quote!(#krate::error_metadata::field::Text),
                        Role::Status => quote!(#krate::error_metadata::field::Status),
                        Role::RetryAfter => quote!(#krate::error_metadata::field::RetryAfter),
                    })
                    .collect()
            };
            for bound in bounds {
                generics
                    .make_where_clause()
                    .predicates
                    .push(syn::parse_quote!(#ty: #bound));
            }
        }
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();

    let trait_path = quote!(#krate::ProvideErrorMetadata);
    let methods = [
        method(
            &variants,
            krate,
            quote!(code),
            quote!(::core::option::Option<&str>),
            code_body,
        ),
        method(
            &variants,
            krate,
            quote!(message),
            quote!(::core::option::Option<&str>),
            |v, k| field_body(v, k, Role::Message),
        ),
        method(
            &variants,
            krate,
            quote!(http_status),
            quote!(::core::option::Option<u16>),
            status_body,
        ),
        method(
            &variants,
            krate,
            quote!(retry_after),
            quote!(::core::option::Option<::core::time::Duration>),
            |v, k| field_body(v, k, Role::RetryAfter),
        ),
        method(
            &variants,
            krate,
            quote!(is_transient),
            quote!(bool),
            |v, _| flag(v.attrs.transient.is_some()),
        ),
        method(
            &variants,
            krate,
            quote!(is_retryable),
            quote!(bool),
            |v, _| flag(v.attrs.retryable.is_some() || v.attrs.throttling.is_some()),
        ),
        method(
            &variants,
            krate,
            quote!(is_throttling),
            quote!(bool),
            |v, _| flag(v.attrs.throttling.is_some()),
        ),
    ];

    let error_codes = error_codes(c, &variants, &impl_generics, &ty_generics, where_clause);

    quote! {
        #[automatically_derived]
        impl #impl_generics #trait_path for #ident #ty_generics #where_clause {
            #(#methods)*
        }

        #error_codes
    }
}

/// The codes the type models, for `#[waitable]`'s `errorType` warning: the written codes of its
/// variants and the `codes` its catch-all variants declare; `None` when a `transparent` variant
/// forwards, or when the only codes are a catch-all's that declares none. With the warnings'
/// notes (`DerivedErrorCodes::Hint`): the derive is where the codes are known as text.
fn error_codes(
    c: &Container,
    variants: &[&Variant],
    impl_generics: &syn::ImplGenerics,
    ty_generics: &syn::TypeGenerics,
    where_clause: Option<&syn::WhereClause>,
) -> TokenStream {
    let krate = &c.krate;
    let ident = c.ident;
    let p = quote!(#krate::__private_v0_1);
    let mut codes: Vec<String> = Vec::new();
    let mut unknown = false;
    let catch_alls: Vec<&Variant> = variants.iter().copied().filter(|v| reads_code(v)).collect();
    for v in variants {
        if v.attrs.transparent.is_some() {
            unknown = true;
        } else if let Some((code, _)) = static_code(v) {
            codes.push(crate::error_metadata::normalize_code(&code));
        }
        for code in v.attrs.codes.iter().flat_map(|(codes, _)| codes) {
            codes.push(crate::error_metadata::normalize_code(&code.value()));
        }
    }
    if codes.is_empty() && catch_alls.iter().any(|v| v.attrs.codes.is_none()) {
        unknown = true;
    }
    let name = ident.to_string();
    let (codes_tokens, hints) = if unknown {
        (quote!(::core::option::Option::None), Vec::new())
    } else {
        let listed = list_codes(&codes);
        let advice = match catch_alls.first() {
            Some(v) => format!(
                " If the catch-all `{}` carries it, declare it there: \
                 `#[error_metadata(codes = [\"...\"])]`.",
                v.name
            ),
            None => " Name one of them, or give a variant `#[error_metadata(code = \"...\")]`."
                .to_owned(),
        };
        let mut hints = vec![format!(
            "\nthis errorType is not a code `{name}` models, so the acceptor never matches (Smithy \
             warns the same). {listed}{advice}"
        )];
        hints.extend(codes.iter().map(|code| {
            format!(
                "\nthis errorType is not a code `{name}` models; did you mean \"{code}\"? (as \
                 written, the acceptor never matches; Smithy warns the same)"
            )
        }));
        (quote!(::core::option::Option::Some(&[#(#codes),*])), hints)
    };
    let hint_impls = hints.iter().enumerate().map(|(i, note)| {
        let i = i + 1;
        quote! {
            impl waitable<#i> {
                #[deprecated(note = #note)]
                pub fn errorType(&self) {}
            }
        }
    });
    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types, non_snake_case, dead_code)]
        const _: () = {
            /// The warning of an `errorType` naming a code this type does not model: its
            /// deprecated `errorType` method, chosen by a const index.
            #[derive(Default)]
            pub struct waitable<const I: usize>;

            impl waitable<0> {
                pub fn errorType(&self) {}
            }

            #(#hint_impls)*

            #[automatically_derived]
            impl #impl_generics #p::DerivedErrorCodes for #ident #ty_generics #where_clause {
                const CODES: ::core::option::Option<&'static [&'static str]> = #codes_tokens;
                type Hint<const I: usize> = waitable<I>;
            }
        };
    }
}

/// "Its codes: "A", "B" and "C"." (the first 24, then how many more).
fn list_codes(codes: &[String]) -> String {
    const SHOWN: usize = 24;
    let quoted: Vec<String> = codes
        .iter()
        .take(SHOWN)
        .map(|c| format!("\"{c}\""))
        .collect();
    let mut text = match quoted.as_slice() {
        [] => return "It models no code.".to_owned(),
        [one] => format!("Its one code: {one}"),
        [init @ .., last] if codes.len() <= SHOWN => {
            format!("Its codes: {} and {last}", init.join(", "))
        }
        all => format!("Its codes: {}", all.join(", ")),
    };
    if codes.len() > SHOWN {
        text.push_str(&format!(" and {} more", codes.len() - SHOWN));
    }
    text.push('.');
    text
}

/// The impl emitted next to compile errors: it only keeps uses of the type from failing too.
pub(crate) fn fallback(c: &Container) -> TokenStream {
    let krate = &c.krate;
    let ident = c.ident;
    let (impl_generics, ty_generics, where_clause) = c.generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics #krate::ProvideErrorMetadata for #ident #ty_generics #where_clause {
            fn code(&self) -> ::core::option::Option<&str> {
                ::core::unreachable!()
            }
        }
    }
}

/// One trait method: a `match self` with one arm per variant. Transparent variants forward.
fn method(
    variants: &[&Variant],
    krate: &syn::Path,
    name: TokenStream,
    ret: TokenStream,
    body: impl Fn(&Variant, &syn::Path) -> TokenStream,
) -> TokenStream {
    let arms = variants.iter().map(|v| {
        let path = match v.ident {
            Some(ident) => quote!(Self::#ident),
            None => quote!(Self),
        };
        if v.attrs.transparent.is_some() {
            let field = &v.fields[0];
            let member = &field.member;
            let span = field.ty.span();
            let call = quote_spanned!(span=> #krate::ProvideErrorMetadata::#name(__inner));
            quote!(#path { #member: __inner, .. } => #call,)
        } else {
            let bindings = v.fields.iter().filter(|f| !f.roles.is_empty()).map(|f| {
                let member = &f.member;
                let binding = binding(f);
                quote!(#member: #binding)
            });
            let body = body(v, krate);
            quote!(#[allow(unused_variables)] #path { #(#bindings,)* .. } => #body,)
        }
    });
    // `match self` binds fields by reference; an empty enum needs `*self` to be matched by no arm.
    let scrutinee = if variants.is_empty() {
        quote!(*self)
    } else {
        quote!(self)
    };
    quote! {
        fn #name(&self) -> #ret {
            match #scrutinee {
                #(#arms)*
            }
        }
    }
}

fn binding(field: &Field) -> syn::Ident {
    match &field.member {
        syn::Member::Named(ident) => format_ident!("__field_{}", ident),
        syn::Member::Unnamed(index) => format_ident!("__field_{}", index.index),
    }
}

fn code_body(v: &Variant, krate: &syn::Path) -> TokenStream {
    if v.attrs.no_code.is_some() {
        return quote!(::core::option::Option::None);
    }
    if let Some((code, _)) = static_code(v) {
        return quote!(::core::option::Option::Some(#code));
    }
    field_body(v, krate, Role::Code)
}

fn status_body(v: &Variant, krate: &syn::Path) -> TokenStream {
    match v.attrs.status {
        Some((status, _)) => quote!(::core::option::Option::Some(#status)),
        None => field_body(v, krate, Role::Status),
    }
}

/// Reads the field marked `role` through its `field::*` trait, or `None` if no field is.
fn field_body(v: &Variant, krate: &syn::Path, role: Role) -> TokenStream {
    let Some(field) = v
        .fields
        .iter()
        .find(|f| f.roles.iter().any(|(r, _)| *r == role))
    else {
        return quote!(::core::option::Option::None);
    };
    let binding = binding(field);
    let span = field.ty.span();
    match role {
        Role::Code | Role::Message => {
            quote_spanned!(span=> #krate::error_metadata::field::Text::text(#binding))
        }
        Role::Status => {
            quote_spanned!(span=> #krate::error_metadata::field::Status::status(#binding))
        }
        Role::RetryAfter => {
            quote_spanned!(span=> #krate::error_metadata::field::RetryAfter::retry_after(#binding))
        }
    }
}

fn flag(value: bool) -> TokenStream {
    quote!(#value)
}

/// Whether `ty` names one of the item's type parameters (then a `transparent` field needs a bound).
fn mentions_any(ty: &syn::Type, params: &[&syn::Ident]) -> bool {
    fn walk(tokens: TokenStream, params: &[&syn::Ident]) -> bool {
        tokens.into_iter().any(|tt| match tt {
            proc_macro2::TokenTree::Ident(ident) => params.iter().any(|p| **p == ident),
            proc_macro2::TokenTree::Group(group) => walk(group.stream(), params),
            _ => false,
        })
    }
    walk(quote!(#ty), params)
}
