//! A Rust source file into tokens, one level of delimiters at a time: what
//! [`outline`](super::outline) walks to find impl blocks and their `#[waitable]` functions.
//!
//! A proc macro cannot have the file parsed with positions by syn (inside a macro, proc-macro2
//! hands the text to the compiler, whose tokens then all carry the macro's own span), nor hand
//! the compiler text it does not lex (a lexing error there is an error in the user's build and a
//! panic in the macro): so the file is lexed here, as the compiler lexes it, and only the tokens
//! this lexer accepted are ever turned into compiler tokens ([`tokens`](super::tokens)).
//!
//! The file is read once whole ([`Source::new`]: every delimiter balanced, every literal and
//! comment terminated, and where each group ends), and its tokens are made one level at a time,
//! when asked ([`Source::lex`], [`Source::group`]): each group is the range of text between its
//! delimiters, jumped over. Most of a file (function bodies, trait values) is never made into
//! tokens. Tokens know their byte offset; [`Positions`] turns offsets into the line and column
//! the compiler gives. The hot loops index bytes directly: a proc macro is usually built
//! without optimizations.
//!
//! Doc comments become `#[doc = ".."]` (`#![doc = ".."]`), as the compiler makes them;
//! other comments are dropped. Text this lexer cannot read (unbalanced delimiters, an
//! unterminated literal, a character no token starts with) gives `None`: nothing is checked.

use std::borrow::Cow;
use std::ops::Range;

/// A token tree.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tree {
    /// An identifier or keyword (`r#type` as written).
    Ident(String),
    /// `'a`, without its quote.
    Lifetime(String),
    /// One punctuation character; `joint` when another punctuation character follows at once.
    Punct(char, bool),
    Literal(Lit),
    Group(Delim, Contents),
}

/// A literal: what [`tokens`](super::tokens) can rebuild for the compiler, and the rest.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Lit {
    /// A string literal without suffix (`".."` or `r#".."#`), its value unescaped; `None` when
    /// an escape is not one Rust knows (the compiler reports it).
    Str(Option<String>),
    /// A decimal integer without suffix or underscores.
    Int(u64),
    /// Any other literal, as written (chars, bytes, byte and C strings, floats, suffixes, other
    /// bases).
    Other(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Delim {
    Paren,
    Bracket,
    Brace,
}

/// What a group holds.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Contents {
    /// The text between its delimiters (a byte range of the file), lexed when asked.
    Text(Range<usize>),
    /// Tokens the lexer made (a doc comment's `[doc = ".."]`).
    Tokens(Vec<Token>),
}

/// A token and the byte offset it starts at.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Token {
    pub tree: Tree,
    pub offset: usize,
}

impl Token {
    pub(crate) fn is_ident(&self, name: &str) -> bool {
        matches!(&self.tree, Tree::Ident(s) if s == name)
    }

    pub(crate) fn is_punct(&self, c: char) -> bool {
        matches!(self.tree, Tree::Punct(p, _) if p == c)
    }

    /// The delimiter, when a group.
    pub(crate) fn delim(&self) -> Option<Delim> {
        match &self.tree {
            Tree::Group(d, _) => Some(*d),
            _ => None,
        }
    }
}

/// `"`, so written that `.ci/import-cycles` (which reads the source with regular expressions)
/// sees no string opened by a character literal.
const QUOTE: u8 = b'\x22';

/// A punctuation character of Rust's tokens.
fn is_punct(b: u8) -> bool {
    matches!(
        b,
        b'=' | b'<'
            | b'>'
            | b'!'
            | b'~'
            | b'+'
            | b'-'
            | b'*'
            | b'/'
            | b'%'
            | b'^'
            | b'&'
            | b'|'
            | b'@'
            | b'.'
            | b','
            | b';'
            | b':'
            | b'#'
            | b'$'
            | b'?'
    )
}

/// A file's text, read whole once: where each group ends.
pub(crate) struct Source {
    pub text: String,
    /// The offset of each opening delimiter, and the offset after its closing one, by
    /// opening offset.
    ends: Vec<(usize, usize)>,
}

