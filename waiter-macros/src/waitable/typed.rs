//! Typed paths (issue 9): every field chain of a path, checked against what
//! `#[derive(Searchable)]` publishes about the searched type, by const evaluation in the user's
//! crate (the macro cannot see the type's definition; the compiler joins the two).
//!
//! A path's syntax tree is lowered to chains of steps from the root: `.name`, `[]`/`[*]`/`[n]`,
//! `*`, flatten. Fields inside a filter are checked against the element type, fields inside
//! comparisons, function arguments and multi-selects against where they are read. When the
//! whole path is one chain, its leaf is checked against the comparator (`stringEquals` needs a
//! string...). Each chain becomes one `const _: () = check(..);` in the waiter function's body:
//! the root type's description (published by the derive, to the depth the chain needs) and the
//! chain's steps, walked in one const evaluation that panics with a message built in const at
//! the path's span on a mistake; below an unknown type anything goes.

use crate::jmespath::ast::Ast;
use std::collections::HashMap;

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{LitStr, Type};

use super::model::Comparator;
use super::signature::Operation;
use crate::krate;

#[derive(Clone, Debug, PartialEq)]
enum Op {
    /// `.name`; the expression up to it, for messages.
    Field(String, String),
    /// `[n]` (false, with `n`) or the elements of a projection (true).
    Elements(bool, i64),
    /// `*`: the values of a map or object.
    Values,
    /// `x[]`.
    Flatten,
    /// The value read so far must be what this needs (a chain merged into a longer one that
    /// starts with it: one walk checks both).
    Need(Need),
    /// What follows reads one element of the projections so far: a function argument or a
    /// comparison operand inside a filter or a projection, whose need is checked on the element.
    Scope,
}

/// What the leaf of a chain must be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Need {
    Comparator(Comparator),
    /// `stringEquals` or `booleanEquals` on a path the untyped check knows gives a list of
    /// elements it cannot see: an error whatever they are, whose message names them.
    ComparatorOnList(Comparator),
    Message,
    /// An operand of an ordering comparison (`<`, `<=`, `>`, `>=`): JMESPath orders numbers
    /// only (anything else gives null).
    Ordered(&'static str),
    /// Argument `index` of the function `function` (with `arity` arguments), which must be
    /// what `arg` says.
    Arg {
        function: &'static str,
        index: usize,
        arity: usize,
        arg: Arg,
    },
}

/// What a function argument must be, by the JMESPath specification's signatures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Arg {
    /// `string|array|object`
    Sized,
    /// `number`
    Number,
    /// `string`
    Text,
    /// `array`
    List,
    /// `object`
    Object,
    /// `array|string`
    ListOrString,
    /// `array[number]`
    Numbers,
    /// `array[string]`
    Strings,
    /// `array[number]|array[string]`
    Sortable,
}

/// What argument `index` of `function` must be, when it is not `any` (or an expression
/// reference); with the function's name as a `'static` string.
fn arg_need(function: &str, index: usize, arity: usize) -> Option<Need> {
    let (function, arg) = match (function, index) {
        ("length", 0) => ("length", Arg::Sized),
        ("abs", 0) => ("abs", Arg::Number),
        ("ceil", 0) => ("ceil", Arg::Number),
        ("floor", 0) => ("floor", Arg::Number),
        ("avg", 0) => ("avg", Arg::Numbers),
        ("sum", 0) => ("sum", Arg::Numbers),
        ("contains", 0) => ("contains", Arg::ListOrString),
        ("reverse", 0) => ("reverse", Arg::ListOrString),
        ("starts_with", 0 | 1) => ("starts_with", Arg::Text),
        ("ends_with", 0 | 1) => ("ends_with", Arg::Text),
        ("join", 0) => ("join", Arg::Text),
        ("join", 1) => ("join", Arg::Strings),
        ("keys", 0) => ("keys", Arg::Object),
        ("values", 0) => ("values", Arg::Object),
        ("merge", _) => ("merge", Arg::Object),
        ("max", 0) => ("max", Arg::Sortable),
        ("min", 0) => ("min", Arg::Sortable),
        ("sort", 0) => ("sort", Arg::Sortable),
        ("map", 1) => ("map", Arg::List),
        ("max_by", 0) => ("max_by", Arg::List),
        ("min_by", 0) => ("min_by", Arg::List),
        ("sort_by", 0) => ("sort_by", Arg::List),
        _ => return None,
    };
    Some(Need::Arg {
        function,
        index,
        arity,
        arg,
    })
}

