//! The annotated operation: an `async fn` returning `Result<O, E>`, a `&self` method or a free
//! function. Everything the expansion needs to forward its signature faithfully.

use proc_macro2::Span;
use syn::visit_mut::VisitMut;
use syn::{FnArg, GenericArgument, Ident, Lifetime, PathArguments, ReturnType, Signature, Type};

use super::ctxt::Ctxt;

pub(crate) struct Operation {
    pub sig: Signature,
    /// `Some(span of self)` for a `&self` method.
    pub receiver: Option<Span>,
    pub params: Vec<Param>,
    /// The `Result<O, E>` type as written.
    pub ret: Type,
    /// Whether `O` is written `()`: such an operation has no output to match.
    pub unit_output: bool,
}

pub(crate) struct Param {
    /// The name the waiter function gives the parameter (the original one when it is a plain
    /// identifier).
    pub ident: Ident,
    /// The name the Smithy `input` object uses for it.
    pub name: String,
    pub ty: Type,
    pub span: Span,
}

pub(crate) fn read(cx: &mut Ctxt, sig: &Signature) -> Option<Operation> {
    let mut ok = true;
    if sig.asyncness.is_none() {
        cx.error(
            sig.fn_token.span,
            "#[waitable] goes on an `async fn`: the waiter polls it; write `async fn`",
        );
        ok = false;
    }
    let mut receiver = None;
    let mut params = Vec::new();
    for (i, input) in sig.inputs.iter().enumerate() {
        match input {
            FnArg::Receiver(r) => {
                if r.reference.is_none() || r.mutability.is_some() || r.colon_token.is_some() {
                    cx.error(
                        r.self_token.span,
                        "a waitable method takes `&self`: the waiter calls it once per poll, so it cannot take `self` by value or `&mut self`",
                    );
                    ok = false;
                }
                receiver = Some(r.self_token.span);
            }
            FnArg::Typed(pat) => {
                let (ident, name) = match &*pat.pat {
                    syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => {
                        let name = p.ident.to_string();
                        (
                            p.ident.clone(),
                            name.strip_prefix("r#").unwrap_or(&name).to_owned(),
                        )
                    }
                    _ => {
                        let ident = Ident::new(&format!("__waitable_arg{i}"), Span::call_site());
                        (ident, format!("arg{i}"))
                    }
                };
                params.push(Param {
                    ident,
                    name,
                    ty: (*pat.ty).clone(),
                    span: syn::spanned::Spanned::span(&pat.ty),
                });
            }
        }
    }
    let ret = match &sig.output {
        ReturnType::Type(_, ty) if result_args(ty).is_some() => Some((**ty).clone()),
        ReturnType::Type(_, ty) => {
            cx.error(
                syn::spanned::Spanned::span(ty),
                "a waitable operation returns `Result<O, E>`: acceptors match on its output and its error",
            );
            None
        }
        ReturnType::Default => {
            cx.error(
                sig.ident.span(),
                "a waitable operation returns `Result<O, E>`: acceptors match on its output and its error; add `-> Result<O, E>`",
            );
            None
        }
    };
    let ret = ret?;
    let unit_output = matches!(result_args(&ret), Some(Some(Type::Tuple(t))) if t.elems.is_empty());
    ok.then(|| Operation {
        sig: sig.clone(),
        receiver,
        params,
        ret,
        unit_output,
    })
}

/// `Some(first type argument)` when `ty` is a path ending in `Result` (`Result<O, E>`,
/// `io::Result<O>`); `Some(None)` for a bare `Result` alias without arguments.
fn result_args(ty: &Type) -> Option<Option<&Type>> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != "Result" {
        return None;
    }
    Some(match &last.arguments {
        PathArguments::AngleBracketed(args) => args.args.iter().find_map(|a| match a {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        }),
        _ => None,
    })
}

/// Gives every elided lifetime of the parameters (`&T`, `&self`, `Foo<'_>`) a name, so that the
/// waiter's return type can say it captures them, and applies the elision rules to the return
/// type. Returns the new lifetimes, in order.
pub(crate) fn name_elided_lifetimes(sig: &mut Signature) -> Vec<Lifetime> {
    struct Namer {
        made: Vec<Lifetime>,
    }
    impl Namer {
        fn fresh(&mut self, span: Span) -> Lifetime {
            let lt = Lifetime::new(&format!("'__waitable{}", self.made.len()), span);
            self.made.push(lt.clone());
            lt
        }
    }
    impl VisitMut for Namer {
        fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
            if r.lifetime.is_none() {
                r.lifetime = Some(self.fresh(r.and_token.span));
            }
            syn::visit_mut::visit_type_reference_mut(self, r);
        }
        fn visit_lifetime_mut(&mut self, lt: &mut Lifetime) {
            if lt.ident == "_" {
                *lt = self.fresh(lt.apostrophe);
            }
        }
        fn visit_type_impl_trait_mut(&mut self, _: &mut syn::TypeImplTrait) {
            // Lifetimes elided inside `impl Trait` arguments stay as they are.
        }
    }
    let mut namer = Namer { made: Vec::new() };
    let mut self_lifetime = None;
    for input in sig.inputs.iter_mut() {
        match input {
            FnArg::Receiver(r) => {
                if let Some((_, lt)) = &mut r.reference {
                    if lt.is_none() {
                        *lt = Some(namer.fresh(r.self_token.span));
                    }
                    self_lifetime = lt.clone();
                    *r.ty = syn::parse_quote!(&#lt Self);
                }
            }
            FnArg::Typed(pat) => namer.visit_type_mut(&mut pat.ty),
        }
    }
    // Elision in the return type: the `self` lifetime, else the only input lifetime.
    let output_lifetime = self_lifetime.or_else(|| match namer.made.as_slice() {
        [only] => Some(only.clone()),
        _ => None,
    });
    if let (ReturnType::Type(_, ty), Some(lt)) = (&mut sig.output, output_lifetime) {
        struct Fill(Lifetime);
        impl VisitMut for Fill {
            fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
                if r.lifetime.is_none() {
                    r.lifetime = Some(self.0.clone());
                }
                syn::visit_mut::visit_type_reference_mut(self, r);
            }
            fn visit_lifetime_mut(&mut self, lt: &mut Lifetime) {
                if lt.ident == "_" {
                    *lt = self.0.clone();
                }
            }
        }
        Fill(lt).visit_type_mut(ty);
    }
    namer.made
}
