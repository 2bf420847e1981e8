//! Static checks: function names and arities, argument types known at compile time, expression
//! references outside function arguments, fields read from values that are never objects.
//! Every problem is collected in one pass; the result type of the expression is inferred.

use super::ast::{Ast, Comparator};

use super::functions::{self, Param};
use super::problem::{Problem, ProblemKind};
use super::types::{ANY, ARR, BOOL, EXPREF, NULL, NUM, OBJ, STR, Ty, describe};

/// Everything the checker learned: the root paths read and the problems found.
#[derive(Default)]
pub(crate) struct Checked {
    pub problems: Vec<Problem>,
    pub root_paths: Vec<Vec<String>>,
}

pub(crate) fn check(ast: &Ast, expr: &str) -> (Ty, Checked) {
    let mut out = Checked::default();
    collect_root_paths(ast, &mut out.root_paths);
    let mut seen = std::collections::HashSet::new();
    out.root_paths.retain(|p| seen.insert(p.clone()));
    let ty = infer(ast, Ty::ANY, false, &mut out.problems);
    for p in &mut out.problems {
        if let Some(name) = p.function.take() {
            p.offset = locate_call(expr, &name, p.offset);
        }
    }
    (ty, out)
}

/// The parser's offsets for function calls are approximate (past the name); point at the last
/// `name(` that starts at or before it instead.
fn locate_call(expr: &str, name: &str, offset: usize) -> usize {
    let chars: Vec<char> = expr.chars().collect();
    let name: Vec<char> = name.chars().collect();
    let mut best = None;
    for start in 0..chars.len() {
        if start > offset {
            break;
        }
        if chars[start..].starts_with(&name) {
            let mut i = start + name.len();
            while chars.get(i).is_some_and(|c| c.is_whitespace()) {
                i += 1;
            }
            let boundary =
                start == 0 || !(chars[start - 1].is_alphanumeric() || chars[start - 1] == '_');
            if chars.get(i) == Some(&'(') && boundary {
                best = Some(start);
            }
        }
    }
    best.unwrap_or(offset)
}

