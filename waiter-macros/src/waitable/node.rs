//! Smithy node values read from the attribute's tokens, keeping every token's span.
//!
//! Both forms a Smithy model can be pasted in are accepted:
//! - the IDL form: bare or quoted keys, commas optional, `//` comments (the Rust lexer drops
//!   them before we see the tokens);
//! - the JSON AST form: quoted keys and commas, with or without the outer braces.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::LitStr;

/// A node value and where it was written.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub kind: NodeKind,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub(crate) enum NodeKind {
    String(LitStr),
    /// The literal's text (`5`, `-1`, `2.5`).
    Number(String),
    Bool(bool),
    Null,
    Array(Vec<Node>),
    Object(Vec<Member>),
}

/// `key: value` inside an object.
#[derive(Debug, Clone)]
pub(crate) struct Member {
    pub key: String,
    pub key_span: Span,
    pub value: Node,
}

impl Node {
    /// What a person calls this kind of value, for "expected X, found Y" messages.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            NodeKind::String(_) => "a string",
            NodeKind::Number(_) => "a number",
            NodeKind::Bool(_) => "a boolean",
            NodeKind::Null => "null",
            NodeKind::Array(_) => "a list",
            NodeKind::Object(_) => "an object",
        }
    }
}

/// Parses the whole attribute argument: an object's members, with or without its braces.
pub(crate) fn parse_trait_value(tokens: TokenStream) -> syn::Result<Node> {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    if let [TokenTree::Group(group)] = tokens.as_slice() {
        if group.delimiter() == Delimiter::Brace {
            return parse_object(group.stream(), group.span());
        }
    }
    let span = match (tokens.first(), tokens.last()) {
        (Some(first), Some(last)) => first
            .span()
            .join(last.span())
            .unwrap_or_else(|| first.span()),
        _ => Span::call_site(),
    };
    if tokens.is_empty() {
        return Err(syn::Error::new(
            span,
            "#[waitable] needs the value of a Smithy `@waitable` trait, e.g. \
             #[waitable(BucketExists: { acceptors: [{ state: \"success\", matcher: { success: true } }] })]",
        ));
    }
    parse_object(tokens.into_iter().collect(), span)
}

fn parse_object(stream: TokenStream, span: Span) -> syn::Result<Node> {
    let mut tokens = stream.into_iter().peekable();
    let mut members = Vec::new();
    while let Some(token) = tokens.next() {
        let (key, key_span) = match &token {
            TokenTree::Ident(ident) => (ident.to_string(), ident.span()),
            TokenTree::Literal(lit) => match syn::parse_str::<LitStr>(&lit.to_string()) {
                Ok(s) => (s.value(), lit.span()),
                Err(_) => {
                    return Err(syn::Error::new(
                        lit.span(),
                        "expected a member name (an identifier or a string)",
                    ));
                }
            },
            TokenTree::Punct(p) if p.as_char() == ',' => {
                return Err(syn::Error::new(
                    p.span(),
                    "unexpected `,`: expected a member name",
                ));
            }
            other => {
                return Err(syn::Error::new(
                    other.span(),
                    "expected a member name (an identifier or a string)",
                ));
            }
        };
        match tokens.next() {
            Some(TokenTree::Punct(p)) if p.as_char() == ':' => {}
            Some(other) => {
                return Err(syn::Error::new(
                    other.span(),
                    format!("expected `:` after the member name `{key}`"),
                ));
            }
            None => {
                return Err(syn::Error::new(
                    key_span,
                    format!("expected `:` and a value after `{key}`"),
                ));
            }
        }
        let value = parse_value(&mut tokens, key_span, &key)?;
        if let Some(TokenTree::Punct(p)) = tokens.peek() {
            if p.as_char() == ',' {
                tokens.next();
            }
        }
        members.push(Member {
            key,
            key_span,
            value,
        });
    }
    Ok(Node {
        kind: NodeKind::Object(members),
        span,
    })
}

fn parse_array(stream: TokenStream, span: Span) -> syn::Result<Node> {
    let mut tokens = stream.into_iter().peekable();
    let mut items = Vec::new();
    while tokens.peek().is_some() {
        items.push(parse_value(&mut tokens, span, "list item")?);
        if let Some(TokenTree::Punct(p)) = tokens.peek() {
            if p.as_char() == ',' {
                tokens.next();
            }
        }
    }
    Ok(Node {
        kind: NodeKind::Array(items),
        span,
    })
}

