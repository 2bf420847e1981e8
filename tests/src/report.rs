//! Plain-text output for the demo: one line per poll, and the summary table.

use std::fmt::{self, Write as _};
use std::time::Duration;

/// A text table with a header row, columns sized to their widest cell; numeric-looking
/// cells are right-aligned.
///
/// ```
/// use waiter_tests::report::Table;
///
/// let mut table = Table::new(["resource", "polls"]);
/// table.row(["web-1", "3"]);
/// table.row(["db", "12"]);
/// assert_eq!(table.to_string(), "\
/// resource  polls
/// --------  -----
/// web-1         3
/// db           12
/// ");
/// ```
#[derive(Debug, Clone, Default)]
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column titles.
    pub fn new<S: Into<String>>(header: impl IntoIterator<Item = S>) -> Self {
        Self {
            header: header.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row (missing cells are blank, extra cells are dropped).
    pub fn row<S: Into<String>>(&mut self, cells: impl IntoIterator<Item = S>) -> &mut Self {
        let mut row: Vec<String> = cells
            .into_iter()
            .map(Into::into)
            .take(self.header.len())
            .collect();
        row.resize(self.header.len(), String::new());
        self.rows.push(row);
        self
    }

    /// Number of rows below the header.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the table has no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

fn is_numeric(cell: &str) -> bool {
    let trimmed = cell.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    !trimmed.is_empty() && trimmed.chars().all(|c| c.is_ascii_digit() || c == '.')
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let widths: Vec<usize> = (0..self.header.len())
            .map(|i| {
                let cells = std::iter::once(&self.header[i]).chain(self.rows.iter().map(|r| &r[i]));
                cells.map(|c| c.chars().count()).max().unwrap_or(0)
            })
            .collect();
        let numeric: Vec<bool> = (0..self.header.len())
            .map(|i| {
                self.rows
                    .iter()
                    .all(|r| r[i].is_empty() || is_numeric(&r[i]))
            })
            .collect();
        let line = |f: &mut fmt::Formatter<'_>, cells: &[String]| {
            let mut out = String::new();
            for (i, cell) in cells.iter().enumerate() {
                if i > 0 {
                    out.push_str("  ");
                }
                if numeric[i] && !self.rows.is_empty() {
                    let _ = write!(out, "{cell:>w$}", w = widths[i]);
                } else {
                    let _ = write!(out, "{cell:<w$}", w = widths[i]);
                }
            }
            writeln!(f, "{}", out.trim_end())
        };
        line(f, &self.header)?;
        let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
        line(f, &rule)?;
        for row in &self.rows {
            line(f, row)?;
        }
        Ok(())
    }
}

/// A duration for people: `850ms`, `1.25s`, `2m03s`.
///
/// ```
/// use std::time::Duration;
/// use waiter_tests::report::human;
///
/// assert_eq!(human(Duration::from_millis(850)), "850ms");
/// assert_eq!(human(Duration::from_millis(1250)), "1.25s");
/// assert_eq!(human(Duration::from_secs(123)), "2m03s");
/// ```
pub fn human(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 1000 {
        format!("{ms}ms")
    } else if ms < 60_000 {
        format!("{:.2}s", d.as_secs_f64())
    } else {
        format!("{}m{:02}s", ms / 60_000, (ms / 1000) % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_align_and_numbers_go_right() {
        let mut t = Table::new(["name", "polls", "elapsed", "outcome"]);
        t.row(["a", "1", "850ms", "ACTIVE"])
            .row(["long-name", "10", "1.25s", "FAILED: reason"]);
        t.row(["short"]);
        let text = t.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "name       polls  elapsed  outcome");
        assert_eq!(lines[1], "---------  -----  -------  --------------");
        assert_eq!(lines[2], "a              1    850ms  ACTIVE");
        assert_eq!(lines[3], "long-name     10    1.25s  FAILED: reason");
        assert_eq!(lines[4], "short");
        assert_eq!(t.len(), 3);
    }

    #[test]
    fn empty_table_has_header_and_rule() {
        let t = Table::new(["a", "bb"]);
        assert!(t.is_empty());
        assert_eq!(t.to_string(), "a  bb\n-  --\n");
    }
}
