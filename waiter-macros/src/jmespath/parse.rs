//! Parsing: the `jmespath` crate's parser, with its errors turned into [`Problem`]s.

use jmespath::ast::Ast;

use super::check::{Problem, ProblemKind};

pub(crate) fn parse(expr: &str) -> Result<Ast, Problem> {
    jmespath::parse(expr).map_err(|e| {
        let reason = match &e.reason {
            jmespath::ErrorReason::Parse(s) => s.clone(),
            other => other.to_string(),
        };
        Problem {
            function: None,
            kind: ProblemKind::Syntax,
            offset: e.offset,
            message: format!("invalid JMESPath syntax: {}", tidy(&reason)),
        }
    })
}

/// The parser's messages start with a capital and may end with a period; ours do not.
fn tidy(reason: &str) -> String {
    let reason = reason
        .trim()
        .trim_end_matches('.')
        .replace("nud token", "token")
        .replace("led token", "token")
        .replace("found Eof", "found the end of the expression");
    let reason = reason.as_str();
    let mut chars = reason.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => "unexpected input".to_owned(),
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
