//! Walking derived types at the corners: a flattened data enum is one consistent member, a
//! flattened member never repeats a plain member's name, the parameters of skipped fields are
//! not bounded, comparators read projected strings, and elements of different types behind
//! `dyn` are walked by their own members.

use std::collections::HashMap;
use std::marker::PhantomData;

use serde_json::json;
use waiter_runtime::__private_v0_1::{all_string_equals, any_string_equals, failure_message};
use waiter_runtime::jmespath;
use waiter_runtime::jmespath::{Node, Searchable};

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
