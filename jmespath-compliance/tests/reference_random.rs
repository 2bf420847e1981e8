//! Random expressions and documents against the reference implementation, jmespath.py 1.1.0.
//!
//! `fuzz/gen_reference.py` (fixed seeds; the command to regenerate is at its top) draws a few
//! thousand expressions from the whole grammar, plus every built-in function with right and
//! wrong argument types and arities, plus malformed expressions, and a set of documents biased
//! so that the expressions hit them; it freezes jmespath.py's outcomes in
//! `reference_random/fixture.json` and the expressions in `reference_random/exprs_NN.in`, each
//! compiled here once through `__jmespath_verdict!` (the compiler of `jmespath!`).
//!
//! Rules checked, per expression:
//! - a syntax error (jmespath.py's ParseError/LexerError), an unknown function or a wrong arity
//!   (found by jmespath.py only when the call runs) must be rejected at compile time, with that
//!   kind (`invalid-type` is accepted too when our checker meets a certain type error first);
//! - an expression jmespath.py evaluates must compile, and give on every document the same
//!   value (numbers by value: `1 == 1.0`) or the same runtime error kind (`invalid-type`,
//!   `invalid-value`), unless it is rejected at compile time for a type error that jmespath.py
//!   also meets on every document, or is one of our documented stricter rules, listed one by
//!   one in `fuzz/static_rejections.json` with the rule;
//! - where jmespath.py departs from the specification the fixture's expected outcome is the
//!   specification's, and the case carries `known` (the departures, described in the fixture's
//!   `spec_departures`) and `jmespath_py` (what jmespath.py gives).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::Value;
use waiter_runtime::__private_v0_1::__jmespath_verdict as verdict;
use waiter_runtime::__private_v0_1::jmespath::Verdict;
use waiter_runtime::jmespath::{Node, SearchError};

static GROUPS: &[&[(&str, Verdict)]] = include!("reference_random/groups.in");
static FIXTURE: &str = include_str!("reference_random/fixture.json");
static STATIC_REJECTIONS: &str = include_str!("../fuzz/static_rejections.json");

/// Our outcome on one document, in the fixture's form.
fn ours(v: &Verdict, doc: &Value) -> Result<Value, String> {
    let Verdict::Compiled(e) = v else {
        unreachable!()
    };
    match catch_unwind(AssertUnwindSafe(|| e.search(doc).map(|n| n.into_owned()))) {
        Ok(Ok(n)) => Ok(n.to_value()),
        Ok(Err(SearchError::InvalidType { .. })) => Err("invalid-type".to_owned()),
        Ok(Err(SearchError::InvalidValue { .. })) => Err("invalid-value".to_owned()),
        Ok(Err(e)) => Err(format!("other error: {e}")),
        Err(_) => Err("panic".to_owned()),
    }
}

fn same(ours: &Result<Value, String>, expected: &Value) -> bool {
    match (ours, expected.get("v"), expected.get("e")) {
        (Ok(v), Some(w), _) => Node::from_value(v.clone()).json_eq(&Node::from_value(w.clone())),
        (Err(k), None, Some(e)) => e.as_str() == Some(k),
        _ => false,
    }
}

fn show(r: &Result<Value, String>) -> String {
    match r {
        Ok(v) => v.to_string(),
        Err(e) => format!("error {e}"),
    }
}

#[derive(Default)]
struct Report {
    checked_pairs: usize,
    compiled: usize,
    rejected_ok: usize,
    non_null: usize,
    known: BTreeMap<String, usize>,
    static_listed: usize,
    failures: BTreeMap<&'static str, Vec<String>>,
    /// Static rejections of expressions jmespath.py evaluates or rejects with another kind,
    /// listed or not: (source, message).
    rejections: Vec<(String, String)>,
}

impl Report {
    fn fail(&mut self, category: &'static str, line: String) {
        self.failures.entry(category).or_default().push(line);
    }
}

