//! The functions that the code `jmespath!` emits calls to evaluate an expression, by part of the
//! language: `navigate` (fields, indexes, slices, flattens, multi-selects), `project` (projections
//! walked with a plan, see the `walk` module), `operators` (`==`, `<`, `!`, truthiness),
//! `functions` (the 26 built-in functions) and `literals`. Not a public API: reached through
//! the runtime's private module, which re-exports everything here.
#![allow(missing_docs)]

pub use crate::jmespath::error::SearchError;
pub use crate::jmespath::expression::Expression;
pub use crate::jmespath::view::{Array, Node, Object, Searchable};
pub use std::borrow::Cow as __Cow;
pub use std::result::Result as __Result;
pub use std::vec::Vec as __Vec;

mod functions;
mod literals;
mod navigate;
mod operators;
mod project;

pub use functions::{
    fn_abs, fn_avg, fn_ceil, fn_contains, fn_ends_with, fn_floor, fn_join, fn_keys, fn_length,
    fn_map, fn_max, fn_max_by, fn_merge, fn_min, fn_min_by, fn_not_null, fn_reverse, fn_sort,
    fn_sort_by, fn_starts_with, fn_sum, fn_to_array, fn_to_number, fn_to_string, fn_type,
    fn_values,
};
pub use literals::{LiteralCell, literal_json, number_f64, number_i64, number_u64, string};
pub use navigate::{
    each, each_follow, field, flat_step, flat_step_follow, flatten, index, object_values,
    owned_array, owned_object, select_hash, select_list, slice,
};
pub use operators::{eq, ge, gt, le, lt, ne, not, truthy};
pub use project::{
    flat_extend_follow, project_flat_follow_flat, project_follow, project_member_flat_follow_flat,
};

/// Errors inside generated code are boxed: results stay the size of a `Node`.
pub type E = Box<SearchError>;
pub type R<'a> = Result<Node<'a>, E>;

/// Unboxes the error at the edge of generated code.
#[inline]
pub fn finish(r: R<'_>) -> Result<Node<'_>, SearchError> {
    r.map_err(|e| *e)
}

/// What `__jmespath_verdict!` yields.
#[derive(Debug, Clone, Copy)]
pub enum Verdict {
    Compiled(Expression),
    Rejected {
        kind: &'static str,
        message: &'static str,
    },
}
