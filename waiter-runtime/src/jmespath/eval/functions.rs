//! The 26 built-in functions of JMESPath (`fn_abs` ... `fn_type`), with jmespath.py's results
//! where the specification leaves a choice (integer sums, `to_string`'s JSON, `-0`).

use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashMap;

use serde_json::Number;

use super::literals::{number_i64, number_u64, string};
use super::navigate::owned_array;
use super::{E, R};
use crate::jmespath::error::SearchError;
use crate::jmespath::node::write_python_json;
use crate::jmespath::view::{Node, Object};

fn bad(function: &'static str, position: usize, expected: &'static str, got: &Node<'_>) -> E {
    Box::new(SearchError::InvalidType {
        function,
        position,
        expected,
        actual: got.type_name(),
    })
}

fn number_arg(f: &'static str, pos: usize, n: &Node<'_>) -> Result<f64, E> {
    n.as_f64().ok_or_else(|| bad(f, pos, "number", n))
}

fn string_arg<'n, 'a>(f: &'static str, pos: usize, n: &'n Node<'a>) -> Result<&'n str, E> {
    n.as_str().ok_or_else(|| bad(f, pos, "string", n))
}

fn array_arg<'a>(
    f: &'static str,
    pos: usize,
    expected: &'static str,
    n: Node<'a>,
) -> Result<Vec<Node<'a>>, E> {
    match n {
        Node::Array(a) => Ok(a.into_vec()),
        other => Err(bad(f, pos, expected, &other)),
    }
}

fn numbers(f: &'static str, pos: usize, n: Node<'_>) -> Result<Vec<f64>, E> {
    const EXPECTED: &str = "array[number]";
    let items = array_arg(f, pos, EXPECTED, n)?;
    items
        .iter()
        .map(|x| {
            x.as_f64().ok_or_else(|| {
                Box::new(SearchError::InvalidType {
                    function: f,
                    position: pos,
                    expected: EXPECTED,
                    actual: "array",
                })
            })
        })
        .collect()
}

/// Checks that every element is a number, or every element is a string.
fn sortable(f: &'static str, pos: usize, items: &[Node<'_>]) -> Result<(), E> {
    const EXPECTED: &str = "array[number]|array[string]";
    let err = Box::new(SearchError::InvalidType {
        function: f,
        position: pos,
        expected: EXPECTED,
        actual: "array",
    });
    match items.first() {
        None => Ok(()),
        Some(Node::Number(_)) if items.iter().all(|x| matches!(x, Node::Number(_))) => Ok(()),
        Some(Node::String(_)) if items.iter().all(|x| matches!(x, Node::String(_))) => Ok(()),
        _ => Err(err),
    }
}

/// A number that stays a float (`3.0`), as a float result of jmespath.py does: `to_string`
/// writes it so.
fn float(n: f64) -> Node<'static> {
    Number::from_f64(n).map_or(Node::Null, Node::Number)
}

