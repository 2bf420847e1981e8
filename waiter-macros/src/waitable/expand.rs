//! Rust for each waiter: a `wait_until_<name>` function beside the operation, returning a
//! [`Waiter`](waiter_runtime::waiter::Waiter), and a `<NAME>_WAITER` metadata const. The
//! per-waiter code is only the acceptors' conditions; the loop is generic in the runtime.

use heck::{ToShoutySnakeCase, ToSnakeCase};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::{FnArg, GenericParam, Ident, ItemFn, LitStr, Pat};

use super::ctxt::{Ctxt, warning_tokens};
use super::model::{
    Acceptor, Comparator, DEFAULT_MAX_DELAY_SECS, DEFAULT_MIN_DELAY_SECS, Matcher, State, Waitable,
    WaiterDef,
};
use super::paths;
use super::signature::{Operation, name_elided_lifetimes};

pub(crate) fn expand(
    cx: &mut Ctxt,
    item: &ItemFn,
    op: &Operation,
    model: &Waitable,
) -> TokenStream {
    model
        .waiters
        .iter()
        .map(|w| expand_waiter(cx, item, op, w))
        .collect()
}

pub(crate) fn warnings(item: &ItemFn, warnings: &[(Span, String)]) -> TokenStream {
    if warnings.is_empty() {
        return TokenStream::new();
    }
    let name = format_ident!(
        "WAITABLE_WARNINGS_FOR_{}",
        item.sig.ident.to_string().to_shouty_snake_case(),
        span = item.sig.ident.span()
    );
    let body = warning_tokens(warnings);
    quote! {
        #[doc(hidden)]
        #[allow(dead_code)]
        const #name: () = { #body };
    }
}

