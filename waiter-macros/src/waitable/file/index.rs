//! What a model file holds for `#[waitable]`, read once per file ([`super::cache`]): the
//! waiters by operation, plain data (no spans: those are the attribute's, given at each use).
//!
//! - botocore's `waiters-2.json`: `{"version": 2, "waiters": {"Name": {"operation": ..,
//!   "delay": .., "maxAttempts": .., "acceptors": [..]}}}`, read whole (a few KB);
//! - a Smithy JSON AST model: `{"smithy": "2.0", "shapes": {"ns#Op": {"type": "operation",
//!   "traits": {"smithy.waiters#waitable": {..}}}}}`, of which only the shapes' types and the
//!   `waitable` traits are built ([`pick`]: a model of a few MB is mostly documentation).

use crate::jmespath::ast::Literal;
use crate::jmespath::json::{Pick, parse_document, pick};
use crate::waitable::args::Format;

const WAITABLE: &str = "smithy.waiters#waitable";

/// A model file's waiters.
pub(crate) enum Index {
    Botocore {
        /// Every waiter: its name, its `operation` (if the file gives one) and its value.
        waiters: Vec<(String, Option<String>, Literal)>,
    },
    Smithy {
        /// The name part of every operation shape's ID.
        operations: Vec<String>,
        /// The operations carrying `smithy.waiters#waitable`: the name part and the trait's
        /// value.
        waitable: Vec<(String, Literal)>,
    },
}

/// Why a model file gives no waiters at all: not JSON, or not the format the attribute names.
#[derive(Debug)]
pub(crate) enum Unreadable {
    NotJson {
        line: usize,
        column: usize,
        what: String,
    },
    NotTheFormat(String),
}

impl Index {
    /// Indexes the text of a model file.
    pub(super) fn read(text: &str, format: Format) -> Result<Index, Unreadable> {
        let not_json = |e: crate::jmespath::json::JsonError| {
            let (line, column) = e.line_column(text);
            Unreadable::NotJson {
                line,
                column,
                what: e.what,
            }
        };
        match format {
            Format::Botocore => botocore(parse_document(text).map_err(not_json)?),
            Format::Smithy => smithy(pick(text, smithy_members).map_err(not_json)?),
        }
    }

    /// The operation of every waiter, in the file's order (an operation with several waiters
    /// several times).
    pub(crate) fn waiter_operations(&self) -> impl Iterator<Item = &str> {
        let (botocore, smithy) = match self {
            Index::Botocore { waiters } => (Some(waiters), None),
            Index::Smithy { waitable, .. } => (None, Some(waitable)),
        };
        let botocore = botocore
            .into_iter()
            .flatten()
            .filter_map(|(_, op, _)| op.as_deref());
        let smithy = smithy.into_iter().flatten().map(|(op, _)| op.as_str());
        botocore.chain(smithy)
    }

    /// Every waiter's name with its operation, in the file's order (a Smithy model's: the keys
    /// of its operations' `waitable` traits; a botocore waiter without `operation`: `""`).
    pub(crate) fn waiters_by_operation(&self) -> Vec<(&str, &str)> {
        match self {
            Index::Botocore { waiters } => waiters
                .iter()
                .map(|(name, op, _)| (name.as_str(), op.as_deref().unwrap_or("")))
                .collect(),
            Index::Smithy { waitable, .. } => waitable
                .iter()
                .flat_map(|(op, value)| {
                    let names: Vec<&str> = match value {
                        Literal::Object(members) => members.keys().map(String::as_str).collect(),
                        _ => Vec::new(),
                    };
                    names.into_iter().map(move |n| (n, op.as_str()))
                })
                .collect(),
        }
    }

    /// The operations that have waiters, in the file's order, each once.
    pub(crate) fn waited_operations(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        self.waiter_operations()
            .filter(|op| seen.insert(*op))
            .collect()
    }
}

fn botocore(doc: Literal) -> Result<Index, Unreadable> {
    let Literal::Object(mut top) = doc else {
        return Err(Unreadable::NotTheFormat(
            "not botocore's `waiters-2.json`: the file is not a JSON object".to_owned(),
        ));
    };
    if top.contains_key("smithy") || top.contains_key("shapes") {
        return Err(Unreadable::NotTheFormat(
            "this is a Smithy JSON AST model (it has `smithy` and `shapes`), not botocore's \
             `waiters-2.json`: write `smithy = \"..\"` instead of `botocore = \"..\"`"
                .to_owned(),
        ));
    }
    let Some(Literal::Object(waiters)) = top.remove("waiters") else {
        return Err(Unreadable::NotTheFormat(
            "not botocore's `waiters-2.json`: it has no `waiters` object (the file is \
             `{\"version\": 2, \"waiters\": {\"TableExists\": {..}}}`)"
                .to_owned(),
        ));
    };
    let waiters = waiters
        .into_iter()
        .map(|(name, value)| {
            let operation = match &value {
                Literal::Object(members) => match members.get("operation") {
                    Some(Literal::String(op)) => Some(op.clone()),
                    _ => None,
                },
                _ => None,
            };
            (name, operation, value)
        })
        .collect();
    Ok(Index::Botocore { waiters })
}

/// What of a Smithy model to build: the shapes' `type`s and `waitable` traits (and the top
/// level's `smithy` and `waiters`, to tell the formats apart).
fn smithy_members(path: &[String]) -> Pick {
    match path {
        [] => Pick::Descend,
        [top] if top == "smithy" || top == "waiters" => Pick::Read,
        [top] if top == "shapes" => Pick::Descend,
        [_, _] => Pick::Descend,
        [_, _, member] if member == "type" => Pick::Read,
        [_, _, member] if member == "traits" => Pick::Descend,
        [_, _, _, name] if name == WAITABLE => Pick::Read,
        _ => Pick::Skip,
    }
}

fn smithy(picked: Vec<(Vec<String>, Literal)>) -> Result<Index, Unreadable> {
    let mut operations = Vec::new();
    let mut waitable = Vec::new();
    let mut is_smithy = false;
    let mut is_botocore = false;
    for (path, value) in picked {
        match (path.as_slice(), value) {
            ([top], _) if top == "smithy" => is_smithy = true,
            ([top], _) if top == "waiters" => is_botocore = true,
            ([_, id, _], Literal::String(kind)) if kind == "operation" => {
                operations.push(shape_name(id).to_owned());
            }
            ([_, id, _, _], value) => waitable.push((shape_name(id).to_owned(), value)),
            _ => {}
        }
    }
    if !is_smithy {
        let message = if is_botocore {
            "this is botocore's `waiters-2.json` (it has `waiters`), not a Smithy JSON AST model: \
             write `botocore = \"..\"` instead of `smithy = \"..\"`"
        } else {
            "not a Smithy JSON AST model: it has no `\"smithy\"` version (the file is \
             `{\"smithy\": \"2.0\", \"shapes\": {..}}`; a Smithy IDL file `.smithy` cannot be \
             read: build its JSON AST with `smithy build`, or paste the `@waitable` trait)"
        };
        return Err(Unreadable::NotTheFormat(message.to_owned()));
    }
    // A trait on a shape that is no operation is not a waiter: keep the operations' only.
    waitable.retain(|(op, _)| operations.contains(op));
    Ok(Index::Smithy {
        operations,
        waitable,
    })
}

/// `com.amazonaws.dynamodb#DescribeTable` -> `DescribeTable`.
fn shape_name(id: &str) -> &str {
    id.rsplit_once('#').map_or(id, |(_, name)| name)
}
