//! Projections over derived structs record a plan (member indices, checked per level by the
//! type's key) on the first elements of an array and choose each member once per array. These
//! tests cover what the plan cannot see or must not trust: flattened members, `None` members,
//! pointers, elements of other types behind `dyn` or a hand-written impl, results that are not
//! strings. Every case is checked against the JSON form of the same data.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Value, json};
use waiter_runtime::jmespath;
use waiter_runtime::jmespath::{Expression, Node, Searchable};

#[derive(Searchable, serde::Serialize, Clone)]
#[serde(rename_all = "PascalCase")]
struct Output {
    reservations: Vec<Reservation>,
}

#[derive(Searchable, serde::Serialize, Clone)]
#[serde(rename_all = "PascalCase")]
struct Reservation {
    id: String,
    instances: Vec<Instance>,
    maybe: Option<Vec<Instance>>,
}

#[derive(Searchable, serde::Serialize, Clone)]
#[serde(rename_all = "PascalCase")]
struct Instance {
    instance_id: String,
    state: Option<State>,
    #[serde(flatten)]
    extra: Extra,
    tags: BTreeMap<String, String>,
    raw: Value,
}

#[derive(Searchable, serde::Serialize, Clone)]
#[serde(rename_all = "PascalCase")]
struct State {
    code: Option<u16>,
    name: Option<StateName>,
}

#[derive(Searchable, serde::Serialize, Clone, Copy)]
#[serde(rename_all = "kebab-case")]
enum StateName {
    Pending,
    Running,
}

#[derive(Searchable, serde::Serialize, Clone)]
#[serde(rename_all = "PascalCase")]
struct Extra {
    zone: String,
    /// Searched as the name of a plain member of `Instance` (which wins); another name in
    /// the JSON form, where the later duplicate would win.
    #[serde(rename = "OtherId")]
    #[searchable(rename = "InstanceId")]
    instance_id: String,
}

fn instance(i: usize, state: Option<(Option<u16>, Option<StateName>)>) -> Instance {
    Instance {
        instance_id: format!("i-{i}"),
        state: state.map(|(code, name)| State { code, name }),
        extra: Extra {
            zone: format!("z-{}", i % 2),
            instance_id: "hidden".into(),
        },
        tags: BTreeMap::from([("Name".to_owned(), format!("n-{i}"))]),
        raw: if i % 2 == 0 {
            json!({"Name": format!("raw-{i}"), "N": i})
        } else {
            json!(i)
        },
    }
}

/// The first elements have no state (the plan stays incomplete while they record), then all
/// kinds of members: set, `None`, with `None` inside.
fn output() -> Output {
    let mut all: Vec<Instance> = (0..6).map(|i| instance(i, None)).collect();
    for i in 6..40 {
        let state = match i % 5 {
            0 => None,
            1 => Some((Some(16), None)),
            2 => Some((None, Some(StateName::Pending))),
            _ => Some((Some(0), Some(StateName::Running))),
        };
        all.push(instance(i, state));
    }
    let mut reservations = Vec::new();
    reservations.push(Reservation {
        id: "r-empty".into(),
        instances: vec![],
        maybe: None,
    });
    for (n, c) in all.chunks(7).enumerate() {
        reservations.push(Reservation {
            id: format!("r-{n}"),
            instances: c.to_vec(),
            maybe: (n % 2 == 0).then(|| c.iter().rev().cloned().collect()),
        });
    }
    Output { reservations }
}

const PATHS: &[Expression] = &[
    jmespath!("Reservations[].Instances[].State.Name"),
    jmespath!("Reservations[].Instances[].State.Code"),
    jmespath!("Reservations[].Instances[].State"),
    jmespath!("Reservations[].Instances[].InstanceId"),
    jmespath!("Reservations[].Instances[].Zone"),
    jmespath!("Reservations[].Instances[].Tags.Name"),
    jmespath!("Reservations[].Instances[].Raw.Name"),
    jmespath!("Reservations[].Instances[].Raw"),
    jmespath!("Reservations[].Instances[].Missing"),
    jmespath!("Reservations[].Maybe[].State.Name"),
    jmespath!("Reservations[].Maybe[].Zone"),
    jmespath!("Reservations[*].Instances[*].State.Name"),
    jmespath!("Reservations[*].Id"),
    jmespath!("Reservations[].Id[].Name"),
    jmespath!("Reservations[].Instances[].Tags"),
    jmespath!("Reservations[].Instances[].State[]"),
    jmespath!("Reservations[].Instances[][].Zone"),
];