struct Chain {
    ops: Vec<Op>,
    need: Option<Need>,
}

struct Lower {
    out: Vec<Chain>,
}

fn has_projection(ast: &Ast) -> bool {
    matches!(
        ast,
        Ast::Projection { .. } | Ast::Flatten { .. } | Ast::ObjectValues { .. }
    )
}

/// How many member steps one chain of a typed path may read (each is one level of the
/// description `Described<S<..>>`; rustc's query depth limit overflows near 62 with the default
/// `recursion_limit`).
pub(crate) const MAX_TYPED_MEMBERS: usize = 48;

/// `text` cut to `max` characters, with `...` where it was cut.
fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let head: String = text.chars().take(max).collect();
        format!("{head}...")
    }
}

/// The chain as JMESPath text, for messages (`Reservations[].Instances[*].State`).
fn render(ops: &[Op], name: &str) -> String {
    let mut out = String::new();
    for op in ops {
        match op {
            Op::Field(field, _) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(field);
            }
            Op::Elements(true, _) => out.push_str("[*]"),
            Op::Elements(false, n) => out.push_str(&format!("[{n}]")),
            Op::Values => out.push_str(if out.is_empty() { "*" } else { ".*" }),
            Op::Flatten => out.push_str("[]"),
            Op::Need(_) | Op::Scope => {}
        }
    }
    if !out.is_empty() {
        out.push('.');
    }
    out.push_str(name);
    out
}

/// The base of a function argument or a comparison operand with a `need`: inside a
/// projection, it reads one element (so `starts_with(Name, 'x')` in
/// `Items[?starts_with(Name, 'x')]` needs `Name` to be a string, not a list of them). Without a
/// need the base stays as it is, so that the chain merges with the others reading the same.
fn element_base(base: &[Op], need: Option<Need>) -> Vec<Op> {
    let mut ops = base.to_vec();
    if need.is_some()
        && base
            .iter()
            .any(|op| matches!(op, Op::Elements(true, _) | Op::Values | Op::Flatten))
    {
        ops.push(Op::Scope);
    }
    ops
}

impl Lower {
    /// Records `ast`'s chains as checks only.
    fn collect(&mut self, ast: &Ast, base: &[Op], need: Option<Need>) {
        if let Some(ops) = self.lower(ast, base) {
            self.out.push(Chain { ops, need });
        }
    }

