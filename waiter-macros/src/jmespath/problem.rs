//! A problem the compiler found in an expression: its kind (the compliance suite's categories),
//! its offset and message, and how it is shown to the user (the column, with a caret under the
//! expression).

/// The compliance-suite category of a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ProblemKind {
    Syntax,
    UnknownFunction,
    InvalidArity,
    InvalidType,
}

impl ProblemKind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            ProblemKind::Syntax => "syntax",
            ProblemKind::UnknownFunction => "unknown-function",
            ProblemKind::InvalidArity => "invalid-arity",
            ProblemKind::InvalidType => "invalid-type",
        }
    }
}

/// One problem, at an offset (in characters) inside the expression.
#[derive(Clone, Debug)]
pub(crate) struct Problem {
    pub kind: ProblemKind,
    pub offset: usize,
    pub message: String,
    /// Set for problems located at a function call (its offset is then refined).
    pub function: Option<String>,
}

impl Problem {
    /// A syntax error at `offset`.
    pub(crate) fn syntax(offset: usize, message: impl Into<String>) -> Problem {
        Problem {
            function: None,
            kind: ProblemKind::Syntax,
            offset,
            message: format!("invalid JMESPath syntax: {}", message.into()),
        }
    }
}

/// Renders a problem with its column and a caret under the expression.
pub(crate) fn render(expr: &str, p: &Problem) -> String {
    let before: String = expr.chars().take(p.offset).collect();
    let line = before.matches('\n').count();
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count());
    let src_line = expr.lines().nth(line).unwrap_or(expr);
    let at = if expr.contains('\n') {
        format!("line {}, column {}", line + 1, column + 1)
    } else {
        format!("column {}", column + 1)
    };
    format!(
        "{} (at {at} of the expression)\n  |  {src_line}\n  |  {}^",
        p.message,
        " ".repeat(column)
    )
}
