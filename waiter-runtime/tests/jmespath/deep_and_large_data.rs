//! Deep and large data: whole-value operations on deeply nested JSON and derived recursive
//! trees give a result or an error on a small stack (no abort), and merging, comparing and
//! walking large objects and sets is linear.

use std::collections::BTreeSet;

use serde_json::{Value, json};
use waiter_runtime::jmespath;
use waiter_runtime::jmespath::{Node, SearchError, Searchable};

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
