//! Big and deep expressions: every pass (parse, check, expand, the typed-path lowering, drop)
//! on a 2 MiB stack, a fraction of what rustc gives a proc macro (8 MiB); too deep an
//! expression is one error at the token where it passes the limit.

use super::parse::MAX_DEPTH;
use super::{compile, expand};

/// Every pass of `jmespath!(Type, "expr")`, on a thread with a 2 MiB stack.
fn compile_on_small_stack(expr: String) -> Result<(), (usize, String)> {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let c = compile(&expr).map_err(|p| (p[0].offset, p[0].message.clone()))?;
            let tokens = expand::eval_fn(&c.ast);
            assert!(!tokens.is_empty());
            let lit = syn::LitStr::new(&expr, proc_macro2::Span::call_site());
            let ty: syn::Type = syn::parse_quote!(Output);
            let _ = crate::typed_paths::check_type(&lit, &ty);
            drop(c);
            Ok(())
        })
        .unwrap()
        .join()
        .expect("no stack overflow, no panic")
}

fn repeat(head: &str, n: usize, body: &str, tail: &str) -> String {
    format!("{}{body}{}", head.repeat(n), tail.repeat(n))
}

/// Each kind of nesting: the deepest that fits compiles, one more level is the error (saying
/// what to do), and 10,000 levels is the same error, with no overflow.
#[test]
fn nesting_stops_at_the_limit_with_an_error() {
    type Gen = fn(usize) -> String;
    let kinds: [(&str, Gen); 11] = [
        ("parentheses", |n| repeat("(", n, "a", ")")),
        ("not", |n| format!("{}a", "!".repeat(n))),
        ("lists", |n| repeat("[", n, "a", "]")),
        ("calls", |n| repeat("abs(", n, "a", ")")),
        ("hashes", |n| repeat("{k: ", n, "a", "}")),
        ("filters", |n| repeat("a[?", n, "b", "]")),
        ("sort_by keys", |n| repeat("sort_by(@, &", n, "a", ")")),
        ("indices", |n| format!("a{}", "[0]".repeat(n))),
        ("projections", |n| format!("a{}", "[].b".repeat(n))),
        ("pipes of indices", |n| format!("a{}", "[0] | b".repeat(n))),
        ("comparisons", |n| format!("a{}", " == a[0]".repeat(n))),
    ];
    for (name, make) in kinds {
        let fits = (1..=MAX_DEPTH)
            .rev()
            .find(|&n| compile_on_small_stack(make(n)).is_ok())
            .unwrap_or_else(|| panic!("{name}: nothing fits"));
        assert!(fits >= MAX_DEPTH / 3 - 1, "{name}: {fits}");
        let (offset, message) = compile_on_small_stack(make(fits + 1)).expect_err(name);
        assert!(
            message.contains(&format!("nested deeper than {MAX_DEPTH} levels here")),
            "{name}: {message}"
        );
        assert!(message.contains("write it with less nesting"), "{message}");
        assert!(offset < make(fits + 1).chars().count(), "{name}: {offset}");
        let (_, message) = compile_on_small_stack(make(10_000)).expect_err(name);
        assert!(message.contains("nested deeper than"), "{name}: {message}");
    }
}

/// The error points at the token that passes the limit.
#[test]
fn the_error_points_at_the_token_past_the_limit() {
    let parens = format!(
        "{}a{}",
        "(".repeat(MAX_DEPTH + 5),
        ")".repeat(MAX_DEPTH + 5)
    );
    let (offset, _) = compile_on_small_stack(parens).unwrap_err();
    // `expression` for the whole input is level 1: the `(` opening level MAX_DEPTH + 1.
    assert_eq!(offset, MAX_DEPTH);
    let indices = format!("a{}", "[0]".repeat(MAX_DEPTH + 5));
    let (offset, _) = compile_on_small_stack(indices).unwrap_err();
    // `a` is level 1, `a[0]` level 2: the `[` of level MAX_DEPTH + 1.
    assert_eq!(offset, 1 + 3 * (MAX_DEPTH - 1));
}

/// Long inputs that do not nest compile, whatever their length: a field chain, chains of
/// `||` and `&&`, wide multi-selects, a wide call.
#[test]
fn long_flat_inputs_compile() {
    let chain = vec!["a"; 10_000].join(".");
    compile_on_small_stack(chain).unwrap();
    let pipes = vec!["a.b"; 5_000].join(" | ");
    compile_on_small_stack(pipes).unwrap();
    let ors = vec!["a"; 5_000].join(" || ");
    compile_on_small_stack(ors).unwrap();
    let ands = vec!["a[0]"; 5_000].join(" && ");
    compile_on_small_stack(ands).unwrap();
    let list: Vec<String> = (0..10_000).map(|i| format!("m{i}")).collect();
    compile_on_small_stack(format!("[{}]", list.join(", "))).unwrap();
    let hash: Vec<String> = (0..10_000).map(|i| format!("k{i}: m{i}.x")).collect();
    compile_on_small_stack(format!("{{{}}}", hash.join(", "))).unwrap();
    compile_on_small_stack(format!("merge({})", vec!["@"; 5_000].join(", "))).unwrap();
    // A chain of `||` nested in each operand of another: each level counts once.
    let inner = vec!["a"; 100].join(" || ");
    let outer = vec![format!("({inner})"); 100].join(" && ");
    compile_on_small_stack(outer).unwrap();
}

/// `a.a.a...` of any length is one level: it is not nesting. After a step that is not a field
/// (`x[0].a.a...`) each step counts: that is the error.
#[test]
fn field_chains_are_one_level() {
    compile_on_small_stack(format!("{}[0]", vec!["a"; 10_000].join("."))).unwrap();
    compile_on_small_stack(format!("x[0].{}", vec!["a"; MAX_DEPTH - 3].join("."))).unwrap();
    let (_, message) =
        compile_on_small_stack(format!("x[0].{}", vec!["a"; 10_000].join("."))).unwrap_err();
    assert!(message.contains("nested deeper than"), "{message}");
}
