//! Where the chains of a `#[waitable]` path start: an `output` path's at the output type; an
//! `inputOutput` path's at the output type (`output.*`) or the input (`input.*`: the one
//! parameter, or the parameter named by the next member when there are several).

use syn::Type;

use super::lower::Op;
use super::nameable::nameable;
use crate::waitable::signature::Operation;

/// The searched root of an `inputOutput` path's chain.
pub(crate) enum Root {
    /// An `output` path: the output type.
    Output,
    /// An `inputOutput` path: `input` and `output` members.
    InputOutput,
}

/// The type `ops` start from, and the steps read from it; `None` when its type cannot be named
/// (see [`nameable`]) or the chain reads no parameter.
pub(super) fn start<'c>(op: &Operation, root: &Root, ops: &'c [Op]) -> Option<(Type, &'c [Op])> {
    let output = || op.parts.as_ref().and_then(|(o, _)| nameable(o, op));
    match root {
        Root::Output => Some((output()?, ops)),
        Root::InputOutput => match ops {
            [Op::Field(top, _), rest @ ..] if top == "output" => Some((output()?, rest)),
            [Op::Field(top, _), rest @ ..] if top == "input" => match op.params.as_slice() {
                [one] => Some((nameable(&one.ty, op)?, rest)),
                params => match rest {
                    [Op::Field(name, _), rest @ ..] => {
                        let param = params.iter().find(|p| &p.name == name)?;
                        Some((nameable(&param.ty, op)?, rest))
                    }
                    _ => None,
                },
            },
            _ => None,
        },
    }
}
