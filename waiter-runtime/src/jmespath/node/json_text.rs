//! A [`Node`] written as JSON text, in two dialects that differ on purpose, each fixed by what
//! it must match:
//! * `Display` (and `Debug`) writes what `serde_json` writes for [`Node::to_value`]: members in
//!   the order of a `serde_json::Map` (sorted, unless `preserve_order` is on), non-ASCII
//!   characters as they are, numbers as `serde_json` prints them (`1.0`, `1e16`), deeper than
//!   [`Node::MAX_DEPTH`] written `null`;
//! * [`write_python_json`], for the JMESPath function `to_string`, writes what jmespath.py gives
//!   (Python's `json.dumps(value, separators=(',', ':'))`), which the compliance suite checks:
//!   members in the object's order, non-ASCII characters as `\uXXXX` escapes, floats as
//!   Python's `repr` (`1.0`, `1e+16`), deeper than [`Node::MAX_DEPTH`] an error.

use std::borrow::Cow;
use std::fmt;
use std::sync::OnceLock;

use serde_json::{Map, Value};

use crate::jmespath::error::SearchError;
use crate::jmespath::view::{Array, Node, Object};

/// Compact JSON, as `serde_json` writes it (the `Display` dialect of the module doc), at most [`Node::MAX_DEPTH`] levels deep (deeper parts
/// are written `null`).
fn write_json(node: &Node<'_>, depth: usize, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match node {
        Node::Null => f.write_str("null"),
        Node::Bool(b) => write!(f, "{b}"),
        Node::Number(n) => write!(f, "{n}"),
        Node::String(s) => write_str(s, f),
        Node::Array(Array::Strs(v)) => {
            f.write_str("[")?;
            for (i, s) in v.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write_str(s, f)?;
            }
            f.write_str("]")
        }
        Node::Array(_) | Node::Object(_) if depth >= Node::MAX_DEPTH => f.write_str("null"),
        Node::Array(a) => {
            f.write_str("[")?;
            let mut result = Ok(());
            let mut first = true;
            a.clone().for_each(&mut |n| {
                if result.is_ok() {
                    if !first {
                        result = f.write_str(",");
                    }
                    first = false;
                    result = result.and_then(|()| write_json(&n, depth + 1, f));
                }
            });
            result?;
            f.write_str("]")
        }
        Node::Object(o) => {
            f.write_str("{")?;
            // Keys in the order `to_value` gives them (a `serde_json::Map`).
            let mut entries = o.clone().into_entries();
            sort_like_map(&mut entries);
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                write_str(k, f)?;
                f.write_str(":")?;
                write_json(v, depth + 1, f)?;
            }
            f.write_str("}")
        }
    }
}

/// A JSON string literal, escaped as `serde_json` does.
fn write_str(s: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str("\"")?;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let esc = match c {
            '"' => "\\\"",
            '\\' => "\\\\",
            '\n' => "\\n",
            '\r' => "\\r",
            '\t' => "\\t",
            '\u{8}' => "\\b",
            '\u{c}' => "\\f",
            c if (c as u32) < 0x20 => "",
            _ => continue,
        };
        f.write_str(&s[start..i])?;
        if esc.is_empty() {
            write!(f, "\\u{:04x}", c as u32)?;
        } else {
            f.write_str(esc)?;
        }
        start = i + c.len_utf8();
    }
    f.write_str(&s[start..])?;
    f.write_str("\"")
}

/// Orders members as a `serde_json::Map` does: sorted, unless `serde_json`'s `preserve_order`
/// feature is on somewhere in the build (then in insertion order).
fn sort_like_map(entries: &mut [(Cow<'_, str>, Node<'_>)]) {
    static SORTED: OnceLock<bool> = OnceLock::new();
    let sorted = *SORTED.get_or_init(|| {
        let mut m = Map::new();
        m.insert("b".to_owned(), Value::Null);
        m.insert("a".to_owned(), Value::Null);
        m.keys().next().is_some_and(|k| k == "a")
    });
    if sorted {
        entries.sort_by(|a, b| a.0.cmp(&b.0));
    }
}

impl fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Formats the node as compact JSON, as `serde_json` formats [`to_value`](Node::to_value).
impl fmt::Display for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_json(self, 0, f)
    }
}

impl fmt::Debug for Array<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&Node::Array(self.clone()), f)
    }
}

impl fmt::Debug for Object<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&Node::Object(self.clone()), f)
    }
}

/// `node` as jmespath.py's `to_string` writes it (see the module doc), appended to `out`: compact,
/// members in the object's order, non-ASCII characters escaped, floats as Python's `repr`.
/// [`SearchError::TooDeep`] past [`Node::MAX_DEPTH`] levels.
pub(crate) fn write_python_json(node: &Node<'_>, out: &mut String) -> Result<(), SearchError> {
    py_json(node, 0, out)
}

fn py_json(node: &Node<'_>, depth: usize, out: &mut String) -> Result<(), SearchError> {
    use std::fmt::Write as _;
    match node {
        Node::Null => out.push_str("null"),
        Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Node::Number(n) => match n.as_f64() {
            Some(f) if !(n.is_i64() || n.is_u64()) => py_float(f, out),
            _ => {
                let _ = write!(out, "{n}");
            }
        },
        Node::String(s) => py_str(s, out),
        Node::Array(_) | Node::Object(_) if depth >= Node::MAX_DEPTH => {
            return Err(SearchError::TooDeep {
                limit: Node::MAX_DEPTH,
            });
        }
        Node::Array(a) => {
            out.push('[');
            for (i, x) in a.clone().into_vec().iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                py_json(x, depth + 1, out)?;
            }
            out.push(']');
        }
        Node::Object(o) => {
            out.push('{');
            for (i, (k, v)) in o.clone().into_entries().iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                py_str(k, out);
                out.push(':');
                py_json(v, depth + 1, out)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

/// A JSON string as Python's `json.dumps` writes it (`ensure_ascii`): everything outside
/// printable ASCII escaped, characters beyond the BMP as a surrogate pair.
fn py_str(s: &str, out: &mut String) {
    use std::fmt::Write as _;
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
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{u:04x}");
                }
            }
        }
    }
    out.push('"');
}

/// A float as Python's `repr`: the shortest digits that round-trip, positional for exponents
/// -4..=15 (`1000.0`, `0.0001`), else scientific with a signed two-digit exponent (`1e+16`,
/// `1.5e-05`).
fn py_float(f: f64, out: &mut String) {
    use std::fmt::Write as _;
    let sci = format!("{f:e}"); // shortest round-trip digits: `-1.5e-5`, `1e16`, `-0e0`
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mantissa),
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    out.push_str(sign);
    if (-4..=15).contains(&exp) {
        let point = exp + 1; // digits before the decimal point
        if point <= 0 {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-point) as usize));
            out.push_str(&digits);
        } else if point as usize >= digits.len() {
            out.push_str(&digits);
            out.extend(std::iter::repeat_n('0', point as usize - digits.len()));
            out.push_str(".0");
        } else {
            out.push_str(&digits[..point as usize]);
            out.push('.');
            out.push_str(&digits[point as usize..]);
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    }
}
