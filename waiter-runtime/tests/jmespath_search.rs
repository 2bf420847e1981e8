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
