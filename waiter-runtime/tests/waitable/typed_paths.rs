//! Typed paths that must keep compiling: map keys (any key is valid), `serde_json::Value`
//! leaves (anything goes below), recursive and mutually recursive types, generic derived types,
//! flattened members (a struct's members join, a map's any name), hand-written `Searchable`
//! impls, optional and boxed members, generic outputs, string enums with an untagged catch-all,
//! `#[serde(transparent)]` structs. The errors are in
//! `ui-tests/cases/waitable/typed_*.rs`.

use std::collections::HashMap;
use std::time::Duration;

use waiter_runtime::{ProvideErrorMetadata, Searchable, waitable};

#[derive(Debug, ProvideErrorMetadata)]
#[allow(dead_code)] // the operations below always succeed
enum Error {
    NotFound,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Output {
    labels: HashMap<String, String>,
    extra: serde_json::Value,
    tree: Tree,
    #[serde(flatten)]
    common: Common,
    maybe: Option<Box<Inner>>,
    items: Vec<Option<Inner>>,
}

#[derive(Debug, Searchable)]
struct Tree {
    name: String,
    children: Vec<Tree>,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Common {
    request_id: String,
    #[serde(flatten)]
    more: More,
}

/// Flattened twice: its members are `Output`'s too.
#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
struct More {
    region: String,
}

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Inner {
    state: String,
    ready: bool,
}

fn output() -> Output {
    Output {
        labels: HashMap::from([("env".to_owned(), "prod".to_owned())]),
        extra: serde_json::json!({"deep": {"er": "yes"}}),
        tree: Tree {
            name: "root".into(),
            children: vec![Tree {
                name: "leaf".into(),
                children: vec![],
            }],
        },
        common: Common {
            request_id: "r-1".into(),
            more: More {
                region: "eu-west-1".into(),
            },
        },
        maybe: Some(Box::new(Inner {
            state: "on".into(),
            ready: true,
        })),
        items: vec![Some(Inner {
            state: "on".into(),
            ready: true,
        })],
    }
}

#[waitable(AllKinds: { acceptors: [
    { state: "failure", matcher: { output: { path: "Labels.env", expected: "dev", comparator: "stringEquals" } } }
    { state: "failure", matcher: { output: { path: "Labels.anything", expected: "x", comparator: "stringEquals" } } }
    { state: "failure", matcher: { output: { path: "Extra.deep.er.whatever", expected: "x", comparator: "stringEquals" } } }
    { state: "failure", matcher: { output: { path: "RequestId", expected: "nope", comparator: "stringEquals" } } }
    { state: "failure", matcher: { output: { path: "Region", expected: "nope", comparator: "stringEquals" } } }
    { state: "failure", matcher: { output: { path: "*.env", expected: "x", comparator: "anyStringEquals" } } }
    { state: "failure", matcher: { output: { path: "Maybe.Ready", expected: "false", comparator: "booleanEquals" } } }
    { state: "failure", matcher: { output: { path: "length(Items[?Ready].State) == `0`", expected: "true", comparator: "booleanEquals" } } }
    { state: "failure", matcher: { output: { path: "length(Items[?Ready]) == `0` && Items[0].Ready", expected: "true", comparator: "booleanEquals" } } }
    { state: "success", matcher: { output: { path: "Tree.children[].children[].name", expected: "x", comparator: "allStringEquals" } } }
    { state: "success", matcher: { output: { path: "Tree.children[].name", expected: "leaf", comparator: "allStringEquals" } } }
] })]
async fn get(id: String) -> Result<Output, Error> {
    let _ = id;
    Ok(output())
}

/// A hand-written `Searchable` impl: unknown to the checks, anything goes.
struct Opaque;

impl Searchable for Opaque {
    fn node(&self) -> waiter_runtime::jmespath::Node<'_> {
        waiter_runtime::jmespath::Node::Null
    }
}

#[waitable(OpaqueThing: { acceptors: [
    { state: "success", matcher: { output: { path: "any.thing[].at.all", expected: "x", comparator: "allStringEquals" } } }
] })]
async fn get_opaque() -> Result<Opaque, Error> {
    Ok(Opaque)
}

/// A generic output: the checks skip it.
#[waitable(GenericThing: { acceptors: [
    { state: "success", matcher: { output: { path: "whatever", expected: "x", comparator: "stringEquals" } } }
] })]
async fn get_generic<T>(t: T) -> Result<T, Error>
where
    T: Searchable + Clone + Send + 'static,
{
    Ok(t)
}

/// A forward-compatible string enum: unknown values land in an untagged catch-all.
#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "lowercase")]
enum Phase {
    Running,
    Stopped,
    #[serde(untagged)]
    Unknown(String),
}

/// A catch-all that is not a string, and a unit variant among data variants: either could be
/// a string or not, so anything goes below them.
#[derive(Debug, Clone, Searchable)]
enum Loose {
    Off,
    #[serde(untagged)]
    Other(serde_json::Value),
}

#[derive(Debug, Clone, Searchable)]
enum Mixed {
    Idle,
    Busy { job: String },
}

