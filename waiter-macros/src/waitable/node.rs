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

#[derive(Clone)]
pub(crate) enum NodeKind {
    String(LitStr),
    /// The literal's text (`5`, `-1`, `2.5`).
    Number(String),
    Bool(bool),
    Null,
    Array(Vec<Node>),
    Object(Vec<Member>),
}

/// By hand: `LitStr` is `Debug` only with syn's `extra-traits` feature, which we leave off (it
/// lengthens every user's build of syn).
impl std::fmt::Debug for NodeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NodeKind::String(s) => f.debug_tuple("String").field(&s.value()).finish(),
            NodeKind::Number(n) => f.debug_tuple("Number").field(n).finish(),
            NodeKind::Bool(b) => f.debug_tuple("Bool").field(b).finish(),
            NodeKind::Null => f.write_str("Null"),
            NodeKind::Array(items) => f.debug_tuple("Array").field(items).finish(),
            NodeKind::Object(members) => f.debug_tuple("Object").field(members).finish(),
        }
    }
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
///
/// What users paste from a Smithy model is accepted as is: the `@waitable( .. )` wrapper of the
/// IDL form, and the `"smithy.waiters#waitable": { .. }` key of the JSON AST form (both are
/// stripped here).
pub(crate) fn parse_trait_value(tokens: TokenStream) -> syn::Result<Node> {
    let mut tokens: Vec<TokenTree> = tokens.into_iter().collect();
    // `@waitable( .. )` or `@smithy.waiters#waitable( .. )`.
    if let Some(TokenTree::Punct(at)) = tokens.first() {
        if at.as_char() == '@' {
            let at_span = at.span();
            match tokens.last() {
                Some(TokenTree::Group(g))
                    if g.delimiter() == Delimiter::Parenthesis && tokens.len() >= 3 =>
                {
                    let name: String = tokens[1..tokens.len() - 1]
                        .iter()
                        .map(ToString::to_string)
                        .collect();
                    if name != "waitable" && name != "smithy.waiters#waitable" {
                        return Err(syn::Error::new(
                            at_span,
                            format!(
                                "`@{name}` is not the waiter trait: paste the value of `@waitable( .. )` (or the whole `@waitable( .. )`)"
                            ),
                        ));
                    }
                    tokens = g.stream().into_iter().collect();
                }
                _ => {
                    return Err(syn::Error::new(
                        at_span,
                        "expected `@waitable( .. )`, or the trait value alone: `BucketExists: { acceptors: [ .. ] }`",
                    ));
                }
            }
        }
    }
    let node = parse_whole(tokens)?;
    unwrap_trait_key(node)
}

