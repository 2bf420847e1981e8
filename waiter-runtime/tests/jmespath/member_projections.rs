//! `name[].a.b[].c.d` from an object walks member `name` in place (a derived struct's member
//! with static dispatch, no node built for it): every kind of member, missing or not an array,
//! gives what the JSON form of the same data gives.

use std::sync::Arc;

use serde_json::Value;
use waiter_runtime::jmespath;
use waiter_runtime::jmespath::{Expression, Searchable};

#[derive(Searchable, serde::Serialize, Clone)]
struct Leaf {
    v: String,
    n: Option<u32>,
}

#[derive(Searchable, serde::Serialize, Clone)]
struct Mid {
    leaves: Vec<Leaf>,
    one: Leaf,
    opt: Option<Vec<Leaf>>,
}

#[derive(Searchable, serde::Serialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Extra {
    flat_items: Vec<Mid>,
}

#[derive(Searchable, serde::Serialize, Clone)]
#[serde(rename_all = "camelCase")]
struct Root {
    items: Vec<Mid>,
    none: Option<Vec<Mid>>,
    some: Option<Vec<Mid>>,
    /// Forwarded by the pointer, as users write it for large members.
    #[allow(clippy::box_collection)]
    boxed: Box<Vec<Mid>>,
    shared: Arc<Vec<Mid>>,
    single: Mid,
    text: String,
    array: [Mid; 2],
    nested: Vec<Vec<Mid>>,
    #[searchable(serde)]
    via_serde: Vec<Mid>,
    /// `flatItems` is found through the flattened member.
    #[serde(flatten)]
    extra: Extra,
}

fn leaf(v: &str, n: Option<u32>) -> Leaf {
    Leaf { v: v.into(), n }
}

fn mid(tag: &str) -> Mid {
    Mid {
        leaves: vec![
            leaf(&format!("{tag}-a"), Some(1)),
            leaf(&format!("{tag}-b"), None),
        ],
        one: leaf(&format!("{tag}-one"), Some(2)),
        opt: (tag.len() % 2 == 0).then(|| vec![leaf(&format!("{tag}-opt"), Some(3))]),
    }
}

fn root() -> Root {
    Root {
        items: vec![mid("i1"), mid("i22")],
        none: None,
        some: Some(vec![mid("s1")]),
        boxed: Box::new(vec![mid("b1"), mid("b22")]),
        shared: Arc::new(vec![mid("h1")]),
        single: mid("one"),
        text: "text".into(),
        array: [mid("a1"), mid("a22")],
        nested: vec![vec![mid("n1"), mid("n22")], vec![], vec![mid("n333")]],
        via_serde: vec![mid("v1")],
        extra: Extra {
            flat_items: vec![mid("f1"), mid("f22")],
        },
    }
}

/// Each member, projected five ways.
const EXPRESSIONS: [Expression; 60] = [
    jmespath!("items[].leaves[].v"),
    jmespath!("items[].leaves[].n"),
    jmespath!("items[].opt[].v"),
    jmespath!("items[].one[].v"),
    jmespath!("items[].leaves[].missing"),
    jmespath!("none[].leaves[].v"),
    jmespath!("none[].leaves[].n"),
    jmespath!("none[].opt[].v"),
    jmespath!("none[].one[].v"),
    jmespath!("none[].leaves[].missing"),
    jmespath!("some[].leaves[].v"),
    jmespath!("some[].leaves[].n"),
    jmespath!("some[].opt[].v"),
    jmespath!("some[].one[].v"),
    jmespath!("some[].leaves[].missing"),
    jmespath!("boxed[].leaves[].v"),
    jmespath!("boxed[].leaves[].n"),
    jmespath!("boxed[].opt[].v"),
    jmespath!("boxed[].one[].v"),
    jmespath!("boxed[].leaves[].missing"),
    jmespath!("shared[].leaves[].v"),
    jmespath!("shared[].leaves[].n"),
    jmespath!("shared[].opt[].v"),
    jmespath!("shared[].one[].v"),
    jmespath!("shared[].leaves[].missing"),
    jmespath!("single[].leaves[].v"),
    jmespath!("single[].leaves[].n"),
    jmespath!("single[].opt[].v"),
    jmespath!("single[].one[].v"),
    jmespath!("single[].leaves[].missing"),
    jmespath!("text[].leaves[].v"),
    jmespath!("text[].leaves[].n"),
    jmespath!("text[].opt[].v"),
    jmespath!("text[].one[].v"),
    jmespath!("text[].leaves[].missing"),
    jmespath!("array[].leaves[].v"),
    jmespath!("array[].leaves[].n"),
    jmespath!("array[].opt[].v"),
    jmespath!("array[].one[].v"),
    jmespath!("array[].leaves[].missing"),
    jmespath!("nested[].leaves[].v"),
    jmespath!("nested[].leaves[].n"),
    jmespath!("nested[].opt[].v"),
    jmespath!("nested[].one[].v"),
    jmespath!("nested[].leaves[].missing"),
    jmespath!("viaSerde[].leaves[].v"),
    jmespath!("viaSerde[].leaves[].n"),
    jmespath!("viaSerde[].opt[].v"),
    jmespath!("viaSerde[].one[].v"),
    jmespath!("viaSerde[].leaves[].missing"),
    jmespath!("flatItems[].leaves[].v"),
    jmespath!("flatItems[].leaves[].n"),
    jmespath!("flatItems[].opt[].v"),
    jmespath!("flatItems[].one[].v"),
    jmespath!("flatItems[].leaves[].missing"),
    jmespath!("missing[].leaves[].v"),
    jmespath!("missing[].leaves[].n"),
    jmespath!("missing[].opt[].v"),
    jmespath!("missing[].one[].v"),
    jmespath!("missing[].leaves[].missing"),
];

#[test]
fn every_kind_of_member_projects_as_its_json_form() {
    let data = root();
    let json: Value = serde_json::to_value(&data).unwrap();
    let mut arrays = 0;
    for e in EXPRESSIONS {
        let ours = e.search_value(&data).unwrap();
        assert_eq!(ours, e.search_value(&json).unwrap(), "{e}");
        arrays += usize::from(ours.as_array().is_some_and(|a| !a.is_empty()));
    }
    // Not all null: the members that are arrays gave their elements' leaves.
    assert!(arrays >= 25, "{arrays}");
    assert_eq!(
        jmespath!("items[].leaves[].v").search_value(&data).unwrap(),
        serde_json::json!(["i1-a", "i1-b", "i22-a", "i22-b"])
    );
}

#[test]
fn objects_the_expression_built_project_their_members_too() {
    let data = root();
    let json: Value = serde_json::to_value(&data).unwrap();
    for e in [
        jmespath!("{x: items}.x[].leaves[].v"),
        jmespath!("{x: text}.x[].leaves[].v"),
        jmespath!("single.leaves[].one[].v"),
        jmespath!("nested[0][].leaves[].v"),
    ] {
        assert_eq!(
            e.search_value(&data).unwrap(),
            e.search_value(&json).unwrap(),
            "{e}"
        );
    }
}

#[test]
fn a_member_projection_over_a_borrowed_or_shared_root() {
    let data = root();
    let e = jmespath!("items[].leaves[].v");
    let expected = e.search_value(&data).unwrap();
    assert_eq!(e.search_value(&&data).unwrap(), expected);
    assert_eq!(e.search_value(&Arc::new(data.clone())).unwrap(), expected);
    assert_eq!(e.search_value(&Some(data)).unwrap(), expected);
}
