//! Edge cases of `jmespath!` and `#[derive(Searchable)]`, each once a defect: expression
//! references with any body compile, out-of-range literals are compile errors (not macro
//! panics), parsing corner cases, float literal precision, whole-value operations on deep data,
//! linear merges and equality, flattened enums and members, derive bounds, comparators on
//! projections, `dyn` elements, and the README's stricter rules.

use std::collections::{BTreeSet, HashMap};
use std::marker::PhantomData;

use serde_json::{Value, json};
use waiter_runtime::__private_v0_1::__jmespath_verdict as verdict;
use waiter_runtime::__private_v0_1::jmespath::Verdict;
use waiter_runtime::__private_v0_1::{all_string_equals, any_string_equals, failure_message};
use waiter_runtime::jmespath;
use waiter_runtime::jmespath::{Expression, Node, SearchError, Searchable};

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

// ------------------------------------------------------------------ deep data

/// `[[[...[leaf]...]]]`, `depth` arrays deep, built without recursion.
fn deep_array(depth: usize) -> Value {
    let mut v = json!("leaf");
    for _ in 0..depth {
        v = Value::Array(vec![v]);
    }
    v
}

/// `{"a": {"a": ... }}`, built without recursion.
fn deep_object(depth: usize) -> Value {
    let mut v = json!(1);
    for _ in 0..depth {
        let mut m = serde_json::Map::new();
        m.insert("a".into(), v);
        v = Value::Object(m);
    }
    v
}

