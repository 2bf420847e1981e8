//! Error collection across phases, after serde_derive's `Ctxt`.

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// Collects errors so one expansion reports all of them.
pub(crate) struct Ctxt {
    errors: RefCell<Option<syn::Error>>,
}

impl Ctxt {
    pub(crate) fn new() -> Self {
        Ctxt {
            errors: RefCell::new(None),
        }
    }

    /// Records an error pointing at `tokens`.
    pub(crate) fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.syn_error(syn::Error::new_spanned(tokens, message));
    }

    /// Records a ready-made error.
    pub(crate) fn syn_error(&self, err: syn::Error) {
        let mut errors = self.errors.borrow_mut();
        match errors.as_mut() {
            Some(all) => all.combine(err),
            None => *errors = Some(err),
        }
    }

    /// All the errors recorded, combined into one.
    pub(crate) fn finish(self) -> Result<(), syn::Error> {
        match self.errors.into_inner() {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }
}