#[track_caller]
fn same_as_json<T: Searchable + serde::Serialize>(data: &T) {
    let json = serde_json::to_value(data).unwrap();
    for e in PATHS {
        assert_eq!(
            e.search(data).unwrap(),
            e.search(&json).unwrap(),
            "{}",
            e.source()
        );
    }
}

#[test]
fn none_members_and_flattened_members_give_what_the_json_form_gives() {
    let out = output();
    same_as_json(&out);
    let names = jmespath!("Reservations[].Instances[].State.Name")
        .search(&out)
        .unwrap();
    // Of the 34 instances after the first 6 (no state), 6 have no state (`i % 5 == 0`) and
    // 7 a state without a name (`i % 5 == 1`).
    assert_eq!(names.as_array().map(|a| a.len()), Some(34 - 6 - 7));
    assert_eq!(
        jmespath!("Reservations[].Instances[].InstanceId | [0]")
            .search(&out)
            .unwrap(),
        json!("i-0"),
        "a plain member wins over a flattened one of the same name"
    );
    assert_eq!(
        jmespath!("Reservations[].Instances[].Zone | [0:3]")
            .search(&out)
            .unwrap(),
        json!(["z-0", "z-1", "z-0"]),
        "a flattened member is found by name"
    );
}

#[test]
fn results_that_are_not_strings_keep_their_place_among_strings() {
    let out = output();
    let raw = jmespath!("Reservations[].Instances[].Raw")
        .search(&out)
        .unwrap();
    let expected: Vec<Value> = (0..40)
        .map(|i| {
            if i % 2 == 0 {
                json!({"Name": format!("raw-{i}"), "N": i})
            } else {
                json!(i)
            }
        })
        .collect();
    assert_eq!(raw, Value::Array(expected));
    let mixed = json!([{"v": "a"}, {"v": 1}, {"v": "b"}, {"v": null}, {"v": [2]}, {"v": "c"}]);
    assert_eq!(
        jmespath!("[*].v").search(&mixed).unwrap(),
        json!(["a", 1, "b", [2], "c"])
    );
}

#[derive(Searchable, serde::Serialize)]
#[serde(rename_all = "PascalCase")]
struct ArcOutput {
    reservations: Vec<Arc<ArcReservation>>,
}

#[derive(Searchable, serde::Serialize)]
#[serde(rename_all = "PascalCase")]
struct ArcReservation {
    instances: Vec<Arc<Instance>>,
    #[allow(clippy::vec_box)] // what is measured: elements behind a pointer
    boxed: Vec<Box<Instance>>,
    first: Option<Box<Instance>>,
}

#[test]
fn projections_over_pointers_to_derived_structs() {
    let out = output();
    let arcs = ArcOutput {
        reservations: out
            .reservations
            .iter()
            .map(|r| {
                Arc::new(ArcReservation {
                    instances: r.instances.iter().cloned().map(Arc::new).collect(),
                    boxed: r.instances.iter().cloned().map(Box::new).collect(),
                    first: r.instances.first().cloned().map(Box::new),
                })
            })
            .collect(),
    };
    let json = serde_json::to_value(&arcs).unwrap();
    for e in [
        jmespath!("Reservations[].Instances[].State.Name"),
        jmespath!("Reservations[].Boxed[].State.Name"),
        jmespath!("Reservations[].Instances[].Zone"),
        jmespath!("Reservations[*].Instances[*].State.Code"),
        jmespath!("Reservations[*].First.State.Name"),
        jmespath!("Reservations[].First[].State.Name"),
    ] {
        assert_eq!(e.search(&arcs).unwrap(), e.search(&json).unwrap(), "{e}");
    }
    assert_eq!(
        jmespath!("Reservations[].Instances[].State.Name")
            .search(&arcs)
            .unwrap(),
        jmespath!("Reservations[].Instances[].State.Name")
            .search(&out)
            .unwrap()
    );
    let flat: Vec<Arc<Instance>> = out.reservations[1]
        .instances
        .iter()
        .cloned()
        .map(Arc::new)
        .collect();
    let json = serde_json::to_value(&flat).unwrap();
    let e = jmespath!("[*].State.Name");
    assert_eq!(e.search(&flat).unwrap(), e.search(&json).unwrap());
}

