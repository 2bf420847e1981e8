//! The codes a derived error type publishes for `#[waitable]`'s `errorType` check, and the
//! check's warnings, whose notes only the derive can write (it alone knows the codes as text).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::check::{reads_code, static_code};
use super::model::{Container, Variant, mentions_any};

/// `impl DerivedErrorCodes`: the written codes of the variants and the `codes` their catch-all
/// and `transparent` variants declare. `CODES` is `None` when the only codes are a catch-all's
/// that declares none, or when a `transparent` variant forwards to a type whose codes are not
/// known; a type the runtime describes itself (`std::io::Error`, reqwest's, http's: they carry
/// no service code) adds none and keeps the check on. This is decided in const evaluation,
/// where the wrapped type is known.
///
/// The hints (`Hint<I>`, the warning's deprecated `errorType` method, reached through `Deref`
/// from `waitable<I>` so that rustc's first line names what it says rather than an index): 0
/// silent, 1 the list of codes, `2 + k` "did you mean" code `k`, `2 + codes.len() + j` the
/// codes hidden by the `j`th `transparent` variant (`UNKNOWN_HINT`, given once per
/// `#[waitable]`).
pub(super) fn published(
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
    let mut forwarded: Vec<&Variant> = Vec::new();
    let catch_alls: Vec<&Variant> = variants.iter().copied().filter(|v| reads_code(v)).collect();
    for v in variants {
        if v.attrs.transparent.is_some() && v.attrs.codes.is_none() {
            forwarded.push(v);
        } else if let Some((code, _)) = static_code(v) {
            codes.push(crate::error_metadata::normalize_code(&code));
        }
        for code in v.attrs.codes.iter().flat_map(|(codes, _)| codes) {
            codes.push(crate::error_metadata::normalize_code(&code.value()));
        }
    }
    let name = ident.to_string();
    let type_params: Vec<&syn::Ident> = c.generics.type_params().map(|p| &p.ident).collect();
    // Whether each forwarded type carries no code, as a const expression.
    let codeless: Vec<TokenStream> = forwarded
        .iter()
        .map(|v| {
            let ty = v.fields[0].ty;
            if mentions_any(ty, &type_params) {
                quote!(false)
            } else {
                quote!(#p::codeless(#p::ErrorCodes::<#ty>::CODES))
            }
        })
        .collect();
    let uncheckable = codes.is_empty() && catch_alls.iter().any(|v| v.attrs.codes.is_none());
    let (codes_tokens, unknown_hint, hints) = if uncheckable {
        (quote!(::core::option::Option::None), quote!(0), Vec::new())
    } else {
        let mut hints = vec![(
            format_ident!("not_a_code"),
            not_a_code(&name, &codes, &catch_alls),
        )];
        let mut taken = std::collections::HashSet::new();
        hints.extend(codes.iter().enumerate().map(|(k, code)| {
            let mut target = format!("did_you_mean_{}", identifier(code));
            if !taken.insert(target.clone()) {
                target = format!("{target}_{k}");
            }
            (
                format_ident!("{}", target),
                format!(
                    "did you mean \"{code}\"? This errorType is not a code `{name}` models, so \
                     the acceptor never matches as written (Smithy warns the same)"
                ),
            )
        }));
        let base = hints.len() + 1;
        hints.extend(forwarded.iter().map(|v| {
            let ty = v.fields[0].ty;
            let ty = quote!(#ty).to_string().replace(' ', "");
            (
                format_ident!("codes_hidden_by_{}", v.name.to_string()),
                format!(
                    "`#[waitable]` cannot check the errorType strings of `{name}`: its variant \
                     `{variant}` forwards to `{ty}` (`#[error_metadata(transparent)]`), whose \
                     codes the check cannot read (it knows only that the transport errors the \
                     runtime describes, and derived types without codes, carry none). Declare \
                     the codes `{ty}` carries, as in \
                     `#[error_metadata(transparent, codes = [\"...\"])]`, to have them checked",
                    variant = v.name
                ),
            )
        }));
        let mut unknown_hint = quote!(0);
        for (j, codeless) in codeless.iter().enumerate().rev() {
            let hint = base + j;
            unknown_hint = quote!(if !#codeless { #hint } else { #unknown_hint });
        }
        let all_codeless = if codeless.is_empty() {
            quote!(true)
        } else {
            quote!(#(#codeless)&&*)
        };
        (
            quote! {
                if #all_codeless {
                    ::core::option::Option::Some(&[#(#codes),*])
                } else {
                    ::core::option::Option::None
                }
            },
            unknown_hint,
            hints,
        )
    };
    let hint_items = hints.iter().enumerate().map(|(i, (target, note))| {
        let i = i + 1;
        quote! {
            #[derive(Default)]
            pub struct #target;

            impl #target {
                #[deprecated(note = #note)]
                pub fn errorType(&self) {}
            }

            impl ::core::ops::Deref for waitable<#i> {
                type Target = #target;

                fn deref(&self) -> &#target {
                    &#target
                }
            }
        }
    });
    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types, non_snake_case, dead_code)]
        const _: () = {
            #[allow(unused_imports)]
            use #p::UnknownErrorCodes as _;

            /// The warning of an `errorType` naming a code this type does not model: the
            /// deprecated `errorType` method its `Deref` target has, chosen by a const index.
            #[derive(Default)]
            pub struct waitable<const I: usize>;

            impl waitable<0> {
                pub fn errorType(&self) {}
            }

            #(#hint_items)*

            #[automatically_derived]
            impl #impl_generics #p::DerivedErrorCodes for #ident #ty_generics #where_clause {
                const CODES: ::core::option::Option<&'static [&'static str]> = #codes_tokens;
                const UNKNOWN_HINT: usize = #unknown_hint;
                type Hint<const I: usize> = waitable<I>;
            }
        };
    }
}

/// The note of an `errorType` far from every code.
fn not_a_code(name: &str, codes: &[String], catch_alls: &[&Variant]) -> String {
    let listed = list_codes(codes);
    let advice = match catch_alls.first() {
        Some(v) => format!(
            " If the catch-all `{}` carries it, declare it there: \
             `#[error_metadata(codes = [\"...\"])]`.",
            v.name
        ),
        None => {
            " Name one of them, or give a variant `#[error_metadata(code = \"...\")]`.".to_owned()
        }
    };
    format!(
        "this errorType is not a code `{name}` models, so the acceptor never matches (Smithy \
         warns the same). {listed}{advice}"
    )
}

/// A code as part of an identifier (`InvalidInstanceID.NotFound` -> `InvalidInstanceID_NotFound`).
fn identifier(code: &str) -> String {
    code.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
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
