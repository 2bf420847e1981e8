//! The annotated operation: an `async fn` (an async waiter) or a plain `fn` (a blocking waiter)
//! returning `Result<O, E>`, a `&self` method or a free function. Everything the expansion
//! needs to forward its signature faithfully.

use proc_macro2::Span;
use syn::{
    FnArg, GenericArgument, GenericParam, Ident, Lifetime, PathArguments, ReturnType, Signature,
    Type, TypeImplTrait, TypeReference,
};

use crate::ctxt::Ctxt;
use crate::type_walk::{Visitor, walk};

/// The annotated item as `tracing-attributes` reads it: attributes, visibility and signature
/// parsed, the body kept as tokens and never looked at (a typo in it gets rustc's error alone).
pub(crate) struct MaybeItemFn {
    pub attrs: Vec<syn::Attribute>,
    pub vis: syn::Visibility,
    pub sig: Signature,
}

impl syn::parse::Parse for MaybeItemFn {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        let attrs = input.call(syn::Attribute::parse_outer)?;
        let vis: syn::Visibility = input.parse()?;
        let sig: Signature = input.parse()?;
        // The body: one brace-delimited group, whatever it holds.
        let _body: proc_macro2::Group = input.step(|cursor| match cursor.token_tree() {
            Some((proc_macro2::TokenTree::Group(g), rest))
                if g.delimiter() == proc_macro2::Delimiter::Brace =>
            {
                Ok((g, rest))
            }
            _ => Err(cursor.error("expected the function's body")),
        })?;
        if !input.is_empty() {
            return Err(input.error("unexpected tokens after the function"));
        }
        Ok(MaybeItemFn { attrs, vis, sig })
    }
}