#[test]
fn compiled_expressions_agree_with_jmespath_py() {
    let fixture: Value = serde_json::from_str(FIXTURE).unwrap();
    let docs = fixture["documents"].as_array().unwrap();
    let cases = fixture["cases"].as_array().unwrap();
    let listed: BTreeMap<String, String> = serde_json::from_str::<Value>(STATIC_REJECTIONS)
        .unwrap()["rejections"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
        .collect();
    let exprs: Vec<&(&str, Verdict)> = GROUPS.iter().flat_map(|g| g.iter()).collect();
    assert_eq!(
        exprs.len(),
        cases.len(),
        "fixture and expressions out of step"
    );
    assert_eq!(GROUPS.len() as u64, fixture["groups"].as_u64().unwrap());
    // The numbers the `jmespath` module docs state (waiter-runtime/src/docs/jmespath.md) (for the checked-in set; not when exploring with other seeds).
    if fixture["default_settings"] == true {
        assert_eq!(
            (cases.len(), docs.len()),
            (3468, 16),
            "update waiter-runtime/src/docs/jmespath.md with the new numbers"
        );
    }

    let mut r = Report::default();
    let mut listed_seen = BTreeSet::new();
    for ((src, verdict), case) in exprs.iter().zip(cases) {
        assert_eq!(*src, case["expression"].as_str().unwrap());
        for k in case
            .get("known")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            *r.known.entry(k.as_str().unwrap().to_owned()).or_default() += 1;
        }
        if let Some(kinds) = case.get("rejected") {
            let kinds: Vec<&str> = kinds
                .as_array()
                .unwrap()
                .iter()
                .map(|k| k.as_str().unwrap())
                .collect();
            match verdict {
                Verdict::Rejected { kind, .. }
                    if kinds.contains(kind)
                        || (*kind == "invalid-type" && kinds[0] != "syntax") =>
                {
                    r.rejected_ok += 1
                }
                Verdict::Rejected { message, .. } if listed.contains_key(*src) => {
                    listed_seen.insert(src.to_string());
                    r.static_listed += 1;
                    r.rejections.push((src.to_string(), message.to_string()));
                }
                Verdict::Rejected { kind, message } => {
                    r.rejections.push((src.to_string(), message.to_string()));
                    r.fail(
                        "rejected with another kind",
                        format!("`{src}`: expected {kinds:?}, rejected as {kind}: {message}"),
                    )
                }
                Verdict::Compiled(_) => r.fail(
                    "compiled, jmespath.py rejects",
                    format!("`{src}`: expected {kinds:?}"),
                ),
            }
            continue;
        }
        let results = case["results"].as_array().unwrap();
        match verdict {
            Verdict::Rejected { kind, message } => {
                let always_type_error = *kind == "invalid-type"
                    && results
                        .iter()
                        .all(|x| x.get("e").is_some_and(|e| e == "invalid-type"));
                if always_type_error {
                    r.rejected_ok += 1;
                } else if listed.contains_key(*src) {
                    listed_seen.insert(src.to_string());
                    r.static_listed += 1;
                    r.rejections.push((src.to_string(), message.to_string()));
                } else {
                    let example = results.iter().find(|x| x.get("v").is_some());
                    r.rejections.push((src.to_string(), message.to_string()));
                    r.fail(
                        "rejected at compile time, jmespath.py evaluates",
                        format!(
                            "`{src}`: rejected as {kind}: {message}; jmespath.py: {}",
                            example.map_or("errors".to_owned(), Value::to_string)
                        ),
                    );
                }
            }
            Verdict::Compiled(_) => {
                r.compiled += 1;
                for (doc, expected) in docs.iter().zip(results) {
                    r.checked_pairs += 1;
                    let got = ours(verdict, doc);
                    if same(&got, expected) {
                        r.non_null += usize::from(got.as_ref().is_ok_and(|v| !v.is_null()));
                        continue;
                    }
                    let category = match (&got, expected.get("v").is_some()) {
                        (Ok(_), true) => "different value",
                        (Err(_), true) => "error, jmespath.py gives a value",
                        (Ok(_), false) => "value, jmespath.py errors",
                        (Err(_), false) => "different error",
                    };
                    r.fail(
                        category,
                        format!("`{src}` on {doc}: ours {}, expected {expected}", show(&got)),
                    );
                }
            }
        }
    }
    // `REFERENCE_RANDOM_DUMP=path`: those static rejections, for review by
    // `gen_reference.py --review path` (which classifies them and checks them against jmespath.py).
    if let Some(path) = std::env::var_os("REFERENCE_RANDOM_DUMP") {
        let dump: BTreeMap<&str, &str> = r
            .rejections
            .iter()
            .map(|(s, m)| (s.as_str(), m.as_str()))
            .collect();
        std::fs::write(path, serde_json::to_string_pretty(&dump).unwrap()).unwrap();
    }
    let stale: Vec<&String> = listed
        .keys()
        .filter(|k| !listed_seen.contains(*k))
        .collect();
    let mut text = String::new();
    for (category, lines) in &r.failures {
        let _ = writeln!(text, "== {category}: {}", lines.len());
        for l in lines.iter().take(40) {
            let _ = writeln!(text, "  {l}");
        }
    }
    eprintln!(
        "{text}reference: {} expressions x {} documents; {} compiled ({} pairs compared, {} \
         non-null), {} rejected as expected, {} listed static rejections; known departures of \
         jmespath.py from the spec: {:?}",
        cases.len(),
        docs.len(),
        r.compiled,
        r.checked_pairs,
        r.non_null,
        r.rejected_ok,
        r.static_listed,
        r.known
    );
    assert!(
        r.failures.is_empty(),
        "disagreements with jmespath.py:\n{text}"
    );
    assert!(
        stale.is_empty(),
        "listed in static_rejections.json but not rejected: {stale:?}"
    );
    // The comparison is exercised: most pairs are not null (a generator or fixture change that
    // makes everything null shows up here).
    assert!(r.non_null * 3 >= r.checked_pairs, "{} non-null", r.non_null);
}