impl Source {
    /// `None` when the file is not Rust this lexer reads.
    pub(crate) fn new(text: String) -> Option<Source> {
        let mut ends = Vec::new();
        let mut lexer = Lexer::new(&text, 0..text.len());
        lexer.skip_file_start();
        // The groups open: their delimiter and their place in `ends`.
        let mut open: Vec<(Delim, usize)> = Vec::new();
        while let Some((raw, start)) = lexer.next()? {
            match raw {
                Raw::Open(d) => {
                    open.push((d, ends.len()));
                    ends.push((start, 0));
                }
                Raw::Close(d) => match open.pop() {
                    Some((opened, at)) if opened == d => ends[at].1 = lexer.at,
                    _ => return None,
                },
                _ => {}
            }
        }
        open.is_empty().then_some(Source { text, ends })
    }

    /// The tokens of the file.
    pub(crate) fn tokens(&self) -> Vec<Token> {
        self.lex(0..self.text.len())
    }

    /// A group's delimiter and tokens (one level), when `token` is one.
    pub(crate) fn group<'a>(&self, token: &'a Token) -> Option<(Delim, Cow<'a, [Token]>)> {
        match &token.tree {
            Tree::Group(d, Contents::Tokens(tokens)) => Some((*d, Cow::Borrowed(tokens))),
            Tree::Group(d, Contents::Text(range)) => {
                Some((*d, Cow::Owned(self.lex(range.clone()))))
            }
            _ => None,
        }
    }

    /// The tokens of `text[range]`, one level (groups as [`Contents::Text`]). The range is the
    /// file or a group's contents, which [`Source::new`] read: nothing in it is unexpected.
    pub(crate) fn lex(&self, range: Range<usize>) -> Vec<Token> {
        let text = &self.text[..];
        let mut lexer = Lexer::new(text, range.clone());
        if range.start == 0 {
            lexer.skip_file_start();
        }
        let mut tokens = Vec::new();
        while let Some(Some((raw, start))) = lexer.next() {
            let tree = match raw {
                Raw::Open(delim) => {
                    let Ok(at) = self.ends.binary_search_by_key(&start, |(open, _)| *open) else {
                        break;
                    };
                    let end = self.ends[at].1;
                    lexer.at = end;
                    Tree::Group(delim, Contents::Text(start + 1..end - 1))
                }
                Raw::Close(_) => break,
                Raw::Doc { inner, body } => {
                    tokens.extend(doc_attribute(inner, &text[body], start));
                    continue;
                }
                Raw::Ident => Tree::Ident(text[start..lexer.at].to_owned()),
                Raw::Lifetime => Tree::Lifetime(text[start + 1..lexer.at].to_owned()),
                Raw::Punct(c) => {
                    let next = lexer.byte(0);
                    Tree::Punct(char::from(c), is_punct(next) || next == b'\'')
                }
                Raw::Str { content } => Tree::Literal(Lit::Str(unescape(&text[content]))),
                Raw::Verbatim { content } => {
                    Tree::Literal(Lit::Str(Some(text[content].replace("\r\n", "\n"))))
                }
                Raw::Number => {
                    let number = &text[start..lexer.at];
                    Tree::Literal(match number.parse::<u64>() {
                        Ok(n) if number.bytes().all(|b| b.is_ascii_digit()) => Lit::Int(n),
                        _ => Lit::Other(number.to_owned()),
                    })
                }
                Raw::Other => Tree::Literal(Lit::Other(text[start..lexer.at].to_owned())),
            };
            tokens.push(Token {
                tree,
                offset: start,
            });
        }
        tokens
    }
}

/// A token as the lexer finds it, its text not yet copied.
enum Raw {
    Open(Delim),
    Close(Delim),
    /// A doc comment: `inner` for `//!` and `/*!`; `body` its text.
    Doc {
        inner: bool,
        body: Range<usize>,
    },
    Ident,
    Lifetime,
    Punct(u8),
    /// A string literal without suffix: what is between its quotes.
    Str {
        content: Range<usize>,
    },
    /// A raw string literal (`r#".."#`) without suffix: its content, verbatim.
    Verbatim {
        content: Range<usize>,
    },
    Number,
    /// Any other literal.
    Other,
}

struct Lexer<'t> {
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
    end: usize,
}

impl<'t> Lexer<'t> {
    fn new(text: &'t str, range: Range<usize>) -> Self {
        Lexer {
            text,
            bytes: text.as_bytes(),
            at: range.start,
            end: range.end,
        }
    }

    /// The byte `ahead` of the cursor, 0 past the end (a NUL byte in the text ends it: such a
    /// file is not read).
    fn byte(&self, ahead: usize) -> u8 {
        let at = self.at + ahead;
        if at < self.end { self.bytes[at] } else { 0 }
    }

