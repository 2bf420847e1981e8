//! What `#[waitable(...)]` is given: a pasted `@waitable` trait value, or a model file to read
//! the waiters from (`botocore = ".."` or `smithy = ".."`, with `operation = ".."` and
//! `waiters = [..]`).
//!
//! A trait value's members are written `Name: value`, never `name = value`: an argument list
//! is told apart by its first two tokens.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::LitStr;

use crate::ctxt::Ctxt;

/// Where the waiters come from.
pub(crate) enum Source {
    /// The value of a `@waitable` trait, pasted.
    Pasted(TokenStream),
    /// A model file.
    File(FileArgs),
    /// An argument list without a model file (its errors are in the context).
    Nothing,
}

/// The model file's format: the argument naming it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Format {
    /// botocore's `waiters-2.json` (`botocore = ".."`).
    Botocore,
    /// A Smithy JSON AST model (`smithy = ".."`).
    Smithy,
}

impl Format {
    pub(crate) fn key(self) -> &'static str {
        match self {
            Format::Botocore => "botocore",
            Format::Smithy => "smithy",
        }
    }
}

/// `botocore = ".."` or `smithy = ".."`, and what narrows it.
pub(crate) struct FileArgs {
    pub format: Format,
    /// The path, relative to the crate's manifest directory.
    pub path: LitStr,
    /// `operation = ".."`: the operation in the model (else the function's name in
    /// PascalCase).
    pub operation: Option<LitStr>,
    /// `waiters = [..]`: the waiters to generate (else every waiter of the operation).
    pub waiters: Option<Vec<LitStr>>,
}

const KEYS: [&str; 4] = ["botocore", "smithy", "operation", "waiters"];

/// Reads the attribute's arguments (after `crate = ".."`).
pub(crate) fn read(cx: &Ctxt, tokens: TokenStream) -> Source {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let is_list = matches!(
        tokens.as_slice(),
        [TokenTree::Ident(_), TokenTree::Punct(eq), ..] if eq.as_char() == '='
    );
    if !is_list {
        return Source::Pasted(tokens.into_iter().collect());
    }
    let mut file: Option<(Format, LitStr, Span)> = None;
    let mut operation = None;
    let mut waiters = None;
    let mut seen: Vec<String> = Vec::new();
    for (key, key_span, value) in split(cx, &tokens) {
        if seen.contains(&key) {
            cx.error(key_span, format!("`{key}` is given twice"));
            continue;
        }
        seen.push(key.clone());
        match key.as_str() {
            "botocore" | "smithy" => {
                let format = if key == "botocore" {
                    Format::Botocore
                } else {
                    Format::Smithy
                };
                let Some(path) = string(cx, &key, key_span, &value) else {
                    continue;
                };
                match &file {
                    Some((first, _, _)) => cx.error(
                        key_span,
                        format!(
                            "`{key}` and `{}` both name a model file: a `#[waitable]` reads one; \
                             remove one, or put the other on its own function",
                            first.key()
                        ),
                    ),
                    None => file = Some((format, path, key_span)),
                }
            }
            "operation" => operation = string(cx, &key, key_span, &value),
            "waiters" => waiters = names(cx, key_span, &value),
            other => {
                let hint = match crate::closest::closest(other, KEYS, 2) {
                    Some(key) => format!("; did you mean `{key}`?"),
                    None => String::new(),
                };
                cx.error(
                    key_span,
                    format!(
                        "unknown argument `{other}`{hint}: #[waitable] reads `botocore = \"path\"` \
                         or `smithy = \"path\"`, with `operation = \"Name\"` and \
                         `waiters = [\"Name\", ..]`, or a pasted `@waitable` trait value"
                    ),
                );
            }
        }
    }
    match file {
        Some((format, path, _)) => Source::File(FileArgs {
            format,
            path,
            operation,
            waiters,
        }),
        None => {
            if !cx.has_errors() {
                let (first, span) = (&seen[0], tokens[0].span());
                cx.error(
                    span,
                    format!(
                        "`{first}` narrows the waiters of a model file: add `botocore = \
                         \"models/<service>/waiters-2.json\"` or `smithy = \"models/<service>.json\"`"
                    ),
                );
            }
            Source::Nothing
        }
    }
}

/// `key = value, ..` into its members (a value is the tokens up to the next top-level comma).
fn split(cx: &Ctxt, tokens: &[TokenTree]) -> Vec<(String, Span, Vec<TokenTree>)> {
    let mut out = Vec::new();
    let mut rest = tokens;
    while !rest.is_empty() {
        let (key, key_span) = match rest {
            [TokenTree::Ident(key), TokenTree::Punct(eq), ..] if eq.as_char() == '=' => {
                (key.to_string(), key.span())
            }
            [first, ..] => {
                cx.error(
                    first.span(),
                    "expected `name = value`: `botocore = \"..\"`, `smithy = \"..\"`, \
                     `operation = \"..\"` or `waiters = [..]`",
                );
                return out;
            }
            [] => unreachable!("the loop stops on empty input"),
        };
        rest = &rest[2..];
        let end = rest
            .iter()
            .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
            .unwrap_or(rest.len());
        out.push((key, key_span, rest[..end].to_vec()));
        rest = rest.get(end + 1..).unwrap_or(&[]);
    }
    out
}

/// A value that must be one string literal.
fn string(cx: &Ctxt, key: &str, key_span: Span, value: &[TokenTree]) -> Option<LitStr> {
    if let [TokenTree::Literal(lit)] = value {
        if let Ok(s) = syn::parse2::<LitStr>(TokenTree::Literal(lit.clone()).into()) {
            return Some(s);
        }
    }
    let span = value.first().map_or(key_span, TokenTree::span);
    let example = match key {
        "botocore" => "botocore = \"models/dynamodb/waiters-2.json\"",
        "smithy" => "smithy = \"models/dynamodb.json\"",
        _ => "operation = \"DescribeTable\"",
    };
    cx.error(
        span,
        format!("`{key}` takes a string in double quotes, as in `{example}`"),
    );
    None
}

/// `[ "A", "B" ]`: the waiter names.
fn names(cx: &Ctxt, key_span: Span, value: &[TokenTree]) -> Option<Vec<LitStr>> {
    let advice = "`waiters` takes a list of waiter names, as in `waiters = [\"TableExists\"]`";
    let group = match value {
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Bracket => g,
        _ => {
            cx.error(value.first().map_or(key_span, TokenTree::span), advice);
            return None;
        }
    };
    let mut out = Vec::new();
    for token in group.stream() {
        match token {
            TokenTree::Punct(p) if p.as_char() == ',' => {}
            TokenTree::Literal(lit) => {
                match syn::parse2::<LitStr>(TokenTree::Literal(lit.clone()).into()) {
                    Ok(s) => out.push(s),
                    Err(_) => cx.error(lit.span(), advice),
                }
            }
            other => cx.error(other.span(), advice),
        }
    }
    if out.is_empty() && !cx.has_errors() {
        cx.error(
            group.span(),
            "`waiters = []` names no waiter: name at least one, or remove `waiters` for every \
             waiter of the operation",
        );
    }
    Some(out)
}
