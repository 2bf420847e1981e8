//! [`SearchError`]: what can go wrong while evaluating a compiled expression.

use std::fmt;

/// A runtime error from evaluating a compiled JMESPath expression.
///
/// Syntax errors, unknown functions, wrong arities and arguments whose type is known to be wrong
/// at compile time are rejected by `jmespath!` when your code compiles; what remains depends on
/// the data.
///
/// ```
/// use serde_json::json;
/// use waiter_runtime::jmespath;
/// use waiter_runtime::jmespath::SearchError;
///
/// let err = jmespath!("abs(name)").search(&json!({"name": "x"})).unwrap_err();
/// assert!(matches!(err, SearchError::InvalidType { function: "abs", position: 0, .. }));
/// assert_eq!(
///     err.to_string(),
///     "invalid-type: argument 0 of abs() must be number, got string"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SearchError {
    /// A function argument (or the result of an expression reference) has the wrong type.
    InvalidType {
        /// The function called.
        function: &'static str,
        /// Zero-based argument position.
        position: usize,
        /// The type(s) accepted, JMESPath-style (`number`, `array[string]`, `expression->number`...).
        expected: &'static str,
        /// The type received.
        actual: &'static str,
    },
    /// A value outside the accepted range, such as a slice step of 0.
    InvalidValue {
        /// What was wrong.
        reason: &'static str,
    },
    /// A whole-value operation (`to_string`, [`search_value`](super::Expression::search_value))
    /// met data nested deeper than [`Node::MAX_DEPTH`](super::Node::MAX_DEPTH) levels.
    TooDeep {
        /// The limit, [`Node::MAX_DEPTH`](super::Node::MAX_DEPTH).
        limit: usize,
    },
}

impl SearchError {
    /// The JMESPath error kind: `invalid-type` or `invalid-value`.
    pub fn kind(&self) -> &'static str {
        match self {
            SearchError::InvalidType { .. } => "invalid-type",
            SearchError::InvalidValue { .. } => "invalid-value",
            SearchError::TooDeep { .. } => "too-deep",
        }
    }
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::InvalidType {
                function,
                position,
                expected,
                actual,
            } => write!(
                f,
                "invalid-type: argument {position} of {function}() must be {expected}, got {actual}"
            ),
            SearchError::InvalidValue { reason } => write!(f, "invalid-value: {reason}"),
            SearchError::TooDeep { limit } => {
                write!(f, "too-deep: data nested deeper than {limit} levels")
            }
        }
    }
}

impl std::error::Error for SearchError {}
