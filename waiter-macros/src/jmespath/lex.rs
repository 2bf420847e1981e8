//! The lexer: JMESPath source -> tokens with their offsets (in characters), after the
//! specification's grammar and jmespath.py's lexer (raw strings, JSON literals in backticks,
//! quoted identifiers with JSON escapes, numbers as the parser reads them).

use super::ast::Literal;
use super::problem::Problem;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Identifier(String),
    QuotedIdentifier(String),
    Number(String),
    Literal(Literal),
    Dot,
    Star,
    Flatten,
    Filter,
    Lbracket,
    Rbracket,
    Lbrace,
    Rbrace,
    Lparen,
    Rparen,
    Comma,
    Colon,
    At,
    Ampersand,
    Pipe,
    Or,
    And,
    Not,
    Eq,
    Ne,
    Lt,
    Lte,
    Gt,
    Gte,
    Eof,
}

impl Tok {
    /// The token as messages name it.
    pub(super) fn describe(&self) -> String {
        match self {
            Tok::Identifier(s) => format!("identifier `{s}`"),
            Tok::QuotedIdentifier(s) => format!("quoted identifier `\"{s}\"`"),
            Tok::Number(n) => format!("number `{n}`"),
            Tok::Literal(_) => "a literal".to_owned(),
            Tok::Eof => "the end of the expression".to_owned(),
            other => format!("`{}`", other.text()),
        }
    }

    /// The token's text (empty for tokens with a value).
    pub(super) fn text(&self) -> &'static str {
        match self {
            Tok::Dot => ".",
            Tok::Star => "*",
            Tok::Flatten => "[]",
            Tok::Filter => "[?",
            Tok::Lbracket => "[",
            Tok::Rbracket => "]",
            Tok::Lbrace => "{",
            Tok::Rbrace => "}",
            Tok::Lparen => "(",
            Tok::Rparen => ")",
            Tok::Comma => ",",
            Tok::Colon => ":",
            Tok::At => "@",
            Tok::Ampersand => "&",
            Tok::Pipe => "|",
            Tok::Or => "||",
            Tok::And => "&&",
            Tok::Not => "!",
            Tok::Eq => "==",
            Tok::Ne => "!=",
            Tok::Lt => "<",
            Tok::Lte => "<=",
            Tok::Gt => ">",
            Tok::Gte => ">=",
            _ => "",
        }
    }
}

/// The tokens of `expr`, each with its offset (in characters), ending with [`Tok::Eof`].
pub(super) fn lex(expr: &str) -> Result<Vec<(usize, Tok)>, Problem> {
    let chars: Vec<char> = expr.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        // A one- or two-character operator: `t2` when `second` follows, else `t1`.
        let mut two = |t2: Tok, t1: Tok, second: char| {
            if next == Some(second) {
                i += 2;
                t2
            } else {
                i += 1;
                t1
            }
        };
        let simple = match c {
            '.' => Some(Tok::Dot),
            '*' => Some(Tok::Star),
            ']' => Some(Tok::Rbracket),
            '{' => Some(Tok::Lbrace),
            '}' => Some(Tok::Rbrace),
            '(' => Some(Tok::Lparen),
            ')' => Some(Tok::Rparen),
            ',' => Some(Tok::Comma),
            ':' => Some(Tok::Colon),
            '@' => Some(Tok::At),
            _ => None,
        };
        if let Some(tok) = simple {
            out.push((start, tok));
            i += 1;
            continue;
        }
        let tok = match c {
            ' ' | '\t' | '\n' | '\r' => {
                i += 1;
                continue;
            }
            'a'..='z' | 'A'..='Z' | '_' => {
                while chars
                    .get(i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
                {
                    i += 1;
                }
                Tok::Identifier(chars[start..i].iter().collect())
            }
            '0'..='9' | '-' => {
                i += 1;
                if c == '-' && !chars.get(i).is_some_and(char::is_ascii_digit) {
                    return Err(Problem::syntax(
                        start,
                        "`-` must be followed by digits (a negative number such as `-1`)",
                    ));
                }
                while chars.get(i).is_some_and(char::is_ascii_digit) {
                    i += 1;
                }
                Tok::Number(chars[start..i].iter().collect())
            }
            '[' => match next {
                Some(']') => two(Tok::Flatten, Tok::Lbracket, ']'),
                Some('?') => two(Tok::Filter, Tok::Lbracket, '?'),
                _ => {
                    i += 1;
                    Tok::Lbracket
                }
            },
            '|' => two(Tok::Or, Tok::Pipe, '|'),
            '&' => two(Tok::And, Tok::Ampersand, '&'),
            '!' => two(Tok::Ne, Tok::Not, '='),
            '<' => two(Tok::Lte, Tok::Lt, '='),
            '>' => two(Tok::Gte, Tok::Gt, '='),
            '=' => {
                if next == Some('=') {
                    i += 2;
                    Tok::Eq
                } else {
                    return Err(Problem::syntax(
                        start,
                        "`=` is not an operator; did you mean `==`?",
                    ));
                }
            }
            '"' | '\'' | '`' => {
                // Up to the closing delimiter; a backslash escapes the next character.
                let mut j = i + 1;
                let mut body = String::new();
                let mut closed = false;
                while j < chars.len() {
                    match chars[j] {
                        '\\' if j + 1 < chars.len() => {
                            body.push('\\');
                            body.push(chars[j + 1]);
                            j += 2;
                        }
                        d if d == c => {
                            closed = true;
                            j += 1;
                            break;
                        }
                        d => {
                            body.push(d);
                            j += 1;
                        }
                    }
                }
                if !closed {
                    return Err(Problem::syntax(
                        start,
                        format!("unclosed `{c}`: add the closing `{c}`"),
                    ));
                }
                i = j;
                match c {
                    '"' => match super::json::parse_string_body(&body) {
                        Ok(s) => Tok::QuotedIdentifier(s),
                        Err(e) => {
                            return Err(Problem::syntax(
                                start,
                                format!("invalid quoted identifier: {e}"),
                            ));
                        }
                    },
                    '\'' => Tok::Literal(Literal::String(body.replace("\\'", "'"))),
                    _ => {
                        let json = body.replace("\\`", "`");
                        match super::json::parse_value(&json) {
                            Ok(v) => Tok::Literal(v),
                            Err(e) => {
                                return Err(Problem::syntax(
                                    start,
                                    format!("invalid JSON in literal `{json}`: {e}"),
                                ));
                            }
                        }
                    }
                }
            }
            other => {
                return Err(Problem::syntax(
                    start,
                    format!("unexpected character `{other}`"),
                ));
            }
        };
        out.push((start, tok));
    }
    out.push((chars.len(), Tok::Eof));
    Ok(out)
}
