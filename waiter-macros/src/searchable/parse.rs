//! The type's fields and variants into the [`model`](super::model).

use super::attr::{Errors, attrs};
use super::model::*;
use super::rename::Rule;
use syn::{Data, DeriveInput, Fields, spanned::Spanned};

/// The rename rules a container (or struct variant) gives its fields: `#[searchable(rename_all)]`
/// and `#[serde(rename_all)]`. A member's name is, first to last: its own
/// `#[searchable(rename)]`, the container's `#[searchable(rename_all)]`, its own
/// `#[serde(rename)]`, the container's `#[serde(rename_all)]`, its Rust name. The derive's own
/// attributes win over serde's at every level: serde names the wire, `searchable` the model.
#[derive(Clone, Copy, Default)]
pub(crate) struct Rules {
    pub(crate) searchable: Option<Rule>,
    pub(crate) serde: Option<Rule>,
}

impl Rules {
    fn of(a: &super::attr::Attrs) -> Self {
        Rules {
            searchable: a.rename_all,
            serde: a.serde_rename_all,
        }
    }

    /// The name of a member whose own attributes are `a` and whose Rust name is `raw`.
    fn name(self, a: &super::attr::Attrs, raw: &str, apply: fn(Rule, &str) -> String) -> String {
        a.rename
            .clone()
            .or_else(|| self.searchable.map(|r| apply(r, raw)))
            .or_else(|| a.serde_rename.clone())
            .or_else(|| self.serde.map(|r| apply(r, raw)))
            .unwrap_or_else(|| raw.to_owned())
    }
}

fn fields(fs: &Fields, rules: Rules, errors: &mut Errors) -> Vec<Field> {
    let mut out = Vec::new();
    for (i, f) in fs.iter().enumerate() {
        let a = attrs(&f.attrs, errors);
        if let Some((_, span)) = &a.how {
            if a.flatten {
                errors.syn_error(syn::Error::new(
                    *span,
                    "a flattened field cannot also be converted",
                ));
            }
        }
        if a.rename_all.is_some() || a.serde_rename_all.is_some() || a.untagged {
            errors.syn_error(syn::Error::new(
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
                let wire = rules.name(&a, &raw, |r, raw| r.apply_to_field(raw));
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
    super::check::wire_names(&out, fs, errors);
    out
}

/// The model of the type, and the runtime crate's path if `#[searchable(crate = "..")]` gives one.
pub(crate) fn container(input: &DeriveInput, errors: &mut Errors) -> (Shape, Option<syn::Path>) {
    let a = attrs(&input.attrs, errors);
    let rules = Rules::of(&a);
    if a.untagged {
        errors.syn_error(syn::Error::new(
            input.ident.span(),
            "`#[derive(Searchable)]` does not support untagged enums: a Smithy union is an \
             object with one member; mark single variants `#[searchable(untagged)]` instead, \
             or search through `jmespath::Serialized`",
        ));
    }
    if a.how.is_some() || a.flatten || a.skip {
        errors.syn_error(syn::Error::new(
            input.ident.span(),
            "`blob`, `timestamp`, `serde`, `with`, `flatten` and `skip` apply to fields",
        ));
    }
    let shape = match &input.data {
        // `#[serde(transparent)]`: the one field that is not skipped, as a newtype.
        Data::Struct(s) if a.transparent => {
            let mut fs = fields(&s.fields, rules, errors);
            match (fs.pop(), fs.is_empty()) {
                (Some(f), true) => Shape::Newtype(f),
                _ => {
                    errors.syn_error(syn::Error::new(
                        input.ident.span(),
                        "`#[serde(transparent)]` needs exactly one field that is not skipped",
                    ));
                    Shape::Unit
                }
            }
        }
        Data::Struct(s) => match &s.fields {
            Fields::Named(_) => Shape::Object(fields(&s.fields, rules, errors)),
            Fields::Unnamed(u) if u.unnamed.len() == 1 => {
                let mut fs = fields(&s.fields, rules, errors);
                match fs.pop() {
                    Some(f) => Shape::Newtype(f),
                    None => Shape::Unit,
                }
            }
            Fields::Unnamed(_) => Shape::Tuple(fields(&s.fields, rules, errors)),
            Fields::Unit => Shape::Unit,
        },
        Data::Enum(e) => {
            let mut variants = Vec::new();
            for v in &e.variants {
                let va = attrs(&v.attrs, errors);
                if va.skip {
                    errors.syn_error(syn::Error::new(
                        v.ident.span(),
                        "variants cannot be skipped: a value of this variant must still \
                         be searchable",
                    ));
                }
                let raw = v.ident.to_string();
                let wire = rules.name(&va, &raw, |r, raw| r.apply_to_variant(raw));
                let inner_rules = Rules::of(&va);
                let fields = match &v.fields {
                    Fields::Unit => VariantFields::Unit,
                    Fields::Unnamed(u) if u.unnamed.len() == 1 => {
                        match fields(&v.fields, Rules::default(), errors).pop() {
                            Some(f) => VariantFields::Newtype(f),
                            None => VariantFields::Unit,
                        }
                    }
                    Fields::Unnamed(_) => {
                        VariantFields::Tuple(fields(&v.fields, Rules::default(), errors))
                    }
                    Fields::Named(_) => {
                        VariantFields::Named(fields(&v.fields, inner_rules, errors))
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
            errors.syn_error(syn::Error::new(
                u.union_token.span,
                "`#[derive(Searchable)]` works on structs and enums, not unions; a Smithy \
                 union is a Rust enum with one variant per member",
            ));
            Shape::Unit
        }
    };
    (shape, a.krate)
}