/// Infers the type of `ast` evaluated against a value of type `input`.
/// `literal_input` says that `input` is exactly known (it comes from a literal).
fn infer(ast: &Ast, input: Ty, literal_input: bool, problems: &mut Vec<Problem>) -> Ty {
    match ast {
        Ast::Identity { .. } => input,
        Ast::Literal { value, .. } => Ty::literal(value),
        Ast::Field { name, offset } => {
            if literal_input && !input.may(OBJ) {
                problems.push(Problem {
                    function: None,
                    kind: ProblemKind::InvalidType,
                    offset: *offset,
                    message: format!(
                        "field `{name}` is read from a {} literal, so it is always null; \
                         fields can only be read from objects",
                        describe(input.kinds)
                    ),
                });
            }
            if input.may(OBJ) {
                Ty::ANY
            } else {
                Ty::of(NULL)
            }
        }
        Ast::Subexpr { .. } if ast.field_chain().is_some() => {
            // A field chain, without recursion (it may be any length): only its first field
            // reads `input`; the others read a field's value.
            let mut first = ast;
            while let Ast::Subexpr { lhs, .. } = first {
                first = lhs;
            }
            let steps = ast.field_chain().map_or(0, |names| names.len());
            let mut t = infer(first, input, literal_input, problems);
            for _ in 1..steps {
                t = if t.may(OBJ) { Ty::ANY } else { Ty::of(NULL) };
            }
            t
        }
        Ast::Subexpr { lhs, rhs, .. } => {
            let l = infer(lhs, input, literal_input, problems);
            infer(rhs, l, is_literal(lhs), problems)
        }
        Ast::Index { .. } => {
            if input.may(ARR) {
                Ty::of(input.elem | NULL)
            } else {
                Ty::of(NULL)
            }
        }
        Ast::Slice { .. } => Ty {
            kinds: arr_or_null(input),
            elem: input.elem,
        },
        Ast::Flatten { node, .. } => {
            let n = infer(node, input, literal_input, problems);
            let elem = if n.elem & ARR != 0 { ANY } else { n.elem };
            Ty {
                kinds: arr_or_null(n),
                elem,
            }
        }
        Ast::ObjectValues { node, .. } => {
            let n = infer(node, input, literal_input, problems);
            let mut kinds = 0;
            if n.may(OBJ) {
                kinds |= ARR;
            }
            if n.kinds & !OBJ != 0 {
                kinds |= NULL;
            }
            Ty { kinds, elem: ANY }
        }
        Ast::Projection { lhs, rhs, .. } => {
            let l = infer(lhs, input, literal_input, problems);
            let elem_in = if l.may(ARR) {
                Ty::of(l.elem)
            } else {
                Ty::of(NULL)
            };
            let r = infer(rhs, elem_in, false, problems);
            Ty {
                kinds: arr_or_null(l),
                elem: r.kinds & !NULL,
            }
        }
        Ast::MultiList { elements, .. } => {
            let mut elem = 0;
            for e in elements {
                elem |= infer(e, input, literal_input, problems).kinds;
            }
            Ty {
                kinds: ARR | (input.kinds & NULL),
                elem,
            }
        }
        Ast::MultiHash { elements, .. } => {
            for kv in elements {
                infer(&kv.value, input, literal_input, problems);
            }
            Ty::of(OBJ | (input.kinds & NULL))
        }
        Ast::Not { node, .. } => {
            infer(node, input, literal_input, problems);
            Ty::of(BOOL)
        }
        Ast::Comparison {
            comparator,
            lhs,
            rhs,
            ..
        } => {
            let l = infer(lhs, input, literal_input, problems);
            let r = infer(rhs, input, literal_input, problems);
            match comparator {
                Comparator::Equal | Comparator::NotEqual => Ty::of(BOOL),
                // `<`, `<=`, `>`, `>=` order numbers only; anything else is null.
                _ if !l.may(NUM) || !r.may(NUM) => Ty::of(NULL),
                _ if l.kinds == NUM && r.kinds == NUM => Ty::of(BOOL),
                _ => Ty::of(BOOL | NULL),
            }
        }
        Ast::And { .. } | Ast::Or { .. } => ast
            .operands()
            .into_iter()
            .map(|o| infer(o, input, literal_input, problems))
            .reduce(Ty::union)
            .unwrap_or(Ty::ANY),
        Ast::Condition {
            predicate, then, ..
        } => {
            infer(predicate, input, literal_input, problems);
            let t = infer(then, input, literal_input, problems);
            t.union(Ty::of(NULL))
        }
        Ast::Expref { offset, ast } => {
            problems.push(Problem {
                function: None,
                kind: ProblemKind::InvalidType,
                offset: *offset,
                message: "an expression reference (`&expr`) can only be a function argument, \
                          as in `sort_by(items, &name)`"
                    .to_owned(),
            });
            infer(ast, Ty::ANY, false, problems);
            Ty::of(EXPREF)
        }
        Ast::Function { name, args, offset } => {
            infer_call(name, args, *offset, input, literal_input, problems)
        }
    }
}

fn arr_or_null(t: Ty) -> u8 {
    let mut kinds = 0;
    if t.may(ARR) {
        kinds |= ARR;
    }
    if t.kinds & !ARR != 0 {
        kinds |= NULL;
    }
    kinds
}

fn is_literal(ast: &Ast) -> bool {
    match ast {
        Ast::Literal { .. } => true,
        Ast::Subexpr { rhs, .. } => is_literal(rhs),
        _ => false,
    }
}

fn infer_call(
    name: &str,
    args: &[Ast],
    offset: usize,
    input: Ty,
    literal_input: bool,
    problems: &mut Vec<Problem>,
) -> Ty {
    let Some(f) = functions::lookup(name) else {
        let hint = match functions::closest(name) {
            Some(n) => format!("; did you mean `{n}`?"),
            None => String::new(),
        };
        problems.push(Problem {
            kind: ProblemKind::UnknownFunction,
            offset,
            message: format!("unknown function `{name}()`{hint}"),
            function: Some(name.to_owned()),
        });
        for a in args {
            infer_arg(a, input, literal_input, problems);
        }
        return Ty::ANY;
    };
    let n = f.params.len();
    let arity_ok = if f.variadic.is_some() {
        args.len() >= n
    } else {
        args.len() == n
    };
    if !arity_ok {
        let expected = match (f.variadic.is_some(), n) {
            (true, 1) => "at least 1 argument".to_owned(),
            (true, n) => format!("at least {n} arguments"),
            (false, 1) => "1 argument".to_owned(),
            (false, n) => format!("{n} arguments"),
        };
        let sig: Vec<&str> = f.params.iter().map(|p| p.name).collect();
        let dots = if f.variadic.is_some() { ", ..." } else { "" };
        problems.push(Problem {
            kind: ProblemKind::InvalidArity,
            offset,
            function: Some(f.name.to_owned()),
            message: format!(
                "{}() takes {expected} but {} given: {}({}{dots})",
                f.name,
                args.len(),
                f.name,
                sig.join(", ")
            ),
        });
    }
    for (i, a) in args.iter().enumerate() {
        let param = f.params.get(i).copied().or(f.variadic);
        let Some(param) = param else {
            infer_arg(a, input, literal_input, problems);
            continue;
        };
        check_arg(f.name, i, param, a, input, literal_input, problems);
    }
    f.returns
}