    /// The chain giving `ast`'s value from `base`, if it is one; the chains read by
    /// sub-expressions that are not go to `out`.
    fn lower(&mut self, ast: &Ast, base: &[Op]) -> Option<Vec<Op>> {
        let with = |op: Op| {
            let mut v = base.to_vec();
            v.push(op);
            v
        };
        match ast {
            Ast::Identity { .. } => Some(base.to_vec()),
            Ast::Field { name, .. } => Some(with(Op::Field(name.clone(), render(base, name)))),
            Ast::Index { idx, .. } => Some(with(Op::Elements(false, *idx))),
            Ast::Slice { .. } => Some(base.to_vec()),
            // A field chain, without recursion (it may be any length).
            Ast::Subexpr { .. } if ast.field_chain().is_some() => {
                let mut ops = base.to_vec();
                let mut fields = ops.iter().filter(|op| matches!(op, Op::Field(..))).count();
                for name in ast.field_chain().unwrap_or_default() {
                    // Past the limit the chain is an error (`emit`): no text for messages, so
                    // that a long chain costs linear time.
                    fields += 1;
                    let prefix = if fields <= MAX_TYPED_MEMBERS + 1 {
                        render(&ops, &name)
                    } else {
                        String::new()
                    };
                    ops.push(Op::Field(name, prefix));
                }
                Some(ops)
            }
            Ast::Subexpr { lhs, rhs, .. } => {
                let left = self.lower(lhs, base);
                match left {
                    // A pipe after a projection reads the list, not its elements: not followed.
                    Some(left) if !has_projection(lhs) => self.lower(rhs, &left),
                    Some(left) => {
                        self.out.push(Chain {
                            ops: left,
                            need: None,
                        });
                        None
                    }
                    None => None,
                }
            }
            Ast::Flatten { node, .. } => {
                let mut ops = self.lower(node, base)?;
                ops.push(Op::Flatten);
                Some(ops)
            }
            Ast::ObjectValues { node, .. } => {
                let mut ops = self.lower(node, base)?;
                ops.push(Op::Values);
                Some(ops)
            }
            Ast::Projection { lhs, rhs, .. } => {
                let mut ops = self.lower(lhs, base)?;
                // `x[]` and `*` already made the list the projection iterates.
                if !matches!(**lhs, Ast::ObjectValues { .. } | Ast::Flatten { .. }) {
                    ops.push(Op::Elements(true, 0));
                }
                self.lower(rhs, &ops)
            }
            Ast::Condition {
                predicate, then, ..
            } => {
                self.collect(predicate, base, None);
                self.lower(then, base)
            }
            Ast::Comparison {
                comparator,
                lhs,
                rhs,
                ..
            } => {
                use crate::jmespath::ast::Comparator as C;
                let need = match comparator {
                    C::LessThan => Some(Need::Ordered("<")),
                    C::LessThanEqual => Some(Need::Ordered("<=")),
                    C::GreaterThan => Some(Need::Ordered(">")),
                    C::GreaterThanEqual => Some(Need::Ordered(">=")),
                    C::Equal | C::NotEqual => None,
                };
                let base = &element_base(base, need);
                self.collect(lhs, base, need);
                self.collect(rhs, base, need);
                None
            }
            Ast::And { .. } | Ast::Or { .. } => {
                for operand in ast.operands() {
                    self.collect(operand, base, None);
                }
                None
            }
            Ast::Not { node, .. } => {
                self.collect(node, base, None);
                None
            }
            Ast::Function { name, args, .. } => {
                for (index, arg) in args.iter().enumerate() {
                    let need = arg_need(name, index, args.len());
                    if !matches!(arg, Ast::Expref { .. }) {
                        self.collect(arg, &element_base(base, need), need);
                    }
                }
                None
            }
            Ast::MultiList { elements, .. } => {
                for e in elements {
                    self.collect(e, base, None);
                }
                None
            }
            Ast::MultiHash { elements, .. } => {
                for kv in elements {
                    self.collect(&kv.value, base, None);
                }
                None
            }
            Ast::Literal { .. } | Ast::Expref { .. } => None,
        }
    }
}

/// The searched root of an `inputOutput` path's chain.
pub(crate) enum Root {
    /// An `output` path: the output type.
    Output,
    /// An `inputOutput` path: `input` and `output` members.
    InputOutput,
}

/// The type as a const item can name it: references stripped, every lifetime `'static`;
/// `None` when it names something a nested item cannot (`Self`, generics, `impl Trait`).
pub(crate) fn nameable(ty: &Type, op: &Operation) -> Option<Type> {
    let generics = op
        .sig
        .generics
        .params
        .iter()
        .map(|g| match g {
            syn::GenericParam::Type(t) => t.ident.to_string(),
            syn::GenericParam::Const(c) => c.ident.to_string(),
            syn::GenericParam::Lifetime(l) => l.lifetime.ident.to_string(),
        })
        .collect();
    nameable_with(ty, generics)
}

