//! Collects every error (and warning) of one `#[waitable]` in a single pass, like
//! `serde_derive`'s `Ctxt`.

use std::fmt::Display;

use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;

#[derive(Default)]
pub(crate) struct Ctxt {
    errors: Option<syn::Error>,
    warnings: Vec<(Span, String)>,
}

impl Ctxt {
    pub fn error(&mut self, span: Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    pub fn push(&mut self, error: syn::Error) {
        match &mut self.errors {
            Some(errors) => errors.combine(error),
            None => self.errors = Some(error),
        }
    }

    pub fn warn(&mut self, span: Span, message: impl Display) {
        self.warnings.push((span, message.to_string()));
    }

    pub fn has_errors(&self) -> bool {
        self.errors.is_some()
    }

    /// The collected errors as `compile_error!`s, if any.
    pub fn into_errors(self) -> Result<Vec<(Span, String)>, syn::Error> {
        match self.errors {
            Some(errors) => Err(errors),
            None => Ok(self.warnings),
        }
    }
}

/// Statements that make rustc print `message` as a warning at `span`, on stable: the use of a
/// `#[deprecated]` item (the technique of the `proc-macro-warning` crate). The warning's lint
/// is `deprecated`, so `#[allow(deprecated)]` silences it and `#![deny(warnings)]` makes it an
/// error.
pub(crate) fn warning_tokens(warnings: &[(Span, String)]) -> TokenStream {
    warnings
        .iter()
        .map(|(span, message)| {
            let note = format!("\n{message}");
            quote_spanned! {*span=>
                {
                    #[deprecated(note = #note)]
                    #[allow(non_upper_case_globals)]
                    const waitable_warning: () = ();
                    let () = waitable_warning;
                }
            }
        })
        .collect()
}
