//! A walk over a type's syntax, by `syn::Type`'s variants: into references, arrays, slices,
//! pointers, tuples, function pointers, trait objects and paths' generic arguments, calling a
//! [`Visitor`] where the macros look at a type or rewrite it (lifetimes, references, paths,
//! `impl Trait`, `_`, qualified selves). It stands in for syn's `visit`/`visit-mut` features,
//! which every user would build for two small walks.
//!
//! Not walked into: `impl Trait` (its bounds), expressions inside a type (an array's length, a
//! const argument: given whole to [`Visitor::expr`]), a macro's tokens, and the lifetimes a
//! `for<'a>` binder declares (they are declarations, not uses).

use syn::{
    AngleBracketedGenericArguments, Expr, GenericArgument, Lifetime, Path, PathArguments, QSelf,
    ReturnType, Type, TypeImplTrait, TypeParamBound, TypeReference,
};

/// What a walk does at each place; every method does nothing by default.
pub(crate) trait Visitor {
    /// A reference, before its lifetime (when written) and its referent are walked.
    fn reference(&mut self, _: &mut TypeReference) {}
    /// A lifetime in use: a reference's, a generic argument, a trait object's bound.
    fn lifetime(&mut self, _: &mut Lifetime) {}
    /// A path (of a type, of a trait bound, of a macro), before its generic arguments.
    fn path(&mut self, _: &Path) {}
    /// The `<T as Trait>` of `<T as Trait>::X`, before `T` and the path are walked.
    fn qself(&mut self, _: &QSelf) {}
    /// `impl Trait` (not walked into).
    fn impl_trait(&mut self, _: &mut TypeImplTrait) {}
    /// `_`.
    fn infer(&mut self) {}
    /// An expression in the type: an array's length, a const argument (not walked into).
    fn expr(&mut self, _: &Expr) {}
}

/// Walks `ty` with `v`.
pub(crate) fn walk(v: &mut impl Visitor, ty: &mut Type) {
    match ty {
        Type::Reference(r) => {
            v.reference(r);
            if let Some(lt) = &mut r.lifetime {
                v.lifetime(lt);
            }
            walk(v, &mut r.elem);
        }
        Type::Path(p) => {
            if let Some(qself) = &mut p.qself {
                v.qself(qself);
                walk(v, &mut qself.ty);
            }
            path(v, &mut p.path);
        }
        Type::ImplTrait(t) => v.impl_trait(t),
        Type::Infer(_) => v.infer(),
        Type::Array(a) => {
            walk(v, &mut a.elem);
            v.expr(&a.len);
        }
        Type::Slice(s) => walk(v, &mut s.elem),
        Type::Ptr(p) => walk(v, &mut p.elem),
        Type::Paren(p) => walk(v, &mut p.elem),
        Type::Group(g) => walk(v, &mut g.elem),
        Type::Tuple(t) => t.elems.iter_mut().for_each(|t| walk(v, t)),
        Type::FnPtr(f) => {
            f.inputs.iter_mut().for_each(|arg| walk(v, &mut arg.ty));
            output(v, &mut f.output);
        }
        Type::TraitObject(t) => t.bounds.iter_mut().for_each(|b| bound(v, b)),
        Type::Macro(m) => v.path(&m.mac.path),
        // `!`, and tokens syn does not interpret.
        _ => {}
    }
}

fn path(v: &mut impl Visitor, p: &mut Path) {
    v.path(p);
    for segment in &mut p.segments {
        match &mut segment.arguments {
            PathArguments::None => {}
            PathArguments::AngleBracketed(args) => angle_bracketed(v, args),
            PathArguments::Parenthesized(args) => {
                args.inputs.iter_mut().for_each(|arg| walk(v, &mut arg.ty));
                output(v, &mut args.output);
            }
        }
    }
}