fn nameable_with(ty: &Type, generics: Vec<String>) -> Option<Type> {
    let mut ty = ty.clone();
    while let Type::Reference(r) = ty {
        ty = *r.elem;
    }
    struct Scan {
        generics: Vec<String>,
        bad: bool,
    }
    impl<'ast> Visit<'ast> for Scan {
        fn visit_path(&mut self, p: &'ast syn::Path) {
            if p.segments.len() == 1 {
                let name = p.segments[0].ident.to_string();
                // `Self`, the function's generics, and what looks like an impl's (`T`, `O`).
                if name == "Self"
                    || self.generics.contains(&name)
                    || (name.len() <= 2 && name.chars().all(|c| c.is_ascii_uppercase()))
                {
                    self.bad = true;
                }
            }
            syn::visit::visit_path(self, p);
        }
        fn visit_type_impl_trait(&mut self, _: &'ast syn::TypeImplTrait) {
            self.bad = true;
        }
        fn visit_type_infer(&mut self, _: &'ast syn::TypeInfer) {
            self.bad = true;
        }
        fn visit_qself(&mut self, _: &'ast syn::QSelf) {
            self.bad = true;
        }
    }
    let mut scan = Scan {
        generics,
        bad: false,
    };
    scan.visit_type(&ty);
    if scan.bad {
        return None;
    }
    struct Static;
    impl VisitMut for Static {
        fn visit_lifetime_mut(&mut self, lt: &mut syn::Lifetime) {
            *lt = syn::Lifetime::new("'static", lt.span());
        }
        fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
            r.lifetime = Some(syn::Lifetime::new("'static", Span::call_site()));
            syn::visit_mut::visit_type_reference_mut(self, r);
        }
    }
    Static.visit_type_mut(&mut ty);
    Some(ty)
}

/// Whether the typed check of `lit` read from the output checks its result against the
/// comparator: the output's type can be named, and the whole path is one chain (the leaf's need
/// is then on it).
pub(crate) fn checks_leaf(op: &Operation, lit: &LitStr) -> bool {
    if std::env::var_os("WAITER_MACROS_BENCH_UNTYPED").is_some() {
        return false;
    }
    let nameable_output = op
        .parts
        .as_ref()
        .and_then(|(o, _)| nameable(o, op))
        .is_some();
    nameable_output
        && crate::jmespath::parse_ast(&lit.value())
            .is_some_and(|ast| Lower { out: Vec::new() }.lower(&ast, &[]).is_some())
}

/// The checks of one path: `const _` items, or nothing when the types cannot be named.
pub(crate) fn check_path(
    op: &Operation,
    lit: &LitStr,
    root: Root,
    need: Option<Need>,
) -> TokenStream {
    // Only for `ui-tests/bench/compile_time.py --typed`, to measure what the checks cost.
    if std::env::var_os("WAITER_MACROS_BENCH_UNTYPED").is_some() {
        return TokenStream::new();
    }
    let expr = lit.value();
    let Some(ast) = crate::jmespath::parse_ast(&expr) else {
        return TokenStream::new();
    };
    let mut lower = Lower { out: Vec::new() };
    lower.collect(&ast, &[], need);
    let mut checks = Vec::new();
    for chain in lower.out {
        let (ty, ops) = match root {
            Root::Output => match op.parts.as_ref().and_then(|(o, _)| nameable(o, op)) {
                Some(ty) => (ty, chain.ops.as_slice()),
                None => continue,
            },
            Root::InputOutput => match chain.ops.as_slice() {
                [Op::Field(top, _), rest @ ..] if top == "output" => {
                    match op.parts.as_ref().and_then(|(o, _)| nameable(o, op)) {
                        Some(ty) => (ty, rest),
                        None => continue,
                    }
                }
                [Op::Field(top, _), rest @ ..] if top == "input" => match op.params.as_slice() {
                    [one] => match nameable(&one.ty, op) {
                        Some(ty) => (ty, rest),
                        None => continue,
                    },
                    params => match rest {
                        [Op::Field(name, _), rest @ ..] => {
                            match params.iter().find(|p| &p.name == name) {
                                Some(p) => match nameable(&p.ty, op) {
                                    Some(ty) => (ty, rest),
                                    None => continue,
                                },
                                None => continue,
                            }
                        }
                        _ => continue,
                    },
                },
                _ => continue,
            },
        };
        checks.push(Check {
            ty,
            ops: ops.to_vec(),
            need: chain.need,
        });
    }
    merge(checks)
        .iter()
        .map(|c| emit(lit, &expr, &c.ty, &c.ops, c.need))
        .collect()
}