pub(crate) struct Operation {
    pub sig: Signature,
    /// A plain `fn`: its waiters are `blocking::Waiter`s.
    pub blocking: bool,
    /// `Some(span of self)` for a `&self` method.
    pub receiver: Option<Span>,
    pub params: Vec<Param>,
    /// The `Result<O, E>` type as written, when the signature returns one.
    pub ret: Option<Type>,
    /// `O` and `E` as written, when the return type spells both (`Result<O, E>`).
    pub parts: Option<(Type, Type)>,
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

/// Reads the signature, reporting what a waiter cannot be built from. Always returns the
/// operation (with what could be read), so that later phases still check the trait value and
/// the fallback expansion can still declare the waiter functions.
pub(crate) fn read(cx: &Ctxt, sig: &Signature) -> Operation {
    let mut receiver = None;
    let mut params = Vec::new();
    for (i, input) in sig.inputs.iter().enumerate() {
        match input {
            FnArg::Receiver(r) => {
                if !matches!(r.kind, syn::ReceiverKind::Reference(_, _, None))
                    || r.mutability.is_some()
                {
                    cx.error(
                        r.self_token.span,
                        "a waitable method takes `&self`: the waiter calls it once per poll, so it cannot take `self` by value or `&mut self`",
                    );
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
    let unit_output = ret.as_ref().is_some_and(
        |ret| matches!(result_args(ret), Some(Some(Type::Tuple(t))) if t.elems.is_empty()),
    );
    let parts = ret.as_ref().and_then(result_parts);
    Operation {
        sig: sig.clone(),
        blocking: sig.asyncness.is_none(),
        receiver,
        params,
        ret,
        parts,
        unit_output,
    }
}

/// `O` and `E` of a return type spelled `Result<O, E>` (any path ending in `Result` with two
/// type arguments).
pub(crate) fn result_parts(ty: &Type) -> Option<(Type, Type)> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let mut types = args.args.iter().filter_map(|a| match a {
        GenericArgument::Type(t) => Some(t.clone()),
        _ => None,
    });
    match (types.next(), types.next(), types.next()) {
        (Some(o), Some(e), None) => Some((o, e)),
        _ => None,
    }
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

/// The lifetime of the waiter a `wait_until_*` function returns, and the signature rewritten so
/// that everything the waiter keeps (`&self`, borrowed parameters, generic parameters) lives at
/// least that long.
///
/// The common cases keep the signature as written: a method taking `&self` and owned
/// parameters returns `Waiter<'_, O, E>`, a function without borrows `Waiter<'static, O, E>`.
/// Otherwise every elided lifetime becomes one named lifetime (`'a`), which by variance accepts
/// the same calls, and the signature's own lifetimes, type parameters and `impl Trait`
/// parameters are bounded by it (type parameters by `Send` too: the waiter is `Send`).
pub(crate) fn waiter_lifetime(sig: &mut Signature) -> Lifetime {
    /// The elided lifetimes (`&T`, `'_`), and whether there is an `impl Trait`.
    struct Count(usize, bool);
    impl Visitor for Count {
        fn reference(&mut self, r: &mut TypeReference) {
            if r.lifetime.is_none() {
                self.0 += 1;
            }
        }
        fn lifetime(&mut self, lt: &mut Lifetime) {
            if lt.ident == "_" {
                self.0 += 1;
            }
        }
        fn impl_trait(&mut self, _: &mut TypeImplTrait) {
            self.1 = true;
        }
    }
    let mut count = Count(0, false);
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(r) => {
                if matches!(&r.kind, syn::ReceiverKind::Reference(_, None, _)) {
                    count.0 += 1;
                }
            }
            FnArg::Typed(pat) => walk(&mut count, &mut (*pat.ty).clone()),
        }
    }
    let simple = count.0 <= 1
        && !count.1
        && sig.generics.lifetimes().next().is_none()
        && sig.generics.type_params().next().is_none();
    if simple {
        let name = if count.0 == 1 { "'_" } else { "'static" };
        return Lifetime::new(name, Span::call_site());
    }
    let taken: Vec<String> = sig
        .generics
        .lifetimes()
        .map(|l| l.lifetime.ident.to_string())
        .collect();
    let name = ["a", "waiter", "__waiter"]
        .into_iter()
        .find(|n| !taken.iter().any(|t| t == n))
        .expect("a free lifetime name");
    let lt = Lifetime::new(&format!("'{name}"), Span::call_site());

    /// Every elided lifetime becomes `lifetime`; with `bound_impl_trait`, every `impl Trait`
    /// gets `+ Send + 'lifetime` (the waiter keeps the parameter and sends it along with its poll
    /// futures).
    struct Fill {
        lifetime: Lifetime,
        bound_impl_trait: bool,
    }
    impl Visitor for Fill {
        fn reference(&mut self, r: &mut TypeReference) {
            if r.lifetime.is_none() {
                r.lifetime = Some(self.lifetime.clone());
            }
        }
        fn lifetime(&mut self, lt: &mut Lifetime) {
            if lt.ident == "_" {
                *lt = self.lifetime.clone();
            }
        }
        fn impl_trait(&mut self, t: &mut TypeImplTrait) {
            if self.bound_impl_trait {
                t.bounds.push(syn::parse_quote!(::core::marker::Send));
                t.bounds
                    .push(syn::TypeParamBound::Lifetime(self.lifetime.clone()));
            }
        }
    }
    let mut fill = Fill {
        lifetime: lt.clone(),
        bound_impl_trait: true,
    };
    for input in sig.inputs.iter_mut() {
        match input {
            FnArg::Receiver(r) => {
                if let syn::ReceiverKind::Reference(_, l, _) = &mut r.kind {
                    if l.is_none() {
                        *l = Some(lt.clone());
                    }
                }
            }
            FnArg::Typed(pat) => walk(&mut fill, &mut pat.ty),
        }
    }
    if let ReturnType::Type(_, ty) = &mut sig.output {
        let mut fill = Fill {
            lifetime: lt.clone(),
            bound_impl_trait: false,
        };
        walk(&mut fill, ty);
    }
    let lifetimes: Vec<Lifetime> = sig
        .generics
        .lifetimes()
        .map(|l| l.lifetime.clone())
        .collect();
    let types: Vec<Ident> = sig
        .generics
        .type_params()
        .map(|t| t.ident.clone())
        .collect();
    sig.generics.params.insert(
        0,
        GenericParam::Lifetime(syn::LifetimeParam::new(lt.clone())),
    );
    let where_clause = sig.generics.make_where_clause();
    for l in lifetimes {
        where_clause.predicates.push(syn::parse_quote!(#l: #lt));
    }
    for t in types {
        where_clause
            .predicates
            .push(syn::parse_quote!(#t: ::core::marker::Send + #lt));
    }
    lt
}
