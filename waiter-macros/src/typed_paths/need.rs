//! What the leaf of a chain must be: a comparator's operand, a failure message, an ordered
//! operand, a function's argument (by the JMESPath specification's signatures); with the
//! runtime's name of each need and the words the message says it with.

use proc_macro2::TokenStream;
use quote::quote;

use crate::waitable::model::Comparator;

/// What the leaf of a chain must be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Need {
    Comparator(Comparator),
    /// `stringEquals` or `booleanEquals` on a path the untyped check knows gives a list of
    /// elements it cannot see: an error whatever they are, whose message names them.
    ComparatorOnList(Comparator),
    Message,
    /// An operand of an ordering comparison (`<`, `<=`, `>`, `>=`): JMESPath orders numbers
    /// only (anything else gives null).
    Ordered(&'static str),
    /// Argument `index` of the function `function` (with `arity` arguments), which must be
    /// what `arg` says.
    Arg {
        function: &'static str,
        index: usize,
        arity: usize,
        arg: Arg,
    },
}

/// What a function argument must be, by the JMESPath specification's signatures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Arg {
    /// `string|array|object`
    Sized,
    /// `number`
    Number,
    /// `string`
    Text,
    /// `array`
    List,
    /// `object`
    Object,
    /// `array|string`
    ListOrString,
    /// `array[number]`
    Numbers,
    /// `array[string]`
    Strings,
    /// `array[number]|array[string]`
    Sortable,
}

/// What argument `index` of `function` must be, when it is not `any` (or an expression
/// reference); with the function's name as a `'static` string.
pub(super) fn arg_need(function: &str, index: usize, arity: usize) -> Option<Need> {
    let (function, arg) = match (function, index) {
        ("length", 0) => ("length", Arg::Sized),
        ("abs", 0) => ("abs", Arg::Number),
        ("ceil", 0) => ("ceil", Arg::Number),
        ("floor", 0) => ("floor", Arg::Number),
        ("avg", 0) => ("avg", Arg::Numbers),
        ("sum", 0) => ("sum", Arg::Numbers),
        ("contains", 0) => ("contains", Arg::ListOrString),
        ("reverse", 0) => ("reverse", Arg::ListOrString),
        ("starts_with", 0 | 1) => ("starts_with", Arg::Text),
        ("ends_with", 0 | 1) => ("ends_with", Arg::Text),
        ("join", 0) => ("join", Arg::Text),
        ("join", 1) => ("join", Arg::Strings),
        ("keys", 0) => ("keys", Arg::Object),
        ("values", 0) => ("values", Arg::Object),
        ("merge", _) => ("merge", Arg::Object),
        ("max", 0) => ("max", Arg::Sortable),
        ("min", 0) => ("min", Arg::Sortable),
        ("sort", 0) => ("sort", Arg::Sortable),
        ("map", 1) => ("map", Arg::List),
        ("max_by", 0) => ("max_by", Arg::List),
        ("min_by", 0) => ("min_by", Arg::List),
        ("sort_by", 0) => ("sort_by", Arg::List),
        _ => return None,
    };
    Some(Need::Arg {
        function,
        index,
        arity,
        arg,
    })
}

impl Need {
    /// The runtime's `Need` for this need, and what it needs (for the message).
    pub(super) fn tokens(self, t: &TokenStream) -> (TokenStream, String) {
        let (need, what) = match self {
            Need::Comparator(Comparator::StringEquals) => {
                (quote!(String), "`stringEquals` needs a string".to_owned())
            }
            Need::Comparator(Comparator::BooleanEquals) => (
                quote!(Boolean),
                "`booleanEquals` needs a boolean".to_owned(),
            ),
            Need::Comparator(Comparator::AllStringEquals) => (
                quote!(Strings),
                "`allStringEquals` needs a list of strings".to_owned(),
            ),
            Need::Comparator(Comparator::AnyStringEquals) => (
                quote!(Strings),
                "`anyStringEquals` needs a list of strings".to_owned(),
            ),
            Need::ComparatorOnList(Comparator::BooleanEquals) => (
                quote!(BooleanOnList),
                "`booleanEquals` needs a boolean".to_owned(),
            ),
            Need::ComparatorOnList(_) => (
                quote!(StringOnList),
                "`stringEquals` needs a string".to_owned(),
            ),
            Need::Message => (
                quote!(Message),
                "a failure `message` must be a string or a list of strings".to_owned(),
            ),
            Need::Ordered(op) => (
                quote!(Number),
                format!(
                    "`{op}` orders numbers only (on anything else JMESPath gives null), so it needs a number"
                ),
            ),
            Need::Arg {
                function,
                index,
                arity,
                arg,
            } => {
                let (need, what) = match arg {
                    Arg::Sized => (quote!(Sized), "a string, a list or an object"),
                    Arg::Number => (quote!(Number), "a number"),
                    Arg::Text => (quote!(Text), "a string"),
                    Arg::List => (quote!(List), "a list"),
                    Arg::Object => (quote!(Object), "an object or a map"),
                    Arg::ListOrString => (quote!(ListOrString), "a list or a string"),
                    Arg::Numbers => (quote!(Numbers), "a list of numbers"),
                    Arg::Strings => (quote!(Strings), "a list of strings"),
                    Arg::Sortable => (quote!(Sortable), "a list of numbers or a list of strings"),
                };
                let what = if arity == 1 {
                    format!("`{function}()` needs {what}")
                } else {
                    format!("`{function}()` needs {what} as argument {index}")
                };
                (need, what)
            }
        };
        (quote!(#t::Need::#need), what)
    }
}
