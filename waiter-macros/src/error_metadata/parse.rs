//! Reads the item and its `#[error_metadata(...)]` attributes into the [model](super::model).
//!
//! Malformed keys are reported and skipped, so one pass reports every one of them.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Token, parse_quote};

use super::model::{Container, Data, Field, Role, Variant, VariantAttrs};
use crate::ctxt::Ctxt;

const ATTR: &str = "error_metadata";

/// Keys a variant (or a struct) accepts.
const VARIANT_KEYS: &str = "`code = \"...\"`, `no_code`, `status = 404`, `retryable`, \
                            `retryable(throttling)`, `throttling`, `transient`, `transparent`, \
                            `codes = [\"...\"]`";
/// Keys a field accepts.
const FIELD_KEYS: &str = "`code`, `message`, `status`, `retry_after`";

/// Where an attribute was written; decides which keys are allowed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Enum,
    Struct,
    Variant,
}

pub(crate) fn container<'a>(cx: &Ctxt, input: &'a syn::DeriveInput) -> Option<Container<'a>> {
    let mut krate = None;
    let data = match &input.data {
        syn::Data::Enum(data) => {
            let mut ignored = VariantAttrs::default();
            parse_attrs(cx, &input.attrs, Place::Enum, &mut ignored, &mut krate);
            Data::Enum(data.variants.iter().map(|v| variant(cx, v)).collect())
        }
        syn::Data::Struct(data) => {
            let mut attrs = VariantAttrs::default();
            parse_attrs(cx, &input.attrs, Place::Struct, &mut attrs, &mut krate);
            Data::Struct(Variant {
                ident: None,
                name: &input.ident,
                fields: fields(cx, &data.fields),
                fields_span: fields_span(&data.fields, &input.ident),
                attrs,
            })
        }
        syn::Data::Union(data) => {
            cx.error_spanned_by(
                data.union_token,
                "`ProvideErrorMetadata` cannot be derived for a union; derive it for an enum \
                 of errors or a struct",
            );
            return None;
        }
    };
    Some(Container {
        ident: &input.ident,
        generics: &input.generics,
        krate: krate.unwrap_or_else(|| parse_quote!(::waiter_runtime)),
        data,
    })
}

fn variant<'a>(cx: &Ctxt, v: &'a syn::Variant) -> Variant<'a> {
    let mut attrs = VariantAttrs::default();
    let mut no_crate = None;
    parse_attrs(cx, &v.attrs, Place::Variant, &mut attrs, &mut no_crate);
    Variant {
        ident: Some(&v.ident),
        name: &v.ident,
        fields: fields(cx, &v.fields),
        fields_span: fields_span(&v.fields, &v.ident),
        attrs,
    }
}

fn fields_span(fields: &syn::Fields, name: &syn::Ident) -> Span {
    match fields {
        syn::Fields::Unit => name.span(),
        fields => fields.span(),
    }
}

fn fields<'a>(cx: &Ctxt, fields: &'a syn::Fields) -> Vec<Field<'a>> {
    fields
        .iter()
        .enumerate()
        .map(|(index, f)| {
            let member = match &f.ident {
                Some(ident) => syn::Member::Named(ident.clone()),
                None => syn::Member::Unnamed(syn::Index {
                    index: index as u32,
                    span: f.ty.span(),
                }),
            };
            Field {
                member,
                ty: &f.ty,
                roles: field_roles(cx, &f.attrs),
            }
        })
        .collect()
}

fn field_roles(cx: &Ctxt, attrs: &[syn::Attribute]) -> Vec<(Role, Span)> {
    let mut roles: Vec<(Role, Span)> = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident(ATTR)) {
        let result = attr.parse_nested_meta(|meta| {
            let key = key_of(&meta);
            match Role::ALL.iter().find(|role| role.key() == key) {
                Some(&role) => {
                    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
                        cx.error_spanned_by(
                            &meta.path,
                            format!(
                                "field key `{key}` takes no value: write `#[error_metadata({key})]`"
                            ),
                        );
                        skip_value(&meta)?;
                    } else if roles.iter().any(|(r, _)| *r == role) {
                        cx.error_spanned_by(&meta.path, format!("duplicate `{key}` on this field"));
                    } else {
                        roles.push((role, meta.path.span()));
                    }
                }
                None => {
                    let hint = if is_variant_key(&key) {
                        format!("`{key}` belongs on the variant (or struct), not on a field")
                    } else {
                        format!("unknown field key `{key}`; expected one of {FIELD_KEYS}")
                    };
                    cx.error_spanned_by(&meta.path, hint);
                    skip_value(&meta)?;
                }
            }
            Ok(())
        });
        report(cx, attr, result);
    }
    roles
}

