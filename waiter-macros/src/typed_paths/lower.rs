//! A path's syntax tree lowered to chains of steps from the root: `.name`, `[]`/`[*]`/`[n]`,
//! `*`, flatten. Fields inside a filter are read from the element, fields inside comparisons,
//! function arguments and multi-selects from where they are read; when the whole path is one
//! chain, its leaf is the path's result (which the comparator then needs).

use crate::jmespath::ast::Ast;

use super::need::{Need, arg_need};

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Op {
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

/// One chain of steps from the root, and what its leaf must be.
pub(super) struct Chain {
    pub ops: Vec<Op>,
    pub need: Option<Need>,
}

/// The chains `ast` reads from the root, its own value's chain with `need` (if it is one).
pub(super) fn chains(ast: &Ast, need: Option<Need>) -> Vec<Chain> {
    let mut lower = Lower { out: Vec::new() };
    lower.collect(ast, &[], need);
    lower.out
}

/// Whether the whole of `ast` is one chain (its leaf is then the path's result).
pub(super) fn is_one_chain(ast: &Ast) -> bool {
    Lower { out: Vec::new() }.lower(ast, &[]).is_some()
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
pub(super) const MAX_TYPED_MEMBERS: usize = 48;

/// The chain as JMESPath text, for messages (`Reservations[].Instances[*].State`).
pub(super) fn render(ops: &[Op], name: &str) -> String {
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
