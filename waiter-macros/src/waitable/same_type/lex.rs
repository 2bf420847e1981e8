//! A Rust source file into token trees, each token with the line and column it starts at: what
//! [`outline`](super::outline) walks to find impl blocks and their `#[waitable]` functions.
//!
//! A proc macro cannot have the file parsed with positions by syn (inside a macro, proc-macro2
//! hands the text to the compiler, whose tokens then all carry the macro's own span), nor hand
//! the compiler text it does not lex (a lexing error there is an error in the user's build and a
//! panic in the macro): so the file is lexed here, as the compiler lexes it, and only the tokens
//! this lexer accepted are ever turned into compiler tokens ([`tokens`](super::tokens)).
//!
//! Doc comments become `#[doc = ".."]` (`#![doc = ".."]`), as the compiler makes them;
//! other comments are dropped. A file this lexer cannot read (unbalanced delimiters, an
//! unterminated literal, a character no token starts with) gives `None`: nothing is checked.

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
    Group(Delim, Vec<Token>),
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

/// A token and where it starts: 1-based line, 1-based column in characters (as
/// `proc_macro::Span::line` and `column` count).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Token {
    pub tree: Tree,
    pub line: usize,
    pub column: usize,
}

impl Token {
    pub(crate) fn is_ident(&self, name: &str) -> bool {
        matches!(&self.tree, Tree::Ident(s) if s == name)
    }

    pub(crate) fn is_punct(&self, c: char) -> bool {
        matches!(self.tree, Tree::Punct(p, _) if p == c)
    }

    /// The group's delimiter and content.
    pub(crate) fn group(&self) -> Option<(Delim, &[Token])> {
        match &self.tree {
            Tree::Group(d, inner) => Some((*d, inner)),
            _ => None,
        }
    }
}

const PUNCT: &str = "=<>!~+-*/%^&|@.,;:#$?";

/// The file's tokens, or `None` when it is not Rust this lexer reads.
pub(crate) fn lex(text: &str) -> Option<Vec<Token>> {
    let mut lexer = Lexer {
        chars: text
            .strip_prefix('\u{feff}')
            .unwrap_or(text)
            .chars()
            .collect(),
        at: 0,
        line: 1,
        column: 1,
    };
    lexer.skip_shebang();
    // The groups being read, innermost last: their delimiter, where they opened, and their
    // tokens so far; the file's own tokens at the bottom.
    let mut stack: Vec<(Option<Delim>, usize, usize, Vec<Token>)> = vec![(None, 0, 0, Vec::new())];
    loop {
        lexer.skip_whitespace_and_comments(&mut stack.last_mut()?.3)?;
        let (line, column) = (lexer.line, lexer.column);
        let Some(c) = lexer.peek(0) else { break };
        let open = match c {
            '(' => Some(Delim::Paren),
            '[' => Some(Delim::Bracket),
            '{' => Some(Delim::Brace),
            _ => None,
        };
        if let Some(delim) = open {
            lexer.bump();
            stack.push((Some(delim), line, column, Vec::new()));
            continue;
        }
        let close = match c {
            ')' => Some(Delim::Paren),
            ']' => Some(Delim::Bracket),
            '}' => Some(Delim::Brace),
            _ => None,
        };
        if let Some(delim) = close {
            lexer.bump();
            let (opened, line, column, inner) = stack.pop()?;
            if opened != Some(delim) {
                return None;
            }
            let tree = Tree::Group(delim, inner);
            stack.last_mut()?.3.push(Token { tree, line, column });
            continue;
        }
        let start = lexer.at;
        let tree = match lexer.token()? {
            Tree::Literal(Lit::Other(_)) => {
                Tree::Literal(Lit::Other(lexer.chars[start..lexer.at].iter().collect()))
            }
            tree => tree,
        };
        stack.last_mut()?.3.push(Token { tree, line, column });
    }
    match stack.pop() {
        Some((None, _, _, tokens)) if stack.is_empty() => Some(tokens),
        _ => None,
    }
}