    /// The character at the cursor.
    fn char(&self) -> Option<char> {
        self.text.get(self.at..self.end)?.chars().next()
    }

    /// A byte order mark, and `#!/usr/bin/env ..` on the first line (not `#![attribute]`).
    fn skip_file_start(&mut self) {
        if self.text.starts_with('\u{feff}') {
            self.at += '\u{feff}'.len_utf8();
        }
        let rest = &self.text[self.at..self.end];
        if let Some(after) = rest.strip_prefix("#!") {
            if !after.trim_start().starts_with('[') {
                self.at += rest.find('\n').unwrap_or(rest.len());
            }
        }
    }

    /// The next token and where it starts; `Some(None)` at the end, `None` for what is not
    /// Rust.
    #[allow(clippy::option_option)]
    fn next(&mut self) -> Option<Option<(Raw, usize)>> {
        loop {
            while self.at < self.end && matches!(self.bytes[self.at], b' ' | b'\t' | b'\n' | b'\r')
            {
                self.at += 1;
            }
            let start = self.at;
            let raw = match self.byte(0) {
                0 if self.at >= self.end => return Some(None),
                b if b.is_ascii_alphabetic() || b == b'_' => self.word_or_prefixed()?,
                b'/' if self.byte(1) == b'/' => match self.line_comment() {
                    Some(doc) => doc,
                    None => continue,
                },
                b'/' if self.byte(1) == b'*' => match self.block_comment()? {
                    Some(doc) => doc,
                    None => continue,
                },
                b @ (b'(' | b'[' | b'{') => {
                    self.at += 1;
                    Raw::Open(delim(b))
                }
                b @ (b')' | b']' | b'}') => {
                    self.at += 1;
                    Raw::Close(delim(b))
                }
                QUOTE => self.string()?,
                b'\'' => self.quote()?,
                b'0'..=b'9' => {
                    self.number();
                    Raw::Number
                }
                b if is_punct(b) => {
                    self.at += 1;
                    Raw::Punct(b)
                }
                _ => {
                    let c = self.char()?;
                    if c.is_whitespace() {
                        self.at += c.len_utf8();
                        continue;
                    }
                    if !c.is_alphabetic() {
                        return None;
                    }
                    self.word();
                    Raw::Ident
                }
            };
            return Some(Some((raw, start)));
        }
    }

    /// `//` to the end of the line: a doc comment for `///` (not `////`) and `//!`.
    fn line_comment(&mut self) -> Option<Raw> {
        let start = self.at;
        while self.at < self.end && self.bytes[self.at] != b'\n' {
            self.at += 1;
        }
        let comment = &self.bytes[start..self.at];
        let inner = match comment {
            [b'/', b'/', b'/', b'/', ..] => return None,
            [b'/', b'/', b'/', ..] => false,
            [b'/', b'/', b'!', ..] => true,
            _ => return None,
        };
        let end = if comment.last() == Some(&b'\r') {
            self.at - 1
        } else {
            self.at
        };
        Some(Raw::Doc {
            inner,
            body: start + 3..end,
        })
    }

    /// `/* .. */`, nested: a doc comment for `/**` (not `/***`, nor `/**/`) and `/*!`.
    #[allow(clippy::option_option)]
    fn block_comment(&mut self) -> Option<Option<Raw>> {
        let start = self.at;
        self.at += 2;
        let mut depth = 1;
        while depth > 0 {
            if self.at >= self.end {
                return None;
            }
            match (self.bytes[self.at], self.byte(1)) {
                (b'/', b'*') => {
                    depth += 1;
                    self.at += 2;
                }
                (b'*', b'/') => {
                    depth -= 1;
                    self.at += 2;
                }
                _ => self.at += 1,
            }
        }
        let inner = match &self.bytes[start..self.at] {
            b"/**/" | [b'/', b'*', b'*', b'*', ..] => return Some(None),
            [b'/', b'*', b'*', ..] => false,
            [b'/', b'*', b'!', ..] => true,
            _ => return Some(None),
        };
        Some(Some(Raw::Doc {
            inner,
            body: start + 3..self.at - 2,
        }))
    }

