//! The type as a const item nested in the function can name it: references stripped, every
//! lifetime `'static`; `None` when it names what a nested item cannot (`Self`, the function's
//! generics, `impl Trait`, `_`, a qualified self).

use proc_macro2::Span;
use syn::Type;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;

use crate::waitable::signature::Operation;

/// The type as a const item can name it: references stripped, every lifetime `'static`;
/// `None` when it names something a nested item cannot (`Self`, generics, `impl Trait`).
pub(crate) fn nameable(ty: &Type, op: &Operation) -> Option<Type> {
    let generics = op
        .sig
        .generics
        .params
        .iter()
        .map(|g| match g {
            syn::GenericParam::Type(t) => t.ident.to_string(),
            syn::GenericParam::Const(c) => c.ident.to_string(),
            syn::GenericParam::Lifetime(l) => l.lifetime.ident.to_string(),
        })
        .collect();
    nameable_with(ty, generics)
}

pub(super) fn nameable_with(ty: &Type, generics: Vec<String>) -> Option<Type> {
    let mut ty = ty.clone();
    while let Type::Reference(r) = ty {
        ty = *r.elem;
    }
    struct Scan {
        generics: Vec<String>,
        bad: bool,
    }
    impl<'ast> Visit<'ast> for Scan {
        fn visit_path(&mut self, p: &'ast syn::Path) {
            if p.segments.len() == 1 {
                let name = p.segments[0].ident.to_string();
                // `Self`, the function's generics, and what looks like an impl's (`T`, `O`).
                if name == "Self"
                    || self.generics.contains(&name)
                    || (name.len() <= 2 && name.chars().all(|c| c.is_ascii_uppercase()))
                {
                    self.bad = true;
                }
            }
            syn::visit::visit_path(self, p);
        }
        fn visit_type_impl_trait(&mut self, _: &'ast syn::TypeImplTrait) {
            self.bad = true;
        }
        fn visit_type_infer(&mut self, _: &'ast syn::TypeInfer) {
            self.bad = true;
        }
        fn visit_qself(&mut self, _: &'ast syn::QSelf) {
            self.bad = true;
        }
    }
    let mut scan = Scan {
        generics,
        bad: false,
    };
    scan.visit_type(&ty);
    if scan.bad {
        return None;
    }
    struct Static;
    impl VisitMut for Static {
        fn visit_lifetime_mut(&mut self, lt: &mut syn::Lifetime) {
            *lt = syn::Lifetime::new("'static", lt.span());
        }
        fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
            r.lifetime = Some(syn::Lifetime::new("'static", Span::call_site()));
            syn::visit_mut::visit_type_reference_mut(self, r);
        }
    }
    Static.visit_type_mut(&mut ty);
    Some(ty)
}
