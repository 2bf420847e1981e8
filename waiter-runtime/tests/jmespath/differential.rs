//! Differential property tests: for the expressions of real waiters and random JSON, the
//! compiled expression agrees with the `jmespath` crate's interpreter; and a derived struct
//! searches exactly like its serde JSON form.

use proptest::prelude::*;

use crate::beside_the_source;
use serde_json::{Map, Value, json};
use waiter_runtime::jmespath;
use waiter_runtime::jmespath::{Expression, Node, Searchable};

const KEYS: &[&str] = &[
    "Reservations",
    "Instances",
    "State",
    "Name",
    "Table",
    "TableStatus",
    "services",
    "deployments",
    "desiredCount",
    "runningCount",
    "AutoScalingGroups",
    "LifecycleState",
    "MinSize",
    "DBInstances",
    "DBInstanceStatus",
    "Stacks",
    "StackStatus",
    "VpcPeeringConnections",
    "Status",
    "Code",
    "a",
];
const WORDS: &[&str] = &[
    "running",
    "pending",
    "InService",
    "available",
    "CREATE_COMPLETE",
    "ACTIVE",
    "active",
    "",
];

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..5).prop_map(|n| json!(n)),
        (-3.0f64..5.0).prop_map(|f| json!(f)),
        prop::sample::select(WORDS).prop_map(|s| json!(s)),
    ]
}

/// JSON built from the waiters' vocabulary, so that paths hit as often as they miss.
fn data() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..6).prop_map(|kv| {
                Value::Object(
                    kv.into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect::<Map<_, _>>(),
                )
            }),
        ]
    })
}

/// Realistic service outputs with some members of the wrong type.
fn shaped() -> impl Strategy<Value = Value> {
    let word = || prop::sample::select(WORDS).prop_map(|s| json!(s));
    let count = || prop_oneof![4 => (0i64..3).prop_map(|n| json!(n)), 1 => scalar()];
    let instance =
        (word(), word()).prop_map(|(n, l)| json!({"State": {"Name": n}, "LifecycleState": l}));
    let reservations = prop::collection::vec(
        prop::collection::vec(instance, 0..4).prop_map(|i| json!({"Instances": i})),
        0..4,
    );
    let service = (prop::collection::vec(scalar(), 0..3), count(), count())
        .prop_map(|(d, w, r)| json!({"deployments": d, "desiredCount": w, "runningCount": r}));
    let group = (
        prop::collection::vec(word().prop_map(|l| json!({"LifecycleState": l})), 0..4),
        count(),
    )
        .prop_map(|(i, m)| json!({"Instances": i, "MinSize": m}));
    (
        reservations,
        prop::collection::vec(service, 0..4),
        prop::collection::vec(group, 0..3),
        word(),
        prop::collection::vec(word(), 0..3),
    )
        .prop_map(|(r, s, g, t, st)| {
            json!({
                "Reservations": r,
                "services": s,
                "AutoScalingGroups": g,
                "Table": {"TableStatus": t},
                "DBInstances": st.iter().map(|w| json!({"DBInstanceStatus": w})).collect::<Vec<_>>(),
                "Stacks": st.iter().map(|w| json!({"StackStatus": w})).collect::<Vec<_>>(),
                "VpcPeeringConnections": st.iter().map(|w| json!({"Status": {"Code": w}})).collect::<Vec<_>>(),
            })
        })
}

fn any_data() -> impl Strategy<Value = Value> {
    prop_oneof![data(), shaped()]
}

/// Both agree: equal values (numbers by value), or both fail.
fn agree(ours: &Expression, data: &Value) -> Result<(), TestCaseError> {
    let theirs = ::jmespath::compile(ours.source()).expect("the interpreter parses it");
    let theirs = theirs
        .search(data.clone())
        .map(|v| serde_json::to_value(&*v).unwrap());
    match (ours.search(data), theirs) {
        (Ok(a), Ok(b)) => {
            prop_assert!(
                a.json_eq(&Node::from_value(b.clone())),
                "ours {a}, theirs {b}, data {data}"
            )
        }
        (Err(_), Err(_)) => {}
        (a, b) => prop_assert!(false, "ours {a:?}, theirs {b:?}, data {data}"),
    }
    Ok(())
}