/// One chain to check from a root type.
struct Check {
    ty: Type,
    ops: Vec<Op>,
    need: Option<Need>,
}

/// The chains that another chain from the same root starts with, merged into it (their need
/// becomes a step of its walk): `length(Items[?Ready])` reads `Items[*]` and `Items[*].Ready`,
/// one walk. Each mistake is then reported once, and the build evaluates one constant less.
fn merge(checks: Vec<Check>) -> Vec<Check> {
    let steps = |c: &Check| c.ops.iter().filter(|op| !matches!(op, Op::Need(_))).count();
    let mut order: Vec<usize> = (0..checks.len()).collect();
    // Longest first (stable: equal chains keep their order), so a chain merges into a kept one.
    order.sort_by_key(|&i| std::cmp::Reverse(steps(&checks[i])));
    let roots: Vec<String> = checks
        .iter()
        .map(|c| c.ty.to_token_stream().to_string())
        .collect();
    let mut checks: Vec<Option<Check>> = checks.into_iter().map(Some).collect();
    // The kept chains by root type and first step (linear time for wide paths: a chain can
    // only merge into one that starts as it does), and by root alone (for an empty chain).
    let mut kept: HashMap<(&str, Option<String>), Vec<usize>> = HashMap::new();
    let mut kept_by_root: HashMap<&str, Vec<usize>> = HashMap::new();
    for i in order {
        let check = checks[i].take().expect("each chain is taken once");
        let root = roots[i].as_str();
        let candidates = match check.ops.first() {
            None => kept_by_root.get(root),
            Some(first) => kept.get(&(root, Some(format!("{first:?}")))),
        };
        let into = candidates.into_iter().flatten().copied().find(|&k| {
            let longer = checks[k].as_ref().expect("kept");
            longer
                .ops
                .iter()
                .filter(|op| !matches!(op, Op::Need(_)))
                .take(check.ops.len())
                .eq(check.ops.iter())
        });
        match into {
            Some(k) => {
                if let Some(need) = check.need {
                    let longer = checks[k].as_mut().expect("kept");
                    // After the merged chain's last step (and the needs already placed there).
                    let mut at = 0;
                    let mut seen = 0;
                    while seen < check.ops.len() || matches!(longer.ops.get(at), Some(Op::Need(_)))
                    {
                        if !matches!(longer.ops[at], Op::Need(_)) {
                            seen += 1;
                        }
                        at += 1;
                    }
                    longer.ops.insert(at, Op::Need(need));
                }
            }
            None => {
                let first = check
                    .ops
                    .iter()
                    .find(|op| !matches!(op, Op::Need(_)))
                    .map(|op| format!("{op:?}"));
                kept.entry((root, first)).or_default().push(i);
                kept_by_root.entry(root).or_default().push(i);
                checks[i] = Some(check);
            }
        }
    }
    checks.into_iter().flatten().collect()
}

/// The checks of `jmespath!(Type, "path")`: every field chain of the path against `Type`.
pub(crate) fn check_type(lit: &LitStr, ty: &Type) -> TokenStream {
    let expr = lit.value();
    let (Some(ast), Some(ty)) = (
        crate::jmespath::parse_ast(&expr),
        nameable_with(ty, Vec::new()),
    ) else {
        return TokenStream::new();
    };
    let mut lower = Lower { out: Vec::new() };
    lower.collect(&ast, &[], None);
    let checks = lower
        .out
        .into_iter()
        .map(|chain| Check {
            ty: ty.clone(),
            ops: chain.ops,
            need: chain.need,
        })
        .collect();
    merge(checks)
        .iter()
        .map(|c| emit(lit, &expr, &c.ty, &c.ops, c.need))
        .collect()
}

