//! serde's `rename_all` rules, applied exactly as serde does.

#[derive(Clone, Copy)]
pub(crate) enum Rule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

pub(crate) const NAMES: &[&str] = &[
    "\"lowercase\"",
    "\"UPPERCASE\"",
    "\"PascalCase\"",
    "\"camelCase\"",
    "\"snake_case\"",
    "\"SCREAMING_SNAKE_CASE\"",
    "\"kebab-case\"",
    "\"SCREAMING-KEBAB-CASE\"",
];

impl Rule {
    pub(crate) fn from_str(s: &str) -> Option<Rule> {
        Some(match s {
            "lowercase" => Rule::Lower,
            "UPPERCASE" => Rule::Upper,
            "PascalCase" => Rule::Pascal,
            "camelCase" => Rule::Camel,
            "snake_case" => Rule::Snake,
            "SCREAMING_SNAKE_CASE" => Rule::ScreamingSnake,
            "kebab-case" => Rule::Kebab,
            "SCREAMING-KEBAB-CASE" => Rule::ScreamingKebab,
            _ => return None,
        })
    }

    pub(crate) fn apply_to_variant(self, v: &str) -> String {
        match self {
            Rule::Pascal => v.to_owned(),
            Rule::Lower => v.to_ascii_lowercase(),
            Rule::Upper => v.to_ascii_uppercase(),
            Rule::Camel => v[..1].to_ascii_lowercase() + &v[1..],
            Rule::Snake => {
                let mut s = String::new();
                for (i, c) in v.char_indices() {
                    if i > 0 && c.is_uppercase() {
                        s.push('_');
                    }
                    s.push(c.to_ascii_lowercase());
                }
                s
            }
            Rule::ScreamingSnake => Rule::Snake.apply_to_variant(v).to_ascii_uppercase(),
            Rule::Kebab => Rule::Snake.apply_to_variant(v).replace('_', "-"),
            Rule::ScreamingKebab => Rule::ScreamingSnake.apply_to_variant(v).replace('_', "-"),
        }
    }

    pub(crate) fn apply_to_field(self, f: &str) -> String {
        match self {
            Rule::Lower | Rule::Snake => f.to_owned(),
            Rule::Upper | Rule::ScreamingSnake => f.to_ascii_uppercase(),
            Rule::Pascal => {
                let mut s = String::new();
                let mut cap = true;
                for c in f.chars() {
                    if c == '_' {
                        cap = true;
                    } else if cap {
                        s.extend(c.to_uppercase());
                        cap = false;
                    } else {
                        s.push(c);
                    }
                }
                s
            }
            Rule::Camel => {
                let p = Rule::Pascal.apply_to_field(f);
                p[..1].to_ascii_lowercase() + &p[1..]
            }
            Rule::Kebab => f.replace('_', "-"),
            Rule::ScreamingKebab => f.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rule;

    #[test]
    fn rules_match_serde() {
        assert_eq!(Rule::Pascal.apply_to_field("table_status"), "TableStatus");
        assert_eq!(Rule::Camel.apply_to_field("table_status"), "tableStatus");
        assert_eq!(Rule::ScreamingKebab.apply_to_field("a_b"), "A-B");
        assert_eq!(
            Rule::Snake.apply_to_variant("ShuttingDown"),
            "shutting_down"
        );
        assert_eq!(
            Rule::ScreamingSnake.apply_to_variant("InService"),
            "IN_SERVICE"
        );
        assert_eq!(
            Rule::Kebab.apply_to_variant("ShuttingDown"),
            "shutting-down"
        );
        assert_eq!(Rule::Camel.apply_to_variant("InService"), "inService");
    }
}