    /// An identifier, or a literal its first letters start: `r".."`, `r#".."#`, `b".."`,
    /// `br".."`, `c".."`, `cr".."`, `b'x'`; or a raw identifier `r#type`.
    fn word_or_prefixed(&mut self) -> Option<Raw> {
        let ident_start = |b: u8| b.is_ascii_alphabetic() || b == b'_';
        match (self.byte(0), self.byte(1), self.byte(2)) {
            (b'r', b'#', next) if ident_start(next) => {
                self.at += 2;
                self.word();
                Some(Raw::Ident)
            }
            (b'r', QUOTE | b'#', _) => {
                self.at += 1;
                let content = self.raw_string()?;
                Some(if self.suffix() {
                    Raw::Other
                } else {
                    Raw::Verbatim { content }
                })
            }
            (b'b' | b'c', b'r', QUOTE | b'#') => {
                self.at += 2;
                self.raw_string()?;
                self.suffix();
                Some(Raw::Other)
            }
            (b'b' | b'c', QUOTE, _) => {
                self.at += 1;
                self.string()?;
                Some(Raw::Other)
            }
            (b'b', b'\'', _) => {
                self.at += 1;
                self.quote()?;
                Some(Raw::Other)
            }
            _ => {
                self.word();
                Some(Raw::Ident)
            }
        }
    }

    /// Letters, digits and underscores (and any other alphanumeric character).
    fn word(&mut self) {
        while self.at < self.end {
            let b = self.bytes[self.at];
            if b.is_ascii_alphanumeric() || b == b'_' {
                self.at += 1;
            } else if b >= 0x80 && self.char().is_some_and(char::is_alphanumeric) {
                self.at += self.char().map_or(1, char::len_utf8);
            } else {
                break;
            }
        }
    }

    /// A literal's suffix (`1u8`, `"a"x`): whether there was one.
    fn suffix(&mut self) -> bool {
        let start = self.at;
        let b = self.byte(0);
        if b.is_ascii_alphabetic()
            || b == b'_'
            || (b >= 0x80 && self.char().is_some_and(char::is_alphabetic))
        {
            self.word();
        }
        self.at > start
    }

    /// From the opening `"`: a string (with its suffix, `Other`).
    fn string(&mut self) -> Option<Raw> {
        self.at += 1;
        let start = self.at;
        loop {
            if self.at >= self.end {
                return None;
            }
            match self.bytes[self.at] {
                QUOTE => break,
                b'\\' => self.at += 2,
                _ => self.at += 1,
            }
        }
        let content = start..self.at;
        self.at += 1;
        Some(if self.suffix() {
            Raw::Other
        } else {
            Raw::Str { content }
        })
    }

    /// After `r`, `br` or `cr`: `#`s, the quote, the content, the quote and as many `#`s.
    fn raw_string(&mut self) -> Option<Range<usize>> {
        let mut hashes = 0;
        while self.byte(0) == b'#' {
            hashes += 1;
            self.at += 1;
        }
        if self.byte(0) != QUOTE {
            return None;
        }
        self.at += 1;
        let start = self.at;
        loop {
            if self.at >= self.end {
                return None;
            }
            if self.bytes[self.at] == QUOTE && (1..=hashes).all(|i| self.byte(i) == b'#') {
                let content = start..self.at;
                self.at += 1 + hashes;
                return Some(content);
            }
            self.at += 1;
        }
    }

    /// From a `'`: a char literal (`'a'`, `'\n'`, with its suffix) or a lifetime (`'a`,
    /// `'r#a`).
    fn quote(&mut self) -> Option<Raw> {
        self.at += 1;
        let c = self.char()?;
        let after = self.at + c.len_utf8();
        let is_char = c == '\\'
            || (after < self.end && self.bytes[after] == b'\'')
            || !(c == '_' || c.is_alphabetic());
        if !is_char {
            if self.byte(0) == b'r' && self.byte(1) == b'#' {
                self.at += 2;
            }
            self.word();
            return Some(Raw::Lifetime);
        }
        // An escape's first character, then up to the closing quote (`'\u{1F600}'`).
        self.at = after;
        if c == '\\' {
            self.at += self.char()?.len_utf8();
        }
        loop {
            match self.byte(0) {
                b'\'' => break,
                0 | b'\n' => return None,
                _ => self.at += 1,
            }
        }
        self.at += 1;
        self.suffix();
        Some(Raw::Other)
    }

