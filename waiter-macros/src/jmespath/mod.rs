//! The JMESPath compiler: our parser -> static checks and types -> Rust tokens.
//!
//! Phases, one module each: [`lex`] and [`parse`] (syntax, into the owned [`ast`]), [`check`]
//! (functions and their signatures in [`functions`], arities, argument types, the inferred
//! result type in [`types`], root paths), [`expand`] (code generation); every error is a
//! [`problem`], shown with its column.
//!
//! Used by `jmespath!` ([`compile_expression`], [`verdict`], from [`crate::jmespath_macro`]),
//! by `#[waitable]` ([`compile_search`]) and by typed paths ([`parse_ast`], the tree they lower).

pub(crate) mod ast;
mod check;
mod expand;
mod functions;
pub(crate) mod json;
mod lex;
mod parse;
mod problem;
mod types;

use proc_macro2::TokenStream;
use quote::quote;
use syn::LitStr;

pub(crate) use types::StaticType;

use problem::{Problem, render};

/// A JMESPath expression compiled for the waitable macro.
pub(crate) struct CompiledSearch {
    /// Tokens of an expression of type
    /// `Result<::waiter_runtime::jmespath::Node<'_>, ::waiter_runtime::jmespath::SearchError>`.
    pub eval: TokenStream,
    /// The statically inferred result type.
    pub ty: StaticType,
    /// Field chains read from the root node (e.g. `length(input.groups) == length(output.groups)`
    /// -> `[["input","groups"], ["output","groups"]]`).
    pub root_paths: Vec<Vec<String>>,
}

/// An expression that passed every check.
struct Compiled {
    ast: ast::Ast,
    ty: types::Ty,
    root_paths: Vec<Vec<String>>,
}

/// The syntax tree of an expression that parses (for the typed-path checks).
pub(crate) fn parse_ast(expr: &str) -> Option<ast::Ast> {
    parse::parse(expr).ok()
}

fn compile(expr: &str) -> Result<Compiled, Vec<Problem>> {
    let ast = parse::parse(expr).map_err(|p| vec![p])?;
    let (ty, checked) = check::check(&ast, expr);
    if checked.problems.is_empty() {
        Ok(Compiled {
            ast,
            ty,
            root_paths: checked.root_paths,
        })
    } else {
        Err(checked.problems)
    }
}

/// One `syn::Error` on `lit` holding every problem.
fn to_error(lit: &LitStr, expr: &str, problems: &[Problem]) -> syn::Error {
    let mut errors = problems
        .iter()
        .map(|p| syn::Error::new(lit.span(), render(expr, p)));
    let mut first = errors.next().expect("at least one problem");
    for e in errors {
        first.combine(e);
    }
    first
}

/// Compiles `lit` to an evaluation of the data `data` (tokens of type `&T`, `T: Searchable + ?Sized`).
pub(crate) fn compile_search(
    lit: &LitStr,
    data: TokenStream,
) -> Result<CompiledSearch, syn::Error> {
    let expr = lit.value();
    let c = compile(&expr).map_err(|p| to_error(lit, &expr, &p))?;
    let f = expand::eval_fn(&c.ast);
    let p = expand::rt();
    Ok(CompiledSearch {
        eval: quote!({
            #f
            __jmespath_eval(#p::Searchable::node(#data))
        }),
        ty: c.ty.to_static(),
        root_paths: c.root_paths,
    })
}

/// The `Expression` value `jmespath!("..")` gives for `lit`, or every problem of the expression
/// as one error on `lit`.
pub(crate) fn compile_expression(lit: &LitStr) -> Result<TokenStream, syn::Error> {
    let expr = lit.value();
    let c = compile(&expr).map_err(|problems| to_error(lit, &expr, &problems))?;
    Ok(expression(lit, &c))
}

/// The runtime's module the code of `jmespath!` names (its hidden JMESPath helpers).
pub(crate) fn runtime_path() -> TokenStream {
    expand::rt()
}

fn expression(lit: &LitStr, c: &Compiled) -> TokenStream {
    let f = expand::eval_fn(&c.ast);
    let p = expand::rt();
    quote!({
        #f
        #p::Expression::__new(#lit, __jmespath_eval)
    })
}

/// The compile-time verdict on `lit` as a value, for the compliance suite:
/// `Verdict::Compiled(expression)` or `Verdict::Rejected { kind, message }` (the first problem).
pub(crate) fn verdict(lit: &LitStr) -> TokenStream {
    let expr = lit.value();
    let p = expand::rt();
    match compile(&expr) {
        Ok(c) => {
            let e = expression(lit, &c);
            quote!(#p::Verdict::Compiled(#e))
        }
        Err(problems) => {
            let kind = problems[0].kind.name();
            let message = render(&expr, &problems[0]);
            quote!(#p::Verdict::Rejected { kind: #kind, message: #message })
        }
    }
}

#[cfg(test)]
mod depth_tests;