fn is_variant_key(key: &str) -> bool {
    matches!(
        key,
        "no_code" | "retryable" | "throttling" | "transient" | "transparent" | "codes"
    )
}

/// Parses the variant-level keys (and `crate`) of the attributes written at `place`.
fn parse_attrs(
    cx: &Ctxt,
    attrs: &[syn::Attribute],
    place: Place,
    out: &mut VariantAttrs,
    krate: &mut Option<syn::Path>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident(ATTR)) {
        let result = attr.parse_nested_meta(|meta| {
            let key = key_of(&meta);
            let span = meta.path.span();
            if key == "crate" {
                if place == Place::Variant {
                    cx.error_spanned_by(
                        &meta.path,
                        "`crate` belongs on the enum, not on a variant",
                    );
                    return skip_value(&meta);
                }
                let lit: syn::LitStr = meta.value()?.parse()?;
                match lit.parse::<syn::Path>() {
                    Ok(path) if krate.is_none() => *krate = Some(path),
                    Ok(_) => cx.error_spanned_by(&meta.path, "duplicate `crate`"),
                    Err(_) => cx.error_spanned_by(
                        &lit,
                        "expected a path to the runtime crate, like `crate = \"::waiter_runtime\"`",
                    ),
                }
                return Ok(());
            }
            if place == Place::Enum {
                let hint = if Role::ALL.iter().any(|r| r.key() == key) || is_variant_key(&key) {
                    format!("`{key}` belongs on each variant it applies to, not on the enum")
                } else {
                    format!("unknown enum key `{key}`; the enum accepts only `crate = \"...\"`")
                };
                cx.error_spanned_by(&meta.path, hint);
                return skip_value(&meta);
            }
            match key.as_str() {
                "code" => {
                    if !meta.input.peek(Token![=]) {
                        cx.error_spanned_by(
                            &meta.path,
                            "`code` on a variant needs a value: `code = \"NotFound\"` (to read the \
                             code from a field, put `#[error_metadata(code)]` on that field)",
                        );
                        return skip_value(&meta);
                    }
                    let expr: syn::Expr = meta.value()?.parse()?;
                    match expr {
                        syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Str(lit),
                            ..
                        }) => {
                            set_once(cx, &meta, &mut out.code, lit);
                        }
                        other => cx.error_spanned_by(
                            other,
                            "expected a string literal, like `code = \"NotFound\"`",
                        ),
                    }
                }
                "status" => {
                    if !meta.input.peek(Token![=]) {
                        cx.error_spanned_by(
                            &meta.path,
                            "`status` on a variant needs a value: `status = 404` (to read the \
                             status from a field, put `#[error_metadata(status)]` on that field)",
                        );
                        return skip_value(&meta);
                    }
                    let expr: syn::Expr = meta.value()?.parse()?;
                    let status = match &expr {
                        syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Int(lit),
                            ..
                        }) => lit
                            .base10_parse::<u16>()
                            .ok()
                            .filter(|s| (100..=599).contains(s)),
                        _ => None,
                    };
                    match status {
                        Some(status) => set_once(cx, &meta, &mut out.status, (status, expr.span())),
                        None => cx.error_spanned_by(
                            &expr,
                            "expected an HTTP status code between 100 and 599, like `status = 404`",
                        ),
                    }
                }
                "retryable" => {
                    if meta.input.peek(syn::token::Paren) {
                        meta.parse_nested_meta(|inner| {
                            if inner.path.is_ident("throttling") {
                                set_once(cx, &inner, &mut out.throttling, inner.path.span());
                            } else {
                                cx.error_spanned_by(
                                    &inner.path,
                                    format!(
                                        "unknown `retryable` option `{}`; the only option is \
                                         `throttling`: `retryable(throttling)`",
                                        key_of(&inner)
                                    ),
                                );
                                skip_value(&inner)?;
                            }
                            Ok(())
                        })?;
                    } else if no_value(cx, &meta, &key)? {
                        set_once(cx, &meta, &mut out.retryable, span);
                    }
                    // `retryable(throttling)` is retryable too; a lone `retryable` may follow.
                    out.retryable.get_or_insert(span);
                }
                "throttling" => {
                    if no_value(cx, &meta, &key)? {
                        set_once(cx, &meta, &mut out.throttling, span);
                    }
                }
                "transient" => {
                    if no_value(cx, &meta, &key)? {
                        set_once(cx, &meta, &mut out.transient, span);
                    }
                }
                "transparent" => {
                    if no_value(cx, &meta, &key)? {
                        set_once(cx, &meta, &mut out.transparent, span);
                    }
                }
                "no_code" => {
                    if no_value(cx, &meta, &key)? {
                        set_once(cx, &meta, &mut out.no_code, span);
                    }
                }
                "codes" => {
                    if !meta.input.peek(Token![=]) {
                        cx.error_spanned_by(
                            &meta.path,
                            "`codes` needs a list: `codes = [\"ThrottlingException\"]`, the codes \
                             this catch-all variant may carry besides those no variant models",
                        );
                        return skip_value(&meta);
                    }
                    let expr: syn::Expr = meta.value()?.parse()?;
                    let mut codes = Vec::new();
                    let mut ok = true;
                    match &expr {
                        syn::Expr::Array(array) => {
                            for elem in &array.elems {
                                match elem {
                                    syn::Expr::Lit(syn::ExprLit {
                                        lit: syn::Lit::Str(lit),
                                        ..
                                    }) => codes.push(lit.clone()),
                                    other => {
                                        ok = false;
                                        cx.error_spanned_by(
                                            other,
                                            "expected a string literal, like `codes = [\"ThrottlingException\"]`",
                                        );
                                    }
                                }
                            }
                        }
                        other => {
                            ok = false;
                            cx.error_spanned_by(
                                other,
                                "expected a list of string literals, like `codes = [\"ThrottlingException\"]`",
                            );
                        }
                    }
                    if ok {
                        set_once(cx, &meta, &mut out.codes, (codes, span));
                    }
                }
                _ => {
                    let hint = if matches!(key.as_str(), "message" | "retry_after") {
                        format!(
                            "`{key}` belongs on the field that holds it: \
                             `#[error_metadata({key})] {key}: ...`"
                        )
                    } else {
                        let what = if place == Place::Struct {
                            "struct"
                        } else {
                            "variant"
                        };
                        format!("unknown {what} key `{key}`; expected one of {VARIANT_KEYS}")
                    };
                    cx.error_spanned_by(&meta.path, hint);
                    skip_value(&meta)?;
                }
            }
            Ok(())
        });
        report(cx, attr, result);
    }
}