    /// An integer or float literal, with its suffix.
    fn number(&mut self) {
        self.digits();
        // `1.5`, `1.`: a float (not `1..2`, nor `1.max(2)`, nor the `.0` of `t.0.1`).
        let next = self.byte(1);
        if self.byte(0) == b'.' && next != b'.' && !(next.is_ascii_alphabetic() || next == b'_') {
            self.at += 1;
            self.digits();
        }
    }

    /// A run of a number's digits, letters and underscores (with an exponent's sign).
    fn digits(&mut self) {
        let start = self.at;
        while self.at < self.end {
            let b = self.bytes[self.at];
            if !(b.is_ascii_alphanumeric() || b == b'_') {
                break;
            }
            self.at += 1;
            // `1e-5`, `2.5E+3`: the exponent's sign belongs to the literal.
            let decimal = !matches!(&self.bytes[start..self.at], [b'0', b'x' | b'b', ..]);
            if decimal
                && matches!(b, b'e' | b'E')
                && matches!(self.byte(0), b'+' | b'-')
                && self.byte(1).is_ascii_digit()
            {
                self.at += 1;
            }
        }
    }
}

fn delim(b: u8) -> Delim {
    match b {
        b'(' | b')' => Delim::Paren,
        b'[' | b']' => Delim::Bracket,
        _ => Delim::Brace,
    }
}

/// A string literal's content unescaped; `None` for an escape Rust does not know.
fn unescape(content: &str) -> Option<String> {
    let mut out = String::with_capacity(content.len());
    let mut chars = content.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                'r' => out.push('\r'),
                't' => out.push('\t'),
                '\\' => out.push('\\'),
                '0' => out.push('\0'),
                '\'' => out.push('\''),
                '\x22' => out.push('\x22'),
                'x' => {
                    let hex: String = [chars.next()?, chars.next()?].iter().collect();
                    let byte = u8::from_str_radix(&hex, 16).ok().filter(u8::is_ascii)?;
                    out.push(char::from(byte));
                }
                'u' => {
                    if chars.next()? != '{' {
                        return None;
                    }
                    let hex: String = chars.by_ref().take_while(|c| *c != '}').collect();
                    let code = u32::from_str_radix(&hex.replace('_', ""), 16).ok()?;
                    out.push(char::from_u32(code)?);
                }
                // A line continuation: the line break and the next line's leading whitespace.
                '\n' | '\r' => {
                    while chars.peek().is_some_and(|c| c.is_whitespace()) {
                        chars.next();
                    }
                }
                _ => return None,
            },
            '\r' if chars.peek() == Some(&'\n') => {}
            c => out.push(c),
        }
    }
    Some(out)
}

/// A doc comment as the compiler makes it: `#[doc = "text"]` (`#![doc = ..]` for inner ones).
fn doc_attribute(inner: bool, text: &str, offset: usize) -> Vec<Token> {
    let at = |tree| Token { tree, offset };
    let mut out = vec![at(Tree::Punct('#', inner))];
    if inner {
        out.push(at(Tree::Punct('!', false)));
    }
    let content = vec![
        at(Tree::Ident("doc".to_owned())),
        at(Tree::Punct('=', false)),
        at(Tree::Literal(Lit::Str(Some(text.to_owned())))),
    ];
    out.push(at(Tree::Group(Delim::Bracket, Contents::Tokens(content))));
    out
}

/// Lines and columns of byte offsets, as the compiler counts them: from 1, columns in
/// characters. Offsets asked in increasing order cost one pass over the text.
pub(crate) struct Positions<'t> {
    text: &'t str,
    /// The last offset asked, its line and the offset its line starts at.
    offset: usize,
    line: usize,
    line_start: usize,
}

impl<'t> Positions<'t> {
    pub(crate) fn new(text: &'t str) -> Self {
        Positions {
            text,
            offset: 0,
            line: 1,
            line_start: 0,
        }
    }

    /// The line and column of `offset`.
    pub(crate) fn at(&mut self, offset: usize) -> (usize, usize) {
        if offset < self.offset {
            *self = Positions::new(self.text);
        }
        let skipped = &self.text.as_bytes()[self.offset..offset];
        for (i, b) in skipped.iter().enumerate() {
            if *b == b'\n' {
                self.line += 1;
                self.line_start = self.offset + i + 1;
            }
        }
        self.offset = offset;
        let column = self.text[self.line_start..offset].chars().count() + 1;
        (self.line, column)
    }
}
#[cfg(test)]
mod tests {
    use super::{Delim, Lit, Positions, Source, Token, Tree};

