//! [`Expression`]: what `jmespath!` produces.

use std::fmt;

use super::error::SearchError;
use super::view::{Node, Searchable};

/// The signature of compiled expression code.
pub type EvalFn = for<'a> fn(Node<'a>) -> Result<Node<'a>, SearchError>;

/// A JMESPath expression compiled into Rust by [`jmespath!`](crate::jmespath!).
///
/// It is a plain function pointer plus the source text: `Copy`, `Send`, `Sync`, usable in a
/// `const` or `static`.
///
/// ```
/// use serde_json::json;
/// use waiter_runtime::jmespath;
/// use waiter_runtime::jmespath::Expression;
///
/// static NAMES: Expression = jmespath!("Reservations[].Instances[].State.Name");
///
/// let output = json!({"Reservations": [{"Instances": [
///     {"State": {"Name": "running"}}, {"State": {"Name": "pending"}}
/// ]}]});
/// assert_eq!(NAMES.search(&output).unwrap(), json!(["running", "pending"]));
/// assert_eq!(NAMES.source(), "Reservations[].Instances[].State.Name");
/// ```
#[derive(Clone, Copy)]
pub struct Expression {
    source: &'static str,
    eval: EvalFn,
}

impl Expression {
    #[doc(hidden)]
    pub const fn __new(source: &'static str, eval: EvalFn) -> Self {
        Expression { source, eval }
    }

    /// Evaluates the expression against `data`; the result borrows from `data`.
    pub fn search<'a, T: Searchable + ?Sized>(&self, data: &'a T) -> Result<Node<'a>, SearchError> {
        (self.eval)(data.node())
    }

    /// Evaluates the expression against `data` and converts the result to JSON;
    /// [`SearchError::TooDeep`] when the result nests deeper than [`Node::MAX_DEPTH`] levels.
    pub fn search_value<T: Searchable + ?Sized>(
        &self,
        data: &T,
    ) -> Result<serde_json::Value, SearchError> {
        self.search(data).and_then(Node::try_into_value)
    }

    /// The expression's source text.
    pub fn source(&self) -> &'static str {
        self.source
    }
}

impl fmt::Debug for Expression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Expression").field(&self.source).finish()
    }
}

impl fmt::Display for Expression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.source)
    }
}
