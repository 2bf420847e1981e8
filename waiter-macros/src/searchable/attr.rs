//! `#[serde(..)]` and `#[searchable(..)]` attributes of a container, variant or field.

use super::model::How;
use super::rename::Rule;
use syn::{Attribute, LitStr, spanned::Spanned};

/// Errors are collected in the context every macro of the crate shares.
pub(crate) use crate::ctxt::Ctxt as Errors;

/// The attributes that change wire names, presence or conversion.
#[derive(Default)]
pub(crate) struct Attrs {
    pub(crate) serde_rename: Option<String>,
    pub(crate) rename: Option<String>,
    pub(crate) serde_rename_all: Option<Rule>,
    pub(crate) rename_all: Option<Rule>,
    pub(crate) skip: bool,
    pub(crate) flatten: bool,
    pub(crate) untagged: bool,
    /// `#[serde(transparent)]`: the struct is its one field on the wire.
    pub(crate) transparent: bool,
    pub(crate) how: Option<(How, proc_macro2::Span)>,
    /// `#[searchable(crate = "..")]`: the runtime crate's path.
    pub(crate) krate: Option<syn::Path>,
}

fn rule(lit: &LitStr, errors: &mut Errors) -> Option<Rule> {
    let r = Rule::from_str(&lit.value());
    if r.is_none() {
        errors.syn_error(syn::Error::new(
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
        errors.syn_error(syn::Error::new(
            span,
            "only one of `blob`, `timestamp`, `serde`, `with = ..` may be given for a field",
        ));
    }
    a.how = Some((how, span));
}

pub(crate) fn attrs(list: &[Attribute], errors: &mut Errors) -> Attrs {
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
                } else if p.is_ident("transparent") {
                    a.transparent = true;
                } else if p.is_ident("tag") || p.is_ident("content") {
                    errors.syn_error(syn::Error::new(
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
                } else if p.is_ident("crate") {
                    let lit = meta.value()?.parse::<LitStr>()?;
                    match crate::krate::parse_path(&lit) {
                        Ok(path) => a.krate = Some(path),
                        Err(e) => errors.syn_error(e),
                    }
                } else {
                    return Err(meta.error(
                        "unknown `searchable` attribute; expected `rename = \"..\"`, \
                         `rename_all = \"..\"`, `skip`, `flatten`, `untagged`, `blob`, \
                         `timestamp`, `serde`, `with = path::to::fn` or `crate = \"path\"`",
                    ));
                }
                Ok(())
            });
            if let Err(e) = r {
                errors.syn_error(e);
            }
        }
    }
    a
}

type TokenStream2 = proc_macro2::TokenStream;