fn metadata(op: &Operation, waiter: &WaiterDef) -> TokenStream {
    let name = &waiter.name;
    let operation = op.sig.ident.to_string();
    let mut expr = quote!(::waiter_runtime::waiter::WaiterMetadata::new(#name, #operation));
    // Delays the model omits keep the runtime's defaults.
    if let Some((min, _)) = waiter.min_delay {
        expr.extend(quote!(.with_min_delay(::core::time::Duration::from_secs(#min))));
    }
    if let Some((max, _)) = waiter.max_delay {
        expr.extend(quote!(.with_max_delay(::core::time::Duration::from_secs(#max))));
    }
    let acceptors = waiter.acceptors.iter().map(acceptor_description);
    expr.extend(quote!(.with_acceptors(&[#(#acceptors),*])));
    if let Some(doc) = &waiter.documentation {
        expr.extend(quote!(.with_documentation(#doc)));
    }
    if waiter.deprecated {
        expr.extend(quote!(.with_deprecated(true)));
    }
    if !waiter.tags.is_empty() {
        let tags = &waiter.tags;
        expr.extend(quote!(.with_tags(&[#(#tags),*])));
    }
    expr
}

/// An acceptor as the runtime describes it (`WaiterMetadata::acceptors`): for messages, and for
/// the errors a retry layer inside a poll leaves to the waiter.
fn acceptor_description(acceptor: &Acceptor) -> TokenStream {
    let rt = quote!(::waiter_runtime::waiter);
    let state = match acceptor.state {
        State::Success => quote!(Success),
        State::Failure => quote!(Failure),
        State::Retry => quote!(Retry),
    };
    let path = |kind: TokenStream, m: &super::model::PathMatcher| {
        let (path, expected) = (&m.path, &m.expected);
        let comparator = match m.comparator {
            Comparator::StringEquals => quote!(StringEquals),
            Comparator::BooleanEquals => quote!(BooleanEquals),
            Comparator::AllStringEquals => quote!(AllStringEquals),
            Comparator::AnyStringEquals => quote!(AnyStringEquals),
        };
        quote!(#rt::MatcherDescription::#kind {
            path: #path,
            comparator: #rt::Comparator::#comparator,
            expected: #expected,
        })
    };
    let matcher = match &acceptor.matcher {
        Matcher::Success(b) => quote!(#rt::MatcherDescription::Success(#b)),
        Matcher::ErrorType(code) => quote!(#rt::MatcherDescription::ErrorType(#code)),
        Matcher::Output(m) => path(quote!(Output), m),
        Matcher::InputOutput(m) => path(quote!(InputOutput), m),
    };
    quote!(#rt::AcceptorDescription::new(#rt::AcceptorState::#state, #matcher))
}

fn expand_waiter(cx: &mut Ctxt, item: &ItemFn, op: &Operation, waiter: &WaiterDef) -> TokenStream {
    let vis = &item.vis;
    let op_ident = &op.sig.ident;
    let snake = waiter.name.to_snake_case();
    let fn_ident = Ident::new(&format!("wait_until_{snake}"), waiter.name_span);
    let const_ident = Ident::new(
        &format!("{}_WAITER", waiter.name.to_shouty_snake_case()),
        waiter.name_span,
    );
    let unique_ident = Ident::new(
        &format!(
            "WAITER_NAMES_MUST_BE_UNIQUE_IGNORING_CASE_{}",
            waiter.name.to_ascii_uppercase()
        ),
        waiter.name_span,
    );
    let meta = metadata(op, waiter);
    // Two waiters whose names are equal ignoring case, in different `#[waitable]`s of one impl
    // block or module, collide here, at the second name.
    let cfgs_for_unique: Vec<_> = item
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .collect();
    let unique = quote_spanned! {waiter.name_span=>
        #(#cfgs_for_unique)*
        #[doc(hidden)]
        #[allow(dead_code, non_upper_case_globals)]
        const #unique_ident: () = ();
    };

    // The signature: the operation's, with every elided lifetime named, plain parameter names,
    // and the waiter as return type.
    let mut sig = op.sig.clone();
    let lifetimes = name_elided_lifetimes(&mut sig);
    for lt in &lifetimes {
        sig.generics.params.insert(
            0,
            GenericParam::Lifetime(syn::LifetimeParam::new(lt.clone())),
        );
    }
    let mut typed = op.params.iter();
    for input in sig.inputs.iter_mut() {
        if let FnArg::Typed(pat) = input {
            let param = typed.next().expect("one Param per typed input");
            let ident = &param.ident;
            *pat.pat = Pat::Ident(syn::PatIdent {
                attrs: Vec::new(),
                by_ref: None,
                mutability: None,
                ident: ident.clone(),
                subpat: None,
            });
            pat.attrs.clear();
        }
    }
    let ret = match &sig.output {
        syn::ReturnType::Type(_, ty) => (**ty).clone(),
        syn::ReturnType::Default => op.ret.clone(),
    };
    sig.asyncness = None;
    sig.ident = fn_ident.clone();
    let all_lifetimes: Vec<_> = sig
        .generics
        .lifetimes()
        .map(|l| l.lifetime.clone())
        .collect();
    let captured: Vec<_> = all_lifetimes.iter().map(|lt| quote!(&#lt ())).collect();
    let self_capture = op.receiver.map(|_| {
        let lt = sig.inputs.iter().find_map(|i| match i {
            FnArg::Receiver(r) => r.reference.as_ref().and_then(|(_, lt)| lt.clone()),
            _ => None,
        });
        quote!(&#lt Self,)
    });
    sig.output = syn::parse_quote! {
        -> ::waiter_runtime::waiter::Waiter<
            impl ::waiter_runtime::waiter::Poller<
                Output = <#ret as ::waiter_runtime::waiter::ResultParts>::Ok,
                Error = <#ret as ::waiter_runtime::waiter::ResultParts>::Err,
                Future = impl ::core::future::Future<
                    Output = ::waiter_runtime::waiter::Polled<
                        <#ret as ::waiter_runtime::waiter::ResultParts>::Ok,
                        <#ret as ::waiter_runtime::waiter::ResultParts>::Err,
                    >,
                > + ::waiter_runtime::waiter::Captures<(#self_capture #(#captured,)*)>,
            > + ::waiter_runtime::waiter::Captures<(#self_capture #(#captured,)*)>
        >
    };

    // One poll: clone the parameters, call the operation, find the first matching acceptor.
    let clones = op.params.iter().map(|p| {
        let ident = &p.ident;
        quote_spanned! {p.span=> let #ident = ::waiter_runtime::waiter::PollParam::for_poll(&#ident); }
    });
    let has_impl_trait = op
        .params
        .iter()
        .any(|p| matches!(p.ty, syn::Type::ImplTrait(_)));
    let turbofish_args: Vec<TokenStream> = op
        .sig
        .generics
        .params
        .iter()
        .filter_map(|g| match g {
            GenericParam::Type(t) => Some(t.ident.to_token_stream()),
            GenericParam::Const(c) => Some(c.ident.to_token_stream()),
            GenericParam::Lifetime(_) => None,
        })
        .collect();
    let turbofish =
        (!turbofish_args.is_empty() && !has_impl_trait).then(|| quote!(::<#(#turbofish_args),*>));
    // A waiter that reads its input after the call hands the call clones.
    let args: Vec<TokenStream> = op
        .params
        .iter()
        .map(|p| {
            let ident = &p.ident;
            if paths::reads_input(&waiter.acceptors) {
                quote_spanned!(p.span=> ::waiter_runtime::waiter::PollParam::for_poll(&#ident))
            } else {
                quote!(#ident)
            }
        })
        .collect();
    let call = match op.receiver {
        Some(span) => {
            let this = Ident::new("self", span);
            quote!(#this.#op_ident #turbofish (#(#args),*))
        }
        None => {
            quote!(#op_ident #turbofish (#(::waiter_runtime::waiter::PollParam::for_poll(&#args)),*))
        }
    };
    let classify = classify(cx, op, &waiter.acceptors);

    let doc = docs(op, waiter);
    let deprecated = waiter.deprecated.then(|| {
        let note = format!("the service model deprecates the `{}` waiter", waiter.name);
        quote!(#[deprecated(note = #note)])
    });
    let const_doc = format!(
        "The `{}` waiter's metadata (delays, tags, documentation), used by [`Self::{fn_ident}`].",
        waiter.name
    );
    let const_doc = if op.receiver.is_some() {
        const_doc
    } else {
        const_doc.replace("Self::", "")
    };
    // `#[cfg]`s of the operation apply to its waiters too.
    let cfgs: Vec<_> = item
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .collect();
    quote! {
        #(#cfgs)*
        #(#doc)*
        #deprecated
        #[allow(clippy::needless_lifetimes, clippy::extra_unused_lifetimes, clippy::type_complexity)]
        #vis #sig {
            ::waiter_runtime::waiter::Waiter::new({
                const __META: ::waiter_runtime::waiter::WaiterMetadata = #meta;
                __META
            }, move || {
                #(#clones)*
                async move {
                    let __result = #call.await;
                    let __matched = {
                        let __result = &__result;
                        #classify
                    };
                    ::waiter_runtime::waiter::Polled::new(__result, __matched)
                }
            })
        }

        #(#cfgs)*
        #[doc = #const_doc]
        #vis const #const_ident: ::waiter_runtime::waiter::WaiterMetadata = #meta;

        #unique
    }
}

use quote::ToTokens;

fn docs(op: &Operation, waiter: &WaiterDef) -> Vec<TokenStream> {
    let mut lines = Vec::new();
    match &waiter.documentation {
        Some(doc) => lines.push(doc.clone()),
        None => lines.push(format!("Waits until `{}`.", waiter.name)),
    }
    let target = if op.receiver.is_some() {
        format!("Self::{}", op.sig.ident)
    } else {
        op.sig.ident.to_string()
    };
    let min = waiter.min_delay.map_or(DEFAULT_MIN_DELAY_SECS, |(d, _)| d);
    let max = waiter.max_delay.map_or(DEFAULT_MAX_DELAY_SECS, |(d, _)| d);
    lines.push(String::new());
    lines.push(format!(
        "Smithy waiter `{}`: polls [`{}`]({target}) with the same arguments, between {min} s and {max} s apart \
         (exponential backoff with jitter), until an acceptor reaches `success` or `failure`. \
         Call `.wait(max_wait)` on the result to run it.",
        waiter.name, op.sig.ident
    ));
    if !waiter.tags.is_empty() {
        lines.push(String::new());
        lines.push(format!("Tags: {}.", waiter.tags.join(", ")));
    }
    lines
        .into_iter()
        .map(|line| {
            let line = LitStr::new(&line, Span::call_site());
            quote!(#[doc = #line])
        })
        .collect()
}

fn classify(cx: &mut Ctxt, op: &Operation, acceptors: &[Acceptor]) -> TokenStream {
    let mut out = quote!(::core::option::Option::None);
    for (index, acceptor) in acceptors.iter().enumerate().rev() {
        let condition = match &acceptor.matcher {
            Matcher::Success(expected) => {
                quote!(::waiter_runtime::waiter::matchers::success(__result, #expected))
            }
            Matcher::ErrorType(expected) => {
                quote_spanned!(expected.span()=> ::waiter_runtime::waiter::matchers::error_type(__result, #expected))
            }
            Matcher::Output(m) => paths::condition(cx, op, m, false),
            Matcher::InputOutput(m) => paths::condition(cx, op, m, true),
        };
        let matched = match acceptor.state {
            State::Success => {
                quote!(::waiter_runtime::waiter::Matched::new(#index, ::waiter_runtime::waiter::AcceptorState::Success))
            }
            State::Retry => {
                quote!(::waiter_runtime::waiter::Matched::new(#index, ::waiter_runtime::waiter::AcceptorState::Retry))
            }
            State::Failure => {
                let message = paths::message(cx, op, acceptor);
                quote!(::waiter_runtime::waiter::Matched::failure(#index, #message))
            }
        };
        out = quote! {
            if #condition { ::core::option::Option::Some(#matched) } else { #out }
        };
    }
    out
}
