//! The JMESPath compiler: our parser -> static checks and types -> Rust tokens.
//!
//! Phases, one module each: [`parse`] (syntax, into the owned [`ast`]), [`check`] (functions, arities, argument types,
//! inferred result type, root paths), [`expand`] (code generation).

pub(crate) mod ast;
mod check;
mod expand;
mod functions;
mod json;
mod parse;
mod types;

use proc_macro2::TokenStream;
use quote::quote;
use syn::LitStr;

pub(crate) use types::StaticType;

use check::Problem;

/// A JMESPath expression compiled for the waitable macro.
#[allow(dead_code)] // read by the waitable macro
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

/// The syntax tree of an expression that parses (for the typed-path checks of `#[waitable]`).
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
        .map(|p| syn::Error::new(lit.span(), parse::render(expr, p)));
    let mut first = errors.next().expect("at least one problem");
    for e in errors {
        first.combine(e);
    }
    first
}

/// Compiles `lit` to an evaluation of the data `data` (tokens of type `&T`, `T: Searchable + ?Sized`).
#[allow(dead_code)] // used by the waitable macro
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

fn parse_input(input: TokenStream) -> Result<LitStr, syn::Error> {
    syn::parse2::<LitStr>(input).map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected a string literal holding a JMESPath expression, as in \
             `jmespath!(\"Reservations[].Instances[].State.Name\")`",
        )
    })
}

/// Splits a leading `crate = "path",` off the macro's input.
fn crate_option(input: TokenStream) -> Result<(Option<syn::Path>, TokenStream), syn::Error> {
    let tokens: Vec<proc_macro2::TokenTree> = input.clone().into_iter().collect();
    use proc_macro2::TokenTree as T;
    match tokens.as_slice() {
        [T::Ident(kw), T::Punct(eq), T::Literal(lit), rest @ ..]
            if kw == "crate" && eq.as_char() == '=' =>
        {
            let lit: LitStr = syn::parse2(T::Literal(lit.clone()).into())?;
            let path = crate::krate::parse_path(&lit)?;
            let rest = match rest {
                [T::Punct(p), rest @ ..] if p.as_char() == ',' => rest,
                rest => rest,
            };
            Ok((Some(path), rest.iter().cloned().collect()))
        }
        _ => Ok((None, input)),
    }
}

/// Splits a leading `Type,` (anything before the last comma) off the macro's input.
fn typed_input(input: TokenStream) -> Result<(Option<syn::Type>, TokenStream), syn::Error> {
    let tokens: Vec<proc_macro2::TokenTree> = input.clone().into_iter().collect();
    let comma = tokens
        .iter()
        .rposition(|t| matches!(t, proc_macro2::TokenTree::Punct(p) if p.as_char() == ','));
    match comma {
        // A trailing comma after the string is not a type.
        Some(i) if i + 1 < tokens.len() => {
            let ty: syn::Type = syn::parse2(tokens[..i].iter().cloned().collect()).map_err(|e| {
                syn::Error::new(
                    e.span(),
                    "expected `jmespath!(Type, \"path\")` (the type the path is checked against) or `jmespath!(\"path\")`",
                )
            })?;
            Ok((Some(ty), tokens[i + 1..].iter().cloned().collect()))
        }
        _ => Ok((None, input)),
    }
}

/// `jmespath!([crate = "path",] [Type,] "expr")`: an `Expression` value.
pub(crate) fn expand_macro(input: TokenStream) -> TokenStream {
    let (krate, input) = match crate_option(input) {
        Ok(split) => split,
        Err(e) => return expression_error(e),
    };
    crate::krate::with(krate.as_ref(), || {
        // `jmespath!(Type, "path")`: the path's field chains are checked against `Type`.
        let (ty, input) = match typed_input(input) {
            Ok(split) => split,
            Err(e) => return expression_error(e),
        };
        let lit = match parse_input(input) {
            Ok(l) => l,
            Err(e) => return expression_error(e),
        };
        let expr = lit.value();
        match compile(&expr) {
            Ok(c) => {
                let checks = ty
                    .map(|ty| crate::waitable::typed::check_type(&lit, &ty))
                    .unwrap_or_default();
                let e = expression(&lit, &c);
                quote!({ #checks #e })
            }
            Err(problems) => expression_error(to_error(&lit, &expr, &problems)),
        }
    })
}

/// Several `compile_error!`s in expression position: a block, with a diverging tail so that no
/// follow-on type error is reported.
fn expression_error(e: syn::Error) -> TokenStream {
    let errors = e.to_compile_error();
    quote!({ #errors loop {} })
}

fn expression(lit: &LitStr, c: &Compiled) -> TokenStream {
    let f = expand::eval_fn(&c.ast);
    let p = expand::rt();
    quote!({
        #f
        #p::Expression::__new(#lit, __jmespath_eval)
    })
}

/// `__jmespath_verdict!("expr")`: the compile-time verdict as a value, for the compliance suite:
/// `Verdict::Compiled(expression)` or `Verdict::Rejected { kind, message }`.
pub(crate) fn expand_verdict(input: TokenStream) -> TokenStream {
    let lit = match parse_input(input) {
        Ok(l) => l,
        Err(e) => return e.to_compile_error(),
    };
    let expr = lit.value();
    let p = expand::rt();
    match compile(&expr) {
        Ok(c) => {
            let e = expression(&lit, &c);
            quote!(#p::Verdict::Compiled(#e))
        }
        Err(problems) => {
            let kind = problems[0].kind.name();
            let message = parse::render(&expr, &problems[0]);
            quote!(#p::Verdict::Rejected { kind: #kind, message: #message })
        }
    }
}

#[cfg(test)]
mod depth_tests;
