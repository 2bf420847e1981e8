//! "Did you mean": the candidate nearest a misspelt name, by edit distance, for the errors of
//! `jmespath!` (function names) and of `#[waitable]` (the waiters and operations of a model
//! file).

/// The candidate closest to `name` within `max` edits (the first of equals), if any.
pub(crate) fn closest<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    max: usize,
) -> Option<&'a str> {
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let d = distance(name, candidate);
        if d <= max && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Levenshtein distance, by characters.
pub(crate) fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_within_the_bound() {
        assert_eq!(distance("lenght", "length"), 2);
        assert_eq!(distance("", "abc"), 3);
        let names = ["TableExists", "TableNotExists", "ExportCompleted"];
        assert_eq!(closest("TableExist", names, 2), Some("TableExists"));
        assert_eq!(closest("Tablenotexists", names, 2), Some("TableNotExists"));
        assert_eq!(closest("Nothing", names, 2), None);
    }
}
