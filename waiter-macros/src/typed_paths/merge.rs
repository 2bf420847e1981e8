//! The chains read from one root type, merged: a chain that another from the same root starts
//! with becomes a step of the longer one's walk (its need checked where it ends), and equal
//! chains are one. Each mistake is then reported once, and the build evaluates fewer constants.

use std::collections::HashMap;

use quote::ToTokens;
use syn::Type;

use super::lower::Op;
use super::need::Need;

/// One chain to check from a root type.
pub(super) struct Check {
    pub ty: Type,
    pub ops: Vec<Op>,
    pub need: Option<Need>,
}

/// The chains that another chain from the same root starts with, merged into it (their need
/// becomes a step of its walk): `length(Items[?Ready])` reads `Items[*]` and `Items[*].Ready`,
/// one walk. Each mistake is then reported once, and the build evaluates one constant less.
pub(super) fn merge(checks: Vec<Check>) -> Vec<Check> {
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
