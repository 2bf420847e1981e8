//! Large and deep inputs, generated here at test time (nothing of them is committed), each
//! compiled in a debug build by trybuild (a `pass` case: it builds and runs): rustc and the
//! proc macros must neither overflow their stacks nor take superlinear time on them.
//!
//! - 800 acceptors in one waiter (the `if .. else` chain they expanded to overflowed rustc at
//!   700);
//! - `a || a || ...` with 4,000 operands (1,000 overflowed rustc), multi-select hashes of 4,000
//!   members (3,000 overflowed), of field chains (a table) and of other values, a multi-select
//!   list of 10,000 (16.6 s before), a 100 KB JSON literal (6.7 s before; 190 KB took 124 s);
//! - expressions nested to the limit (`MAX_DEPTH`, 128 levels) in each way the parser counts:
//!   what the limit accepts, rustc compiles;
//! - a 48-member typed path (the typed checks' limit) through a recursive type.
//!
//! What is over the limits is a compile error (`cases/jmespath/too_deep.rs`,
//! `cases/waitable/typed_path_too_long.rs`, `cases/waitable/trait_value_too_deep.rs`) and, for
//! every kind of nesting and 10,000 levels of it, `waiter-macros`' unit tests
//! (`jmespath::depth_tests`). Cost: about 45 s of CI on two cores, warm (the cases share the ui-tests'
//! build of the dependencies).

use std::fmt::Write as _;
use std::path::PathBuf;

const MAX_DEPTH: usize = 128;

fn header() -> &'static str {
    "#![allow(dead_code, clippy::all)]\nuse waiter_runtime::{jmespath, waitable, ProvideErrorMetadata, Searchable};\nuse serde_json::json;\n\n"
}

fn acceptors(n: usize) -> String {
    let mut acceptors = String::new();
    for i in 0..n {
        let state = ["success", "retry", "failure"][i % 3];
        let _ = writeln!(
            acceptors,
            "{{ state: \"{state}\", matcher: {{ output: {{ path: \"items[{i}]\", expected: \"v{i}\", comparator: \"stringEquals\" }} }} }},"
        );
    }
    format!(
        "{}#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {{ NotFound }}

#[derive(Debug, Searchable)]
pub struct Output {{ pub items: Vec<String> }}

pub struct Client;

impl Client {{
    #[waitable(Many: {{ acceptors: [
{acceptors}] }})]
    pub async fn get(&self) -> Result<Output, Error> {{
        Ok(Output {{ items: vec![] }})
    }}
}}

fn main() {{
    let _ = Client.wait_until_many();
}}
",
        header()
    )
}

fn search_case(expr: &str, data: &str, check: &str) -> String {
    format!(
        "{}fn main() {{
    let data = {data};
    let found = jmespath!({expr:?}).search(&data).unwrap().to_value();
    {check}
}}
",
        header()
    )
}

fn nested_at_the_limit() -> String {
    // Just under the limit in each way (field chains and `||` chains count one level).
    let d = MAX_DEPTH - 2;
    let exprs = [
        format!("{}a{}", "(".repeat(d), ")".repeat(d)),
        format!("{}a", "!".repeat(d)),
        format!("{}a{}", "[".repeat(d), "]".repeat(d)),
        format!("{}a{}", "abs(".repeat(d), ")".repeat(d)),
        format!("{}a{}", "{k: ".repeat(d), "}".repeat(d)),
        format!("{}b{}", "a[?".repeat(d / 2), "]".repeat(d / 2)),
        format!("a{}", "[0]".repeat(d)),
        format!("a{}", "[].b".repeat(d / 2)),
        format!("a{}", "[*].b".repeat(d / 2)),
        format!("a{}", "[0] | b".repeat(d / 2)),
        format!("{}a{}", "sort_by(@, &".repeat(d / 2), ")".repeat(d / 2)),
    ];
    let mut body = String::new();
    for (i, e) in exprs.iter().enumerate() {
        let _ = writeln!(
            body,
            "    let e{i} = jmespath!({e:?});\n    let _ = e{i}.search(&data);"
        );
    }
    format!(
        "{}fn main() {{\n    let data = json!({{\"a\": [[1]], \"b\": 2}});\n{body}}}\n",
        header()
    )
}

fn typed_path(members: usize) -> String {
    let path = format!("{}.name", vec!["child"; members - 1].join("."));
    format!(
        "{}#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {{ NotFound }}

#[derive(Debug, Searchable)]
pub struct Tree {{ pub name: String, pub child: Option<Box<Tree>> }}

pub struct Client;

impl Client {{
    #[waitable(Deep: {{ acceptors: [{{ state: \"success\", matcher: {{ output: {{ path: {path:?}, expected: \"x\", comparator: \"stringEquals\" }} }} }}] }})]
    pub async fn get(&self) -> Result<Tree, Error> {{
        Ok(Tree {{ name: String::new(), child: None }})
    }}
}}

fn main() {{
    let _ = Client.wait_until_deep();
    let _ = jmespath!(Tree, {path:?});
}}
",
        header()
    )
}

#[test]
fn large_inputs_compile() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("large-inputs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ors = vec!["a"; 4_000].join(" || ");
    let hash_any: Vec<String> = (0..4_000).map(|i| format!("k{i}: a[0]")).collect();
    let hash: Vec<String> = (0..4_000).map(|i| format!("k{i}: a")).collect();
    let list: Vec<String> = (0..10_000).map(|i| format!("m{i}")).collect();
    // A 100 KB JSON literal: 5,000 objects.
    let objects: Vec<String> = (0..5_000)
        .map(|i| format!("{{\"id\": {i}, \"name\": \"n{i:05}\"}}"))
        .collect();
    let literal = format!("`[{}]`", objects.join(", "));
    assert!(literal.len() >= 100_000, "{}", literal.len());
    let cases = [
        ("acceptors_800", acceptors(800)),
        (
            "or_chain_4000",
            search_case(&ors, "json!({\"a\": 1})", "assert_eq!(found, json!(1));"),
        ),
        (
            "hash_4000",
            search_case(
                &format!("{{{}}}", hash.join(", ")),
                "json!({\"a\": 1})",
                "assert_eq!(found[\"k3999\"], json!(1));",
            ),
        ),
        (
            "hash_4000_not_field_chains",
            search_case(
                &format!("{{{}}}", hash_any.join(", ")),
                "json!({\"a\": [1]})",
                "assert_eq!(found[\"k3999\"], json!(1));",
            ),
        ),
        (
            "list_10000",
            search_case(
                &format!("[{}]", list.join(", ")),
                "json!({\"m9999\": 7})",
                "assert_eq!(found.as_array().unwrap().len(), 10_000);\n    assert_eq!(found[9_999], json!(7));",
            ),
        ),
        (
            "json_literal_100kb",
            search_case(
                &format!("[length({literal}), {literal}[-1].name]"),
                "json!({})",
                "assert_eq!(found, json!([5000, \"n04999\"]));",
            ),
        ),
        ("nested_at_the_limit", nested_at_the_limit()),
        ("typed_path_48_members", typed_path(48)),
    ];
    for (name, source) in &cases {
        std::fs::write(dir.join(format!("{name}.rs")), source).unwrap();
    }
    let t = trybuild::TestCases::new();
    for (name, _) in &cases {
        t.pass(dir.join(format!("{name}.rs")));
    }
}
