//! The type as a const item nested in the function can name it: references stripped, every
//! lifetime `'static`; `None` when it names what a nested item cannot: `Self`, the function's
//! generics (and what looks like an impl's, `T` or `O`), `impl Trait`, `_`, a qualified self
//! (`<T as Trait>::X`).
//!
//! One walk over the type's syntax ([`crate::type_walk`]) checks the names and rewrites the
//! lifetimes on the way.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Expr, Lifetime, Path, QSelf, Type, TypeImplTrait, TypeReference};

use crate::type_walk::{Visitor, walk};
use crate::waitable::signature::Operation;

/// `ty` as a const item in the body of `op`'s function can name it (see the module).
pub(crate) fn nameable(ty: &Type, op: &Operation) -> Option<Type> {
    let generics: Vec<String> = op
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
    nameable_with(ty, &generics)
}

/// `ty` as a nested const item can name it, in a function with the generic parameters
/// `generics`.
pub(super) fn nameable_with(ty: &Type, generics: &[String]) -> Option<Type> {
    let mut ty = ty.clone();
    while let Type::Reference(r) = ty {
        ty = *r.elem;
    }
    let mut names = Names {
        generics,
        nameable: true,
    };
    walk(&mut names, &mut ty);
    names.nameable.then_some(ty)
}

/// The walk: whether the type names only what a nested item can name, with its lifetimes made
/// `'static` on the way (the type is kept only when the answer is yes).
struct Names<'g> {
    generics: &'g [String],
    nameable: bool,
}

impl Names<'_> {
    /// Whether `name` alone names something of the function or of its impl: `Self`, a generic
    /// parameter, or a name like one (one or two capitals).
    fn outer(&self, name: &str) -> bool {
        name == "Self"
            || self.generics.iter().any(|g| g == name)
            || (name.len() <= 2 && name.chars().all(|c| c.is_ascii_uppercase()))
    }

    /// No name in `tokens` (an expression) that starts a path is [`outer`](Self::outer) (a name
    /// after `::` is not a parameter).
    fn expr_nameable(&self, tokens: TokenStream) -> bool {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let colon = |i: Option<usize>| {
            i.and_then(|i| tokens.get(i))
                .is_some_and(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ':'))
        };
        tokens.iter().enumerate().all(|(i, token)| match token {
            TokenTree::Group(g) => self.expr_nameable(g.stream()),
            TokenTree::Ident(ident) => {
                let after_colons = colon(i.checked_sub(1));
                after_colons || !self.outer(&ident.to_string())
            }
            _ => true,
        })
    }
}