/// Reports a syntax error from `parse_nested_meta`, or an empty `#[error_metadata]`.
fn report(cx: &Ctxt, attr: &syn::Attribute, result: syn::Result<()>) {
    if let Err(err) = result {
        cx.syn_error(err);
    } else if matches!(attr.meta, syn::Meta::Path(_)) {
        cx.error_spanned_by(
            attr,
            "expected `#[error_metadata(...)]` with at least one key",
        );
    }
}

fn key_of(meta: &ParseNestedMeta) -> String {
    meta.path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_else(|| {
            let path = &meta.path;
            quote::quote!(#path).to_string().replace(' ', "")
        })
}

/// For flag keys: reports a value given to them (and skips it); `Ok(true)` when there is none.
fn no_value(cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<bool> {
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(
            &meta.path,
            format!("`{key}` takes no value: write `#[error_metadata({key})]`"),
        );
        skip_value(meta)?;
        return Ok(false);
    }
    Ok(true)
}

fn set_once<T>(cx: &Ctxt, meta: &ParseNestedMeta, slot: &mut Option<T>, value: T) {
    if slot.is_some() {
        cx.error_spanned_by(&meta.path, format!("duplicate `{}`", key_of(meta)));
    } else {
        *slot = Some(value);
    }
}

/// Consumes whatever value follows a key (`= expr` or `(...)`), so parsing can go on.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(Token![=]) {
        let value = meta.value()?;
        let _: syn::Expr = value.parse()?;
    } else if meta.input.peek(syn::token::Paren) {
        let _content;
        syn::parenthesized!(_content in meta.input);
    }
    Ok(())
}
