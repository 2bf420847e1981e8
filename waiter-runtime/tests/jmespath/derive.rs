//! `#[derive(Searchable)]`: the Smithy data model over Rust types, wire names from serde.

use std::collections::HashMap;
use std::time::{Duration, SystemTime};

use serde_json::json;
use waiter_runtime::jmespath;
use waiter_runtime::jmespath::{Node, Searchable};

#[derive(Searchable, serde::Serialize)]
#[serde(rename_all = "PascalCase")]
struct Output {
    table: Table,
    tags: HashMap<String, String>,
    #[serde(rename = "nextToken")]
    next_token: Option<String>,
    #[serde(skip)]
    #[allow(dead_code)]
    secret: String,
}

#[derive(Searchable, serde::Serialize)]
#[serde(rename_all = "PascalCase")]
struct Table {
    table_status: Status,
    item_count: u64,
    #[searchable(rename = "ARN")]
    #[serde(rename = "ARN")]
    arn: String,
    replicas: Vec<Replica>,
}

#[derive(Searchable, serde::Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Status {
    Creating,
    Active,
    #[serde(rename = "gone")]
    Deleted,
}

#[derive(Searchable, serde::Serialize)]
struct Replica {
    region: String,
    status: Status,
}

#[test]
fn structs_enums_options_and_maps_use_wire_names() {
    let out = Output {
        table: Table {
            table_status: Status::Active,
            item_count: 7,
            arn: "arn:x".into(),
            replicas: vec![
                Replica {
                    region: "eu".into(),
                    status: Status::Creating,
                },
                Replica {
                    region: "us".into(),
                    status: Status::Deleted,
                },
            ],
        },
        tags: [("env".to_string(), "prod".to_string())].into(),
        next_token: None,
        secret: "hidden".into(),
    };
    assert_eq!(
        jmespath!("Table.TableStatus").search(&out).unwrap(),
        json!("ACTIVE")
    );
    assert_eq!(jmespath!("Table.ARN").search(&out).unwrap(), json!("arn:x"));
    assert_eq!(
        jmespath!("Table.Replicas[].status").search(&out).unwrap(),
        json!(["CREATING", "gone"])
    );
    assert_eq!(jmespath!("Tags.env").search(&out).unwrap(), json!("prod"));
    assert_eq!(jmespath!("nextToken").search(&out).unwrap(), json!(null));
    assert_eq!(jmespath!("secret").search(&out).unwrap(), json!(null));
    assert_eq!(jmespath!("length(keys(@))").search(&out).unwrap(), json!(3));
    // The whole view equals serde's JSON form.
    assert_eq!(
        jmespath!("@").search(&out).unwrap(),
        serde_json::to_value(&out).unwrap()
    );
}

#[derive(Searchable)]
enum Target {
    Lambda(String),
    Queue {
        url: String,
        fifo: bool,
    },
    #[searchable(rename = "none")]
    Nothing,
    Pair(u8, u8),
}

#[test]
fn data_enums_are_unions_with_one_member() {
    let t = Target::Queue {
        url: "q".into(),
        fifo: true,
    };
    assert_eq!(
        jmespath!("@").search(&t).unwrap(),
        json!({"Queue": {"url": "q", "fifo": true}})
    );
    assert_eq!(jmespath!("Queue.fifo").search(&t).unwrap(), json!(true));
    assert_eq!(
        jmespath!("Lambda")
            .search(&Target::Lambda("f".into()))
            .unwrap(),
        json!("f")
    );
    assert_eq!(
        jmespath!("@").search(&Target::Nothing).unwrap(),
        json!("none")
    );
    assert_eq!(
        jmespath!("Pair[1]").search(&Target::Pair(1, 2)).unwrap(),
        json!(2)
    );
}

#[derive(Searchable)]
#[searchable(rename_all = "camelCase")]
struct Object<T> {
    #[searchable(blob)]
    body: Vec<u8>,
    #[searchable(timestamp)]
    last_modified: SystemTime,
    #[searchable(timestamp)]
    expires: Option<SystemTime>,
    #[searchable(serde)]
    foreign: Foreign,
    #[searchable(with = upper)]
    owner: String,
    extra: T,
    #[serde(flatten)]
    meta: Meta,
}

#[derive(serde::Serialize)]
struct Foreign {
    inner: u32,
}

#[derive(Searchable)]
struct Meta {
    etag: &'static str,
}

#[derive(Searchable)]
struct Id(String);

fn upper(s: &str) -> Node<'static> {
    Node::from_value(json!(s.to_uppercase()))
}

