//! Compile-time checks of `jmespath!`, observed through the hidden verdict macro (the same
//! checks and messages the real macro reports as `compile_error!` on the string literal).

use waiter_runtime::__private_v0_1::__jmespath_verdict as verdict;
use waiter_runtime::__private_v0_1::jmespath::Verdict;

#[track_caller]
fn rejected(v: Verdict, kind: &str, parts: &[&str]) {
    match v {
        Verdict::Rejected { kind: k, message } => {
            assert_eq!(k, kind, "{message}");
            for p in parts {
                assert!(message.contains(p), "`{p}` not in:\n{message}");
            }
        }
        Verdict::Compiled(e) => panic!("`{e}` compiled"),
    }
}

#[test]
fn syntax_errors_point_at_the_column() {
    rejected(
        verdict!("a.["),
        "syntax",
        &[
            "invalid JMESPath syntax",
            "found the end of the expression",
            "column 4",
            "a.[\n  |     ^",
        ],
    );
    rejected(verdict!("foo[?a ==]"), "syntax", &["column"]);
}

#[test]
fn unknown_functions_suggest_the_closest_name() {
    rejected(
        verdict!("lenght(Items)"),
        "unknown-function",
        &[
            "unknown function `lenght()`",
            "did you mean `length`?",
            "column 1",
        ],
    );
}

#[test]
fn arity_errors_show_the_signature() {
    rejected(
        verdict!("a || length(a, b)"),
        "invalid-arity",
        &[
            "length() takes 1 argument but 2 given",
            "length(string, array or object)",
            "column 6",
        ],
    );
    rejected(
        verdict!("merge()"),
        "invalid-arity",
        &["at least 1 argument but 0 given"],
    );
}

#[test]
fn literal_arguments_of_the_wrong_type() {
    rejected(
        verdict!("abs('x')"),
        "invalid-type",
        &["argument 0 of abs() must be number, but this is always string"],
    );
    rejected(
        verdict!("sum(`[1, \"a\"]`)"),
        "invalid-type",
        &["literal array holds number or string"],
    );
    rejected(
        verdict!("length(`1` == a)"),
        "invalid-type",
        &["always boolean"],
    );
    rejected(
        verdict!("starts_with(a, length(b))"),
        "invalid-type",
        &["argument 1", "always number"],
    );
    rejected(
        verdict!("sort_by(a, b)"),
        "invalid-type",
        &["must be an expression reference", "&"],
    );
    rejected(
        verdict!("length(&a)"),
        "invalid-type",
        &["not an expression reference"],
    );
    rejected(
        verdict!("&a"),
        "invalid-type",
        &["can only be a function argument"],
    );
}

#[test]
fn fields_of_literals_are_always_null() {
    rejected(
        verdict!("`\"text\"`.length"),
        "invalid-type",
        &["field `length` is read from a string literal, so it is always null"],
    );
    rejected(verdict!("`[1]` | a"), "invalid-type", &["array literal"]);
    assert!(matches!(verdict!("`{\"a\": 1}`.a"), Verdict::Compiled(_)));
}

#[test]
fn types_that_may_fit_are_accepted() {
    // Fields are unknown until run time: accepted, checked when evaluated.
    assert!(matches!(verdict!("abs(a)"), Verdict::Compiled(_)));
    assert!(matches!(verdict!("abs(a || 'x')"), Verdict::Compiled(_)));
    assert!(matches!(verdict!("sum(`[]`)"), Verdict::Compiled(_)));
    assert!(matches!(
        verdict!("max(`[\"a\", \"b\"]`)"),
        Verdict::Compiled(_)
    ));
}