fn parse_value(
    tokens: &mut std::iter::Peekable<impl Iterator<Item = TokenTree>>,
    after: Span,
    what: &str,
) -> syn::Result<Node> {
    let Some(token) = tokens.next() else {
        return Err(syn::Error::new(
            after,
            format!("expected a value for `{what}`"),
        ));
    };
    match token {
        TokenTree::Group(group) => match group.delimiter() {
            Delimiter::Brace => parse_object(group.stream(), group.span()),
            Delimiter::Bracket => parse_array(group.stream(), group.span()),
            _ => Err(syn::Error::new(
                group.span(),
                "expected a value: a string, number, boolean, null, `[...]` or `{...}`",
            )),
        },
        TokenTree::Ident(ident) => {
            let kind = match ident.to_string().as_str() {
                "true" => NodeKind::Bool(true),
                "false" => NodeKind::Bool(false),
                "null" => NodeKind::Null,
                other => {
                    return Err(syn::Error::new(
                        ident.span(),
                        format!(
                            "expected a value, found `{other}`: strings are written in double quotes (\"{other}\")"
                        ),
                    ));
                }
            };
            Ok(Node {
                kind,
                span: ident.span(),
            })
        }
        TokenTree::Literal(lit) => literal(lit, false),
        TokenTree::Punct(p) if p.as_char() == '-' => match tokens.next() {
            Some(TokenTree::Literal(lit)) => {
                let mut node = literal(lit, true)?;
                node.span = p.span().join(node.span).unwrap_or(node.span);
                Ok(node)
            }
            _ => Err(syn::Error::new(p.span(), "expected a number after `-`")),
        },
        TokenTree::Punct(p) => Err(syn::Error::new(
            p.span(),
            format!(
                "unexpected `{}`: expected a value for `{what}`",
                p.as_char()
            ),
        )),
    }
}

fn literal(lit: proc_macro2::Literal, negative: bool) -> syn::Result<Node> {
    let span = lit.span();
    let parsed: syn::Lit = syn::parse2(TokenTree::Literal(lit).into())?;
    let kind = match parsed {
        syn::Lit::Str(s) if !negative => NodeKind::String(s),
        syn::Lit::Int(i) if i.suffix().is_empty() => NodeKind::Number(format!(
            "{}{}",
            if negative { "-" } else { "" },
            i.base10_digits()
        )),
        syn::Lit::Float(f) if f.suffix().is_empty() => NodeKind::Number(format!(
            "{}{}",
            if negative { "-" } else { "" },
            f.base10_digits()
        )),
        _ => {
            return Err(syn::Error::new(
                span,
                "expected a string in double quotes, a number, true, false or null",
            ));
        }
    };
    Ok(Node { kind, span })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    fn keys(node: &Node) -> Vec<String> {
        match &node.kind {
            NodeKind::Object(members) => members.iter().map(|m| m.key.clone()).collect(),
            _ => panic!("not an object"),
        }
    }

    #[test]
    fn idl_form_without_commas() {
        let node = parse_trait_value(quote! {
            BucketExists: {
                documentation: "Wait until a bucket exists"
                acceptors: [
                    { state: "success" matcher: { success: true } }
                    { state: "retry" matcher: { errorType: "NotFound" } }
                ]
                minDelay: 5
            }
        })
        .unwrap();
        assert_eq!(keys(&node), ["BucketExists"]);
        let NodeKind::Object(members) = &node.kind else {
            unreachable!()
        };
        assert_eq!(
            keys(&members[0].value),
            ["documentation", "acceptors", "minDelay"]
        );
    }

    #[test]
    fn json_form_with_and_without_braces() {
        let inner = quote! { "A": { "acceptors": [ { "state": "success", "matcher": { "success": true } } ], "minDelay": -1 } };
        let with = parse_trait_value(quote! { { #inner } }).unwrap();
        let without = parse_trait_value(inner).unwrap();
        assert_eq!(keys(&with), keys(&without));
        let NodeKind::Object(members) = &with.kind else {
            unreachable!()
        };
        let NodeKind::Object(waiter) = &members[0].value.kind else {
            unreachable!()
        };
        assert!(matches!(&waiter[1].value.kind, NodeKind::Number(n) if n == "-1"));
    }

    #[test]
    fn syntax_errors_say_what_to_write() {
        let err = parse_trait_value(quote! { A: { state: success } }).unwrap_err();
        assert!(
            err.to_string()
                .contains("strings are written in double quotes"),
            "{err}"
        );
        let err = parse_trait_value(quote! { A { } }).unwrap_err();
        assert!(err.to_string().contains("expected `:`"), "{err}");
        let err = parse_trait_value(quote! {}).unwrap_err();
        assert!(err.to_string().contains("@waitable"), "{err}");
    }
}
