//! The emitted checks: each chain becomes one `const _: () = check(..);` (in the waiter
//! function's body, or in the block `jmespath!` expands to): the root type's description,
//! published by the derive to the depth the chain needs, and the chain's steps, walked in one
//! const evaluation that panics with a message built in const, at the path's span, on a mistake;
//! below an unknown type anything goes. The walk is `waiter_runtime::__private_v0_1::typed`.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::{LitStr, Type};

use super::description::{hash, unwrap};
use super::lower::{MAX_TYPED_MEMBERS, Op, render};
use super::need::Need;
use crate::krate;

/// The `const _` item that checks the chain `ops` from `root` (with `need` on its leaf): nothing
/// for an empty chain without a need, an error past [`MAX_TYPED_MEMBERS`] members.
pub(super) fn emit(
    lit: &LitStr,
    expr: &str,
    root: &Type,
    ops: &[Op],
    need: Option<Need>,
    site: super::Site,
    origin: &str,
) -> TokenStream {
    if ops.is_empty() && need.is_none() {
        return TokenStream::new();
    }
    let p = krate::private();
    let t = quote!(#p::typed);
    let span = lit.span();
    let at = krate::private_at(span);
    // The root's own wrappers (`Vec<String>` as a parameter), as the derive reads a member's.
    let (wraps, root) = unwrap(root);
    let wraps = wraps.iter().map(|w| {
        let w = syn::Ident::new(w, Span::call_site());
        quote!(#t::Wrap::#w)
    });
    // The root's description, to the depth the chain's member steps read (plus one level for
    // a `flatten`ed member on the way, and one for the leaf's own description).
    let fields = ops.iter().filter(|op| matches!(op, Op::Field(..))).count();
    if fields > MAX_TYPED_MEMBERS {
        // Each member is one level of `Described<S<..>>`: deeper, rustc's query depth limit
        // overflows with no span and no word of the path.
        let message = format!(
            "{origin}path {expr:?}: the chain `{}` reads {fields} members one below the other; typed \
             paths are checked to at most {MAX_TYPED_MEMBERS} (each member is a level of the \
             compile-time description, and the compiler's depth limit is near): shorten the \
             chain, or {}",
            truncate(render(ops, "").trim_end_matches('.'), 80),
            site.without_the_check()
        );
        return syn::Error::new(span, message).to_compile_error();
    }
    let mut depth = quote!(#t::Z);
    for _ in 0..fields + 2 {
        depth = quote!(#t::S<#depth>);
    }
    let steps = ops.iter().map(|op| match op {
        Op::Field(name, prefix) => {
            let hash = hash(name);
            quote!(#t::Op::Field { name: #name, hash: #hash, prefix: #prefix })
        }
        Op::Elements(project, _) => quote!(#t::Op::Elements(#project)),
        Op::Values => quote!(#t::Op::Values),
        Op::Flatten => quote!(#t::Op::Flatten),
        Op::Scope => quote!(#t::Op::Scope),
        Op::Need(need) => {
            let (need, what) = need.tokens(&t);
            quote!(#t::Op::Need(#need, #what))
        }
    });
    let need = match need {
        None => quote!(::core::option::Option::None),
        Some(need) => {
            let (need, what) = need.tokens(&t);
            quote!(::core::option::Option::Some((#need, #what)))
        }
    };
    // The path as messages show it: cut when long, so that a wide path's many chains do not
    // each carry all of it (quadratic in its length).
    let shown = truncate(expr, 200);
    // One constant per chain: the walk is one evaluation, and a mistake panics with its message
    // at the path literal.
    let call = quote_spanned! {span=>
        #at::typed::check(
            #t::Probe::<#root, #depth>::LINK,
            &[#(#wraps),*],
            &[#(#steps),*],
            #need,
            #shown,
            #origin,
        )
    };
    quote! {
        #[allow(clippy::all)]
        const _: () = {
            #[allow(unused_imports)]
            use #t::Undescribed as _;
            #call
        };
    }
}

/// `text` cut to `max` characters, with `...` where it was cut.
fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let head: String = text.chars().take(max).collect();
        format!("{head}...")
    }
}
