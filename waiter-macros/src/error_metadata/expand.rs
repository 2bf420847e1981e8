//! Writes `impl ProvideErrorMetadata` from a checked model.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::check::static_code;
use super::model::{Container, Data, Field, Role, Variant, mentions_any};

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
            quote!(retry_forbidden),
            quote!(bool),
            forbidden_body,
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

    let error_codes =
        super::codes::published(c, &variants, &impl_generics, &ty_generics, where_clause);

    quote! {
        #[automatically_derived]
        impl #impl_generics #trait_path for #ident #ty_generics #where_clause {
            #(#methods)*
        }

        #error_codes
    }
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

/// Whether the field marked `retry_after` says not to retry (a response's headers may).
fn forbidden_body(v: &Variant, krate: &syn::Path) -> TokenStream {
    match v
        .fields
        .iter()
        .find(|f| f.roles.iter().any(|(r, _)| *r == Role::RetryAfter))
    {
        Some(field) => {
            let binding = binding(field);
            let span = field.ty.span();
            quote_spanned!(span=> #krate::error_metadata::field::RetryAfter::retry_forbidden(#binding))
        }
        None => quote!(false),
    }
}

fn flag(value: bool) -> TokenStream {
    quote!(#value)
}
