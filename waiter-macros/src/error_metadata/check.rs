//! Checks the model as a whole: conflicting keys, fields given twice, `transparent` shape,
//! codes used twice. Every problem is reported, not just the first.

use std::collections::HashMap;

use proc_macro2::Span;

use super::model::{Container, Data, Role, Variant};
use crate::ctxt::Ctxt;

pub(crate) fn container(cx: &Ctxt, container: &Container) {
    match &container.data {
        Data::Enum(variants) => {
            for v in variants {
                variant(cx, v);
            }
            unique_codes(cx, variants);
        }
        Data::Struct(v) => {
            if let Some(span) = v.attrs.transparent {
                cx.syn_error(syn::Error::new(
                    span,
                    "`transparent` applies to enum variants; a struct error implements \
                     `ProvideErrorMetadata` itself",
                ));
            }
            variant(cx, v);
        }
    }
}

fn variant(cx: &Ctxt, v: &Variant) {
    let attrs = &v.attrs;
    if let Some(transparent) = attrs.transparent {
        // `codes` declares what the wrapped error carries, for `#[waitable]`'s `errorType` check.
        for (key, span) in attrs.given().into_iter().filter(|(key, _)| *key != "codes") {
            cx.syn_error(syn::Error::new(
                span,
                format!(
                    "`{key}` cannot be combined with `transparent`, which takes all metadata \
                     from the wrapped error; remove one of them"
                ),
            ));
        }
        for field in &v.fields {
            for (role, span) in &field.roles {
                cx.syn_error(syn::Error::new(
                    *span,
                    format!(
                        "field key `{}` cannot be used in a `transparent` variant, which takes all \
                         metadata from the wrapped error",
                        role.key()
                    ),
                ));
            }
        }
        if v.fields.len() != 1 {
            let mut err = syn::Error::new(
                v.fields_span,
                format!(
                    "a `transparent` variant needs exactly one field, the error it forwards to \
                     (found {})",
                    v.fields.len()
                ),
            );
            err.combine(syn::Error::new(transparent, "`transparent` given here"));
            cx.syn_error(err);
        }
        codes_are_codes(cx, attrs);
        return;
    }

    if let (Some(code), Some(no_code)) = (&attrs.code, attrs.no_code) {
        let _ = code;
        cx.syn_error(syn::Error::new(
            no_code,
            "`no_code` contradicts `code = \"...\"` on the same variant; keep one of them",
        ));
    }
    if let Some(code) = &attrs.code {
        let value = code.value();
        if value.is_empty() {
            cx.error_spanned_by(
                code,
                "error code cannot be empty; use `no_code` for an error without one",
            );
        } else if value.chars().any(char::is_whitespace) {
            cx.error_spanned_by(code, "error code cannot contain whitespace");
        }
    }

    if let Some((_, span)) = &attrs.codes {
        if !reads_code(v) {
            let fixed = match static_code(v) {
                Some((code, _)) => format!("its code is \"{code}\""),
                None => "it has no code".to_owned(),
            };
            cx.error(
                *span,
                format!(
                    "`codes` lists what a catch-all variant (its code read from a field marked \
                     `#[error_metadata(code)]`) or a `transparent` variant may carry, for the `errorType` check of \
                     `#[waitable]`; this variant cannot carry other codes ({fixed}): remove `codes`"
                ),
            );
        }
    }
    codes_are_codes(cx, attrs);

    let mut seen: HashMap<Role, &syn::Member> = HashMap::new();
    for field in &v.fields {
        for &(role, span) in &field.roles {
            if role == Role::Code {
                if attrs.code.is_some() {
                    cx.syn_error(syn::Error::new(
                        span,
                        "the code is already given by `code = \"...\"` on the variant; remove \
                         one of them",
                    ));
                } else if attrs.no_code.is_some() {
                    cx.syn_error(syn::Error::new(
                        span,
                        "the variant says `no_code`; remove it to read the code from this field",
                    ));
                }
            }
            if role == Role::Status && attrs.status.is_some() {
                cx.syn_error(syn::Error::new(
                    span,
                    "the status is already given by `status = ...` on the variant; remove one of them",
                ));
            }
            match seen.get(&role) {
                Some(first) => cx.syn_error(syn::Error::new(
                    span,
                    format!(
                        "`{}` is already read from field `{}`; mark only one field",
                        role.key(),
                        member_name(first)
                    ),
                )),
                None => {
                    seen.insert(role, &field.member);
                }
            }
        }
    }
}

/// Every code of `codes = [..]` is a code: not empty, no whitespace.
fn codes_are_codes(cx: &Ctxt, attrs: &super::model::VariantAttrs) {
    for code in attrs.codes.iter().flat_map(|(codes, _)| codes) {
        let value = code.value();
        if value.is_empty() || value.chars().any(char::is_whitespace) {
            cx.error_spanned_by(code, "an error code is not empty and has no whitespace");
        }
    }
}

/// Two variants answering the same `code()` cannot be told apart by `errorType` matchers; a
/// catch-all's `codes` are the codes no variant models.
fn unique_codes(cx: &Ctxt, variants: &[Variant]) {
    let modeled: HashMap<String, &syn::Ident> = variants
        .iter()
        .filter_map(|v| static_code(v).map(|(code, _)| (code, v.name)))
        .collect();
    for v in variants {
        for code in v.attrs.codes.iter().flat_map(|(codes, _)| codes) {
            if let Some(variant) = modeled.get(&code.value()) {
                cx.error_spanned_by(
                    code,
                    format!(
                        "\"{}\" is the code of variant `{variant}`: `codes` lists what this \
                         catch-all carries that no variant models; remove it",
                        code.value()
                    ),
                );
            }
        }
    }
    let mut codes: HashMap<String, &syn::Ident> = HashMap::new();
    for v in variants {
        let (code, span): (String, Span) = match static_code(v) {
            Some(found) => found,
            None => continue,
        };
        match codes.get(&code) {
            Some(first) => cx.syn_error(syn::Error::new(
                span,
                format!(
                    "error code \"{code}\" is already used by variant `{first}`; waiters' \
                     `errorType` matchers could not tell them apart"
                ),
            )),
            None => {
                codes.insert(code, v.name);
            }
        }
    }
}

/// Whether the variant reads its code from a field (a catch-all).
pub(crate) fn reads_code(v: &Variant) -> bool {
    v.attrs.transparent.is_none()
        && v.fields
            .iter()
            .any(|f| f.roles.iter().any(|(r, _)| *r == Role::Code))
}

/// The code a variant always answers, if it is fixed at compile time.
pub(crate) fn static_code(v: &Variant) -> Option<(String, Span)> {
    let attrs = &v.attrs;
    if attrs.transparent.is_some() || attrs.no_code.is_some() {
        return None;
    }
    if v.fields
        .iter()
        .any(|f| f.roles.iter().any(|(r, _)| *r == Role::Code))
    {
        return None;
    }
    Some(match &attrs.code {
        Some(lit) => (lit.value(), lit.span()),
        None => (syn::ext::IdentExt::unraw(v.name).to_string(), v.name.span()),
    })
}

fn member_name(member: &syn::Member) -> String {
    match member {
        syn::Member::Named(ident) => ident.to_string(),
        syn::Member::Unnamed(index) => index.index.to_string(),
    }
}
