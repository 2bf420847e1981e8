//! The official JMESPath compliance suite, every case compiled through `jmespath!`'s code path.
//!
//! `jmespath_compliance::compliance_cases!()` reads the suite from the `jmespath` crate's package
//! and expands into one `__jmespath_verdict!("...")` per case: result cases must compile and
//! evaluate to the expected value; syntax, unknown-function and arity cases must be rejected at
//! compile time; invalid-type cases are rejected at compile time when the wrong type is known
//! statically (a literal), otherwise they return `SearchError::InvalidType`; invalid-value cases
//! return `SearchError::InvalidValue`. Nothing may panic.

use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};

use waiter_runtime::__private_v0_1::jmespath::Verdict;
use waiter_runtime::jmespath::{Node, SearchError};

enum Expected {
    Result(&'static str),
    Error(&'static str),
}

struct Case {
    file: &'static str,
    expression: &'static str,
    given: usize,
    expected: Expected,
    verdict: Verdict,
}

jmespath_compliance::compliance_cases!();

fn outcome(case: &Case, given: &serde_json::Value) -> Result<(), String> {
    match (&case.expected, &case.verdict) {
        (Expected::Result(json), Verdict::Compiled(e)) => {
            let expected: serde_json::Value = serde_json::from_str(json).unwrap();
            match e.search(given) {
                Ok(n) if n.json_eq(&Node::from_value(expected.clone())) => Ok(()),
                Ok(n) => Err(format!("expected {expected}, got {n}")),
                Err(err) => Err(format!("expected {expected}, got error {err}")),
            }
        }
        (Expected::Result(_), Verdict::Rejected { message, .. }) => {
            Err(format!("rejected at compile time: {message}"))
        }
        (Expected::Error(kind), Verdict::Rejected { kind: got, message }) => {
            if kind == got {
                Ok(())
            } else {
                Err(format!("expected {kind}, rejected as {got}: {message}"))
            }
        }
        (Expected::Error(kind), Verdict::Compiled(e)) => match (e.search(given), *kind) {
            (Err(SearchError::InvalidType { .. }), "invalid-type") => Ok(()),
            (Err(SearchError::InvalidValue { .. }), "invalid-value") => Ok(()),
            (Err(err), _) => Err(format!("expected {kind}, got {err}")),
            (Ok(n), _) => Err(format!("expected {kind}, got {n}")),
        },
    }
}

#[test]
fn compliance_suite() {
    let givens: Vec<serde_json::Value> = GIVENS
        .iter()
        .map(|g| serde_json::from_str(g).unwrap())
        .collect();
    let cases = cases();
    let (mut passed, mut failed) = (0, 0);
    let mut report = String::new();
    let (mut results, mut errors) = (0, 0);
    let mut rejected = std::collections::BTreeMap::<&str, usize>::new();
    for case in &cases {
        if let Verdict::Rejected { kind, .. } = case.verdict {
            *rejected.entry(kind).or_default() += 1;
        }
        match case.expected {
            Expected::Result(_) => results += 1,
            Expected::Error(_) => errors += 1,
        }
        let given = &givens[case.given];
        let r = catch_unwind(AssertUnwindSafe(|| outcome(case, given)))
            .unwrap_or_else(|_| Err("panicked".to_owned()));
        match r {
            Ok(()) => passed += 1,
            Err(why) => {
                failed += 1;
                report.push_str(&format!(
                    "FAIL {}: `{}`: {why}\n",
                    case.file, case.expression
                ));
            }
        }
    }
    // Written to the real stderr so that the line shows even when the test passes.
    let _ = write!(
        std::io::stderr(),
        "{report}compliance: {results} result cases, {errors} error cases; rejected at compile time: {rejected:?}\ncompliance: {passed} passed, {failed} failed\n"
    );
    assert_eq!(
        (results, errors),
        (715, 146),
        "the suite should hold 715 result and 146 error cases"
    );
    assert_eq!(failed, 0, "compliance failures:\n{report}");
}

#[test]
fn the_harness_rejects_wrong_outcomes() {
    let given = serde_json::json!({"a": 1});
    let case = |expected, verdict| Case {
        file: "-",
        expression: "-",
        given: 0,
        expected,
        verdict,
    };
    let a = waiter_runtime::__private_v0_1::__jmespath_verdict!("a");
    assert!(outcome(&case(Expected::Result("1"), a), &given).is_ok());
    assert!(outcome(&case(Expected::Result("1.0"), a), &given).is_ok());
    assert!(outcome(&case(Expected::Result("2"), a), &given).is_err());
    assert!(outcome(&case(Expected::Error("syntax"), a), &given).is_err());
    let bad = waiter_runtime::__private_v0_1::__jmespath_verdict!("a.[");
    assert!(outcome(&case(Expected::Error("syntax"), bad), &given).is_ok());
    assert!(outcome(&case(Expected::Result("null"), bad), &given).is_err());
    let arity = waiter_runtime::__private_v0_1::__jmespath_verdict!("length(a, a)");
    assert!(outcome(&case(Expected::Error("syntax"), arity), &given).is_err());
    assert!(outcome(&case(Expected::Error("invalid-arity"), arity), &given).is_ok());
}
