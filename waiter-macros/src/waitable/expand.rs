//! Rust for each waiter: a `wait_until_<name>` function beside the operation, returning a
//! `Waiter<'_, O, E>`, and a `<NAME>_WAITER` metadata const. The per-waiter code is only the
//! acceptors' conditions; the loop is generic in the runtime.
//!
//! On error, [`fallback`] declares the same items with the same signatures and no logic, so that
//! the attribute's errors are the only ones: callers of `wait_until_*` still type-check.

use heck::{ToShoutySnakeCase, ToSnakeCase};
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::{FnArg, GenericParam, Ident, LitStr, Pat, Signature};

use super::check::AcceptorCode;
use super::fingerprint;
use super::model::{
    Acceptor, Comparator, DEFAULT_MAX_DELAY_SECS, DEFAULT_MIN_DELAY_SECS, Matcher, State, Waitable,
    WaiterDef,
};
use super::paths;
use super::signature::{MaybeItemFn, Operation, result_parts, waiter_lifetime};
use crate::ctxt::warning_tokens;
use crate::krate;

/// The items of every waiter. The first waiter's body also holds the warnings, and `tracking`
/// (the statements that make the compiler rebuild the crate when a model file changes).
pub(crate) fn expand(
    item: &MaybeItemFn,
    op: &Operation,
    model: &Waitable,
    code: &[Vec<AcceptorCode>],
    warnings: &[(Span, String)],
    tracking: TokenStream,
) -> TokenStream {
    let warnings = warning_tokens("waitable", warnings);
    let warnings = quote!(#warnings #tracking);
    model
        .waiters
        .iter()
        .zip(code)
        .enumerate()
        .map(|(i, (w, code))| {
            let warnings = if i == 0 {
                warnings.clone()
            } else {
                TokenStream::new()
            };
            let body = body(op, w, code, warnings);
            items(item, op, w, body)
        })
        .collect()
}

/// The items of every waiter whose name could be read, with bodies that are never run.
pub(crate) fn fallback(
    item: &MaybeItemFn,
    op: &Operation,
    model: &Waitable,
    code: &[Vec<AcceptorCode>],
) -> TokenStream {
    let p = krate::private();
    let mut seen = std::collections::HashSet::new();
    model
        .waiters
        .iter()
        .enumerate()
        // A waiter whose name repeats an earlier one's, ignoring case, has its error already:
        // its items would only collide with the first's.
        .filter(|(_, w)| seen.insert(w.name.to_ascii_lowercase()))
        .map(|(i, w)| {
            let params = op.params.iter().map(|param| &param.ident);
            // The typed-path checks of the acceptors without errors, so that their mistakes
            // are reported in the same pass as the attribute's other errors.
            let typed = code.get(i).into_iter().flatten().map(|c| &c.typed);
            let unreachable = if op.blocking {
                quote!(#p::unreachable_blocking_waiter())
            } else {
                quote!(#p::unreachable_waiter())
            };
            let body = quote! {
                #(#typed)*
                let _ = (#(&#params,)*);
                #unreachable
            };
            items(item, op, w, body)
        })
        .collect()
}

fn metadata(op: &Operation, waiter: &WaiterDef) -> TokenStream {
    let rt = krate::runtime();
    let name = &waiter.name;
    let operation = op.sig.ident.to_string();
    let operation = operation.strip_prefix("r#").unwrap_or(&operation);
    let mut expr = quote!(#rt::waiter::WaiterMetadata::new(#name, #operation));
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
    let fingerprint = fingerprint::fingerprint(waiter);
    expr.extend(quote!(.with_fingerprint(#fingerprint)));
    if let Some(secs) = waiter.published_max_wait {
        expr.extend(quote!(.with_published_max_wait(::core::time::Duration::from_secs(#secs))));
    }
    expr
}

/// An acceptor as the runtime describes it (`WaiterMetadata::acceptors`): for messages, and for
/// the errors a retry layer inside a poll leaves to the waiter.
fn acceptor_description(acceptor: &Acceptor) -> TokenStream {
    let rt = krate::runtime();
    let rt = quote!(#rt::waiter);
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
        Matcher::Status(status, _) => quote!(#rt::MatcherDescription::Status(#status)),
        Matcher::Output(m) => path(quote!(Output), m),
        Matcher::InputOutput(m) => path(quote!(InputOutput), m),
    };
    quote!(#rt::AcceptorDescription::new(#rt::AcceptorState::#state, #matcher))
}

/// The names of the items a waiter generates beside its operation: what two waiters of one
/// scope must not share.
#[derive(Debug, PartialEq)]
pub(crate) struct ItemNames {
    /// `wait_until_<snake_case>`.
    pub function: String,
    /// `<SHOUTY_SNAKE_CASE>_WAITER`, the metadata const (see [`declares_consts`]).
    pub metadata: Option<String>,
    /// `<UPPERCASE>_WAITER`, hidden: `BucketExists` and `BUCKETEXISTS` in two `#[waitable]`s of
    /// one scope have consts `BUCKET_EXISTS_WAITER` and `BUCKETEXISTS_WAITER`, which differ, so
    /// the first also declares the case-folded name and the second collides with it at its
    /// waiter name. `None` when it is the metadata const's name.
    pub folded: Option<String>,
}

impl ItemNames {
    pub(crate) fn of(waiter: &str, declares_consts: bool) -> ItemNames {
        let shouty = format!("{}_WAITER", waiter.to_shouty_snake_case());
        let folded = format!("{}_WAITER", waiter.to_ascii_uppercase());
        ItemNames {
            function: format!("wait_until_{}", waiter.to_snake_case()),
            folded: (declares_consts && folded != shouty).then_some(folded),
            metadata: declares_consts.then_some(shouty),
        }
    }

    /// Every name, the function's first.
    pub(crate) fn all(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.function.as_str())
            .chain(self.metadata.as_deref())
            .chain(self.folded.as_deref())
    }
}

/// Whether an operation's waiters come with their consts. A method without a visibility may be
/// a trait impl's, where every item the trait lacks is an error: it gets only its function, so
/// that the mistake is one error (E0407). The const and the marker come with a visibility
/// (`pub(self)` will do) or on a function without a receiver.
pub(crate) fn declares_consts(has_receiver: bool, has_visibility: bool) -> bool {
    !has_receiver || has_visibility
}

/// The `wait_until_*` function (with `body`), the metadata const, and the marker that makes two
/// waiters of one impl block or module whose names differ only in case collide (the last two
/// not on a method without a visibility).
fn items(item: &MaybeItemFn, op: &Operation, waiter: &WaiterDef, body: TokenStream) -> TokenStream {
    // Like the `fn` token (see `signature`), the visibility belongs to the macro's items.
    let vis = krate::respan(item.vis.to_token_stream(), Span::call_site());
    let names = ItemNames::of(
        &waiter.name,
        declares_consts(
            op.receiver.is_some(),
            !matches!(item.vis, syn::Visibility::Inherited),
        ),
    );
    let fn_ident = Ident::new(&names.function, waiter.name_span);
    // `#[cfg]`s of the operation apply to its waiters too.
    let cfgs: Vec<_> = item
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .collect();
    let unique = names.folded.as_ref().map(|folded| {
        let ident = Ident::new(folded, waiter.name_span);
        quote_spanned! {waiter.name_span=>
            #(#cfgs)*
            #[doc(hidden)]
            #[allow(dead_code)]
            const #ident: () = ();
        }
    });
    let meta = metadata(op, waiter);
    let sig = signature(op, &fn_ident);
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
    let rt = krate::runtime();
    let metadata_const = names.metadata.as_ref().map(|name| {
        let const_ident = Ident::new(name, waiter.name_span);
        quote! {
            #(#cfgs)*
            #[doc = #const_doc]
            #vis const #const_ident: #rt::waiter::WaiterMetadata = #meta;
        }
    });
    quote! {
        #(#cfgs)*
        #(#doc)*
        #deprecated
        #[allow(
            clippy::needless_lifetimes,
            clippy::extra_unused_lifetimes,
            clippy::multiple_bound_locations
        )]
        #vis #sig {
            #body
        }

        #metadata_const

        #unique
    }
}

/// The waiter function's signature: the operation's, not `async`, with plain parameter names,
/// and `Waiter<'a, O, E>` as return type.
fn signature(op: &Operation, fn_ident: &Ident) -> Signature {
    let mut sig = op.sig.clone();
    let lt = waiter_lifetime(&mut sig);
    let mut typed = op.params.iter();
    for input in sig.inputs.iter_mut() {
        if let FnArg::Typed(pat) = input {
            let param = typed.next().expect("one Param per typed input");
            *pat.pat = Pat::Ident(syn::PatIdent {
                attrs: Vec::new(),
                by_ref: None,
                mutability: None,
                ident: param.ident.clone(),
                subpat: None,
            });
            pat.attrs.clear();
        }
    }
    let rt = krate::runtime();
    let p = krate::private();
    let (ok, err) = match &sig.output {
        syn::ReturnType::Type(_, ty) if op.ret.is_some() => match result_parts(ty) {
            Some((o, e)) => (o.to_token_stream(), e.to_token_stream()),
            None => (
                quote!(<#ty as #p::ResultParts>::Ok),
                quote!(<#ty as #p::ResultParts>::Err),
            ),
        },
        _ => (quote!(()), quote!(())),
    };
    sig.asyncness = None;
    // The `fn` token comes from the macro, not from the operation: rustc's advice on a waiter
    // awaited without `.wait(..)` ("make `fn` asynchronous") must not point into the operation.
    sig.fn_token.span = Span::call_site();
    sig.ident = fn_ident.clone();
    sig.output = if op.blocking {
        syn::parse_quote!(-> #rt::blocking::Waiter<#lt, #ok, #err>)
    } else {
        syn::parse_quote!(-> #rt::Waiter<#lt, #ok, #err>)
    };
    sig
}

/// One poll: clone the parameters, call the operation, find the first matching acceptor.
fn body(
    op: &Operation,
    waiter: &WaiterDef,
    code: &[AcceptorCode],
    warnings: TokenStream,
) -> TokenStream {
    let p = krate::private();
    let rt = krate::runtime();
    let op_ident = &op.sig.ident;
    let meta = metadata(op, waiter);
    let clones = op.params.iter().map(|param| {
        let ident = &param.ident;
        quote_spanned! {param.span=> let #ident = #p::PollParam::for_poll(&#ident); }
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
    let reads_input = paths::reads_input(&waiter.acceptors);
    let args: Vec<TokenStream> = op
        .params
        .iter()
        .map(|param| {
            let ident = &param.ident;
            if reads_input {
                quote_spanned!(param.span=> #p::PollParam::for_poll(&#ident))
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
        None => quote!(#op_ident #turbofish (#(#p::PollParam::for_poll(&#args)),*)),
    };
    let classify = classify(op, &waiter.acceptors, code);
    let typed = code.iter().map(|c| &c.typed);
    let meta = quote! {{
        // A const, so that the acceptor descriptions are `'static`.
        const __META: #rt::waiter::WaiterMetadata = #meta;
        __META
    }};
    let classified = quote! {
        let __matched = {
            let __result = &__result;
            #classify
        };
        #p::Polled::new(__result, __matched)
    };
    let input = input_identity(op);
    if op.blocking {
        return quote! {
            #warnings
            #(#typed)*
            let (__digest, __unidentified) = #input;
            #p::bind_blocking_input(#p::blocking_waiter(#meta, move || {
                #(#clones)*
                let __result = #call;
                #classified
            }), __digest, __unidentified)
        };
    }
    quote! {
        #warnings
        #(#typed)*
        let (__digest, __unidentified) = #input;
        #p::bind_input(#p::waiter(#meta, move || {
            #(#clones)*
            async move {
                let __result = #call.await;
                #classified
            }
        }), __digest, __unidentified)
    }
}

/// The identity of the input the waiter polls, before its arguments move into the poller: each
/// argument whose type has an `InputIdentity` writes into one digest; the first that has none
/// is named (autoref picks `UnidentifiedArgument` only where `IdentifyArgument` does not
/// apply), and its checkpoints then cannot be resumed unchecked.
fn input_identity(op: &Operation) -> TokenStream {
    let p = krate::private();
    let probes = op.params.iter().map(|param| {
        let ident = &param.ident;
        let name = ident.to_string();
        let name = name.strip_prefix("r#").unwrap_or(&name);
        quote! {
            if !(&#p::Probe(&#ident)).__identify(&mut __digest) {
                __unidentified = __unidentified.or(::core::option::Option::Some(#name));
            }
        }
    });
    quote! {{
        #[allow(unused_imports)]
        use #p::{IdentifyArgument as _, UnidentifiedArgument as _};
        #[allow(unused_mut)]
        let mut __digest = #p::InputDigest::new();
        #[allow(unused_mut)]
        let mut __unidentified: ::core::option::Option<&'static str> = ::core::option::Option::None;
        #(#probes)*
        (__digest, __unidentified)
    }}
}

/// The function's rustdoc: the waiter's documentation, what it polls, and its acceptors.
fn docs(op: &Operation, waiter: &WaiterDef) -> Vec<TokenStream> {
    let mut lines = Vec::new();
    match &waiter.documentation {
        Some(doc) => lines.extend(doc.lines().map(str::to_owned)),
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
         Call `.wait(max_wait){}` on the result to run it.",
        waiter.name,
        op.sig.ident,
        if op.blocking { "" } else { ".await" }
    ));
    if let Some(file) = &waiter.read_from {
        lines.push(String::new());
        lines.push(format!("Read at build time from {file}."));
    }
    if let Some(secs) = waiter.published_max_wait {
        lines.push(format!(
            "botocore waits at most {secs} s (`delay` x `maxAttempts`): \
             `.wait(Duration::from_secs({secs}))`."
        ));
    }
    lines.push(String::new());
    lines.push("# Acceptors".to_owned());
    lines.push(String::new());
    lines.push(
        "Checked in order after each poll; the first that matches decides. An error no acceptor \
         matches ends the wait; anything else polls again."
            .to_owned(),
    );
    lines.push(String::new());
    for (i, acceptor) in waiter.acceptors.iter().enumerate() {
        lines.push(format!("{}. {}", i + 1, describe_acceptor(acceptor)));
    }
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

fn describe_acceptor(acceptor: &Acceptor) -> String {
    let state = match acceptor.state {
        State::Success => "**success**",
        State::Failure => "**failure**",
        State::Retry => "**retry**",
    };
    let when = match &acceptor.matcher {
        Matcher::Success(true) => "the operation succeeds".to_owned(),
        Matcher::Success(false) => "the operation fails with any error".to_owned(),
        Matcher::ErrorType(e) => format!("the operation fails with error code `{}`", e.value()),
        Matcher::Status(status, _) => format!("the answer's HTTP status is {status}"),
        Matcher::Output(m) | Matcher::InputOutput(m) => {
            let of = if matches!(acceptor.matcher, Matcher::Output(_)) {
                "the output"
            } else {
                "`{input, output}`"
            };
            let compare = match m.comparator {
                Comparator::StringEquals => format!("is `\"{}\"`", m.expected.value()),
                Comparator::BooleanEquals => format!("is `{}`", m.expected.value()),
                Comparator::AllStringEquals => {
                    format!("is a list of `\"{}\"` only", m.expected.value())
                }
                Comparator::AnyStringEquals => {
                    format!("is a list holding `\"{}\"`", m.expected.value())
                }
            };
            format!(
                "`{}` in {of} {compare} (`{}`)",
                m.path.value().replace('`', "'"),
                m.comparator.name()
            )
        }
    };
    let message = match &acceptor.message {
        Some(m) => format!("; message: `{}`", m.value().replace('`', "'")),
        None => String::new(),
    };
    format!("{state} when {when}{message}")
}

/// The first acceptor that matches, as `Option<Matched>`: one flat `if` per acceptor in a
/// labelled block, each leaving it with `break` (never an `else` per acceptor, whose nesting
/// overflowed rustc's stack at 700 acceptors).
fn classify(op: &Operation, acceptors: &[Acceptor], code: &[AcceptorCode]) -> TokenStream {
    let p = krate::private();
    let mut tests = Vec::with_capacity(acceptors.len());
    for (index, (acceptor, code)) in acceptors.iter().zip(code).enumerate() {
        let condition = match (&acceptor.matcher, &code.condition) {
            (_, Some(condition)) => condition.clone(),
            (Matcher::Success(expected), None) => quote!(#p::success(__result, #expected)),
            (Matcher::ErrorType(expected), None) => {
                let p = krate::private_at(expected.span());
                if op.parts.as_ref().is_some_and(|(_, e)| is_std_type(e)) {
                    quote_spanned!(expected.span()=> #p::foreign_error_type(__result, #expected))
                } else {
                    quote_spanned!(expected.span()=> #p::error_type(__result, #expected))
                }
            }
            (Matcher::Status(status, span), None) => {
                let p = krate::private_at(*span);
                quote_spanned!(*span=> #p::status(__result, #status))
            }
            (Matcher::Output(_) | Matcher::InputOutput(_), None) => quote!(false),
        };
        let matched = match acceptor.state {
            State::Success => {
                quote!(#p::Matched::new(#index, #p::AcceptorState::Success))
            }
            State::Retry => {
                quote!(#p::Matched::new(#index, #p::AcceptorState::Retry))
            }
            State::Failure => {
                let message = &code.message;
                quote!(#p::Matched::failure(#index, #message))
            }
        };
        tests.push(quote! {
            if #condition { break '__classify ::core::option::Option::Some(#matched); }
        });
    }
    if tests.is_empty() {
        return quote!(::core::option::Option::None);
    }
    quote!('__classify: { #(#tests)* ::core::option::Option::None })
}

/// Whether `ty` is certainly a type of the standard library (on which nobody can derive).
fn is_std_type(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Reference(r) => is_std_type(&r.elem),
        syn::Type::Tuple(_) | syn::Type::Slice(_) | syn::Type::Array(_) => true,
        syn::Type::TraitObject(_) => true,
        syn::Type::Paren(t) => is_std_type(&t.elem),
        syn::Type::Path(p) if p.qself.is_none() => {
            let first = p.path.segments.first().map(|s| s.ident.to_string());
            if matches!(first.as_deref(), Some("std" | "core" | "alloc")) {
                return true;
            }
            p.path.segments.len() == 1
                && matches!(
                    p.path.segments[0].ident.to_string().as_str(),
                    "String"
                        | "str"
                        | "Box"
                        | "Arc"
                        | "Rc"
                        | "Vec"
                        | "Option"
                        | "Cow"
                        | "bool"
                        | "char"
                        | "u8"
                        | "u16"
                        | "u32"
                        | "u64"
                        | "u128"
                        | "usize"
                        | "i8"
                        | "i16"
                        | "i32"
                        | "i64"
                        | "i128"
                        | "isize"
                        | "f32"
                        | "f64"
                )
        }
        _ => false,
    }
}