fn angle_bracketed(v: &mut impl Visitor, args: &mut AngleBracketedGenericArguments) {
    for arg in &mut args.args {
        match arg {
            GenericArgument::Lifetime(lt) => v.lifetime(lt),
            GenericArgument::Type(t) => walk(v, t),
            GenericArgument::Const(e) => v.expr(e),
            GenericArgument::AssocType(a) => {
                if let Some(g) = &mut a.generics {
                    angle_bracketed(v, g);
                }
                walk(v, &mut a.ty);
            }
            GenericArgument::AssocConst(a) => {
                if let Some(g) = &mut a.generics {
                    angle_bracketed(v, g);
                }
                v.expr(&a.value);
            }
            GenericArgument::Constraint(c) => {
                if let Some(g) = &mut c.generics {
                    angle_bracketed(v, g);
                }
                c.bounds.iter_mut().for_each(|b| bound(v, b));
            }
            _ => {}
        }
    }
}

fn bound(v: &mut impl Visitor, b: &mut TypeParamBound) {
    match b {
        TypeParamBound::Trait(t) => path(v, &mut t.path),
        TypeParamBound::Lifetime(lt) => v.lifetime(lt),
        _ => {}
    }
}

fn output(v: &mut impl Visitor, out: &mut ReturnType) {
    if let ReturnType::Type(_, ty) = out {
        walk(v, ty);
    }
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;
    use syn::parse_quote;

    use super::*;

    /// Records what the walk meets, and names every lifetime in use `'x`.
    #[derive(Default)]
    struct Record(Vec<String>);

    impl Visitor for Record {
        fn reference(&mut self, r: &mut TypeReference) {
            self.0.push(format!("&{}", r.elem.to_token_stream()));
        }
        fn lifetime(&mut self, lt: &mut Lifetime) {
            self.0.push(lt.to_string());
            *lt = Lifetime::new("'x", lt.span());
        }
        fn path(&mut self, p: &Path) {
            self.0.push(format!("path {}", p.to_token_stream()));
        }
        fn qself(&mut self, q: &QSelf) {
            self.0.push(format!("qself {}", q.ty.to_token_stream()));
        }
        fn impl_trait(&mut self, _: &mut TypeImplTrait) {
            self.0.push("impl".to_owned());
        }
        fn infer(&mut self) {
            self.0.push("_".to_owned());
        }
        fn expr(&mut self, e: &Expr) {
            self.0.push(format!("expr {}", e.to_token_stream()));
        }
    }

    fn record(mut ty: Type) -> (Vec<String>, String) {
        let mut r = Record::default();
        walk(&mut r, &mut ty);
        (r.0, ty.to_token_stream().to_string())
    }

    #[test]
    fn every_lifetime_in_use_is_visited_and_binders_are_not() {
        let (seen, ty) = record(parse_quote!(
            Box<dyn for<'b> Fn(&'b u8, Cow<'a, str>) -> &'_ str + 'c>
        ));
        assert_eq!(
            ty,
            "Box < dyn for < 'b > Fn (& 'x u8 , Cow < 'x , str >) -> & 'x str + 'x >"
        );
        assert_eq!(
            seen.iter()
                .filter(|s| s.starts_with('\''))
                .collect::<Vec<_>>(),
            ["'b", "'a", "'_", "'c"]
        );
    }

    #[test]
    fn references_paths_and_the_places_not_walked_into() {
        let (seen, _) = record(parse_quote!((
            &[u8; N],
            <&T as Tr>::X,
            Vec<impl Fn(&u8)>,
            Foo<_, 3>,
            m!(&T)
        )));
        assert_eq!(
            seen,
            [
                "&[u8 ; N]",
                "path u8",
                "expr N",
                "qself & T",
                "&T",
                "path T",
                "path Tr :: X",
                "path Vec < impl Fn (& u8) >",
                "impl",
                "path Foo < _ , 3 >",
                "_",
                "expr 3",
                "path m",
            ]
        );
    }
}