fn parse_whole(tokens: Vec<TokenTree>) -> syn::Result<Node> {
    if let [TokenTree::Group(group)] = tokens.as_slice() {
        if group.delimiter() == Delimiter::Brace {
            return parse_object(group.stream(), group.span(), 1);
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
    parse_object(tokens.into_iter().collect(), span, 1)
}

/// `{"smithy.waiters#waitable": { .. }}` (a trait as the JSON AST writes it) is its value.
fn unwrap_trait_key(node: Node) -> syn::Result<Node> {
    let NodeKind::Object(members) = &node.kind else {
        return Ok(node);
    };
    let is_trait_key = |m: &Member| m.key.contains('#') || m.key == "waitable";
    if !members.iter().any(is_trait_key) {
        return Ok(node);
    }
    match members.as_slice() {
        [only] if only.key == "smithy.waiters#waitable" || only.key == "waitable" => {
            Ok(only.value.clone())
        }
        _ => {
            // One error per member that is not the waitable trait: one extra trait pasted is
            // one mistake, one error (at that trait, not also at the waitable key).
            let is_waitable =
                |m: &Member| m.key == "smithy.waiters#waitable" || m.key == "waitable";
            let has_waitable = members.iter().any(is_waitable);
            let mut errors = members
                .iter()
                .filter(|m| if has_waitable { !is_waitable(m) } else { is_trait_key(m) })
                .map(|m| {
                    let message = if has_waitable {
                        format!(
                            "`{}` is not part of the `smithy.waiters#waitable` trait: paste that trait alone, or only its value",
                            m.key
                        )
                    } else {
                        format!(
                            "`{}` is a shape ID, not a waiter name: paste only the value of the `smithy.waiters#waitable` trait",
                            m.key
                        )
                    };
                    syn::Error::new(m.key_span, message)
                });
            let mut first = errors.next().expect("a trait key");
            errors.for_each(|e| first.combine(e));
            Err(first)
        }
    }
}

/// How deep lists and objects may nest in a trait value (a waiter's is a few levels deep); the
/// parser, and every pass over the nodes, recurse at most this deep.
pub(crate) const MAX_DEPTH: usize = 128;

/// An object's members; `depth` is its own level (1 for the whole value).
fn parse_object(stream: TokenStream, span: Span, depth: usize) -> syn::Result<Node> {
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
        let value = parse_value(&mut tokens, key_span, &key, depth)?;
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

fn parse_array(stream: TokenStream, span: Span, depth: usize) -> syn::Result<Node> {
    let mut tokens = stream.into_iter().peekable();
    let mut items = Vec::new();
    while tokens.peek().is_some() {
        items.push(parse_value(&mut tokens, span, "list item", depth)?);
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
    depth: usize,
) -> syn::Result<Node> {
    let Some(token) = tokens.next() else {
        return Err(syn::Error::new(
            after,
            format!("expected a value for `{what}`"),
        ));
    };
    match token {
        TokenTree::Group(group)
            if depth == MAX_DEPTH
                && matches!(group.delimiter(), Delimiter::Brace | Delimiter::Bracket) =>
        {
            Err(syn::Error::new(
                group.span(),
                format!(
                    "the trait value is nested deeper than {MAX_DEPTH} levels here (a waiter's \
                     value is a few levels deep): check the brackets and braces"
                ),
            ))
        }
        TokenTree::Group(group) => match group.delimiter() {
            Delimiter::Brace => parse_object(group.stream(), group.span(), depth + 1),
            Delimiter::Bracket => parse_array(group.stream(), group.span(), depth + 1),
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
                _ => return Ok(shape_id(ident, tokens)),
            };
            Ok(Node {
                kind,
                span: ident.span(),
            })
        }
        TokenTree::Literal(lit) if lit.to_string() == "\"\"" => text_block(lit, tokens),
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

/// An unquoted shape ID (`OhNo`, `smithy.example#OhNo`, `Foo$bar`) is a string in the IDL.
fn shape_id(
    first: proc_macro2::Ident,
    tokens: &mut std::iter::Peekable<impl Iterator<Item = TokenTree>>,
) -> Node {
    let mut text = first.to_string();
    let mut span = first.span();
    while let Some(TokenTree::Punct(p)) = tokens.peek() {
        if !matches!(p.as_char(), '.' | '#' | '$') || p.spacing() == proc_macro2::Spacing::Joint {
            break;
        }
        let p = p.clone();
        tokens.next();
        match tokens.peek() {
            Some(TokenTree::Ident(next)) => {
                text.push(p.as_char());
                text.push_str(&next.to_string());
                span = span.join(next.span()).unwrap_or(span);
                tokens.next();
            }
            _ => {
                text.push(p.as_char());
                break;
            }
        }
    }
    Node {
        kind: NodeKind::String(LitStr::new(&text, span)),
        span,
    }
}

/// A Smithy text block `"""..."""`, which Rust's lexer reads as `""`, `"..."`, `""`: the
/// content with its incidental indentation removed, as the Smithy IDL specifies.
fn text_block(
    open: proc_macro2::Literal,
    tokens: &mut std::iter::Peekable<impl Iterator<Item = TokenTree>>,
) -> syn::Result<Node> {
    let body = match tokens.peek() {
        Some(TokenTree::Literal(lit)) => syn::parse_str::<LitStr>(&lit.to_string()).ok(),
        _ => None,
    };
    let Some(body) = body else {
        // A plain empty string.
        return Ok(Node {
            kind: NodeKind::String(LitStr::new("", open.span())),
            span: open.span(),
        });
    };
    let body_span = tokens.next().map(|t| t.span()).unwrap_or(open.span());
    let close = match tokens.next() {
        Some(TokenTree::Literal(lit)) if lit.to_string() == "\"\"" => lit,
        _ => {
            return Err(syn::Error::new(
                open.span(),
                "unterminated text block: close it with `\"\"\"`",
            ));
        }
    };
    let span = open.span().join(close.span()).unwrap_or(body_span);
    let text = body.value();
    let Some(text) = text
        .strip_prefix('\n')
        .or_else(|| text.strip_prefix("\r\n"))
    else {
        return Err(syn::Error::new(
            body_span,
            "a text block starts with a new line after the opening `\"\"\"`",
        ));
    };
    Ok(Node {
        kind: NodeKind::String(LitStr::new(&normalize_text_block(text), span)),
        span,
    })
}

/// Smithy's text-block rules: remove the indentation common to every non-blank line (and the
/// closing delimiter's line), trailing spaces, and the final line break before the delimiter
/// only when the delimiter sits on its own line.
fn normalize_text_block(text: &str) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let indent = |l: &str| l.len() - l.trim_start_matches([' ', '\t']).len();
    let last = lines.len() - 1;
    let common = lines
        .iter()
        .enumerate()
        .filter(|(i, l)| *i == last || !l.trim().is_empty())
        .map(|(_, l)| indent(l))
        .min()
        .unwrap_or(0);
    let mut out: Vec<String> = lines
        .iter()
        .map(|l| {
            let l = l.strip_suffix('\r').unwrap_or(l);
            let cut = l.char_indices().nth(common).map_or(l.len(), |(i, _)| i);
            let l = if l.trim().is_empty() {
                ""
            } else {
                &l[cut.min(l.len())..]
            };
            l.trim_end_matches([' ', '\t']).to_owned()
        })
        .collect();
    // The closing delimiter's line holds only indentation: it ends the text with a line break.
    if out.last().is_some_and(String::is_empty) {
        out.pop();
        let mut s = out.join("\n");
        s.push('\n');
        s
    } else {
        out.join("\n")
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

    fn string_of(node: &Node, key: &str) -> String {
        let NodeKind::Object(members) = &node.kind else {
            panic!("not an object")
        };
        match &members.iter().find(|m| m.key == key).unwrap().value.kind {
            NodeKind::String(s) => s.value(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn shape_ids_and_text_blocks_are_strings() {
        let node =
            parse_trait_value(quote! { state: success errorType: OhNo member: Foo$bar }).unwrap();
        assert_eq!(string_of(&node, "state"), "success");
        assert_eq!(string_of(&node, "errorType"), "OhNo");
        assert_eq!(string_of(&node, "member"), "Foo$bar");
        let tokens: TokenStream = "documentation: \"\"\"\n    Line one.\n      two\n\n    \"\"\""
            .parse()
            .unwrap();
        let node = parse_trait_value(tokens).unwrap();
        assert_eq!(string_of(&node, "documentation"), "Line one.\n  two\n\n");
        let tokens: TokenStream = "documentation: \"\"\"\n    closed on the line\"\"\""
            .parse()
            .unwrap();
        assert_eq!(
            string_of(&parse_trait_value(tokens).unwrap(), "documentation"),
            "closed on the line"
        );
        // A plain empty string stays one.
        let node = parse_trait_value(quote! { documentation: "" }).unwrap();
        assert_eq!(string_of(&node, "documentation"), "");
    }

    #[test]
    fn pasted_wrappers_are_stripped() {
        let inner = quote! { A: { acceptors: [] } };
        for wrapped in [
            quote! { @waitable(#inner) },
            quote! { "smithy.waiters#waitable": { #inner } },
            quote! { { "smithy.waiters#waitable": { #inner } } },
        ] {
            assert_eq!(keys(&parse_trait_value(wrapped).unwrap()), ["A"]);
        }
        let err = parse_trait_value(quote! { @documentation("x") }).unwrap_err();
        assert!(err.to_string().contains("not the waiter trait"), "{err}");
    }

    #[test]
    fn syntax_errors_say_what_to_write() {
        let err = parse_trait_value(quote! { A: { state: - } }).unwrap_err();
        assert!(err.to_string().contains("expected a number"), "{err}");
        let err = parse_trait_value(quote! { A { } }).unwrap_err();
        assert!(err.to_string().contains("expected `:`"), "{err}");
        let err = parse_trait_value(quote! {}).unwrap_err();
        assert!(err.to_string().contains("@waitable"), "{err}");
    }

    /// Lists and objects nested to the limit parse; one more level, or 10,000 (of either), is
    /// one error, with no stack overflow (on a 2 MiB stack; rustc gives a proc macro 8 MiB).
    #[test]
    fn nesting_stops_at_the_limit() {
        fn nested(open: &str, close: &str, levels: usize) -> String {
            // The whole value is level 1, `A: {..}` level 2.
            format!(
                "A: {{ x: {}1{} }}",
                open.repeat(levels),
                close.repeat(levels)
            )
        }
        let run = |text: String| {
            std::thread::Builder::new()
                .stack_size(2 << 20)
                .spawn(move || {
                    let tokens: TokenStream = text.parse().unwrap();
                    parse_trait_value(tokens)
                        .map(|_| ())
                        .map_err(|e| e.to_string())
                })
                .unwrap()
                .join()
                .expect("no stack overflow")
        };
        run(nested("[", "]", MAX_DEPTH - 2)).unwrap();
        run(nested("{y: ", "}", MAX_DEPTH - 2)).unwrap();
        for tokens in [
            nested("[", "]", MAX_DEPTH - 1),
            nested("{y: ", "}", MAX_DEPTH - 1),
            nested("[", "]", 10_000),
            nested("{y: ", "}", 10_000),
        ] {
            let err = run(tokens).unwrap_err();
            assert!(err.contains("nested deeper than 128 levels"), "{err}");
            assert!(err.contains("check the brackets"), "{err}");
        }
    }
}