#[test]
fn blobs_timestamps_generics_and_escape_hatches() {
    let o = Object {
        body: b"hello".to_vec(),
        last_modified: SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000),
        expires: None,
        foreign: Foreign { inner: 4 },
        owner: "me".into(),
        extra: Id("x".into()),
        meta: Meta { etag: "e1" },
    };
    assert_eq!(jmespath!("body").search(&o).unwrap(), json!("aGVsbG8="));
    assert_eq!(
        jmespath!("lastModified").search(&o).unwrap(),
        json!(1_700_000_000)
    );
    assert_eq!(jmespath!("expires").search(&o).unwrap(), json!(null));
    assert_eq!(jmespath!("foreign.inner").search(&o).unwrap(), json!(4));
    assert_eq!(jmespath!("owner").search(&o).unwrap(), json!("ME"));
    assert_eq!(jmespath!("extra").search(&o).unwrap(), json!("x"));
    assert_eq!(jmespath!("etag").search(&o).unwrap(), json!("e1"));
    assert_eq!(jmespath!("length(@)").search(&o).unwrap(), json!(7));
    assert_eq!(
        jmespath!("contains(keys(@), 'etag')").search(&o).unwrap(),
        json!(true)
    );
}

#[test]
fn dyn_searchable_works() {
    let boxed: Box<dyn Searchable> = Box::new(Id("y".into()));
    assert_eq!(jmespath!("@").search(&boxed).unwrap(), json!("y"));
    let r: &dyn Searchable = &Status::Creating;
    assert_eq!(jmespath!("@").search(r).unwrap(), json!("CREATING"));
}

#[derive(Searchable)]
struct Outer {
    items: Vec<Item>,
    #[serde(flatten)]
    extra: Extra,
}

#[derive(Searchable)]
struct Item {
    inner: Option<Inner>,
    #[searchable(blob)]
    data: Vec<u8>,
    #[searchable(with = upper)]
    label: String,
}

#[derive(Searchable)]
struct Inner {
    x: u8,
}

#[derive(Searchable)]
struct Extra {
    meta: Inner,
}

#[test]
fn statically_followed_chains_match_the_dynamic_view() {
    let o = Outer {
        items: vec![
            Item {
                inner: Some(Inner { x: 1 }),
                data: b"a".to_vec(),
                label: "p".into(),
            },
            Item {
                inner: None,
                data: vec![],
                label: "q".into(),
            },
        ],
        extra: Extra {
            meta: Inner { x: 9 },
        },
    };
    // Through Option (None dropped by the projection), converted members and flattened ones.
    assert_eq!(jmespath!("items[].inner.x").search(&o).unwrap(), json!([1]));
    assert_eq!(
        jmespath!("items[*].data").search(&o).unwrap(),
        json!(["YQ==", ""])
    );
    assert_eq!(
        jmespath!("items[*].label").search(&o).unwrap(),
        json!(["P", "Q"])
    );
    assert_eq!(
        jmespath!("items[*].data.nope").search(&o).unwrap(),
        json!([])
    );
    assert_eq!(jmespath!("meta.x").search(&o).unwrap(), json!(9));
    assert_eq!(jmespath!("items[0].inner.x").search(&o).unwrap(), json!(1));
    assert_eq!(
        jmespath!("items[1].inner.x").search(&o).unwrap(),
        json!(null)
    );
    // The same chains through `&dyn Searchable` use the dynamic view.
    let d: &dyn Searchable = &o;
    assert_eq!(jmespath!("items[].inner.x").search(d).unwrap(), json!([1]));
    assert_eq!(jmespath!("meta.x").search(d).unwrap(), json!(9));
}

#[derive(Searchable)]
struct Borrowed<'a, T: Clone> {
    name: &'a str,
    items: &'a [T],
    choice: Choice<T>,
}

#[derive(Searchable)]
enum Choice<T> {
    One(T),
    Many { all: Vec<T> },
}

#[test]
fn lifetimes_and_generics_are_forwarded() {
    let items = [1u8, 2];
    let b = Borrowed {
        name: "n",
        items: &items,
        choice: Choice::Many { all: vec![3u8] },
    };
    assert_eq!(
        jmespath!("[name, items[-1], choice.Many.all[0]]")
            .search(&b)
            .unwrap(),
        json!(["n", 2, 3])
    );
    let one: Choice<&str> = Choice::One("x");
    assert_eq!(jmespath!("One").search(&one).unwrap(), json!("x"));
}

#[derive(Searchable, serde::Serialize)]
struct Level<T> {
    n: T,
    tag: &'static str,
}

#[derive(Searchable, serde::Serialize)]
struct Row {
    id: String,
    nested: Option<Level<Level<u8>>>,
    #[serde(flatten)]
    more: More,
    list: Vec<Level<bool>>,
    name: std::borrow::Cow<'static, str>,
    kind: Status,
}

#[derive(Searchable, serde::Serialize)]
struct More {
    extra: Level<u8>,
}

