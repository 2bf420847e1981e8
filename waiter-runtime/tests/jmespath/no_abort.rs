//! No expression the macro accepts panics or aborts on any document,
//! nested up to 10,000 levels deep; every search gives a result or a `SearchError`, on a thread
//! with the default 2 MiB stack.

use proptest::prelude::*;

use crate::beside_the_source;
use serde_json::{Map, Value, json};
use waiter_runtime::jmespath;
use waiter_runtime::jmespath::Expression;

/// Expressions covering the grammar: every kind of node, every function, expression
/// references, projections of each kind, literals, operators.
const EXPRESSIONS: &[Expression] = &[
    jmespath!("@"),
    jmespath!("a"),
    jmespath!("a.b.c"),
    jmespath!("\"a\".b"),
    jmespath!("a[0]"),
    jmespath!("a[-1]"),
    jmespath!("[0][0][0]"),
    jmespath!("a[1:3]"),
    jmespath!("@[::-1]"),
    jmespath!("a[::2].b"),
    jmespath!("a[*]"),
    jmespath!("a[*].b"),
    jmespath!("@[*][*]"),
    jmespath!("*"),
    jmespath!("*.a"),
    jmespath!("a.*.b"),
    jmespath!("@[]"),
    jmespath!("@[][]"),
    jmespath!("a[].b[].c"),
    jmespath!("[].a"),
    jmespath!("a[?b]"),
    jmespath!("@[?@ == `1`]"),
    jmespath!("a[?b > `0`].c"),
    jmespath!("a[?!b]"),
    jmespath!("[a, b]"),
    jmespath!("{x: a, y: b}"),
    jmespath!("a[*].{x: b}.x"),
    jmespath!("a || b"),
    jmespath!("a && b"),
    jmespath!("!a"),
    jmespath!("a == b"),
    jmespath!("@ == @"),
    jmespath!("@ != a"),
    jmespath!("a < b"),
    jmespath!("a >= `2`"),
    jmespath!("a | b"),
    jmespath!("a[*] | [0]"),
    jmespath!("`{\"k\": [1, 2]}`.k[1]"),
    jmespath!("'raw'"),
    jmespath!("abs(a)"),
    jmespath!("avg(@)"),
    jmespath!("ceil(a)"),
    jmespath!("floor(a)"),
    jmespath!("contains(@, `1`)"),
    jmespath!("contains(a, 'x')"),
    jmespath!("ends_with(a, 'x')"),
    jmespath!("starts_with(a, 'x')"),
    jmespath!("join(',', @)"),
    jmespath!("keys(@)"),
    jmespath!("values(@)"),
    jmespath!("length(@)"),
    jmespath!("map(&a, @)"),
    jmespath!("map(&[a, @], @)"),
    jmespath!("max(@)"),
    jmespath!("min(@)"),
    jmespath!("max_by(@, &a)"),
    jmespath!("min_by(@, &to_string(@))"),
    jmespath!("sort_by(@, &to_string(@))"),
    jmespath!("merge(@, @)"),
    jmespath!("not_null(a, b, @)"),
    jmespath!("reverse(@)"),
    jmespath!("sort(@)"),
    jmespath!("sum(@)"),
    jmespath!("to_array(@)"),
    jmespath!("to_string(@)"),
    jmespath!("to_number(@)"),
    jmespath!("type(@)"),
    jmespath!("length(to_string(@))"),
    jmespath!("to_string(a[0])"),
];

const KEYS: &[&str] = &["a", "b", "c", "k"];

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..5).prop_map(|n| json!(n)),
        (-3.0f64..5.0).prop_map(|f| json!(f)),
        prop::sample::select(&["x", "", "ax"][..]).prop_map(|s| json!(s)),
    ]
}

fn shallow() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(4, 32, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..4).prop_map(|kv| {
                Value::Object(
                    kv.into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect::<Map<_, _>>(),
                )
            }),
        ]
    })
}

/// A shallow document wrapped in `depth` levels of arrays and objects (chosen by `pattern`),
/// with `siblings` next to the chain at the top; built without recursion.
fn deep() -> impl Strategy<Value = Value> {
    (
        shallow(),
        0usize..10_000,
        any::<u64>(),
        prop::collection::vec(scalar(), 0..3),
    )
        .prop_map(|(leaf, depth, pattern, siblings)| {
            let mut v = leaf;
            for level in 0..depth {
                v = if (pattern >> (level % 64)) & 1 == 0 {
                    Value::Array(vec![v])
                } else {
                    let mut m = Map::new();
                    m.insert(KEYS[level % KEYS.len()].to_owned(), v);
                    Value::Object(m)
                };
            }
            match v {
                Value::Array(mut a) => {
                    a.extend(siblings);
                    Value::Array(a)
                }
                other => other,
            }
        })
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

fn search_everything(doc: &Value) {
    for e in EXPRESSIONS {
        // Result or error; the whole-value conversions too.
        match e.search(doc) {
            Ok(node) => {
                let _ = node.to_string();
                let _ = format!("{node:?}");
                if let Ok(v) = node.try_to_value() {
                    drop_deep(v);
                }
                drop_deep(node.to_value());
                let _ = node == *doc;
            }
            Err(err) => {
                let _ = err.to_string();
            }
        }
        if let Ok(v) = e.search_value(doc) {
            drop_deep(v);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: beside_the_source(), ..ProptestConfig::default() })]

    #[test]
    fn accepted_expressions_never_panic_or_abort(doc in deep()) {
        let doc = std::sync::Arc::new(doc);
        let shared = doc.clone();
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || search_everything(&shared))
            .unwrap()
            .join()
            .map_err(|_| TestCaseError::fail("a search panicked"))?;
        if let Ok(doc) = std::sync::Arc::try_unwrap(doc) {
            drop_deep(doc);
        }
    }
}