struct Lexer {
    chars: Vec<char>,
    at: usize,
    line: usize,
    column: usize,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        let found = self.peek(0) == Some(c);
        if found {
            self.bump();
        }
        found
    }

    /// `#!/usr/bin/env ..` on the first line (not `#![attribute]`).
    fn skip_shebang(&mut self) {
        if self.peek(0) != Some('#') || self.peek(1) != Some('!') {
            return;
        }
        let next = self.chars[2..].iter().find(|c| !c.is_whitespace());
        if next != Some(&'[') {
            while self.peek(0).is_some_and(|c| c != '\n') {
                self.bump();
            }
        }
    }

    /// Whitespace and comments; doc comments are pushed to `out` as attributes.
    fn skip_whitespace_and_comments(&mut self, out: &mut Vec<Token>) -> Option<()> {
        loop {
            let (line, column) = (self.line, self.column);
            match (self.peek(0), self.peek(1)) {
                (Some(c), _) if c.is_whitespace() => {
                    self.bump();
                }
                (Some('/'), Some('/')) => {
                    self.bump();
                    self.bump();
                    let mut text = String::new();
                    while let Some(c) = self.peek(0).filter(|c| *c != '\n') {
                        text.push(c);
                        self.bump();
                    }
                    // `///` (not `////`) and `//!` are doc comments.
                    let doc = match text.strip_prefix('/') {
                        Some(rest) if !rest.starts_with('/') => Some((false, rest)),
                        _ => text.strip_prefix('!').map(|rest| (true, rest)),
                    };
                    if let Some((inner, rest)) = doc {
                        let rest = rest.strip_suffix('\r').unwrap_or(rest);
                        push_doc(out, inner, rest, line, column);
                    }
                }
                (Some('/'), Some('*')) => {
                    self.bump();
                    self.bump();
                    let mut text = String::new();
                    let mut depth = 1;
                    while depth > 0 {
                        match (self.bump()?, self.peek(0)) {
                            ('/', Some('*')) => {
                                self.bump();
                                depth += 1;
                                text.push_str("/*");
                            }
                            ('*', Some('/')) => {
                                self.bump();
                                depth -= 1;
                                if depth > 0 {
                                    text.push_str("*/");
                                }
                            }
                            (c, _) => text.push(c),
                        }
                    }
                    // `/**` (not `/***`, nor the empty `/**/`) and `/*!` are doc comments.
                    let doc = match text.strip_prefix('*') {
                        Some(rest) if !rest.is_empty() && !rest.starts_with('*') => {
                            Some((false, rest))
                        }
                        _ => text.strip_prefix('!').map(|rest| (true, rest)),
                    };
                    if let Some((inner, rest)) = doc {
                        push_doc(out, inner, rest, line, column);
                    }
                }
                _ => return Some(()),
            }
        }
    }

    /// One token that is not a delimiter.
    fn token(&mut self) -> Option<Tree> {
        let c = self.peek(0)?;
        match c {
            'r' if self.peek(1) == Some('#') && self.peek(2).is_some_and(is_ident_start) => {
                self.bump();
                self.bump();
                Some(Tree::Ident(format!("r#{}", self.word())))
            }
            'r' if matches!(self.peek(1), Some('"' | '#')) => {
                self.bump();
                self.raw_string(true)
            }
            'b' | 'c' if self.peek(1) == Some('r') && matches!(self.peek(2), Some('"' | '#')) => {
                self.bump();
                self.bump();
                self.raw_string(false)
            }
            'b' | 'c' if self.peek(1) == Some('"') => {
                self.bump();
                let _ = self.string()?;
                self.suffix();
                Some(Tree::Literal(Lit::Other(String::new())))
            }
            'b' if self.peek(1) == Some('\'') => {
                self.bump();
                self.bump();
                self.char_literal()
            }
            c if is_ident_start(c) => Some(Tree::Ident(self.word())),
            '"' => {
                let value = self.string()?;
                let suffixed = self.suffix();
                Some(Tree::Literal(if suffixed {
                    Lit::Other(String::new())
                } else {
                    Lit::Str(value)
                }))
            }
            '\'' => {
                self.bump();
                // `'a'`, `'\n'`: a char; `'a`, `'r#a`: a lifetime.
                let is_char = self.peek(0) == Some('\\')
                    || self.peek(1) == Some('\'')
                    || !self.peek(0).is_some_and(is_ident_start);
                if is_char {
                    return self.char_literal();
                }
                if self.peek(0) == Some('r') && self.peek(1) == Some('#') {
                    self.bump();
                    self.bump();
                    return Some(Tree::Lifetime(format!("r#{}", self.word())));
                }
                Some(Tree::Lifetime(self.word()))
            }
            c if c.is_ascii_digit() => Some(Tree::Literal(self.number())),
            c if PUNCT.contains(c) => {
                self.bump();
                let joint = self.peek(0).is_some_and(|n| PUNCT.contains(n) || n == '\'');
                Some(Tree::Punct(c, joint))
            }
            _ => None,
        }
    }

    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some(c) = self.peek(0).filter(|c| is_ident_continue(*c)) {
            word.push(c);
            self.bump();
        }
        word
    }

    /// A literal's suffix (`1u8`, `"a"x`): whether there was one.
    fn suffix(&mut self) -> bool {
        if self.peek(0).is_some_and(is_ident_start) {
            self.word();
            return true;
        }
        false
    }

    /// From the opening `"`: the value, `None` inside when an escape is unknown (the literal is
    /// still read to its end).
    fn string(&mut self) -> Option<Option<String>> {
        self.bump();
        let mut value = Some(String::new());
        loop {
            match self.bump()? {
                '"' => return Some(value),
                '\\' => {
                    let escaped = self.escape()?;
                    match (&mut value, escaped) {
                        (Some(v), Some(c)) => v.extend(c),
                        (v, None) => *v = None,
                        (None, _) => {}
                    }
                }
                '\r' if self.peek(0) == Some('\n') => {}
                c => {
                    if let Some(v) = &mut value {
                        v.push(c);
                    }
                }
            }
        }
    }

    /// After a backslash: the character it stands for (`Some(None)`: a line continuation,
    /// which stands for nothing), or `None` inside for an escape Rust does not know.
    fn escape(&mut self) -> Option<Option<Option<char>>> {
        let c = self.bump()?;
        let out = match c {
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            '\\' => Some('\\'),
            '0' => Some('\0'),
            '\'' => Some('\''),
            '"' => Some('"'),
            'x' => {
                let hex: String = [self.bump()?, self.bump()?].iter().collect();
                return Some(
                    u8::from_str_radix(&hex, 16)
                        .ok()
                        .filter(|b| b.is_ascii())
                        .map(|b| Some(char::from(b))),
                );
            }
            'u' => {
                if !self.eat('{') {
                    return Some(None);
                }
                let mut hex = String::new();
                loop {
                    match self.bump()? {
                        '}' => break,
                        '"' => return None,
                        c => hex.push(c),
                    }
                }
                return Some(
                    u32::from_str_radix(&hex.replace('_', ""), 16)
                        .ok()
                        .and_then(char::from_u32)
                        .map(Some),
                );
            }
            '\n' => {
                while self.peek(0).is_some_and(char::is_whitespace) {
                    self.bump();
                }
                return Some(Some(None));
            }
            '\r' if self.peek(0) == Some('\n') => {
                self.bump();
                while self.peek(0).is_some_and(char::is_whitespace) {
                    self.bump();
                }
                return Some(Some(None));
            }
            _ => None,
        };
        Some(out.map(Some))
    }

    /// After `r`, `br` or `cr`: `#`s, the quote, the content, the quote and as many `#`s.
    /// `plain` for `r".."` (a string literal), else the literal is `Other`.
    fn raw_string(&mut self, plain: bool) -> Option<Tree> {
        let mut hashes = 0;
        while self.eat('#') {
            hashes += 1;
        }
        if !self.eat('"') {
            return None;
        }
        let mut value = String::new();
        loop {
            let c = self.bump()?;
            if c == '"' && (0..hashes).all(|i| self.peek(i) == Some('#')) {
                for _ in 0..hashes {
                    self.bump();
                }
                break;
            }
            value.push(c);
        }
        let value = value.replace("\r\n", "\n");
        let suffixed = self.suffix();
        Some(Tree::Literal(if plain && !suffixed {
            Lit::Str(Some(value))
        } else {
            Lit::Other(String::new())
        }))
    }

    /// After the opening `'` of a char or byte literal.
    fn char_literal(&mut self) -> Option<Tree> {
        if self.bump()? == '\\' {
            self.escape()?;
        }
        if !self.eat('\'') {
            return None;
        }
        self.suffix();
        Some(Tree::Literal(Lit::Other(String::new())))
    }

    /// An integer or float literal, with its suffix.
    fn number(&mut self) -> Lit {
        let mut text = String::new();
        self.digits(&mut text);
        // `1.5`, `1.`: a float (not `1..2`, nor `1.max(2)`, nor the `.0` of `t.0.1`).
        if self.peek(0) == Some('.')
            && self.peek(1) != Some('.')
            && !self.peek(1).is_some_and(is_ident_start)
        {
            text.push('.');
            self.bump();
            self.digits(&mut text);
        }
        match text.parse::<u64>() {
            Ok(n) if text.bytes().all(|b| b.is_ascii_digit()) => Lit::Int(n),
            _ => Lit::Other(text),
        }
    }

    /// A run of a number's digits, letters and underscores (with an exponent's sign).
    fn digits(&mut self, text: &mut String) {
        while let Some(c) = self.peek(0).filter(|c| is_ident_continue(*c)) {
            text.push(c);
            self.bump();
            // `1e-5`, `2.5E+3`: the exponent's sign belongs to the literal.
            let decimal = !text.starts_with("0x") && !text.starts_with("0b");
            if decimal
                && matches!(c, 'e' | 'E')
                && matches!(self.peek(0), Some('+' | '-'))
                && self.peek(1).is_some_and(|d| d.is_ascii_digit())
            {
                text.extend(self.bump());
            }
        }
    }
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_continue(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// A doc comment as the compiler makes it: `#[doc = "text"]` (`#![doc = ..]` for inner ones).
fn push_doc(out: &mut Vec<Token>, inner: bool, text: &str, line: usize, column: usize) {
    let at = |tree| Token { tree, line, column };
    out.push(at(Tree::Punct('#', inner)));
    if inner {
        out.push(at(Tree::Punct('!', false)));
    }
    let content = vec![
        at(Tree::Ident("doc".to_owned())),
        at(Tree::Punct('=', false)),
        at(Tree::Literal(Lit::Str(Some(text.to_owned())))),
    ];
    out.push(at(Tree::Group(Delim::Bracket, content)));
}

#[cfg(test)]
mod tests {
    use super::{Delim, Lit, Token, Tree, lex};

    /// The tokens' trees, flattened to text, for comparison.
    fn texts(tokens: &[Token]) -> Vec<String> {
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
                Tree::Group(d, inner) => {
                    let (open, close) = match d {
                        Delim::Paren => ("(", ")"),
                        Delim::Bracket => ("[", "]"),
                        Delim::Brace => ("{", "}"),
                    };
                    out.push(open.to_owned());
                    out.extend(texts(inner));
                    out.push(close.to_owned());
                }
            }
        }
        out
    }

    fn lexed(text: &str) -> Vec<String> {
        texts(&lex(text).expect("lexes"))
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
                    let ours = texts(&lex(&text).unwrap_or_else(|| panic!("{}", path.display())));
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
        let tokens = lex("struct C;\nimpl C {\n    #[waitable(X: {})]\n    fn f() {}\n}").unwrap();
        let body = tokens[5].group().unwrap().1;
        assert_eq!((body[0].line, body[0].column), (3, 5), "{body:?}");
        // Columns count characters, not bytes.
        let tokens = lex("// é\n/* é */ é x").unwrap();
        assert_eq!((tokens[1].line, tokens[1].column), (2, 11));
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
        let tokens = lex("a::b -> c . d").unwrap();
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
            assert!(lex(text).is_none(), "{text}");
        }
        assert!(lex("#!/usr/bin/env run\nfn main() {}").is_some());
        assert_eq!(
            lexed("#![allow(x)]"),
            ["#", "!", "[", "allow", "(", "x", ")", "]"]
        );
    }
}
