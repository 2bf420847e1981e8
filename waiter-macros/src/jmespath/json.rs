//! JSON inside expressions: the text of `` `literal` `` values and of `"quoted identifiers"`,
//! read into [`Literal`]s, and strings written back as JSON. The model files `#[waitable]`
//! reads (botocore's `waiters-2.json`, Smithy's JSON AST) are read by the same reader
//! ([`parse_document`]), their errors placed by line and column.
//!
//! It is ours rather than serde_json's because a proc macro's dependencies are built a second
//! time in a user's build (for the host, with the build-script profile) even when the user's
//! crate has the same ones: serde_json and serde_core there cost more CPU than this macro crate
//! takes to compile. It reads as serde_json reads, which the unit tests check value for value:
//! numbers as serde_json sorts them (a non-negative integer as `u64`, a negative one as `i64`,
//! anything else, `-0` and integers too long for 64 bits included, as the correctly rounded
//! `f64`), a duplicate key keeps its last value, 127 levels of nesting at most.

use std::collections::BTreeMap;

use super::ast::{Literal, Number};

/// How deep arrays and objects may nest: 127 levels, as serde_json (its recursion limit of 128
/// counts the value that would open the 128th).
const MAX_DEPTH: usize = 127;

/// Reads one JSON value that fills `text` (whitespace around it allowed).
pub(crate) fn parse_value(text: &str) -> Result<Literal, String> {
    parse_document(text).map_err(|e| e.in_literal(text))
}

/// A mistake in a JSON text: what, and where (a byte offset into the text).
#[derive(Debug)]
pub(crate) struct JsonError {
    pub offset: usize,
    pub what: String,
}

impl JsonError {
    /// The message for a literal inside an expression: the character it is at.
    fn in_literal(self, text: &str) -> String {
        let column = text[..self.offset.min(text.len())].chars().count() + 1;
        format!("{} (character {column} of the literal)", self.what)
    }

    /// The line and column (both from 1, the column in characters) of the mistake.
    pub(crate) fn line_column(&self, text: &str) -> (usize, usize) {
        let before = &text[..self.offset.min(text.len())];
        let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }
}

/// Reads one JSON value that fills `text`, as [`parse_value`] does, with the mistake's place
/// as an offset (for a file's line and column).
pub(crate) fn parse_document(text: &str) -> Result<Literal, JsonError> {
    let mut reader = Reader { text, pos: 0 };
    reader.skip_whitespace();
    let value = reader.value(0)?;
    reader.skip_whitespace();
    match reader.peek() {
        None => Ok(value),
        Some(_) => Err(reader.error("trailing characters after the value")),
    }
}

/// What [`pick`] does with a member of an object, given the keys leading to it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Pick {
    /// Read the value whole.
    Read,
    /// Visit the members of the value, if it is an object (else skip it).
    Descend,
    /// Check the value's syntax and keep nothing of it.
    Skip,
}

/// Reads a JSON text as [`parse_document`] does (every byte of it checked, the same mistakes
/// reported), but builds only the values `want` asks for: each with the keys leading to it, in
/// the text's order. `want(&[])` is the whole document. The large model files (a Smithy model
/// of a few MB, mostly documentation) are read this way: skipping a value allocates nothing.
pub(crate) fn pick(
    text: &str,
    want: impl Fn(&[String]) -> Pick,
) -> Result<Vec<(Vec<String>, Literal)>, JsonError> {
    let mut reader = Reader { text, pos: 0 };
    let mut out = Vec::new();
    let mut path = Vec::new();
    reader.skip_whitespace();
    reader.pick(&want, &mut path, &mut out, 0)?;
    reader.skip_whitespace();
    match reader.peek() {
        None => Ok(out),
        Some(_) => Err(reader.error("trailing characters after the value")),
    }
}

/// Reads the body of a JSON string (the text between its quotes) into the string it denotes.
pub(crate) fn parse_string_body(body: &str) -> Result<String, String> {
    let quoted = format!("\"{body}\"");
    let mut reader = Reader {
        text: &quoted,
        pos: 0,
    };
    let s = reader.string().map_err(|e| e.in_literal(&quoted))?;
    match reader.peek() {
        None => Ok(s),
        // An unescaped `"` in the body ended the string early.
        Some(_) => Err(reader
            .error("trailing characters after the string")
            .in_literal(&quoted)),
    }
}

/// `s` as a JSON string: quotes, `\"`, `\\`, and the control characters escaped (the short
/// forms where JSON has one, `\u00XX` otherwise); everything else as it is.
///
/// serde_json's rules, which the runtime's `Display` of a node also follows
/// (`waiter-runtime/src/jmespath/node/json_text.rs`): the two cannot share code (the runtime
/// depends on this crate), and the unit tests below pin this one to serde_json's output.
pub(crate) fn quote_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