type Deep = Level<Level<Level<Level<Level<Level<Level<Level<Level<Level<u8>>>>>>>>>>;

fn level<T>(n: T) -> Level<T> {
    Level { n, tag: "t" }
}

fn deep(x: u8) -> Deep {
    level(level(level(level(level(level(level(level(level(
        level(x),
    )))))))))
}

/// Projections over derived structs resolve member names once per array and walk each element
/// by member index; every shape of chain gives what the JSON form of the same data gives.
#[test]
fn planned_projections_match_the_json_form() {
    let rows = vec![
        Row {
            id: "a".into(),
            nested: Some(Level {
                n: Level { n: 7, tag: "in" },
                tag: "out",
            }),
            more: More {
                extra: Level { n: 1, tag: "x" },
            },
            list: vec![Level { n: true, tag: "l" }],
            name: "first".into(),
            kind: Status::Active,
        },
        Row {
            id: "b".into(),
            nested: None,
            more: More {
                extra: Level { n: 2, tag: "y" },
            },
            list: vec![],
            name: std::borrow::Cow::Owned("second".into()),
            kind: Status::Deleted,
        },
    ];
    let json = serde_json::to_value(&rows).unwrap();
    macro_rules! same {
        ($($e:literal),* $(,)?) => {$(
            assert_eq!(
                jmespath!($e).search(&rows).unwrap(),
                jmespath!($e).search(&json).unwrap(),
                "{}", $e
            );
        )*};
    }
    // `[*]` over the root array walks each element by plan; `[]` flattens first.
    same!(
        "[].id",
        "[*].id",
        "[*].name",
        "[*].kind",
        "[].nested.n.n",
        "[*].nested.n.n",
        "[].nested.n.tag",
        "[*].nested.n.tag",
        "[].nested.tag",
        "[*].nested.tag",
        "[].nested.n",
        "[*].nested.n",
        "[].nested.n.n.deeper",
        "[*].nested.n.n.deeper",
        "[].id.deeper",
        "[*].id.deeper",
        "[].extra.n",
        "[*].extra.n",
        "[].extra.tag",
        "[*].extra.tag",
        "[].list",
        "[*].list",
        "[].list.n",
        "[*].list.n",
        "[].missing",
        "[*].missing",
        "[].missing.n",
        "[*].missing.n",
        "[].kind.n",
        "[*].kind.n",
    );
    assert_eq!(
        jmespath!("[*].nested.n.n").search(&rows).unwrap(),
        json!([7])
    );

    // Longer chains than the static plan holds continue dynamically.
    let deeps = vec![deep(3), deep(4)];
    let json = serde_json::to_value(&deeps).unwrap();
    let e = jmespath!("[*].n.n.n.n.n.n.n.n.n.n");
    assert_eq!(e.search(&deeps).unwrap(), json!([3, 4]));
    assert_eq!(e.search(&deeps).unwrap(), e.search(&json).unwrap());
    let e = jmespath!("[*].n.n.n.n.n.n.n.n.n.tag");
    assert_eq!(e.search(&deeps).unwrap(), json!(["t", "t"]));
    let e = jmespath!("[*].n.n.n.n.n.n.n.n.n.n.n");
    assert_eq!(e.search(&deeps).unwrap(), json!([]));
}

#[derive(Searchable, serde::Serialize)]
struct Group {
    rows: Vec<Row>,
    maybe: Option<Vec<Level<u8>>>,
    grid: Vec<Vec<Level<u8>>>,
    single: Level<u8>,
    #[searchable(with = upper)]
    #[serde(serialize_with = "serialize_upper")]
    label: String,
}

fn serialize_upper<S: serde::Serializer>(s: &str, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_str(&s.to_uppercase())
}

