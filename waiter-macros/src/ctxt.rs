//! The error context every macro of this crate reports into, after serde_derive's
//! `internals/ctxt.rs`: each phase (parse, check) records what is wrong and goes on, so one
//! expansion reports every mistake of an attribute at once; [`Ctxt::check`] hands them over.
//!
//! Warnings (Smithy ignores unknown members, so do we, but says so) are collected beside the
//! errors and emitted by [`warning_tokens`] as the use of a `#[deprecated]` local macro named
//! after the attribute, the only way a proc macro warns on stable: rustc prints
//! "use of deprecated macro `waitable`: (the message)" at the offending token, with no internal
//! name.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};

/// Collects errors and warnings across the phases of one macro invocation.
///
/// Like serde's, it must be consumed by [`Ctxt::check`]: dropping it unchecked is a bug in the
/// macro (errors would be lost), caught by a panic in debug builds of the macro crate's tests.
pub(crate) struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
    warnings: RefCell<Vec<(Span, String)>>,
    /// What every message starts with while it is set ([`Ctxt::in_context`]): where in a model
    /// file the waiter being read or checked comes from, since its tokens all point at the
    /// attribute's path.
    context: RefCell<Option<String>>,
}

impl Ctxt {
    pub(crate) fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
            warnings: RefCell::new(Vec::new()),
            context: RefCell::new(None),
        }
    }

    /// Runs `f` with every error and warning it records starting with `context` (`None`: as
    /// they are).
    pub(crate) fn in_context<R>(&self, context: Option<String>, f: impl FnOnce() -> R) -> R {
        let outer = self.context.replace(context);
        let out = f();
        *self.context.borrow_mut() = outer;
        out
    }

    /// Records an error at `span`.
    pub(crate) fn error(&self, span: Span, message: impl Display) {
        self.syn_error(syn::Error::new(span, message));
    }

    /// Records an error spanning `tokens`.
    pub(crate) fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.syn_error(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records a ready-made error (possibly several, combined).
    pub(crate) fn syn_error(&self, err: syn::Error) {
        let err = match &*self.context.borrow() {
            None => err,
            Some(context) => err
                .into_iter()
                .map(|e| syn::Error::new(e.span(), format!("{context}{e}")))
                .reduce(|mut all, e| {
                    all.combine(e);
                    all
                })
                .expect("an error holds at least one message"),
        };
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check()")
            .push(err);
    }

    /// Records a warning at `span`.
    pub(crate) fn warn(&self, span: Span, message: impl Display) {
        let context = self.context.borrow().clone().unwrap_or_default();
        self.warnings
            .borrow_mut()
            .push((span, format!("{context}{message}")));
    }

    /// Whether an error was recorded so far.
    pub(crate) fn has_errors(&self) -> bool {
        self.errors.borrow().as_ref().is_some_and(|e| !e.is_empty())
    }

    /// How many errors were recorded so far (to tell whether one step added any).
    pub(crate) fn error_count(&self) -> usize {
        self.errors.borrow().as_ref().map_or(0, Vec::len)
    }

    /// Consumes the context: every error combined into one, or the warnings.
    pub(crate) fn check(self) -> Result<Vec<(Span, String)>, syn::Error> {
        let errors = self.errors.borrow_mut().take().expect("Ctxt checked twice");
        let warnings = std::mem::take(&mut *self.warnings.borrow_mut());
        let mut errors = errors.into_iter();
        match errors.next() {
            None => Ok(warnings),
            Some(mut first) => {
                for e in errors {
                    first.combine(e);
                }
                Err(first)
            }
        }
    }
}

impl Default for Ctxt {
    fn default() -> Self {
        Ctxt::new()
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors");
        }
    }
}

/// Statements making rustc print each warning at its span: "use of deprecated macro
/// `<attribute>`: `<message>`". The lint is `deprecated`, so `#[allow(deprecated)]` silences it and
/// `#![deny(warnings)]` makes it an error.
pub(crate) fn warning_tokens(attribute: &str, warnings: &[(Span, String)]) -> TokenStream {
    warnings
        .iter()
        .map(|(span, message)| {
            let note = format!("\n{message}");
            let name = Ident::new(attribute, *span);
            let def = Ident::new(attribute, Span::call_site());
            quote! {
                {
                    #[deprecated(note = #note)]
                    #[allow(unused_macros)]
                    macro_rules! #def { () => {}; }
                    #name!();
                }
            }
        })
        .map(|block| quote_spanned!(Span::call_site()=> #block))
        .collect()
}