    /// The tokens' trees, every group lexed, flattened to text, for comparison.
    fn texts(source: &Source, tokens: &[Token]) -> Vec<String> {
        let mut out = Vec::new();
        for t in tokens {
            match &t.tree {
                Tree::Ident(s) => out.push(s.clone()),
                Tree::Lifetime(s) => {
                    out.push("'".to_owned());
                    out.push(s.clone());
                }
                Tree::Punct(c, _) => out.push(c.to_string()),
                Tree::Literal(Lit::Str(Some(v))) => out.push(format!("{v:?}")),
                Tree::Literal(Lit::Str(None)) => out.push("<bad escape>".to_owned()),
                Tree::Literal(Lit::Int(n)) => out.push(n.to_string()),
                Tree::Literal(Lit::Other(s)) => out.push(format!("<{s}>")),
                Tree::Group(..) => {
                    let (d, inner) = source.group(t).expect("a group");
                    let (open, close) = match d {
                        Delim::Paren => ("(", ")"),
                        Delim::Bracket => ("[", "]"),
                        Delim::Brace => ("{", "}"),
                    };
                    out.push(open.to_owned());
                    out.extend(texts(source, &inner));
                    out.push(close.to_owned());
                }
            }
        }
        out
    }

    /// Every token of `text`, or `None` when it, or one of its groups, does not lex.
    fn lex_all(text: &str) -> Option<Vec<String>> {
        let source = Source::new(text.to_owned())?;
        Some(texts(&source, &source.tokens()))
    }

    fn lexed(text: &str) -> Vec<String> {
        lex_all(text).expect("lexes")
    }

    /// proc-macro2's tokens (its own lexer, outside a macro), flattened as [`texts`] does.
    fn oracle(stream: proc_macro2::TokenStream, out: &mut Vec<String>) {
        use proc_macro2::{Delimiter, TokenTree};
        for tree in stream {
            match tree {
                TokenTree::Ident(i) => out.push(i.to_string()),
                TokenTree::Punct(p) => out.push(p.as_char().to_string()),
                TokenTree::Literal(l) => {
                    let text = l.to_string();
                    let plain_string = (text.starts_with('"') || text.starts_with('r'))
                        && (text.ends_with('"') || text.ends_with('#'));
                    out.push(match syn::parse_str::<syn::LitStr>(&text) {
                        Ok(s) if plain_string => format!("{:?}", s.value()),
                        _ if text.bytes().all(|b| b.is_ascii_digit()) => text
                            .parse::<u64>()
                            .map_or(format!("<{text}>"), |n| n.to_string()),
                        _ if plain_string => "<bad escape>".to_owned(),
                        _ => format!("<{text}>"),
                    });
                }
                TokenTree::Group(g) => {
                    let (open, close) = match g.delimiter() {
                        Delimiter::Parenthesis => ("(", ")"),
                        Delimiter::Bracket => ("[", "]"),
                        Delimiter::Brace => ("{", "}"),
                        Delimiter::None => ("", ""),
                    };
                    out.push(open.to_owned());
                    oracle(g.stream(), out);
                    out.push(close.to_owned());
                }
            }
        }
    }