/// `a[].b[].c.d` (the shape of `Reservations[].Instances[].State.Name`) runs as one statically
/// dispatched walk over derived structs; every shape gives what the JSON form gives.
#[test]
fn flattened_projections_match_the_json_form() {
    let row = |id: &str, n: Option<u8>| Row {
        id: id.into(),
        nested: n.map(|n| Level {
            n: Level { n, tag: "in" },
            tag: "out",
        }),
        more: More {
            extra: Level { n: 0, tag: "x" },
        },
        list: vec![Level { n: true, tag: "l" }, Level { n: false, tag: "m" }],
        name: "r".into(),
        kind: Status::Creating,
    };
    let groups = vec![
        Group {
            rows: vec![row("a", Some(1)), row("b", None)],
            maybe: Some(vec![Level { n: 5, tag: "m" }]),
            grid: vec![vec![Level { n: 1, tag: "g" }], vec![]],
            single: Level { n: 8, tag: "s" },
            label: "x".into(),
        },
        Group {
            rows: vec![],
            maybe: None,
            grid: vec![],
            single: Level { n: 9, tag: "t" },
            label: "y".into(),
        },
        Group {
            rows: vec![row("c", Some(3))],
            maybe: Some(vec![]),
            grid: vec![vec![Level { n: 2, tag: "h" }, Level { n: 3, tag: "i" }]],
            single: Level { n: 10, tag: "u" },
            label: "z".into(),
        },
    ];
    let json = serde_json::to_value(&groups).unwrap();
    macro_rules! same {
        ($data:expr, $json:expr; $($e:literal),* $(,)?) => {$(
            assert_eq!(
                jmespath!($e).search($data).unwrap(),
                jmespath!($e).search($json).unwrap(),
                "{}", $e
            );
        )*};
    }
    same!(&groups, &json;
        "[].rows[].id",
        "[].rows[].nested.n.n",
        "[].rows[].kind",
        "[].rows[].list",
        "[].rows[].extra.tag",
        "[].rows[].missing",
        "[].maybe[].n",
        "[].grid[].n",
        "[].grid[].tag",
        "[].single[].n",
        "[].label[].x",
        "[].missing[].x",
        "[].rows.id[].x",
    );
    assert_eq!(
        jmespath!("[].rows[].nested.n.n").search(&groups).unwrap(),
        json!([1, 3])
    );
    // Arrays in the outer array are spliced first; non-arrays give null.
    let nested = vec![
        vec![Level {
            n: Level { n: 1, tag: "a" },
            tag: "b",
        }],
        vec![],
    ];
    let json = serde_json::to_value(&nested).unwrap();
    same!(&nested, &json; "[].n[].n", "[].n[].tag", "[].tag[].x");
    let single = Level {
        n: vec![Level { n: 4, tag: "q" }],
        tag: "r",
    };
    let json = serde_json::to_value(&single).unwrap();
    same!(&single, &json; "[].n[].n", "n[].n[].n");
    assert_eq!(jmespath!("[].n[].n").search(&single).unwrap(), json!(null));
}

/// EC2's XML names the wire (`reservationSet`, `instancesSet`, `instanceState`), the model
/// names the paths (`Reservations`, `Instances`, `State`): the derive's own attributes win over
/// serde's at every level, so the container's `#[searchable(rename_all)]` beats a field's
/// `#[serde(rename)]`, and a field's `#[searchable(rename)]` beats both.
#[derive(Searchable, serde::Deserialize)]
#[searchable(rename_all = "PascalCase")]
struct Ec2DescribeInstances {
    #[serde(rename = "reservationSet")]
    reservations: Vec<Ec2Reservation>,
    #[serde(rename = "requestId")]
    #[searchable(rename = "RequestID")]
    request_id: String,
}

#[derive(Searchable, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
#[searchable(rename_all = "PascalCase")]
struct Ec2Reservation {
    #[serde(rename = "instancesSet")]
    instances: Vec<Ec2Instance>,
    owner_id: String,
}

/// serde's attributes alone still name the members.
#[derive(Searchable, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Ec2Instance {
    #[serde(rename = "instanceState")]
    state: Ec2StateName,
    instance_id: String,
}

/// On an enum and in a struct variant alike.
#[derive(Searchable, serde::Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[searchable(rename_all = "kebab-case")]
enum Ec2StateName {
    #[serde(rename = "RUN")]
    Running,
    ShuttingDown,
    #[serde(rename_all = "camelCase")]
    #[searchable(rename_all = "PascalCase")]
    Other {
        #[serde(rename = "theCode")]
        state_code: u8,
    },
}

#[test]
fn searchable_attributes_win_over_serde_at_every_level() {
    let out = Ec2DescribeInstances {
        reservations: vec![Ec2Reservation {
            instances: vec![
                Ec2Instance {
                    state: Ec2StateName::Running,
                    instance_id: "i-1".into(),
                },
                Ec2Instance {
                    state: Ec2StateName::ShuttingDown,
                    instance_id: "i-2".into(),
                },
                Ec2Instance {
                    state: Ec2StateName::Other { state_code: 7 },
                    instance_id: "i-3".into(),
                },
            ],
            owner_id: "o".into(),
        }],
        request_id: "r".into(),
    };
    assert_eq!(
        jmespath!("Reservations[].Instances[].instanceState")
            .search(&out)
            .unwrap(),
        json!(["running", "shutting-down", {"other": {"StateCode": 7}}])
    );
    assert_eq!(
        jmespath!("Reservations[].[OwnerId, Instances[0].instanceId]")
            .search(&out)
            .unwrap(),
        json!([["o", "i-1"]])
    );
    assert_eq!(
        jmespath!("keys(@)").search(&out).unwrap(),
        json!(["Reservations", "RequestID"])
    );
}
