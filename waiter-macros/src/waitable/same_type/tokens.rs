//! Lexed tokens ([`lex`](super::lex)) into proc-macro2 tokens, so that another function's
//! `#[waitable]` arguments are read by the crate's own readers, as its own expansion reads them.
//!
//! Every token is built by a constructor that cannot fail (`Ident::new` of a checked name,
//! `Literal::string` of an unescaped value, `Literal::u64_unsuffixed`), never by handing text to
//! the compiler's parser, which makes an error in the user's build of what it cannot lex. A
//! token with no such constructor (a char, a float, a suffix: nothing a trait value or a
//! `botocore = ".."` holds) makes the whole `None`. Spans are the call site's: what is read
//! from these tokens is compared, never reported.

use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

use super::lex::{Contents, Delim, Lit, Source, Token, Tree};

/// A group's contents (of `source`) as tokens.
pub(crate) fn contents_stream(source: &Source, contents: &Contents) -> Option<TokenStream> {
    match contents {
        Contents::Text(range) => to_stream(source, &source.lex(range.clone())),
        Contents::Tokens(tokens) => to_stream(source, tokens),
    }
}

/// Tokens (of `source`) as proc-macro2 tokens, their groups lexed.
pub(crate) fn to_stream(source: &Source, tokens: &[Token]) -> Option<TokenStream> {
    let mut out = Vec::with_capacity(tokens.len());
    for token in tokens {
        match &token.tree {
            Tree::Ident(name) => out.push(TokenTree::Ident(ident(name)?)),
            Tree::Lifetime(name) => {
                out.push(TokenTree::Punct(Punct::new('\'', Spacing::Joint)));
                out.push(TokenTree::Ident(ident(name)?));
            }
            Tree::Punct(c, joint) => {
                let spacing = if *joint {
                    Spacing::Joint
                } else {
                    Spacing::Alone
                };
                out.push(TokenTree::Punct(Punct::new(*c, spacing)));
            }
            Tree::Literal(Lit::Str(Some(value))) => {
                out.push(TokenTree::Literal(Literal::string(value)));
            }
            Tree::Literal(Lit::Int(n)) => {
                out.push(TokenTree::Literal(Literal::u64_unsuffixed(*n)));
            }
            Tree::Literal(Lit::Str(None) | Lit::Other(_)) => return None,
            Tree::Group(..) => {
                let (delim, inner) = source.group(token)?;
                let delim = match delim {
                    Delim::Paren => Delimiter::Parenthesis,
                    Delim::Bracket => Delimiter::Bracket,
                    Delim::Brace => Delimiter::Brace,
                };
                out.push(TokenTree::Group(Group::new(
                    delim,
                    to_stream(source, &inner)?,
                )));
            }
        }
    }
    Some(out.into_iter().collect())
}

/// An ASCII identifier or keyword (`r#` ones raw): what `Ident::new` takes without panicking.
fn ident(name: &str) -> Option<Ident> {
    let (raw, bare) = match name.strip_prefix("r#") {
        Some(bare) => (true, bare),
        None => (false, name),
    };
    let mut chars = bare.chars();
    let valid = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return None;
    }
    if raw {
        // `r#self`, `r#crate`, `r#_`: no raw identifiers.
        if matches!(bare, "self" | "Self" | "super" | "crate" | "_") {
            return None;
        }
        return Some(Ident::new_raw(bare, Span::call_site()));
    }
    Some(Ident::new(bare, Span::call_site()))
}

#[cfg(test)]
mod tests {
    use super::to_stream;
    use crate::waitable::same_type::lex::Source;

    fn round_trip(text: &str) -> Option<String> {
        let source = Source::new(text.to_owned()).expect("lexes");
        to_stream(&source, &source.tokens()).map(|s| s.to_string())
    }

    #[test]
    fn what_a_trait_value_holds_is_rebuilt() {
        let source = r#"crate = "my::rt", StreamExists: { documentation: "a \"b\"\n" acceptors: [{ state: "success", matcher: { success: true } }] minDelay: 1, x: -2, id: smithy.example#Shape, r#type: 'a }"#;
        let expected: proc_macro2::TokenStream = source.parse().unwrap();
        assert_eq!(round_trip(source).as_deref(), Some(&*expected.to_string()));
    }

    #[test]
    fn what_cannot_be_built_safely_gives_nothing() {
        for source in ["'c'", "1.5", "1u8", "b\"x\"", "\"\\q\"", "é", "r#self"] {
            assert_eq!(round_trip(source), None, "{source}");
        }
    }
}
