//! `output` and `inputOutput` matchers and failure `message`s: JMESPath compiled by
//! `crate::jmespath`, compared by the runtime's comparator helpers.

use proc_macro2::TokenStream;

use super::ctxt::Ctxt;
use super::model::{Acceptor, PathMatcher};
use super::signature::Operation;

/// The condition (a `bool` expression over `__result: &Result<O, E>`) of a path matcher.
pub(crate) fn condition(
    cx: &mut Ctxt,
    _op: &Operation,
    matcher: &PathMatcher,
    _input_output: bool,
) -> TokenStream {
    cx.error(
        matcher.key_span,
        "`output` and `inputOutput` matchers need the JMESPath compiler, which this build does not have yet",
    );
    TokenStream::new()
}

/// The failure message (an `Option<String>` expression) of an acceptor.
pub(crate) fn message(cx: &mut Ctxt, _op: &Operation, acceptor: &Acceptor) -> TokenStream {
    if let Some(message) = &acceptor.message {
        cx.error(
            message.span(),
            "`message` needs the JMESPath compiler, which this build does not have yet",
        );
    }
    quote::quote!(::core::option::Option::None)
}
