//! `jmespath!` over `serde_json::Value` and standard types: the language, borrowing, errors.

use std::collections::{BTreeMap, HashMap};

use serde_json::json;
use waiter_runtime::jmespath;
use waiter_runtime::jmespath::{Fields, InputOutput, Node, SearchError, Serialized};

#[test]
fn paths_projections_and_filters() {
    let data = json!({
        "Reservations": [
            {"Instances": [{"State": {"Name": "running"}}, {"State": {"Name": "pending"}}]},
            {"Instances": [{"State": {"Name": "running"}}]}
        ]
    });
    assert_eq!(
        jmespath!("Reservations[].Instances[].State.Name")
            .search(&data)
            .unwrap(),
        json!(["running", "pending", "running"])
    );
    assert_eq!(
        jmespath!("length(Reservations[]) > `0`")
            .search(&data)
            .unwrap(),
        json!(true)
    );
    assert_eq!(
        jmespath!("Reservations[].Instances[?State.Name=='running'][] | length(@)")
            .search(&data)
            .unwrap(),
        json!(2)
    );
    assert_eq!(
        jmespath!("{first: Reservations[0].Instances[0].State.Name, n: length(Reservations)}")
            .search(&data)
            .unwrap(),
        json!({"first": "running", "n": 2})
    );
    assert_eq!(
        jmespath!("sort_by(Reservations[].Instances[], &State.Name)[*].State.Name")
            .search(&data)
            .unwrap(),
        json!(["pending", "running", "running"])
    );
}

#[test]
fn runtime_errors_are_typed_and_never_panic() {
    let data = json!({"a": "x", "b": [1, "two"]});
    assert!(matches!(
        jmespath!("abs(a)").search(&data),
        Err(SearchError::InvalidType {
            function: "abs",
            position: 0,
            expected: "number",
            actual: "string"
        })
    ));
    assert!(matches!(
        jmespath!("sort(b)").search(&data),
        Err(SearchError::InvalidType {
            function: "sort",
            ..
        })
    ));
    let err = jmespath!("b[::0]").search(&data).unwrap_err();
    assert_eq!(err.kind(), "invalid-value");
    let boxed: Box<dyn std::error::Error> = Box::new(err);
    assert_eq!(boxed.to_string(), "invalid-value: slice step cannot be 0");
}

/// Found by the random comparison with jmespath.py (jmespath-compliance/tests/reference_random.rs).
#[test]
fn a_zero_slice_step_is_an_error_only_on_an_array() {
    // jmespath.py looks at the value first: slicing anything but an array is null.
    let data = json!({"a": "x", "b": [1, 2]});
    assert_eq!(jmespath!("a[::0]").search(&data).unwrap(), json!(null));
    assert_eq!(jmespath!("c[1:2:0]").search(&data).unwrap(), json!(null));
    assert_eq!(
        jmespath!("[a[::0], `1`]").search(&data).unwrap(),
        json!([null, 1])
    );
    // ... so an error later in the expression is the one reported.
    assert!(matches!(
        jmespath!("length(a[::0])").search(&data),
        Err(SearchError::InvalidType {
            function: "length",
            ..
        })
    ));
    assert_eq!(
        jmespath!("b[::0]").search(&data).unwrap_err().kind(),
        "invalid-value"
    );
}

/// `to_string` writes JSON as jmespath.py does (Python's `json.dumps`): found by the random
/// comparison with jmespath.py.
#[test]
fn to_string_writes_json_as_the_reference_implementation() {
    let s = |expr: waiter_runtime::jmespath::Expression, data: &serde_json::Value| {
        expr.search(data).unwrap().as_str().unwrap().to_owned()
    };
    let data = json!({"u": "\u{e9}t\u{e9} \u{1F600} \u{7f}", "f": 1e3, "z": -0.0, "i": 9007199254740993u64});
    // Non-ASCII as \u escapes (a surrogate pair beyond the BMP), DEL too.
    assert_eq!(
        s(jmespath!("to_string([u])"), &data),
        r#"["\u00e9t\u00e9 \ud83d\ude00 \u007f"]"#
    );
    // Floats as Python's repr; integers exactly.
    assert_eq!(
        s(jmespath!("to_string([f, z, i])"), &data),
        "[1000.0,-0.0,9007199254740993]"
    );
    assert_eq!(
        s(
            jmespath!("to_string(`[1e16, 1e15, 0.0001, 0.00001, 1.5e-7, -2.5e300, 0.1]`)"),
            &data
        ),
        "[1e+16,1000000000000000.0,0.0001,1e-05,1.5e-07,-2.5e+300,0.1]"
    );
    // Members in the object's order (a multi-select hash: as written; merge: first insertion).
    assert_eq!(
        s(jmespath!("to_string({z: `1`, a: `2`})"), &data),
        r#"{"z":1,"a":2}"#
    );
    assert_eq!(
        s(
            jmespath!("to_string(merge({b: `1`, a: `2`}, {b: `3`}))"),
            &data
        ),
        r#"{"b":3,"a":2}"#
    );
}

