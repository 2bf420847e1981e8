//! Differential property test over the whole grammar: 400 random expressions
//! (`gen_random_exprs.py`, frozen in `random_exprs.in`) on random
//! documents, against the `jmespath` crate's interpreter.
//!
//! Each expression goes through the hidden verdict macro, so the macro's own decision is part of
//! the test: compiled expressions must agree with the interpreter (same value, numbers by
//! value; or both an error); rejected ones must be rejected for a reason listed below.
//!
//! Differences that the specification settles in our favour (the interpreter is not the
//! specification):
//! - a projection ends at a multi-select hash after a dot: `a[*].{x: b}.x` applies `.x` to the
//!   projected array (null), as jmespath.py does; the `jmespath` crate's parser continues the
//!   projection into `.x`. Expressions where something follows `.{...}` are not compared.
//! - `avg([])` is null (the specification: "an empty array will produce a return value of
//!   null"); the interpreter fails with an f64 parse error. Such interpreter errors are not
//!   compared.
//! - our stricter compile-time rules (`jmespath` module docs, "Stricter than JMESPath"): a field of a literal
//!   that is not an object, and a literal argument of the wrong type, are compile errors
//!   (`invalid-type`), even where the interpreter would only meet them on some inputs.

use proptest::prelude::*;

use crate::beside_the_source;
use serde_json::{Map, Value, json};
use waiter_runtime::__private_v0_1::__jmespath_verdict as verdict;
use waiter_runtime::__private_v0_1::jmespath::Verdict;

const EXPRESSIONS: &[(&str, Verdict)] = include!("random_exprs.in");

const KEYS: &[&str] = &["a", "b", "c", "foo", "bar"];

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-2i64..4).prop_map(|n| json!(n)),
        prop::sample::select(&[1.5, -0.5, 2.25][..]).prop_map(|f| json!(f)),
        prop::sample::select(&["x", "", "ab", "a"][..]).prop_map(|s| json!(s)),
    ]
}

fn document() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..5).prop_map(|kv| {
                Value::Object(
                    kv.into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect::<Map<_, _>>(),
                )
            }),
        ]
    })
}

/// JSON equality with numbers compared by value (`1 == 1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// Something follows a multi-select hash reached through a dot (see the module docs).
fn continues_after_hash(src: &str) -> bool {
    src.contains(".{")
        && src.rsplit_once('}').is_some_and(|(_, rest)| {
            let rest = rest.trim_start();
            rest.starts_with('.') || rest.starts_with('[') || rest.starts_with('|')
        })
}

fn reference(src: &str, data: &Value) -> Option<Result<Value, String>> {
    let e = ::jmespath::compile(src).ok()?;
    Some(
        e.search(data.clone())
            .map_err(|e| e.to_string())
            .and_then(|v| serde_json::to_value(&*v).map_err(|e| e.to_string())),
    )
}

#[test]
fn the_macro_accepts_what_the_grammar_accepts() {
    let mut compiled = 0;
    for (src, v) in EXPRESSIONS {
        match v {
            Verdict::Compiled(_) => {
                compiled += 1;
                assert!(
                    ::jmespath::compile(src).is_ok(),
                    "`{src}` compiled here but not in the interpreter"
                );
            }
            Verdict::Rejected { kind, message } => {
                // Never a syntax error on a generated (grammatical) expression; only our
                // documented static rules.
                assert_ne!(*kind, "syntax", "`{src}`: {message}");
                assert!(
                    message.contains("literal") || message.contains("always"),
                    "`{src}` rejected for a reason that is not a documented stricter rule: \
                     {message}"
                );
            }
        }
    }
    // Most expressions compile (the rest read fields of literals or pass literals of the wrong
    // type): a generator or checker change that rejects far more shows up here.
    assert!(
        compiled * 10 >= EXPRESSIONS.len() * 7,
        "{compiled} compiled"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: beside_the_source(), ..ProptestConfig::default() })]

    #[test]
    fn compiled_expressions_agree_with_the_interpreter(data in document()) {
        let mut non_null = 0;
        for (src, v) in EXPRESSIONS {
            let Verdict::Compiled(e) = v else { continue };
            if continues_after_hash(src) {
                continue;
            }
            let Some(theirs) = reference(src, &data) else { continue };
            if theirs.as_ref().is_err_and(|e| e.contains("valid f64")) {
                continue;
            }
            let ours = e.search_value(&data).map_err(|e| e.to_string());
            match (&ours, &theirs) {
                (Ok(a), Ok(b)) => {
                    prop_assert!(same(a, b), "`{}` on {}: ours {}, theirs {}", src, data, a, b);
                    non_null += usize::from(!a.is_null());
                }
                (Err(_), Err(_)) => {}
                _ => prop_assert!(false, "`{}` on {}: ours {:?}, theirs {:?}", src, data, ours, theirs),
            }
        }
        // Literals and `@` alone give values on any document: the comparison is exercised.
        prop_assert!(non_null >= 20, "only {} non-null results", non_null);
    }
}