/// Two derived types with the same member names in another order: a plan recorded on one
/// must not be followed by index on the other (the key of each level is checked).
#[derive(Searchable, serde::Serialize)]
struct Ab {
    a: Inner,
    b: Inner,
}

#[derive(Searchable, serde::Serialize)]
struct Ba {
    b: Inner,
    a: Inner,
}

#[derive(Searchable, serde::Serialize)]
struct Inner {
    x: String,
    y: String,
}

#[derive(Searchable, serde::Serialize)]
struct Yx {
    y: String,
    x: String,
}

/// A generic struct shares one key between its instantiations (its members are the same);
/// the levels below are checked by their own types' keys.
#[derive(Searchable, serde::Serialize)]
struct Wrap<T> {
    a: T,
}

fn inner(p: &str) -> Inner {
    Inner {
        x: format!("{p}x"),
        y: format!("{p}y"),
    }
}

/// A hand-written impl around a derived type: it answers through its node, whatever plan the
/// array recorded on other elements.
struct Hand(Inner);

impl Searchable for Hand {
    fn node(&self) -> Node<'_> {
        self.0.node()
    }
}

#[test]
fn plans_are_not_followed_on_elements_of_other_types() {
    let items: Vec<Box<dyn Searchable + Sync>> = vec![
        Box::new(Ab {
            a: inner("1a"),
            b: inner("1b"),
        }),
        Box::new(Ba {
            b: inner("2b"),
            a: inner("2a"),
        }),
        Box::new(Wrap { a: inner("3") }),
        Box::new(Wrap {
            a: Yx {
                y: "4y".into(),
                x: "4x".into(),
            },
        }),
        Box::new(json!({"a": {"x": "5x"}})),
        Box::new(Ab {
            a: inner("6a"),
            b: inner("6b"),
        }),
    ];
    assert_eq!(
        jmespath!("[*].a.x").search(&items).unwrap(),
        json!(["1ax", "2ax", "3x", "4x", "5x", "6ax"])
    );
    assert_eq!(
        jmespath!("[*].b.y").search(&items).unwrap(),
        json!(["1by", "2by", "6by"])
    );
    let hands = vec![Hand(inner("h1")), Hand(inner("h2"))];
    assert_eq!(
        jmespath!("[*].y").search(&hands).unwrap(),
        json!(["h1y", "h2y"])
    );
    // The same plan is shared by all the inner arrays of `a[].b[].c`: inner arrays of other
    // element types each answer by their own members.
    let outer: Vec<Box<dyn Searchable + Sync>> = vec![
        Box::new(Wrap {
            a: vec![inner("p"), inner("q")],
        }),
        Box::new(Wrap {
            a: vec![Yx {
                y: "ry".into(),
                x: "rx".into(),
            }],
        }),
        Box::new(Wrap {
            a: vec![Hand(inner("s"))],
        }),
        Box::new(json!({"a": [{"y": "ty"}]})),
        Box::new(Wrap {
            a: vec![inner("u")],
        }),
    ];
    assert_eq!(
        jmespath!("[].a[].y").search(&outer).unwrap(),
        json!(["py", "qy", "ry", "sy", "ty", "uy"])
    );
}

/// A `with` function named like a local of the generated code.
#[derive(Searchable)]
struct Hygiene {
    #[searchable(with = get)]
    a: String,
    #[searchable(with = walk)]
    b: String,
}

fn get(s: &str) -> Node<'_> {
    Node::str(s)
}

fn walk(s: &str) -> Node<'_> {
    Node::Number((s.len() as u64).into())
}

#[test]
fn converted_members_with_any_function_name() {
    let items = vec![
        Hygiene {
            a: "one".into(),
            b: "four".into(),
        },
        Hygiene {
            a: "two".into(),
            b: "xy".into(),
        },
    ];
    assert_eq!(
        jmespath!("[*].a").search(&items).unwrap(),
        json!(["one", "two"])
    );
    assert_eq!(jmespath!("[*].b").search(&items).unwrap(), json!([4, 2]));
}