/// Integer and float results keep their kind, as in jmespath.py (`to_string` shows it): found
/// by the random comparison with jmespath.py.
#[test]
fn numeric_functions_keep_integers_and_floats_apart() {
    let s = |expr: waiter_runtime::jmespath::Expression| {
        expr.search(&json!(null))
            .unwrap()
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(s(jmespath!("to_string(sum(`[1, 2]`))")), "3");
    assert_eq!(s(jmespath!("to_string(sum(`[1.5, 1.5]`))")), "3.0");
    assert_eq!(s(jmespath!("to_string(sum(`[]`))")), "0");
    assert_eq!(
        s(jmespath!("to_string(sum(`[9007199254740993, 1]`))")),
        "9007199254740994"
    );
    assert_eq!(s(jmespath!("to_string(avg(`[1, 3]`))")), "2.0");
    assert_eq!(s(jmespath!("to_string(abs(`-2.0`))")), "2.0");
    assert_eq!(s(jmespath!("to_string(abs(`-2`))")), "2");
    // A float sum starts from 0 (not -0.0), as Python's.
    assert_eq!(s(jmespath!("to_string(sum(`[-0.0]`))")), "0.0");
    assert_eq!(s(jmespath!("to_string(avg(`[-0.0]`))")), "0.0");
    // `-0` is the integer 0.
    assert_eq!(s(jmespath!("to_string(to_number('-0'))")), "0");
    assert_eq!(s(jmespath!("to_string(to_number('-0.0'))")), "-0.0");
    // |i64::MIN| is exact (an unsigned integer), not a float.
    assert_eq!(
        s(jmespath!("to_string(abs(`-9223372036854775808`))")),
        "9223372036854775808"
    );
}

/// An empty projection result (held as an array of borrowed strings) is an array to the next
/// projection: found by the random comparison with jmespath.py.
#[test]
fn a_projection_over_an_empty_or_string_projection_is_an_array() {
    assert_eq!(
        jmespath!("[*].c | [*].x[]").search(&json!([])).unwrap(),
        json!([])
    );
    let data = json!({"a": [{"b": "s"}], "e": []});
    assert_eq!(
        jmespath!("e[*].c | [*].x[]").search(&data).unwrap(),
        json!([])
    );
    assert_eq!(
        jmespath!("a[*].b | [*].x[]").search(&data).unwrap(),
        json!([])
    );
    assert_eq!(
        jmespath!("not_null(e[*].c)[*].x[][]")
            .search(&data)
            .unwrap(),
        json!([])
    );
}

/// Integers compare exactly, among themselves and against doubles: found by the random
/// comparison with jmespath.py.
#[test]
fn numbers_compare_by_exact_value() {
    let t = |expr: waiter_runtime::jmespath::Expression| expr.search(&json!(null)).unwrap();
    assert_eq!(
        t(jmespath!("`18446744073709551615` > `18446744073709551614`")),
        json!(true)
    );
    assert_eq!(
        t(jmespath!("`9007199254740993` > `9007199254740992.0`")),
        json!(true)
    );
    assert_eq!(
        t(jmespath!("`9007199254740993` == `9007199254740992.0`")),
        json!(false)
    );
    assert_eq!(
        t(jmespath!("`-9223372036854775808` < `18446744073709551615`")),
        json!(true)
    );
    assert_eq!(t(jmespath!("`1` == `1.0`")), json!(true));
    assert_eq!(t(jmespath!("`-0.0` == `0`")), json!(true));
    assert_eq!(
        t(jmespath!(
            "max(`[18446744073709551614, 18446744073709551615]`)"
        )),
        json!(18446744073709551615u64)
    );
    assert_eq!(
        t(jmespath!(
            "sort(`[18446744073709551615, 9007199254740993, 9007199254740992.0]`)"
        )),
        json!([
            9007199254740992.0,
            9007199254740993u64,
            18446744073709551615u64
        ])
    );
}

#[test]
fn standard_types_are_searchable() {
    let mut map = HashMap::new();
    map.insert("k".to_string(), vec![Some(1u8), None, Some(3)]);
    assert_eq!(jmespath!("k[?@ > `1`]").search(&map).unwrap(), json!([3]));
    let tree: BTreeMap<String, &str> = [("a".to_string(), "x")].into();
    assert_eq!(jmespath!("values(@)").search(&tree).unwrap(), json!(["x"]));
    let boxed: Box<[f64]> = vec![1.5, 2.5].into_boxed_slice();
    assert_eq!(jmespath!("sum(@)").search(&boxed).unwrap(), json!(4));
    assert_eq!(jmespath!("@").search("text").unwrap(), json!("text"));
    assert_eq!(
        jmespath!("to_string(@)").search(&true).unwrap(),
        json!("true")
    );
}

#[test]
fn results_borrow_from_the_data() {
    let data = json!({"a": {"b": "a long string"}});
    let node = jmespath!("a.b").search(&data).unwrap();
    match node {
        Node::String(std::borrow::Cow::Borrowed(s)) => {
            assert!(std::ptr::eq(s, data["a"]["b"].as_str().unwrap()))
        }
        other => panic!("expected a borrowed string, got {other}"),
    }
}

#[test]
fn input_output_fields_and_serialized() {
    let input = json!({"groups": ["a", "b"]});
    let output = vec![json!({"id": "a"}), json!({"id": "b"})];
    let io = InputOutput::new(&input, &output);
    assert_eq!(
        jmespath!("length(input.groups) == length(output)")
            .search(&io)
            .unwrap(),
        json!(true)
    );
    let n = 3u32;
    let fields = Fields(&[("n", &n)]);
    assert_eq!(jmespath!("n").search(&fields).unwrap(), json!(3));

    #[derive(serde::Serialize)]
    struct Foreign {
        #[serde(rename = "Status")]
        status: &'static str,
    }
    let f = Foreign { status: "ok" };
    assert_eq!(
        jmespath!("Status").search(&Serialized(&f)).unwrap(),
        json!("ok")
    );
}

#[test]
fn expressions_are_const() {
    const E: jmespath::Expression = jmespath!("a");
    assert_eq!(E.source(), "a");
    assert_eq!(E.search_value(&json!({"a": 1})).unwrap(), json!(1));
    assert_eq!(format!("{E:?}"), "Expression(\"a\")");
}