/// Drops a deep value without recursion (serde_json's own drop recurses).
fn drop_deep(v: Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(a) => stack.extend(a),
            Value::Object(o) => stack.extend(o.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// Runs `f` on a thread with a 2 MiB stack (the default of spawned threads): an abort there
/// fails the whole test binary.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn whole_value_operations_on_deep_data_give_a_result_or_an_error() {
    on_small_stack(|| {
        for depth in [1_000, 10_000, 100_000] {
            for data in [deep_array(depth), deep_object(depth)] {
                let too_deep = SearchError::TooDeep {
                    limit: Node::MAX_DEPTH,
                };
                assert_eq!(
                    jmespath!("to_string(@)").search(&data).unwrap_err(),
                    too_deep
                );
                assert_eq!(jmespath!("@").search_value(&data).unwrap_err(), too_deep);
                assert_eq!(jmespath!("@ == @").search(&data).unwrap(), json!(true));
                assert_eq!(jmespath!("@ != @").search(&data).unwrap(), json!(false));
                let node = jmespath!("@").search(&data).unwrap();
                assert!(node == data);
                assert!(data == node);
                // Display writes null below the limit instead of recursing further.
                let shown = node.to_string();
                assert!(shown.contains("null") && !shown.contains("leaf") && !shown.contains(":1"));
                assert!(node.try_to_value().is_err());
                assert_eq!(jmespath!("length(@)").search(&data).unwrap(), json!(1));
                assert!(
                    jmespath!("type(@)")
                        .search(&data)
                        .unwrap()
                        .as_str()
                        .is_some()
                );
                drop_deep(data);
            }
        }
        // Within the limit, everything converts exactly.
        let data = deep_object(Node::MAX_DEPTH - 1);
        let back = jmespath!("@").search_value(&data).unwrap();
        assert_eq!(back, data);
        assert!(jmespath!("to_string(@)").search(&data).is_ok());
        drop_deep(back);
        drop_deep(data);
    });
}

/// A derived recursive tree.
#[derive(Searchable)]
struct Tree {
    value: u32,
    child: Option<Box<Tree>>,
}

fn deep_tree(depth: usize) -> Tree {
    let mut t = Tree {
        value: 0,
        child: None,
    };
    for i in 1..=depth {
        t = Tree {
            value: i as u32,
            child: Some(Box::new(t)),
        };
    }
    t
}

fn drop_tree(mut t: Tree) {
    while let Some(c) = t.child.take() {
        t = *c;
    }
}

#[test]
fn derived_recursive_trees_of_any_depth_are_searched_without_abort() {
    on_small_stack(|| {
        let t = deep_tree(100_000);
        assert!(jmespath!("to_string(@)").search(&t).is_err());
        assert!(jmespath!("@").search_value(&t).is_err());
        assert_eq!(jmespath!("@ == @").search(&t).unwrap(), json!(true));
        assert_eq!(
            jmespath!("child.child.value").search(&t).unwrap(),
            json!(99_998)
        );
        let node = jmespath!("@").search(&t).unwrap();
        assert!(!node.to_string().is_empty());
        assert_eq!(
            jmespath!("keys(@)").search(&t).unwrap(),
            json!(["value", "child"])
        );
        drop(node);
        drop_tree(t);
    });
}

// ------------------------------------------------------------------ quadratic paths

#[test]
fn merge_and_equality_of_large_objects_are_linear() {
    // Quadratic versions took minutes here (21.5 s in release for merge); linear ones take
    // milliseconds. Speed itself is measured by the `merge_100k` bench row.
    let keys: serde_json::Map<String, Value> = (0..100_000)
        .map(|i| (format!("k{i}"), Value::from(i)))
        .collect();
    let big = Value::Object(keys);
    let merged = jmespath!("merge(@, `{\"k5\": \"five\"}`)")
        .search(&big)
        .unwrap();
    let merged = merged.to_value();
    assert_eq!(merged.as_object().unwrap().len(), 100_000);
    assert_eq!(merged["k5"], json!("five"));
    assert_eq!(merged["k99999"], json!(99_999));
    // `==` between two computed objects.
    assert_eq!(
        jmespath!("merge(@) == merge(@, @)").search(&big).unwrap(),
        json!(true)
    );
    assert_eq!(
        jmespath!("merge(@) == merge(@, `{\"k1\": 0}`)")
            .search(&big)
            .unwrap(),
        json!(false)
    );
}

#[test]
fn sets_are_walked_not_indexed() {
    let set: BTreeSet<u32> = (0..50_000).collect();
    assert_eq!(jmespath!("@ == @").search(&set).unwrap(), json!(true));
    assert_eq!(
        jmespath!("length(@[::2])").search(&set).unwrap(),
        json!(25_000)
    );
    assert_eq!(jmespath!("@[-1]").search(&set).unwrap(), json!(49_999));
    assert_eq!(jmespath!("max(@)").search(&set).unwrap(), json!(49_999));
}

// ------------------------------------------------------------------ flatten

#[derive(Searchable, serde::Serialize)]
enum Kind {
    Disk(u32),
    Network { speed: u32 },
}

#[derive(Searchable, serde::Serialize)]
struct Device {
    name: String,
    #[serde(flatten)]
    kind: Kind,
}

#[test]
fn a_flattened_data_enum_is_one_consistent_member() {
    for device in [
        Device {
            name: "d".into(),
            kind: Kind::Disk(3),
        },
        Device {
            name: "n".into(),
            kind: Kind::Network { speed: 10 },
        },
    ] {
        // serde's JSON form is the reference.
        let json = serde_json::to_value(&device).unwrap();
        assert_eq!(jmespath!("@").search(&device).unwrap(), json);
        assert_eq!(jmespath!("@").search_value(&device).unwrap(), json);
        let keys = jmespath!("sort(keys(@))").search(&device).unwrap();
        assert_eq!(keys, jmespath!("sort(keys(@))").search(&json).unwrap());
        assert_eq!(
            jmespath!("length(@)").search(&device).unwrap(),
            json!(json.as_object().unwrap().len())
        );
        assert_eq!(
            jmespath!("length(values(@))").search(&device).unwrap(),
            jmespath!("length(@)").search(&device).unwrap()
        );
        assert_eq!(
            jmespath!("length(*)").search(&device).unwrap(),
            jmespath!("length(@)").search(&device).unwrap()
        );
        assert_eq!(jmespath!("merge(@)").search(&device).unwrap(), json);
        // `to_string` writes members in the value's own order, as serde serializes it.
        assert_eq!(
            jmespath!("to_string(@)").search(&device).unwrap(),
            json!(serde_json::to_string(&device).unwrap())
        );
        // `==` both ways, against the same object and a different one.
        let node = jmespath!("@").search(&device).unwrap();
        let same = Node::from_value(json.clone());
        assert!(node.json_eq(&same) && same.json_eq(&node));
        let other = Node::from_value(json!({"name": device.name.clone()}));
        assert!(!node.json_eq(&other) && !other.json_eq(&node));
    }
}

#[derive(Searchable)]
struct Tagged {
    name: String,
    #[serde(flatten)]
    extra: HashMap<String, String>,
}

#[test]
fn a_flattened_member_never_repeats_a_plain_member_name() {
    let t = Tagged {
        name: "plain".into(),
        extra: HashMap::from([
            ("name".to_owned(), "flattened".to_owned()),
            ("other".to_owned(), "o".to_owned()),
        ]),
    };
    assert_eq!(
        jmespath!("sort(keys(@))").search(&t).unwrap(),
        json!(["name", "other"])
    );
    assert_eq!(jmespath!("length(@)").search(&t).unwrap(), json!(2));
    assert_eq!(jmespath!("name").search(&t).unwrap(), json!("plain"));
    assert_eq!(
        jmespath!("@").search(&t).unwrap(),
        json!({"name": "plain", "other": "o"})
    );
}

// ------------------------------------------------------------------ derive bounds

/// Not searchable.
struct Opaque;

#[derive(Searchable)]
struct WithSkipped<T, U> {
    id: u32,
    #[serde(skip)]
    _marker: PhantomData<T>,
    #[searchable(skip)]
    _other: Option<U>,
}

#[test]
fn parameters_of_skipped_fields_are_not_bounded() {
    let w: WithSkipped<Opaque, Opaque> = WithSkipped {
        id: 7,
        _marker: PhantomData,
        _other: None,
    };
    assert_eq!(jmespath!("id").search(&w).unwrap(), json!(7));
    assert_eq!(jmespath!("keys(@)").search(&w).unwrap(), json!(["id"]));
}

// ------------------------------------------------------------------ comparators on projections

#[derive(Searchable)]
struct Names {
    items: Vec<Item>,
}

#[derive(Searchable)]
struct Item {
    state: String,
}

#[test]
fn comparators_read_projected_strings() {
    let names = Names {
        items: vec![Item { state: "ok".into() }, Item { state: "ok".into() }],
    };
    let r = jmespath!("items[].state").search(&names);
    assert!(matches!(
        r,
        Ok(Node::Array(waiter_runtime::jmespath::Array::Strs(_)))
    ));
    assert!(all_string_equals(&r, "ok"));
    assert!(any_string_equals(&r, "ok"));
    assert!(!any_string_equals(&r, "ko"));
    assert_eq!(failure_message(&r).as_deref(), Some("ok; ok"));
    // A projection mixing strings and other values falls back to nodes, in order.
    let data = json!({"a": [{"b": "x"}, {"b": 1}, {"b": "y"}]});
    let r = jmespath!("a[].b").search(&data);
    assert_eq!(r.clone().unwrap(), json!(["x", 1, "y"]));
    assert!(!all_string_equals(&r, "x"));
    assert_eq!(failure_message(&r).as_deref(), Some("x; y"));
}

// ------------------------------------------------------------------ plans and dyn elements

#[derive(Searchable)]
struct First {
    x: String,
    y: String,
}

#[derive(Searchable)]
struct Second {
    y: String,
    x: String,
    #[serde(flatten)]
    more: HashMap<String, String>,
}

#[test]
fn elements_of_different_types_behind_dyn_are_walked_by_their_own_members() {
    // A projection resolves member names once per array (on the first element); elements of
    // another type behind `dyn Searchable` must not reuse those indices.
    let items: Vec<Box<dyn Searchable + Sync>> = vec![
        Box::new(First {
            x: "1x".into(),
            y: "1y".into(),
        }),
        Box::new(Second {
            y: "2y".into(),
            x: "2x".into(),
            more: HashMap::from([("z".to_owned(), "2z".to_owned())]),
        }),
        Box::new(json!({"x": "3x"})),
        Box::new(First {
            x: "4x".into(),
            y: "4y".into(),
        }),
    ];
    assert_eq!(
        jmespath!("[*].x").search(&items).unwrap(),
        json!(["1x", "2x", "3x", "4x"])
    );
    assert_eq!(
        jmespath!("[*].y").search(&items).unwrap(),
        json!(["1y", "2y", "4y"])
    );
    assert_eq!(jmespath!("[*].z").search(&items).unwrap(), json!(["2z"]));
    let nested = json!([[{"x": "a"}], [{"x": "b"}, {"y": "c"}]]);
    assert_eq!(
        jmespath!("[].x").search(&nested).unwrap(),
        json!(["a", "b"])
    );
}

// ------------------------------------------------------------------ README: stricter rules

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