struct Reader<'t> {
    text: &'t str,
    /// A byte offset into `text`, always at a character boundary.
    pos: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn error(&self, what: &str) -> JsonError {
        JsonError {
            offset: self.pos,
            what: what.to_owned(),
        }
    }

    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn eat(&mut self, word: &str) -> bool {
        if self.text[self.pos..].starts_with(word) {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Literal, JsonError> {
        match self.peek() {
            None => Err(self.error("expected a value, found the end")),
            Some(b'n') if self.eat("null") => Ok(Literal::Null),
            Some(b't') if self.eat("true") => Ok(Literal::Bool(true)),
            Some(b'f') if self.eat("false") => Ok(Literal::Bool(false)),
            Some(b'"') => self.string().map(Literal::String),
            Some(b'-' | b'0'..=b'9') => self.number().map(Literal::Number),
            Some(b'[') => {
                let mut items = Vec::new();
                self.array(depth, |r, depth| {
                    items.push(r.value(depth)?);
                    Ok(())
                })?;
                Ok(Literal::Array(items))
            }
            Some(b'{') => {
                let mut members = BTreeMap::new();
                self.object(depth, true, |r, key, depth| {
                    members.insert(key.unwrap_or_default(), r.value(depth)?);
                    Ok(())
                })?;
                Ok(Literal::Object(members))
            }
            Some(_) => Err(self.error("expected a value")),
        }
    }

    /// The list at `pos` (its `[` next): `item` reads each element (at the depth inside).
    fn array(
        &mut self,
        depth: usize,
        mut item: impl FnMut(&mut Self, usize) -> Result<(), JsonError>,
    ) -> Result<(), JsonError> {
        let depth = self.deeper(depth)?;
        self.pos += 1;
        self.skip_whitespace();
        if self.eat("]") {
            return Ok(());
        }
        loop {
            self.skip_whitespace();
            if self.peek() == Some(b']') {
                return Err(
                    self.error("a comma before `]`: remove it (JSON has no trailing commas)")
                );
            }
            item(self, depth)?;
            self.skip_whitespace();
            if self.eat(",") {
                continue;
            }
            if self.eat("]") {
                return Ok(());
            }
            return Err(self.error("expected `,` or `]`"));
        }
    }

    /// The object at `pos` (its `{` next): `member` reads each value (at the depth inside),
    /// given its key when `keys` (else the key is checked and not kept).
    fn object(
        &mut self,
        depth: usize,
        keys: bool,
        mut member: impl FnMut(&mut Self, Option<String>, usize) -> Result<(), JsonError>,
    ) -> Result<(), JsonError> {
        let depth = self.deeper(depth)?;
        self.pos += 1;
        self.skip_whitespace();
        if self.eat("}") {
            return Ok(());
        }
        loop {
            self.skip_whitespace();
            if self.peek() == Some(b'}') {
                return Err(
                    self.error("a comma before `}`: remove it (JSON has no trailing commas)")
                );
            }
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a key (a string in double quotes)"));
            }
            let key = if keys {
                Some(self.string()?)
            } else {
                self.skip_string()?;
                None
            };
            self.skip_whitespace();
            if !self.eat(":") {
                return Err(self.error("expected `:` after the key"));
            }
            self.skip_whitespace();
            member(self, key, depth)?;
            self.skip_whitespace();
            if self.eat(",") {
                continue;
            }
            if self.eat("}") {
                return Ok(());
            }
            return Err(self.error("expected `,` or `}`"));
        }
    }

    /// [`pick`]'s walk of the value at `path`.
    fn pick(
        &mut self,
        want: &dyn Fn(&[String]) -> Pick,
        path: &mut Vec<String>,
        out: &mut Vec<(Vec<String>, Literal)>,
        depth: usize,
    ) -> Result<(), JsonError> {
        match want(path) {
            Pick::Read => {
                let value = self.value(depth)?;
                out.push((path.clone(), value));
                Ok(())
            }
            Pick::Descend if self.peek() == Some(b'{') => {
                self.object(depth, true, |r, key, depth| {
                    path.push(key.unwrap_or_default());
                    let picked = r.pick(want, path, out, depth);
                    path.pop();
                    picked
                })
            }
            Pick::Descend | Pick::Skip => self.skip(depth),
        }
    }

    /// Checks one value as [`Reader::value`] reads it, keeping nothing.
    fn skip(&mut self, depth: usize) -> Result<(), JsonError> {
        match self.peek() {
            Some(b'"') => self.skip_string(),
            Some(b'[') => self.array(depth, |r, depth| r.skip(depth)),
            Some(b'{') => self.object(depth, false, |r, _, depth| r.skip(depth)),
            // Scalars other than strings are short: read them as `value` does.
            _ => self.value(depth).map(drop),
        }
    }

    /// Checks a string as [`Reader::string`] reads it, by bytes (neither `"`, `\\` nor a
    /// control character is ever a byte of a longer UTF-8 sequence), keeping nothing.
    fn skip_string(&mut self) -> Result<(), JsonError> {
        self.pos += 1; // the opening quote
        let bytes = self.text.as_bytes();
        loop {
            // The run of plain bytes, in a loop of locals: at a proc macro's `opt-level` 0 every
            // access to `self` is a load and a store.
            let mut i = self.pos;
            while i < bytes.len() {
                let b = bytes[i];
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                i += 1;
            }
            self.pos = i;
            match bytes.get(self.pos) {
                None => return Err(self.error("unclosed string: add the closing `\"`")),
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    self.pos += 1;
                    match self.peek() {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                            self.pos += 1
                        }
                        Some(b'u') => {
                            self.pos += 1;
                            self.unicode_escape()?;
                        }
                        _ => return Err(self.error("invalid escape")),
                    }
                }
                Some(&b) if b < 0x20 => {
                    return Err(self.error("control character in a string: escape it"));
                }
                Some(_) => self.pos += 1,
            }
        }
    }

    fn deeper(&self, depth: usize) -> Result<usize, JsonError> {
        if depth >= MAX_DEPTH {
            Err(self.error(&format!("nested more than {MAX_DEPTH} levels")))
        } else {
            Ok(depth + 1)
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn number(&mut self) -> Result<Number, JsonError> {
        let start = self.pos;
        let negative = self.eat("-");
        let digits = |r: &mut Self| {
            let from = r.pos;
            while let Some(b'0'..=b'9') = r.peek() {
                r.pos += 1;
            }
            r.pos - from
        };
        let int_start = self.pos;
        match digits(self) {
            0 => return Err(self.error("expected a digit")),
            n if n > 1 && self.text.as_bytes()[int_start] == b'0' => {
                self.pos = int_start + 1;
                return Err(self.error("a number cannot start with `0` followed by digits"));
            }
            _ => {}
        }
        let mut integer = true;
        if self.eat(".") {
            integer = false;
            if digits(self) == 0 {
                return Err(self.error("expected a digit after `.`"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            integer = false;
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if digits(self) == 0 {
                return Err(self.error("expected a digit in the exponent"));
            }
        }
        let text = &self.text[start..self.pos];
        if integer {
            let magnitude = &self.text[int_start..self.pos];
            if !negative {
                if let Ok(u) = magnitude.parse::<u64>() {
                    return Ok(Number::PosInt(u));
                }
            } else if let Ok(i) = text.parse::<i64>() {
                // serde_json reads `-0` as the float -0.0.
                if i != 0 {
                    return Ok(Number::NegInt(i));
                }
            }
        }
        // Rust's reading of a decimal is correctly rounded (serde_json's `float_roundtrip`).
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Number::Float(f)),
            _ => {
                self.pos = start;
                Err(self.error("number out of range"))
            }
        }
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.pos += 1; // the opening quote
        let mut out = String::new();
        loop {
            let Some(c) = self.text[self.pos..].chars().next() else {
                return Err(self.error("unclosed string: add the closing `\"`"));
            };
            match c {
                '"' => {
                    self.pos += 1;
                    return Ok(out);
                }
                '\\' => {
                    self.pos += 1;
                    let escaped = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.pos += 1;
                            out.push(self.unicode_escape()?);
                            continue;
                        }
                        _ => return Err(self.error("invalid escape")),
                    };
                    self.pos += 1;
                    out.push(escaped);
                }
                c if (c as u32) < 0x20 => {
                    return Err(self.error("control character in a string: escape it"));
                }
                c => {
                    self.pos += c.len_utf8();
                    out.push(c);
                }
            }
        }
    }

    /// The four hex digits after `\u` (and, for a leading surrogate, the `\uXXXX` that must
    /// follow it).
    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF => {
                if !self.eat("\\u") {
                    return Err(self.error("lone leading surrogate in hex escape"));
                }
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err(self.error("lone leading surrogate in hex escape"));
                }
                0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err(self.error("lone trailing surrogate in hex escape")),
            _ => first,
        };
        char::from_u32(code).ok_or_else(|| self.error("invalid unicode escape"))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let digits = self.text.get(self.pos..self.pos + 4);
        match digits.filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit())) {
            Some(d) => {
                self.pos += 4;
                Ok(u32::from_str_radix(d, 16).unwrap_or_default())
            }
            None => Err(self.error("expected four hex digits after `\\u`")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// serde_json's reading, in our terms: the oracle.
    fn oracle(text: &str) -> Result<Literal, ()> {
        fn convert(v: serde_json::Value) -> Literal {
            use serde_json::Value as V;
            match v {
                V::Null => Literal::Null,
                V::Bool(b) => Literal::Bool(b),
                V::Number(n) => Literal::Number(if let Some(u) = n.as_u64() {
                    Number::PosInt(u)
                } else if let Some(i) = n.as_i64() {
                    Number::NegInt(i)
                } else {
                    Number::Float(n.as_f64().unwrap())
                }),
                V::String(s) => Literal::String(s),
                V::Array(items) => Literal::Array(items.into_iter().map(convert).collect()),
                V::Object(m) => {
                    Literal::Object(m.into_iter().map(|(k, v)| (k, convert(v))).collect())
                }
            }
        }
        serde_json::from_str::<serde_json::Value>(text)
            .map(convert)
            .map_err(|_| ())
    }

    fn same_as_serde_json(text: &str) {
        let ours = parse_value(text);
        match (&ours, oracle(text)) {
            (Ok(a), Ok(b)) => assert!(
                a == &b || format!("{a:?}") == format!("{b:?}"),
                "{text:?}: ours {a:?}, serde_json {b:?}"
            ),
            (Err(_), Err(())) => {}
            (a, b) => panic!("{text:?}: ours {a:?}, serde_json {b:?}"),
        }
    }

    #[test]
    fn reads_as_serde_json_reads() {
        let cases = [
            "null",
            "true",
            "false",
            " 1 ",
            "0",
            "-0",
            "-1",
            "01",
            "1.",
            ".5",
            "1.5",
            "-1.5e3",
            "1E+2",
            "1e-2",
            "1e",
            "1e400",
            "-1e400",
            "4.9e-324",
            "2.2250738585072014e-308",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "9223372036854775807",
            "0.1",
            "0.30000000000000004",
            "123456789012345678901234567890",
            "1.7976931348623157e308",
            "[]",
            "[1,]",
            "[1 2]",
            "{}",
            r#"{"a":1,"a":2}"#,
            r#"{"a":1,}"#,
            r#"{a:1}"#,
            r#"{"b":[1,{"c":null}],"a":"x"}"#,
            r#""""#,
            r#""\"\\\/\b\f\n\r\t""#,
            r#""\u0041\u00e9\u4e2d""#,
            r#""\ud83d\ude00""#,
            r#""\ud83d""#,
            r#""\ude00""#,
            r#""\ud83dx""#,
            r#""\u12""#,
            r#""\x""#,
            "\"\u{1}\"",
            "\"é中😀\"",
            "nul",
            "truex",
            "[1] 2",
            "",
            " ",
            "[",
            "{\"a\"",
            "{\"a\":",
            "-",
            "--1",
            "+1",
            "[true,false,null]",
            "\"abc",
            "1 ",
            "\t[\n1\r]\n",
        ];
        for case in cases {
            same_as_serde_json(case);
            picks_as_it_reads(case);
        }
    }

    /// [`pick`] checks every byte as [`parse_document`] does: the same values where it reads,
    /// the same mistakes at the same places where it skips.
    fn picks_as_it_reads(case: &str) {
        let whole = parse_document(case);
        fn offset<T>(r: &Result<T, JsonError>) -> Option<(usize, String)> {
            r.as_ref().err().map(|e| (e.offset, e.what.clone()))
        }
        let read = pick(case, |_| Pick::Read);
        assert_eq!(offset(&read), offset(&whole), "{case:?}");
        if let (Ok(read), Ok(whole)) = (&read, &whole) {
            assert_eq!(format!("{:?}", read[0].1), format!("{whole:?}"), "{case:?}");
        }
        let skipped = pick(case, |_| Pick::Skip);
        assert_eq!(offset(&skipped), offset(&whole), "{case:?}");
        // Inside an object whose member is skipped, and one whose member is read.
        let nested = format!("{{\"a\": {case}, \"b\": [1]}}");
        let whole = parse_document(&nested);
        for want in [Pick::Skip, Pick::Read] {
            let picked = pick(
                &nested,
                |path: &[String]| {
                    if path.is_empty() { Pick::Descend } else { want }
                },
            );
            assert_eq!(offset(&picked), offset(&whole), "{nested:?}");
        }
    }

    #[test]
    fn pick_builds_only_what_is_asked_for() {
        let text = r#"{"shapes": {"a#Op": {"type": "operation", "traits": {"doc": "x\u00e9", "w": {"A": [1, true]}}}, "a#S": {"type": "string"}}, "v": 2}"#;
        let picked = pick(text, |path: &[String]| match path {
            [] => Pick::Descend,
            [s] if s == "shapes" => Pick::Descend,
            [_, _] => Pick::Descend,
            [_, _, k] if k == "type" => Pick::Read,
            [_, _, k] if k == "traits" => Pick::Descend,
            [_, _, _, t] if t == "w" => Pick::Read,
            _ => Pick::Skip,
        })
        .unwrap();
        let paths: Vec<String> = picked.iter().map(|(p, _)| p.join("/")).collect();
        assert_eq!(
            paths,
            [
                "shapes/a#Op/type",
                "shapes/a#Op/traits/w",
                "shapes/a#S/type"
            ]
        );
        assert_eq!(picked[0].1, Literal::String("operation".into()));
        // A value to descend into that is no object is skipped.
        let picked = pick(r#"{"shapes": [1]}"#, |_| Pick::Descend).unwrap();
        assert!(picked.is_empty());
    }

    #[test]
    fn errors_have_a_line_and_a_column() {
        let text = "{\n  \"a\": 1,\n  \"é\": tru\n}";
        let err = parse_document(text).unwrap_err();
        assert_eq!(err.line_column(text), (3, 8));
        assert_eq!(err.what, "expected a value");
    }

    #[test]
    fn errors_say_where_in_the_literal_and_what_to_do() {
        assert_eq!(
            parse_value(r#"{"x": 1,}"#),
            Err("a comma before `}`: remove it (JSON has no trailing commas) (character 9 of the literal)".to_owned())
        );
        assert_eq!(
            parse_value("[1, 2, ]"),
            Err("a comma before `]`: remove it (JSON has no trailing commas) (character 8 of the literal)".to_owned())
        );
        assert_eq!(
            parse_value("[1 2]"),
            Err("expected `,` or `]` (character 4 of the literal)".to_owned())
        );
    }

    #[test]
    fn nests_as_deep_as_serde_json_and_no_deeper() {
        for depth in [127, 128, 129, 200] {
            same_as_serde_json(&format!("{}{}", "[".repeat(depth), "]".repeat(depth)));
            same_as_serde_json(&format!(
                "{}1{}",
                "{\"a\":".repeat(depth),
                "}".repeat(depth)
            ));
        }
    }

    #[test]
    fn reads_random_numbers_as_serde_json_with_float_roundtrip_does() {
        // A deterministic walk over digit strings, signs, fractions and exponents.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let r = next();
            let mut text = String::new();
            if r & 1 == 1 {
                text.push('-');
            }
            let int_digits = 1 + (r >> 1) % 22;
            text.push_str(&(next() % 10_u64.pow((int_digits % 19) as u32).max(1)).to_string());
            if r & 0x100 != 0 {
                text.push('.');
                text.push_str(&(next() % 1_000_000_007).to_string());
            }
            if r & 0x200 != 0 {
                text.push('e');
                text.push_str(&((next() % 700) as i64 - 350).to_string());
            }
            same_as_serde_json(&text);
        }
    }

    #[test]
    fn quoted_strings_read_back_as_the_same_string() {
        for s in [
            "",
            "plain",
            "q\"b\\s/",
            "\u{0}\u{1f}\u{8}\u{c}\n\r\t",
            "é中😀\u{7f}",
        ] {
            let mut out = String::new();
            quote_string(s, &mut out);
            assert_eq!(out, serde_json::to_string(s).unwrap());
            assert_eq!(parse_value(&out), Ok(Literal::String(s.to_owned())));
        }
    }

    #[test]
    fn string_bodies_read_as_serde_json_reads_them() {
        for body in [r"a\u0041", r#"a"b"#, r"\", r"\q", "x\u{1}", "ok"] {
            let ours = parse_string_body(body).ok();
            let theirs = serde_json::from_str::<String>(&format!("\"{body}\"")).ok();
            assert_eq!(ours, theirs, "{body:?}");
        }
    }

    #[test]
    fn numbers_are_written_so_that_they_read_back_the_same() {
        for n in [
            Number::PosInt(u64::MAX),
            Number::NegInt(i64::MIN),
            Number::Float(0.1),
            Number::Float(-0.0),
            Number::Float(1e300),
            Number::Float(5e-324),
        ] {
            assert_eq!(parse_value(&n.to_string()), Ok(Literal::Number(n)), "{n}");
        }
    }
}