impl Visitor for Names<'_> {
    fn reference(&mut self, r: &mut TypeReference) {
        r.lifetime = Some(Lifetime::new("'static", Span::call_site()));
    }
    fn lifetime(&mut self, lt: &mut Lifetime) {
        *lt = Lifetime::new("'static", lt.span());
    }
    /// A path that starts with a name that is [`outer`](Self::outer): `P`, or `Self::Out` and
    /// `P::Out` (an associated type of one).
    fn path(&mut self, path: &Path) {
        if path.leading_colon.is_none() && self.outer(&path.segments[0].ident.to_string()) {
            self.nameable = false;
        }
    }
    fn qself(&mut self, _: &QSelf) {
        self.nameable = false;
    }
    fn impl_trait(&mut self, _: &mut TypeImplTrait) {
        self.nameable = false;
    }
    fn infer(&mut self) {
        self.nameable = false;
    }
    fn expr(&mut self, expr: &Expr) {
        if !self.expr_nameable(expr.to_token_stream()) {
            self.nameable = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    /// The type as a nested const item names it, as written, or `None`, in a function generic
    /// over `P`, `'a` and `N`.
    fn named(ty: Type) -> Option<String> {
        let generics = ["P".to_owned(), "a".to_owned(), "Count".to_owned()];
        nameable_with(&ty, &generics).map(|t| t.to_token_stream().to_string())
    }

    #[test]
    fn plain_types_are_named_as_written() {
        assert_eq!(named(parse_quote!(Output)).as_deref(), Some("Output"));
        assert_eq!(
            named(parse_quote!(Vec<std::collections::HashMap<String, Item>>)).as_deref(),
            Some("Vec < std :: collections :: HashMap < String , Item > >")
        );
        assert_eq!(
            named(parse_quote!((u8, [Item; 4], fn(Item) -> bool))).as_deref(),
            Some("(u8 , [Item ; 4] , fn (Item) -> bool)")
        );
    }

    #[test]
    fn the_functions_generics_cannot_be_named() {
        assert_eq!(named(parse_quote!(P)), None);
        assert_eq!(named(parse_quote!(Vec<P>)), None);
        assert_eq!(named(parse_quote!(Option<Box<[P]>>)), None);
        assert_eq!(named(parse_quote!(Page<Count>)), None);
        // A const parameter in an array's length.
        assert_eq!(named(parse_quote!([u8; Count])), None);
        // What looks like an impl's parameter: one or two capitals.
        assert_eq!(named(parse_quote!(Vec<T>)), None);
        assert_eq!(named(parse_quote!(HashMap<String, IO>)), None);
        assert_eq!(named(parse_quote!(Vec<Tx>)).as_deref(), Some("Vec < Tx >"));
        // In a path of several segments, a segment is not a parameter.
        assert_eq!(named(parse_quote!(api::P)).as_deref(), Some("api :: P"));
        assert_eq!(
            named(parse_quote!([u8; limits::N])).as_deref(),
            Some("[u8 ; limits :: N]")
        );
    }

    #[test]
    fn self_impl_trait_inference_and_qualified_self_cannot_be_named() {
        assert_eq!(named(parse_quote!(Self)), None);
        assert_eq!(named(parse_quote!(Vec<Self>)), None);
        assert_eq!(named(parse_quote!(impl Iterator<Item = u8>)), None);
        assert_eq!(named(parse_quote!(Vec<impl Display>)), None);
        assert_eq!(named(parse_quote!(Vec<_>)), None);
        assert_eq!(named(parse_quote!(<Item as Trait>::Output)), None);
        assert_eq!(named(parse_quote!(Vec<<Item as Trait>::Output>)), None);
        assert_eq!(named(parse_quote!(Box<dyn Fn(P) -> u8>)), None);
        assert_eq!(named(parse_quote!(Box<dyn Iterator<Item = Self>>)), None);
        // An associated type of `Self` or of a parameter.
        assert_eq!(named(parse_quote!(Self::Output)), None);
        assert_eq!(named(parse_quote!(Vec<P::Output>)), None);
        assert_eq!(named(parse_quote!(T::Output)), None);
        assert_eq!(named(parse_quote!([u8; P::LEN])), None);
        assert_eq!(
            named(parse_quote!(::api::P::Output)).as_deref(),
            Some(":: api :: P :: Output")
        );
    }

    #[test]
    fn references_are_stripped_and_lifetimes_become_static() {
        assert_eq!(named(parse_quote!(&Output)).as_deref(), Some("Output"));
        assert_eq!(
            named(parse_quote!(&'a mut &Output)).as_deref(),
            Some("Output")
        );
        assert_eq!(
            named(parse_quote!(Vec<&'a str>)).as_deref(),
            Some("Vec < & 'static str >")
        );
        assert_eq!(
            named(parse_quote!(Option<&[&str]>)).as_deref(),
            Some("Option < & 'static [& 'static str] >")
        );
        assert_eq!(
            named(parse_quote!(Cow<'a, str>)).as_deref(),
            Some("Cow < 'static , str >")
        );
        assert_eq!(
            named(parse_quote!(Box<dyn Display + 'a>)).as_deref(),
            Some("Box < dyn Display + 'static >")
        );
        assert_eq!(
            named(parse_quote!(Wrapper<'_, (&u8, &'a Output)>)).as_deref(),
            Some("Wrapper < 'static , (& 'static u8 , & 'static Output) >")
        );
        // Nested references inside a generic argument are not stripped, only made `'static`.
        assert_eq!(
            named(parse_quote!(Vec<&&'a Item>)).as_deref(),
            Some("Vec < & 'static & 'static Item >")
        );
        // A `for<'a>` binder declares its lifetime: it stays (`for<'static>` is no Rust).
        assert_eq!(
            named(parse_quote!(Box<dyn for<'b> Fn(&'b u8) -> &'a str>)).as_deref(),
            Some("Box < dyn for < 'b > Fn (& 'static u8) -> & 'static str >")
        );
        // A reference to a generic parameter is still the parameter.
        assert_eq!(named(parse_quote!(&'a P)), None);
        assert_eq!(named(parse_quote!(Vec<&'a P>)), None);
    }
}