fn infer_arg(a: &Ast, input: Ty, literal_input: bool, problems: &mut Vec<Problem>) -> Ty {
    match a {
        Ast::Expref { ast, .. } => {
            infer(ast, Ty::ANY, false, problems);
            Ty::of(EXPREF)
        }
        other => infer(other, input, literal_input, problems),
    }
}

fn check_arg(
    function: &str,
    position: usize,
    param: Param,
    arg: &Ast,
    input: Ty,
    literal_input: bool,
    problems: &mut Vec<Problem>,
) {
    let t = infer_arg(arg, input, literal_input, problems);
    let offset = arg.offset();
    if param.kinds == EXPREF {
        if t.kinds != EXPREF {
            problems.push(Problem {
                function: None,
                kind: ProblemKind::InvalidType,
                offset,
                message: format!(
                    "argument {position} of {function}() must be an expression reference: \
                     write `&` before it, as in `{function}(..., &field)`"
                ),
            });
        }
        return;
    }
    if t.kinds == EXPREF {
        problems.push(Problem {
            function: None,
            kind: ProblemKind::InvalidType,
            offset,
            message: format!(
                "argument {position} of {function}() must be {}, not an expression reference; \
                 remove the `&`",
                param.name
            ),
        });
        return;
    }
    if t.kinds & param.kinds == 0 {
        problems.push(Problem {
            function: None,
            kind: ProblemKind::InvalidType,
            offset,
            message: format!(
                "argument {position} of {function}() must be {}, but this is always {}",
                param.name,
                describe(t.kinds)
            ),
        });
        return;
    }
    // Element types are only known for certain when the argument is a literal array.
    if let Ast::Literal { value, .. } = arg {
        if param.elem != 0 {
            if let Some(items) = value.as_array() {
                let kinds: Vec<u8> = items.iter().map(|v| Ty::literal(v).kinds).collect();
                let all_one_allowed = [NUM, STR]
                    .into_iter()
                    .filter(|k| param.elem & k != 0)
                    .any(|k| kinds.iter().all(|x| *x == k));
                if !items.is_empty() && !all_one_allowed {
                    problems.push(Problem {
                        function: None,
                        kind: ProblemKind::InvalidType,
                        offset,
                        message: format!(
                            "argument {position} of {function}() must be {}, but this literal \
                             array holds {}",
                            param.name,
                            describe(kinds.iter().fold(0, |a, k| a | k))
                        ),
                    });
                }
            }
        }
    }
}

/// Field chains read from the root: `length(input.groups) == output.x` ->
/// `[["input", "groups"], ["output", "x"]]`.
fn collect_root_paths(ast: &Ast, out: &mut Vec<Vec<String>>) {
    if let Some(path) = root_path(ast) {
        if !path.is_empty() {
            out.push(path);
        }
        return;
    }
    // Walk children that are evaluated against the root (not the right side of
    // sub-expressions, projections or pipes, which see derived values).
    match ast {
        Ast::Subexpr { lhs, .. } | Ast::Projection { lhs, .. } => collect_root_paths(lhs, out),
        Ast::Flatten { node, .. } | Ast::ObjectValues { node, .. } | Ast::Not { node, .. } => {
            collect_root_paths(node, out)
        }
        Ast::And { .. } | Ast::Or { .. } => ast
            .operands()
            .into_iter()
            .for_each(|o| collect_root_paths(o, out)),
        Ast::Comparison { lhs, rhs, .. } => {
            collect_root_paths(lhs, out);
            collect_root_paths(rhs, out);
        }
        Ast::Condition {
            predicate, then, ..
        } => {
            collect_root_paths(predicate, out);
            collect_root_paths(then, out);
        }
        Ast::MultiList { elements, .. } => elements.iter().for_each(|e| collect_root_paths(e, out)),
        Ast::MultiHash { elements, .. } => elements
            .iter()
            .for_each(|kv| collect_root_paths(&kv.value, out)),
        Ast::Function { args, .. } => args.iter().for_each(|a| collect_root_paths(a, out)),
        _ => {}
    }
}