/// `#[serde(transparent)]`: the struct is its one field on the wire.
#[derive(Debug, Clone, Searchable)]
#[serde(transparent)]
struct Name {
    inner: String,
    #[serde(skip)]
    _cache: Option<u8>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Job {
    phase: Phase,
    loose: Loose,
    mixed: Mixed,
    name: Name,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Jobs {
    jobs: Vec<Job>,
}

fn job(phase: Phase) -> Job {
    Job {
        phase,
        loose: Loose::Off,
        mixed: Mixed::Idle,
        name: Name {
            inner: "j".into(),
            _cache: None,
        },
    }
}

#[waitable(JobsDone: { acceptors: [
    { state: "failure", matcher: { output: { path: "Jobs[].Name", expected: "bad", comparator: "anyStringEquals" } } }
    { state: "failure", matcher: { output: { path: "Jobs[].Loose", expected: "x", comparator: "anyStringEquals" } } }
    { state: "failure", matcher: { output: { path: "Jobs[].Mixed.Busy.job", expected: "x", comparator: "anyStringEquals" } } }
    { state: "retry", matcher: { output: { path: "Jobs[].Mixed", expected: "Busy", comparator: "anyStringEquals" } } }
    { state: "success", matcher: { output: { path: "Jobs[].Phase", expected: "stopped", comparator: "allStringEquals" } } }
] })]
async fn list_jobs(script: &std::sync::Mutex<Vec<Jobs>>) -> Result<Jobs, Error> {
    Ok(script.lock().unwrap().remove(0))
}

#[tokio::test(start_paused = true)]
async fn string_enums_with_a_catch_all_and_transparent_structs_are_strings() {
    let script = std::sync::Mutex::new(vec![
        Jobs {
            jobs: vec![
                job(Phase::Running),
                Job {
                    loose: Loose::Other(serde_json::json!(1)),
                    mixed: Mixed::Busy { job: "b".into() },
                    ..job(Phase::Unknown("stopping".into()))
                },
            ],
        },
        Jobs {
            jobs: vec![job(Phase::Stopped), job(Phase::Unknown("stopped".into()))],
        },
    ]);
    let done = wait_until_jobs_done(&script)
        .min_delay(Duration::from_millis(1))
        .max_delay(Duration::from_millis(5))
        .wait(Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(done.polls, 2);
    let e = waiter_runtime::jmespath!(Jobs, "Jobs[].[Name, Phase]");
    let jobs = Jobs {
        jobs: vec![job(Phase::Unknown("new".into()))],
    };
    assert_eq!(
        e.search_value(&jobs).unwrap(),
        serde_json::json!([["j", "new"]])
    );
}

#[tokio::test(start_paused = true)]
async fn typed_paths_that_are_valid_compile_and_run() {
    let done = wait_until_all_kinds("i".into())
        .wait(Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(done.polls, 1);
    assert!(
        wait_until_opaque_thing()
            .wait(Duration::from_secs(5))
            .await
            .is_err()
    );
    let _ = wait_until_generic_thing(String::from("x"));
}

#[test]
fn jmespath_with_a_type_checks_and_searches() {
    let e = waiter_runtime::jmespath!(Output, "Tree.children[].name");
    assert_eq!(
        e.search_value(&output()).unwrap(),
        serde_json::json!(["leaf"])
    );
    let any = waiter_runtime::jmespath!(HashMap<String, String>, "env");
    let labels = HashMap::from([("env".to_owned(), "prod".to_owned())]);
    assert_eq!(
        any.search_value(&labels).unwrap(),
        serde_json::json!("prod")
    );
}

/// Mutually recursive types, and a generic derived type used with a concrete argument: each
/// path reads the descriptions to the depth it needs, so no cycle is ever followed.
#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Rule {
    name: String,
    group: Option<Box<Group>>,
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
struct Group {
    rules: Vec<Rule>,
    page: Page<Rule>,
    #[serde(flatten)]
    extra: HashMap<String, serde_json::Value>,
}

/// A generic type: a member of type `T` is unknown below (anything goes), the others checked.
#[derive(Debug, Clone, Searchable)]
struct Page<T> {
    items: Vec<T>,
    next: Option<Box<Page<T>>>,
    title: String,
}

fn rule() -> Rule {
    let leaf = Rule {
        name: "leaf".into(),
        group: None,
    };
    Rule {
        name: "root".into(),
        group: Some(Box::new(Group {
            rules: vec![leaf.clone()],
            page: Page {
                items: vec![leaf],
                next: None,
                title: "p".into(),
            },
            extra: HashMap::from([("Owner".to_owned(), serde_json::json!("me"))]),
        })),
    }
}

#[waitable(RuleSettled: { acceptors: [
    { state: "failure", matcher: { output: { path: "Group.Rules[0].Group.Rules[0].Group.Rules[0].Name", expected: "bad", comparator: "stringEquals" } } }
    { state: "failure", matcher: { output: { path: "Group.Page.next.next.next.title", expected: "bad", comparator: "stringEquals" } } }
    { state: "failure", matcher: { output: { path: "Group.Page.items[].whatever", expected: "bad", comparator: "anyStringEquals" } } }
    { state: "failure", matcher: { output: { path: "Group.Owner", expected: "bad", comparator: "stringEquals" } } }
    { state: "success", matcher: { output: { path: "Group.Rules[].Name", expected: "leaf", comparator: "allStringEquals" } } }
] })]
async fn get_rule() -> Result<Rule, Error> {
    Ok(rule())
}

#[tokio::test(start_paused = true)]
async fn mutually_recursive_and_generic_types_are_checked_and_run() {
    let done = wait_until_rule_settled()
        .wait(Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(done.polls, 1);
    let e = waiter_runtime::jmespath!(Rule, "Group.Page.items[].Name");
    assert_eq!(
        e.search_value(&rule()).unwrap(),
        serde_json::json!(["leaf"])
    );
}
