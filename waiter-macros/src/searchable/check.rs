//! Checks on the model that need more than one attribute at a time.

use super::attr::Errors;
use super::model::Field;
use syn::{Fields, spanned::Spanned};

/// No two plain members share a wire name.
pub(crate) fn wire_names(out: &[Field], fs: &Fields, errors: &mut Errors) {
    let mut seen = std::collections::HashSet::new();
    for (f, src) in out.iter().zip(fs.iter()) {
        if !f.flatten && !seen.insert(f.wire.clone()) {
            errors.syn_error(syn::Error::new(
                src.span(),
                format!("two members are named `{}` on the wire; rename one", f.wire),
            ));
        }
    }
}