    /// Every Rust file of the workspace (some 100k lines: the crates, their tests, the ui
    /// cases, the examples) lexes to the tokens proc-macro2's lexer makes of it.
    #[test]
    fn reads_every_file_of_the_workspace_as_proc_macro2_does() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .unwrap();
        let mut dirs = vec![root.to_path_buf()];
        let mut files = 0;
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy();
                if path.is_dir() && !name.starts_with('.') && name != "target" {
                    dirs.push(path);
                } else if name.ends_with(".rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    let Ok(stream) = text.parse::<proc_macro2::TokenStream>() else {
                        continue;
                    };
                    let mut expected = Vec::new();
                    oracle(stream, &mut expected);
                    let ours = lex_all(&text).unwrap_or_else(|| panic!("{}", path.display()));
                    assert_eq!(ours, expected, "{}", path.display());
                    files += 1;
                }
            }
        }
        assert!(files > 300, "{files} files");
    }

    #[test]
    fn tokens_and_groups() {
        assert_eq!(
            lexed("impl<T> Client<T> { fn f(&self) -> u8 { 1 } }"),
            [
                "impl", "<", "T", ">", "Client", "<", "T", ">", "{", "fn", "f", "(", "&", "self",
                ")", "-", ">", "u8", "{", "1", "}", "}"
            ]
        );
    }

    #[test]
    fn lines_and_columns_are_the_compilers() {
        let text = "struct C;\nimpl C {\n    #[waitable(X: {})]\n    fn f() {}\n}";
        let source = Source::new(text.to_owned()).unwrap();
        let tokens = source.tokens();
        let (_, body) = source.group(&tokens[5]).unwrap();
        let mut positions = Positions::new(text);
        assert_eq!(positions.at(body[0].offset), (3, 5), "{body:?}");
        assert_eq!(positions.at(body[2].offset), (4, 5));
        // Columns count characters, not bytes; an earlier offset starts again.
        let text = "// é\n/* é */ é x";
        let tokens = Source::new(text.to_owned()).unwrap().tokens();
        assert_eq!(positions.at(0), (1, 1));
        let mut positions = Positions::new(text);
        assert_eq!(positions.at(tokens[1].offset), (2, 11));
    }

    #[test]
    fn groups_are_lexed_when_asked() {
        let text = "f() { x y z } [a]";
        let tokens = Source::new(text.to_owned()).unwrap().tokens();
        assert_eq!(tokens.len(), 4);
        let Tree::Group(Delim::Brace, super::Contents::Text(body)) = &tokens[2].tree else {
            panic!("{tokens:?}");
        };
        assert_eq!(&text[body.clone()], " x y z ");
        // The file is read whole first: what is wrong inside a group is found.
        assert!(Source::new("f() { \"open }".to_owned()).is_none());
    }

    #[test]
    fn comments_are_dropped_and_doc_comments_become_attributes() {
        assert_eq!(
            lexed("a // b \"\n/* c /* d */ \" */ e //// f\n/**/ /*** g */ h"),
            ["a", "e", "h"]
        );
        assert_eq!(
            lexed("/// one\n//! two\n/** three */ x"),
            [
                "#",
                "[",
                "doc",
                "=",
                "\" one\"",
                "]",
                "#",
                "!",
                "[",
                "doc",
                "=",
                "\" two\"",
                "]",
                "#",
                "[",
                "doc",
                "=",
                "\" three \"",
                "]",
                "x"
            ]
        );
    }

    #[test]
    fn literals_are_read_whole() {
        let source = r##"x("a\"b}" r#"c"{"# b"{" br"}" c"(" '}' b'{' '\'' 'a 'r#b 1.5e-3 0x1F 7u8 1..2 t.0)"##;
        // Space-separated: no expected token holds a space.
        let expected = r##"x ( "a\"b}" "c\"{" <b"{"> <br"}"> <c"("> <'}'> <b'{'> <'\''> ' a ' r#b <1.5e-3> <0x1F> <7u8> 1 . . 2 t . 0 )"##;
        assert_eq!(lexed(source), expected.split(' ').collect::<Vec<_>>());
        assert_eq!(
            lexed(
                r#""tab\tnl\n\u{e9}\x41 \
                     next" "\q""#
            ),
            ["\"tab\\tnl\\néA next\"", "<bad escape>"]
        );
        assert_eq!(lexed("r#type 'static"), ["r#type", "'", "static"]);
    }

    #[test]
    fn punctuation_is_joint_when_another_follows() {
        let tokens = Source::new("a::b -> c . d".to_owned()).unwrap().tokens();
        let joints: Vec<bool> = tokens
            .iter()
            .filter_map(|t| match t.tree {
                Tree::Punct(_, joint) => Some(joint),
                _ => None,
            })
            .collect();
        assert_eq!(joints, [true, false, true, false, false]);
    }

    #[test]
    fn what_is_not_rust_gives_nothing() {
        for text in [
            "fn f() {",
            "fn f() }",
            "(]",
            "\"open",
            "/* open",
            "r#\"open\"",
            "a \\ b",
            "`x`",
        ] {
            assert!(lex_all(text).is_none(), "{text}");
        }
        assert_eq!(
            lexed("#!/usr/bin/env run\nfn main() {}"),
            ["fn", "main", "(", ")", "{", "}"]
        );
        assert_eq!(lexed("\u{feff}x"), ["x"]);
        assert_eq!(
            lexed("#![allow(x)]"),
            ["#", "!", "[", "allow", "(", "x", ")", "]"]
        );
    }
}