macro_rules! differential {
    ($($name:ident: $expr:literal,)*) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 300, failure_persistence: beside_the_source(), ..ProptestConfig::default() })]
            $(
                #[test]
                fn $name(data in any_data()) {
                    agree(&jmespath!($expr), &data)?;
                }
            )*
        }
    };
}

differential! {
    ec2_instance_state: "Reservations[].Instances[].State.Name",
    ec2_exists: "length(Reservations[]) > `0`",
    dynamodb_table: "Table.TableStatus",
    ecs_services_stable: "services | [@[?length(deployments)!=`1`], @[?desiredCount!=runningCount]][] | length(@) == `0`",
    autoscaling_in_service: "contains(AutoScalingGroups[].[length(Instances[?LifecycleState=='InService']) >= MinSize][], `false`)",
    ecs_services_stable_negated: "length(services[?!(length(deployments) == `1` && runningCount == desiredCount)]) == `0`",
    rds_status: "DBInstances[].DBInstanceStatus",
    cloudformation_status: "Stacks[].StackStatus",
    vpc_peering: "VpcPeeringConnections[].Status.Code",
    filter_then_count: "Stacks[?StackStatus=='CREATE_COMPLETE'] | length(@)",
    sort_by_key: "sort_by(Stacks, &StackStatus)[*].StackStatus",
    max_by_key: "max_by(services, &desiredCount)",
    object_projection: "a.*.State | [0]",
    slices_and_indices: "Reservations[::-1][0].Instances[-1:].State",
    multi_select: "{n: length(Stacks || `[]`), first: Stacks[0], ok: !Table}",
    or_and_truthiness: "a || Table && Table.TableStatus || `\"none\"`",
    functions_on_strings: "Stacks[].StackStatus | [join(',', @), reverse(@), sort(@), to_string(length(@))]",
}

#[derive(Searchable, serde::Serialize, Debug)]
#[serde(rename_all = "PascalCase")]
struct Reservation {
    instances: Vec<Instance>,
}

#[derive(Searchable, serde::Serialize, Debug)]
#[serde(rename_all = "PascalCase")]
struct Instance {
    state: Option<InstanceState>,
    tags: std::collections::BTreeMap<String, String>,
    launch_index: i32,
}

#[derive(Searchable, serde::Serialize, Debug)]
#[serde(rename_all = "PascalCase")]
struct InstanceState {
    name: StateName,
}

#[derive(Searchable, serde::Serialize, Clone, Copy, Debug)]
#[serde(rename_all = "kebab-case")]
enum StateName {
    Pending,
    Running,
    ShuttingDown,
}

fn reservations() -> impl Strategy<Value = Vec<Reservation>> {
    let state = prop::option::of(
        prop::sample::select(vec![
            StateName::Pending,
            StateName::Running,
            StateName::ShuttingDown,
        ])
        .prop_map(|name| InstanceState { name }),
    );
    let tags = prop::collection::btree_map(
        prop::sample::select(vec!["Name".to_owned(), "env".to_owned()]),
        prop::sample::select(vec!["a".to_owned(), "b".to_owned()]),
        0..2,
    );
    let instance = (state, tags, -2i32..3).prop_map(|(state, tags, launch_index)| Instance {
        state,
        tags,
        launch_index,
    });
    prop::collection::vec(
        prop::collection::vec(instance, 0..4).prop_map(|instances| Reservation { instances }),
        0..4,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: beside_the_source(), ..ProptestConfig::default() })]
    /// The derived view and serde's JSON form are the same document.
    #[test]
    fn derived_structs_search_like_their_json(rs in reservations()) {
        let json = serde_json::to_value(&rs).unwrap();
        for e in [
            jmespath!("[].Instances[].State.Name"),
            jmespath!("[].Instances[?LaunchIndex > `0`].Tags.Name"),
            jmespath!("[*].Instances[*].[State.Name, keys(Tags)]"),
            jmespath!("length([].Instances[]) > `2` && [0].Instances[0]"),
            jmespath!("sort_by([].Instances[], &LaunchIndex)[].LaunchIndex"),
            jmespath!("@"),
        ] {
            let a = e.search(&rs).map(Node::into_value);
            let b = e.search(&json).map(Node::into_value);
            prop_assert_eq!(a, b, "{}", e);
        }
    }
}
