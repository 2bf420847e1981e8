//! Typed paths: every field chain of a JMESPath path, checked against what
//! `#[derive(Searchable)]` publishes about the searched type, by const evaluation in the user's
//! crate (the macro cannot see the type's definition; the compiler joins the two). Used alike by
//! `#[waitable]` (its `output` and `inputOutput` paths and failure messages: [`check_path`]) and
//! by `jmespath!(Type, "path")` ([`check_type`]).
//!
//! The steps, one file each:
//! * [`lower`]: the path's syntax tree -> chains of steps from the root (`.name`, `[*]`, `*`,
//!   flatten), each with what its leaf must be ([`need`]: a comparator's operand, a function's
//!   argument...);
//! * [`roots`]: the type each chain starts from (`#[waitable]`: the output, or the input and
//!   output of `inputOutput` paths), as a nested const item can name it
//!   ([`nameable`](mod@nameable));
//! * [`merge`](mod@merge): chains from the same root that another starts with become steps of
//!   its walk;
//! * [`emit`]: one `const _` per chain, walking the root type's description (see
//!   [`description`], shared with the derive that publishes it).

pub(crate) mod description;
mod emit;
mod lower;
mod merge;
mod nameable;
mod need;
mod roots;

use proc_macro2::TokenStream;
use syn::{LitStr, Type};

use crate::jmespath::ast::Ast;
use crate::jmespath::parse_ast;
use crate::waitable::signature::Operation;
use merge::{Check, merge};

pub(crate) use nameable::nameable;
pub(crate) use need::Need;
pub(crate) use roots::Root;

/// The checks of `jmespath!(Type, "path")`: every field chain of the path against `Type`.
pub(crate) fn check_type(lit: &LitStr, ty: &Type) -> TokenStream {
    let expr = lit.value();
    let (Some(ast), Some(ty)) = (parse_ast(&expr), nameable::nameable_with(ty, &[])) else {
        return TokenStream::new();
    };
    emit_all(lit, &expr, &against(&ast, &ty), Site::Jmespath, "")
}

/// The checks of every chain of `ast` against `ty`, merged.
fn against(ast: &Ast, ty: &Type) -> Vec<Check> {
    merge(
        lower::chains(ast, None)
            .into_iter()
            .map(|chain| Check {
                ty: ty.clone(),
                ops: chain.ops,
                need: chain.need,
            })
            .collect(),
    )
}

/// The checks of one path of `#[waitable]`: `const _` items, or nothing when the types cannot
/// be named. `origin` starts their messages (the model file, waiter and acceptor of a path read
/// from a file; empty for a pasted one).
pub(crate) fn check_path(
    op: &Operation,
    lit: &LitStr,
    root: Root,
    need: Option<Need>,
    origin: &str,
) -> TokenStream {
    // Only for `ui-tests/bench/compile_time.py --typed`, to measure what the checks cost.
    if std::env::var_os("WAITER_MACROS_BENCH_UNTYPED").is_some() {
        return TokenStream::new();
    }
    let expr = lit.value();
    let Some(ast) = parse_ast(&expr) else {
        return TokenStream::new();
    };
    let checks = lower::chains(&ast, need)
        .into_iter()
        .filter_map(|chain| {
            let (ty, ops) = roots::start(op, &root, &chain.ops)?;
            Some(Check {
                ty,
                ops: ops.to_vec(),
                need: chain.need,
            })
        })
        .collect();
    emit_all(lit, &expr, &merge(checks), Site::Waitable, origin)
}

/// Whether the typed check of `lit` read from the output checks its result against the
/// comparator: the output's type can be named, and the whole path is one chain (the leaf's need
/// is then on it).
pub(crate) fn checks_leaf(op: &Operation, lit: &LitStr) -> bool {
    if std::env::var_os("WAITER_MACROS_BENCH_UNTYPED").is_some() {
        return false;
    }
    let nameable_output = op
        .parts
        .as_ref()
        .and_then(|(o, _)| nameable(o, op))
        .is_some();
    nameable_output && parse_ast(&lit.value()).is_some_and(|ast| lower::is_one_chain(&ast))
}

/// Where a typed path is written, for the advice of errors that say how to do without the check.
#[derive(Clone, Copy)]
pub(crate) enum Site {
    /// `jmespath!(Type, "..")`: the type can be left out.
    Jmespath,
    /// A path of `#[waitable]`, always checked against the output's type.
    Waitable,
}

impl Site {
    /// How to search a path without this check.
    pub(crate) fn without_the_check(self) -> &'static str {
        match self {
            Site::Jmespath => {
                "search without the type check (`jmespath!(\"..\")` without its type)"
            }
            Site::Waitable => {
                "stop the check above the deep part: a member marked `#[searchable(serde)]` (or \
                 `#[searchable(with = ..)]`) is searched in its converted form, and typed paths \
                 do not look below it"
            }
        }
    }
}

fn emit_all(lit: &LitStr, expr: &str, checks: &[Check], site: Site, origin: &str) -> TokenStream {
    checks
        .iter()
        .map(|c| emit::emit(lit, expr, &c.ty, &c.ops, c.need, site, origin))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use lower::Op;
    use need::Arg;

    fn chains(path: &str) -> Vec<Check> {
        let ast = parse_ast(path).expect("a valid path");
        against(&ast, &syn::parse_quote!(Output))
    }

    fn field(name: &str, prefix: &str) -> Op {
        Op::Field(name.to_owned(), prefix.to_owned())
    }

    #[test]
    fn needs_inside_a_filter_are_checked_on_the_element() {
        let checks = chains("Items[?starts_with(Name, 'x') && Size > `1`].Name");
        let need = |function, index, arg| {
            Some(Need::Arg {
                function,
                index,
                arity: 2,
                arg,
            })
        };
        let scoped = |name: &str| {
            vec![
                field("Items", "Items"),
                Op::Elements(true, 0),
                Op::Scope,
                field(name, &format!("Items[*].{name}")),
            ]
        };
        let found: Vec<_> = checks.iter().map(|c| (c.ops.clone(), c.need)).collect();
        assert!(found.contains(&(scoped("Name"), need("starts_with", 0, Arg::Text))));
        assert!(found.contains(&(scoped("Size"), Some(Need::Ordered(">")))));
        // The result's chain reads the list, and keeps no scope.
        assert!(found.contains(&(
            vec![
                field("Items", "Items"),
                Op::Elements(true, 0),
                field("Name", "Items[*].Name")
            ],
            None
        )));
    }

    #[test]
    fn a_chain_another_starts_with_is_one_step_of_its_walk() {
        let checks = chains("length(Items[?Ready]) > `0`");
        assert_eq!(checks.len(), 1);
        assert_eq!(
            checks[0].ops,
            [
                field("Items", "Items"),
                Op::Elements(true, 0),
                Op::Need(Need::Arg {
                    function: "length",
                    index: 0,
                    arity: 1,
                    arg: Arg::Sized,
                }),
                field("Ready", "Items[*].Ready"),
            ]
        );
        assert!(checks[0].need.is_none());
    }

    #[test]
    fn chains_that_part_ways_stay_apart_and_equal_chains_are_one() {
        let checks = chains("[A.B, A.C, A.B]");
        let ops: Vec<_> = checks.iter().map(|c| c.ops.clone()).collect();
        assert_eq!(
            ops,
            [
                vec![field("A", "A"), field("B", "A.B")],
                vec![field("A", "A"), field("C", "A.C")],
            ]
        );
    }
}