pub fn fn_abs(n: Node<'_>) -> R<'static> {
    if let Node::Number(num) = &n {
        if let Some(i) = num.as_i64() {
            return Ok(number_u64(i.unsigned_abs()));
        }
        if num.is_u64() {
            return Ok(Node::Number(num.clone()));
        }
    }
    Ok(float(number_arg("abs", 0, &n)?.abs()))
}

pub fn fn_avg(n: Node<'_>) -> R<'static> {
    let nums = numbers("avg", 0, n)?;
    if nums.is_empty() {
        return Ok(Node::Null);
    }
    Ok(float(float_sum(&nums) / nums.len() as f64))
}

pub fn fn_ceil(n: Node<'_>) -> R<'static> {
    if let Node::Number(num) = &n {
        if num.is_i64() || num.is_u64() {
            return Ok(Node::Number(num.clone()));
        }
    }
    Ok(Node::from_f64(number_arg("ceil", 0, &n)?.ceil()))
}

pub fn fn_floor(n: Node<'_>) -> R<'static> {
    if let Node::Number(num) = &n {
        if num.is_i64() || num.is_u64() {
            return Ok(Node::Number(num.clone()));
        }
    }
    Ok(Node::from_f64(number_arg("floor", 0, &n)?.floor()))
}

pub fn fn_contains<'a>(subject: Node<'a>, search: Node<'a>) -> R<'a> {
    match subject {
        Node::Array(a) => {
            let mut found = false;
            a.for_each(&mut |x| found = found || x.json_eq(&search));
            Ok(Node::Bool(found))
        }
        Node::String(s) => Ok(Node::Bool(search.as_str().is_some_and(|n| s.contains(n)))),
        other => Err(bad("contains", 0, "array|string", &other)),
    }
}

pub fn fn_ends_with<'a>(subject: Node<'a>, suffix: Node<'a>) -> R<'a> {
    let s = string_arg("ends_with", 0, &subject)?;
    let x = string_arg("ends_with", 1, &suffix)?;
    Ok(Node::Bool(s.ends_with(x)))
}

pub fn fn_starts_with<'a>(subject: Node<'a>, prefix: Node<'a>) -> R<'a> {
    let s = string_arg("starts_with", 0, &subject)?;
    let x = string_arg("starts_with", 1, &prefix)?;
    Ok(Node::Bool(s.starts_with(x)))
}

pub fn fn_join<'a>(glue: Node<'a>, items: Node<'a>) -> R<'a> {
    let g = string_arg("join", 0, &glue)?;
    let items = array_arg("join", 1, "array[string]", items)?;
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        let s = item.as_str().ok_or_else(|| {
            Box::new(SearchError::InvalidType {
                function: "join",
                position: 1,
                expected: "array[string]",
                actual: "array",
            })
        })?;
        if i > 0 {
            out.push_str(g);
        }
        out.push_str(s);
    }
    Ok(Node::String(Cow::Owned(out)))
}

pub fn fn_keys(n: Node<'_>) -> R<'_> {
    match n {
        Node::Object(o) => Ok(owned_array(
            o.into_entries()
                .into_iter()
                .map(|(k, _)| Node::String(k))
                .collect(),
        )),
        other => Err(bad("keys", 0, "object", &other)),
    }
}

pub fn fn_values(n: Node<'_>) -> R<'_> {
    match n {
        Node::Object(o) => Ok(owned_array(
            o.into_entries().into_iter().map(|(_, v)| v).collect(),
        )),
        other => Err(bad("values", 0, "object", &other)),
    }
}

pub fn fn_length(n: Node<'_>) -> R<'static> {
    let len = match &n {
        Node::String(s) => s.chars().count(),
        Node::Array(a) => a.len(),
        Node::Object(o) => o.len(),
        other => return Err(bad("length", 0, "string|array|object", other)),
    };
    Ok(number_u64(len as u64))
}

pub fn fn_map<'a>(mut f: impl FnMut(Node<'a>) -> R<'a>, items: Node<'a>) -> R<'a> {
    let items = array_arg("map", 1, "array", items)?;
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        out.push(f(item)?);
    }
    Ok(owned_array(out))
}

fn extreme<'a>(f: &'static str, n: Node<'a>, want: Ordering) -> R<'a> {
    let items = array_arg(f, 0, "array[number]|array[string]", n)?;
    sortable(f, 0, &items)?;
    let mut best: Option<Node<'a>> = None;
    for item in items {
        best = match best {
            Some(b) if item.json_cmp(&b) != Some(want) => Some(b),
            _ => Some(item),
        };
    }
    Ok(best.unwrap_or(Node::Null))
}

pub fn fn_max(n: Node<'_>) -> R<'_> {
    extreme("max", n, Ordering::Greater)
}

pub fn fn_min(n: Node<'_>) -> R<'_> {
    extreme("min", n, Ordering::Less)
}

/// Evaluates the key expression of `sort_by`/`max_by`/`min_by` on every element, checking that
/// the keys are all numbers or all strings.
fn keyed<'a>(
    f: &'static str,
    items: Node<'a>,
    mut key: impl FnMut(Node<'a>) -> R<'a>,
) -> Result<Vec<(Node<'a>, Node<'a>)>, E> {
    let items = array_arg(f, 0, "array", items)?;
    let mut out = Vec::with_capacity(items.len());
    let mut first: Option<&'static str> = None;
    for item in items {
        let k = key(item.clone())?;
        let t = k.type_name();
        let ok = match first {
            None => matches!(t, "number" | "string"),
            Some(f0) => f0 == t,
        };
        if !ok {
            return Err(Box::new(SearchError::InvalidType {
                function: f,
                position: 1,
                expected: match first {
                    Some("number") => "expression->number",
                    Some(_) => "expression->string",
                    None => "expression->number|expression->string",
                },
                actual: t,
            }));
        }
        first.get_or_insert(t);
        out.push((item, k));
    }
    Ok(out)
}

pub fn fn_max_by<'a>(items: Node<'a>, key: impl FnMut(Node<'a>) -> R<'a>) -> R<'a> {
    let keyed = keyed("max_by", items, key)?;
    Ok(pick(keyed, Ordering::Greater))
}

pub fn fn_min_by<'a>(items: Node<'a>, key: impl FnMut(Node<'a>) -> R<'a>) -> R<'a> {
    let keyed = keyed("min_by", items, key)?;
    Ok(pick(keyed, Ordering::Less))
}

fn pick<'a>(keyed: Vec<(Node<'a>, Node<'a>)>, want: Ordering) -> Node<'a> {
    let mut best: Option<(Node<'a>, Node<'a>)> = None;
    for (item, k) in keyed {
        best = match best {
            Some(b) if k.json_cmp(&b.1) != Some(want) => Some(b),
            _ => Some((item, k)),
        };
    }
    best.map_or(Node::Null, |b| b.0)
}

pub fn fn_sort_by<'a>(items: Node<'a>, key: impl FnMut(Node<'a>) -> R<'a>) -> R<'a> {
    let mut keyed = keyed("sort_by", items, key)?;
    keyed.sort_by(|a, b| a.1.json_cmp(&b.1).unwrap_or(Ordering::Equal));
    Ok(owned_array(
        keyed.into_iter().map(|(item, _)| item).collect(),
    ))
}

pub fn fn_sort(n: Node<'_>) -> R<'_> {
    let mut items = array_arg("sort", 0, "array[number]|array[string]", n)?;
    sortable("sort", 0, &items)?;
    items.sort_by(|a, b| a.json_cmp(b).unwrap_or(Ordering::Equal));
    Ok(owned_array(items))
}

pub fn fn_merge(objects: Vec<Node<'_>>) -> R<'_> {
    // Later members win; each key is looked up in a hash index (linear in the members).
    let mut out: Vec<(Cow<'_, str>, Node<'_>)> = Vec::new();
    let mut at: HashMap<Cow<'_, str>, usize> = HashMap::new();
    for (i, o) in objects.into_iter().enumerate() {
        match o {
            Node::Object(o) => {
                for (k, v) in o.into_entries() {
                    match at.get(&k) {
                        Some(&j) => out[j].1 = v,
                        None => {
                            at.insert(k.clone(), out.len());
                            out.push((k, v));
                        }
                    }
                }
            }
            other => return Err(bad("merge", i, "object", &other)),
        }
    }
    Ok(Node::Object(Object::Owned(out)))
}

pub fn fn_not_null(args: Vec<Node<'_>>) -> R<'_> {
    Ok(args
        .into_iter()
        .find(|n| !n.is_null())
        .unwrap_or(Node::Null))
}

pub fn fn_reverse(n: Node<'_>) -> R<'_> {
    match n {
        Node::String(s) => Ok(Node::String(Cow::Owned(s.chars().rev().collect()))),
        Node::Array(a) => {
            let mut v = a.into_vec();
            v.reverse();
            Ok(owned_array(v))
        }
        other => Err(bad("reverse", 0, "array|string", &other)),
    }
}

/// The sum: exact for integers (as jmespath.py's), a float as soon as one element is a float.
pub fn fn_sum(n: Node<'_>) -> R<'static> {
    let ints: Option<Vec<i128>> = match &n {
        Node::Array(a) => a
            .clone()
            .into_vec()
            .iter()
            .map(|x| match x {
                Node::Number(num) => num
                    .as_i64()
                    .map(i128::from)
                    .or_else(|| num.as_u64().map(i128::from)),
                _ => None,
            })
            .collect(),
        _ => None,
    };
    if let Some(total) = ints.and_then(|v| v.into_iter().try_fold(0i128, i128::checked_add)) {
        if let Ok(i) = i64::try_from(total) {
            return Ok(number_i64(i));
        }
        if let Ok(u) = u64::try_from(total) {
            return Ok(number_u64(u));
        }
    }
    let nums = numbers("sum", 0, n)?;
    Ok(float(float_sum(&nums)))
}

/// A float sum from `0.0`, as Python's `sum` from `0` (`sum([-0.0])` is `0.0`; Rust's `Sum`
/// starts from `-0.0`).
fn float_sum(nums: &[f64]) -> f64 {
    nums.iter().fold(0.0, |a, b| a + b)
}

pub fn fn_to_array(n: Node<'_>) -> R<'_> {
    match n {
        Node::Array(_) => Ok(n),
        other => Ok(owned_array(vec![other])),
    }
}

/// `to_string`: strings as they are, anything else as compact JSON written as jmespath.py
/// writes it (Python's `json.dumps(value, separators=(',', ':'))`): members in the object's
/// order, non-ASCII characters as `\uXXXX` escapes, floats as Python's `repr` (`1.0`, `1e+16`).
pub fn fn_to_string(n: Node<'_>) -> R<'_> {
    match n {
        Node::String(_) => Ok(n),
        other => {
            let mut out = String::new();
            write_python_json(&other, &mut out).map_err(Box::new)?;
            Ok(Node::String(Cow::Owned(out)))
        }
    }
}

pub fn fn_to_number(n: Node<'_>) -> R<'_> {
    match n {
        Node::Number(_) => Ok(n),
        // `-0` is the integer 0 (as jmespath.py reads it); serde_json reads it as the float -0.0.
        Node::String(s) if &*s == "-0" => Ok(number_i64(0)),
        Node::String(s) => Ok(match s.parse::<Number>() {
            Ok(num) => Node::Number(num),
            Err(_) => Node::Null,
        }),
        _ => Ok(Node::Null),
    }
}

pub fn fn_type(n: Node<'_>) -> R<'static> {
    Ok(string(n.type_name()))
}