fn emit(lit: &LitStr, expr: &str, root: &Type, ops: &[Op], need: Option<Need>) -> TokenStream {
    if ops.is_empty() && need.is_none() {
        return TokenStream::new();
    }
    let p = krate::private();
    let t = quote!(#p::typed);
    let span = lit.span();
    let at = krate::private_at(span);
    // The root's own wrappers (`Vec<String>` as a parameter), as the derive reads a member's.
    let (wraps, root) = crate::searchable::expand::describe::unwrap(root);
    let wraps = wraps.iter().map(|w| {
        let w = syn::Ident::new(w, Span::call_site());
        quote!(#t::Wrap::#w)
    });
    // The root's description, to the depth the chain's member steps read (plus one level for
    // a `flatten`ed member on the way, and one for the leaf's own description).
    let fields = ops.iter().filter(|op| matches!(op, Op::Field(..))).count();
    if fields > MAX_TYPED_MEMBERS {
        // Each member is one level of `Described<S<..>>`: deeper, rustc's query depth limit
        // overflows with no span and no word of the path.
        let message = format!(
            "path {expr:?}: the chain `{}` reads {fields} members one below the other; typed \
             paths are checked to at most {MAX_TYPED_MEMBERS} (each member is a level of the \
             compile-time description, and the compiler's depth limit is near): shorten the \
             chain, or search without the type check (`jmespath!(\"..\")` without its type)",
            truncate(render(ops, "").trim_end_matches('.'), 80)
        );
        return syn::Error::new(span, message).to_compile_error();
    }
    let mut depth = quote!(#t::Z);
    for _ in 0..fields + 2 {
        depth = quote!(#t::S<#depth>);
    }
    let steps = ops.iter().map(|op| match op {
        Op::Field(name, prefix) => {
            let hash = crate::searchable::expand::describe::hash(name);
            quote!(#t::Op::Field { name: #name, hash: #hash, prefix: #prefix })
        }
        Op::Elements(project, _) => quote!(#t::Op::Elements(#project)),
        Op::Values => quote!(#t::Op::Values),
        Op::Flatten => quote!(#t::Op::Flatten),
        Op::Scope => quote!(#t::Op::Scope),
        Op::Need(need) => {
            let (need, what) = need_tokens(*need, &t);
            quote!(#t::Op::Need(#need, #what))
        }
    });
    let need = match need {
        None => quote!(::core::option::Option::None),
        Some(need) => {
            let (need, what) = need_tokens(need, &t);
            quote!(::core::option::Option::Some((#need, #what)))
        }
    };
    // The path as messages show it: cut when long, so that a wide path's many chains do not
    // each carry all of it (quadratic in its length).
    let shown = truncate(expr, 200);
    // One constant per chain: the walk is one evaluation, and a mistake panics with its message
    // at the path literal.
    let call = quote_spanned! {span=>
        #at::typed::check(
            #t::Probe::<#root, #depth>::LINK,
            &[#(#wraps),*],
            &[#(#steps),*],
            #need,
            #shown,
        )
    };
    quote! {
        #[allow(clippy::all)]
        const _: () = {
            #[allow(unused_imports)]
            use #t::Undescribed as _;
            #call
        };
    }
}

/// The runtime's `Need` for `need`, and what it needs (for the message).
fn need_tokens(need: Need, t: &TokenStream) -> (TokenStream, String) {
    let (need, what) = match need {
        Need::Comparator(Comparator::StringEquals) => {
            (quote!(String), "`stringEquals` needs a string".to_owned())
        }
        Need::Comparator(Comparator::BooleanEquals) => (
            quote!(Boolean),
            "`booleanEquals` needs a boolean".to_owned(),
        ),
        Need::Comparator(Comparator::AllStringEquals) => (
            quote!(Strings),
            "`allStringEquals` needs a list of strings".to_owned(),
        ),
        Need::Comparator(Comparator::AnyStringEquals) => (
            quote!(Strings),
            "`anyStringEquals` needs a list of strings".to_owned(),
        ),
        Need::ComparatorOnList(Comparator::BooleanEquals) => (
            quote!(BooleanOnList),
            "`booleanEquals` needs a boolean".to_owned(),
        ),
        Need::ComparatorOnList(_) => (
            quote!(StringOnList),
            "`stringEquals` needs a string".to_owned(),
        ),
        Need::Message => (
            quote!(Message),
            "a failure `message` must be a string or a list of strings".to_owned(),
        ),
        Need::Ordered(op) => (
            quote!(Number),
            format!(
                "`{op}` orders numbers only (on anything else JMESPath gives null), so it needs a number"
            ),
        ),
        Need::Arg {
            function,
            index,
            arity,
            arg,
        } => {
            let (need, what) = match arg {
                Arg::Sized => (quote!(Sized), "a string, a list or an object"),
                Arg::Number => (quote!(Number), "a number"),
                Arg::Text => (quote!(Text), "a string"),
                Arg::List => (quote!(List), "a list"),
                Arg::Object => (quote!(Object), "an object or a map"),
                Arg::ListOrString => (quote!(ListOrString), "a list or a string"),
                Arg::Numbers => (quote!(Numbers), "a list of numbers"),
                Arg::Strings => (quote!(Strings), "a list of strings"),
                Arg::Sortable => (quote!(Sortable), "a list of numbers or a list of strings"),
            };
            let what = if arity == 1 {
                format!("`{function}()` needs {what}")
            } else {
                format!("`{function}()` needs {what} as argument {index}")
            };
            (need, what)
        }
    };
    (quote!(#t::Need::#need), what)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chains(path: &str) -> Vec<Check> {
        let ast = crate::jmespath::parse_ast(path).expect("a valid path");
        let mut lower = Lower { out: Vec::new() };
        lower.collect(&ast, &[], None);
        let ty: Type = syn::parse_quote!(Output);
        merge(
            lower
                .out
                .into_iter()
                .map(|c| Check {
                    ty: ty.clone(),
                    ops: c.ops,
                    need: c.need,
                })
                .collect(),
        )
    }

    fn field(name: &str, prefix: &str) -> Op {
        Op::Field(name.to_owned(), prefix.to_owned())
    }

    #[test]
    fn needs_inside_a_filter_are_checked_on_the_element() {
        let checks = chains("Items[?starts_with(Name, 'x') && Size > `1`].Name");
        let need = |function, index, arg| {
            Some(Need::Arg {
                function,
                index,
                arity: 2,
                arg,
            })
        };
        let scoped = |name: &str| {
            vec![
                field("Items", "Items"),
                Op::Elements(true, 0),
                Op::Scope,
                field(name, &format!("Items[*].{name}")),
            ]
        };
        let found: Vec<_> = checks.iter().map(|c| (c.ops.clone(), c.need)).collect();
        assert!(found.contains(&(scoped("Name"), need("starts_with", 0, Arg::Text))));
        assert!(found.contains(&(scoped("Size"), Some(Need::Ordered(">")))));
        // The result's chain reads the list, and keeps no scope.
        assert!(found.contains(&(
            vec![
                field("Items", "Items"),
                Op::Elements(true, 0),
                field("Name", "Items[*].Name")
            ],
            None
        )));
    }

    #[test]
    fn a_chain_another_starts_with_is_one_step_of_its_walk() {
        let checks = chains("length(Items[?Ready]) > `0`");
        assert_eq!(checks.len(), 1);
        assert_eq!(
            checks[0].ops,
            [
                field("Items", "Items"),
                Op::Elements(true, 0),
                Op::Need(Need::Arg {
                    function: "length",
                    index: 0,
                    arity: 1,
                    arg: Arg::Sized,
                }),
                field("Ready", "Items[*].Ready"),
            ]
        );
        assert!(checks[0].need.is_none());
    }

    #[test]
    fn chains_that_part_ways_stay_apart_and_equal_chains_are_one() {
        let checks = chains("[A.B, A.C, A.B]");
        let ops: Vec<_> = checks.iter().map(|c| c.ops.clone()).collect();
        assert_eq!(
            ops,
            [
                vec![field("A", "A"), field("B", "A.B")],
                vec![field("A", "A"), field("C", "A.C")],
            ]
        );
    }
}
