//! What `jmespath!` compiles and what it rejects, at the corners: expression references with
//! any body compile (no type-inference error), out-of-range integer literals are compile errors
//! at the literal (not macro panics), parsing corners, float literals keep their precision, and
//! the stricter rules of the `jmespath` module docs hold.

use serde_json::{Value, json};
use waiter_runtime::__private_v0_1::__jmespath_verdict as verdict;
use waiter_runtime::__private_v0_1::jmespath::Verdict;
use waiter_runtime::jmespath;
use waiter_runtime::jmespath::Expression;

/// The `jmespath` crate's interpreter on the same data (the reference for results).
fn reference(expr: &str, data: &Value) -> Result<Value, String> {
    let e = ::jmespath::compile(expr).map_err(|e| e.to_string())?;
    let r = e.search(data.clone()).map_err(|e| e.to_string())?;
    serde_json::to_value(&*r).map_err(|e| e.to_string())
}

fn rejected_as_syntax(v: Verdict, needle: &str) {
    match v {
        Verdict::Rejected { kind, message } => {
            assert_eq!(kind, "syntax", "{message}");
            assert!(message.contains(needle), "{message:?} lacks {needle:?}");
        }
        Verdict::Compiled(e) => panic!("`{e}` compiled"),
    }
}

// ------------------------------------------------------------------ codegen (E0282)

#[test]
fn expression_references_with_any_body_compile() {
    let data = json!({
        "a": [{"a": 0, "b": 1}, {"a": 2}, {"b": 3}],
        "objs": [{"n": 2, "s": "x"}, {"n": -1, "s": "y"}],
        "nested": [[{"n": 1}], [{"n": 2}]],
    });
    // Evaluate, and agree with the reference interpreter (result or error).
    let cases: [(Expression, &str); 6] = [
        (jmespath!("map(&a || b, a)"), "map(&a || b, a)"),
        (jmespath!("map(&a && b, a)"), "map(&a && b, a)"),
        (jmespath!("map(&n > `0`, objs)"), "map(&n > `0`, objs)"),
        (
            jmespath!("max_by(objs, &s == 'x')"),
            "max_by(objs, &s == 'x')",
        ),
        (
            jmespath!("max_by(nested[], &{k: n})"),
            "max_by(nested[], &{k: n})",
        ),
        (jmespath!("map(&[n, s], objs)"), "map(&[n, s], objs)"),
    ];
    for (e, src) in cases {
        let ours = e.search(&data).map(|n| n.to_value());
        let theirs = reference(src, &data);
        match (&ours, &theirs) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{src}"),
            (Err(_), Err(_)) => {}
            _ => panic!("{src}: ours {ours:?}, reference {theirs:?}"),
        }
    }
    let objs = json!([{"objs": [{"n": 3}, {"n": 1}]}, {"objs": [{"n": 0}]}]);
    let e = jmespath!("min_by(@, &sort_by(objs, &n)[0].n)");
    assert_eq!(e.search(&objs).unwrap(), json!({"objs": [{"n": 0}]}));
    assert_eq!(
        reference("min_by(@, &sort_by(objs, &n)[0].n)", &objs).unwrap(),
        json!({"objs": [{"n": 0}]})
    );
}

// ------------------------------------------------------------------ the macro never panics

#[test]
fn out_of_range_integers_are_compile_errors_at_the_literal() {
    // Indices and slice bounds are `i64`: beyond it, a compile error naming the number (never
    // a wrapped value).
    rejected_as_syntax(
        verdict!("baz[9223372036854775808]"),
        "`9223372036854775808` is outside -9223372036854775808..=9223372036854775807",
    );
    rejected_as_syntax(verdict!("@[99999999999999999999]"), "is outside");
    rejected_as_syntax(verdict!("a[1:-9223372036854775809]"), "is outside");
    rejected_as_syntax(verdict!("a[::18446744073709551616]"), "is outside");
    // A non-ASCII digit after `-` (Arabic-Indic three).
    rejected_as_syntax(verdict!("a[-\u{663}]"), "`-` must be followed by digits");
    // Beyond `i32` (the limit of the `jmespath` crate's tree) and the extremes of `i64` are fine.
    let data = json!({"a": [1, 2, 3]});
    for e in [
        jmespath!("a[2147483648]"),
        jmespath!("a[-2147483649]"),
        jmespath!("a[-9223372036854775808]"),
        jmespath!("a[9223372036854775807]"),
    ] {
        assert_eq!(e.search(&data).unwrap(), Value::Null);
    }
    assert_eq!(
        jmespath!("a[-9223372036854775808:9223372036854775807]")
            .search(&data)
            .unwrap(),
        json!([1, 2, 3])
    );
    assert_eq!(
        jmespath!("a[9223372036854775807:-9223372036854775808:-9223372036854775808]")
            .search(&data)
            .unwrap(),
        json!([3])
    );
    assert_eq!(
        jmespath!("a[-3:9223372036854775807:9223372036854775807]")
            .search(&data)
            .unwrap(),
        json!([1])
    );
}