/// `a.b.c` as `["a", "b", "c"]`; `None` when `ast` is not a plain field chain.
fn root_path(ast: &Ast) -> Option<Vec<String>> {
    ast.field_chain()
}

#[cfg(test)]
mod tests {
    use super::super::types::StaticType::{self, *};
    use super::*;

    fn ty(expr: &str) -> StaticType {
        let ast = super::super::parse::parse(expr).unwrap();
        let (t, c) = check(&ast, expr);
        assert!(c.problems.is_empty(), "{expr}: {:?}", c.problems);
        t.to_static()
    }

    #[test]
    fn inferred_types_follow_smithy() {
        assert_eq!(ty("a.b"), Any);
        assert_eq!(ty("a == `1`"), Boolean);
        assert_eq!(ty("a < b"), Boolean);
        assert_eq!(ty("a < `10`"), Boolean);
        assert_eq!(ty("length(a) >= `1`"), Boolean);
        // Orderings compare numbers only: with a side that cannot be a number they are null.
        assert_eq!(ty("`true` < `false`"), Null);
        assert_eq!(ty("a >= 'x'"), Null);
        assert_eq!(ty("type(a) > b"), Null);
        assert_eq!(ty("`[1]` <= `2`"), Null);
        assert_eq!(ty("`true` == `false`"), Boolean);
        assert_eq!(ty("!a"), Boolean);
        assert_eq!(ty("contains(a, 'x')"), Boolean);
        assert_eq!(ty("starts_with(a, 'x') || ends_with(a, 'y')"), Boolean);
        assert_eq!(ty("length(a)"), Number);
        assert_eq!(ty("abs(a)"), Number);
        assert_eq!(ty("avg(a)"), Number);
        assert_eq!(ty("join(', ', a)"), String);
        assert_eq!(ty("type(@)"), String);
        assert_eq!(ty("to_string(a)"), String);
        assert_eq!(ty("keys(@)"), Array(Box::new(String)));
        assert_eq!(ty("a[].b"), Array(Box::new(Any)));
        assert_eq!(ty("a[*].to_string(@)"), Array(Box::new(String)));
        assert_eq!(ty("a[?b == 'x'].c"), Array(Box::new(Any)));
        assert_eq!(ty("sort(a)"), Array(Box::new(Any)));
        assert_eq!(ty("[a == b, c]"), Array(Box::new(Any)));
        assert_eq!(ty("merge(a, b)"), Object);
        assert_eq!(ty("`null`"), Null);
        // `&&` yields one of its operands, not a boolean.
        assert_eq!(ty("a && b"), Any);
        assert_eq!(ty("a == `1` && b == `2`"), Boolean);
        assert_eq!(ty("length(a) > `0` && 'yes'"), Any);
    }

    #[test]
    fn root_paths_are_collected() {
        let expr = "length(input.groups) == length(output.groups) && output.x.y";
        let (_, c) = check(&super::super::parse::parse(expr).unwrap(), expr);
        assert_eq!(
            c.root_paths,
            vec![
                vec!["input".to_owned(), "groups".to_owned()],
                vec!["output".to_owned(), "groups".to_owned()],
                vec!["output".to_owned(), "x".to_owned(), "y".to_owned()],
            ]
        );
    }

    #[test]
    fn every_problem_is_collected() {
        let expr = "lenght(a) || abs('x') || length(a, b)";
        let (_, c) = check(&super::super::parse::parse(expr).unwrap(), expr);
        let kinds: Vec<&str> = c.problems.iter().map(|p| p.kind.name()).collect();
        assert_eq!(kinds, ["unknown-function", "invalid-type", "invalid-arity"]);
        let cols: Vec<usize> = c.problems.iter().map(|p| p.offset).collect();
        assert_eq!(cols[0], 0);
        assert_eq!(cols[2], 25);
    }
}