// ------------------------------------------------------------------ parsing

#[test]
fn a_projection_stops_after_a_multi_select_hash() {
    let data = json!({"a": [{"n": 3}, {"n": 1}]});
    // jmespath.py (the reference implementation) gives null; the `jmespath` crate's parser
    // gives [3, 1], the defect we had too.
    assert_eq!(
        jmespath!("a[*].{x: n}.x").search(&data).unwrap(),
        Value::Null
    );
    assert_eq!(
        jmespath!("a[*].{x: n}").search(&data).unwrap(),
        json!([{"x": 3}, {"x": 1}])
    );
    assert_eq!(
        jmespath!("a[*].{x: n}[0]").search(&data).unwrap(),
        json!({"x": 3})
    );
    // The same for a multi-select list.
    assert_eq!(jmespath!("a[*].[n][0]").search(&data).unwrap(), json!([3]));
}

#[test]
fn a_multi_select_list_needs_its_commas() {
    rejected_as_syntax(
        verdict!("[b a]"),
        "expected `,` or `]`, found identifier `a`",
    );
    rejected_as_syntax(verdict!("length(a b)"), "expected `,` or `)`");
    rejected_as_syntax(verdict!("{a: a b: b}"), "`,` or `}`");
}

#[test]
fn minus_zero_is_an_index() {
    let data = json!({"a": [1, 2, 3]});
    assert_eq!(jmespath!("a[-0]").search(&data).unwrap(), json!(1));
    assert_eq!(jmespath!("a[-0:]").search(&data).unwrap(), json!([1, 2, 3]));
}

// ------------------------------------------------------------------ literal precision

#[test]
fn float_literals_keep_their_precision() {
    let data = json!({"n": 4503599627370495.5, "m": 0.1, "big": 1.7976931348623157e308});
    assert_eq!(
        jmespath!("n == `4503599627370495.5`")
            .search(&data)
            .unwrap(),
        json!(true)
    );
    assert_eq!(
        jmespath!("n == `4503599627370495.0`")
            .search(&data)
            .unwrap(),
        json!(false)
    );
    assert_eq!(jmespath!("m == `0.1`").search(&data).unwrap(), json!(true));
    assert_eq!(
        jmespath!("big == `1.7976931348623157e308`")
            .search(&data)
            .unwrap(),
        json!(true)
    );
}

// ------------------------------------------------------------------ jmespath docs: stricter rules

fn rejected_as(v: Verdict, kind: &str) {
    match v {
        Verdict::Rejected { kind: k, message } => assert_eq!(k, kind, "{message}"),
        Verdict::Compiled(e) => panic!("`{e}` compiled"),
    }
}

#[test]
fn the_stricter_rules_of_the_readme_hold() {
    rejected_as(verdict!("`[1]`.a"), "invalid-type");
    rejected_as(verdict!("'x'.name"), "invalid-type");
    rejected_as(verdict!("abs('x')"), "invalid-type");
    rejected_as(verdict!("length(`1`)"), "invalid-type");
    rejected_as(verdict!("map(&a, `{\"k\": 1}`)"), "invalid-type");
    rejected_as(verdict!("a || abs('x')"), "invalid-type");
    rejected_as(verdict!("a[9223372036854775808]"), "syntax");
    rejected_as(verdict!("length(a,)"), "syntax");
    // The interpreter evaluates them.
    let data = json!({"a": [1]});
    assert_eq!(reference("`[1]`.a", &data).unwrap(), Value::Null);
    assert_eq!(reference("a || abs('x')", &data).unwrap(), json!([1]));
}
