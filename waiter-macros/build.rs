//! Sets `cfg(waiter_span_location)` when the compiler's `proc_macro::Span` has `local_file`,
//! `line` and `column` (stable since Rust 1.88; the crate's `rust-version` is older): then
//! `#[waitable]` can find the impl block around it (`src/waitable/same_type/`). Below, nothing
//! changes. The version is `$RUSTC --version`'s, as `rustversion` and `autocfg` read it: a few
//! lines, not a build dependency for every user.

use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(waiter_span_location)");
    println!("cargo::rerun-if-changed=build.rs");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let Ok(out) = Command::new(rustc).arg("--version").output() else {
        return;
    };
    if has_span_location(&String::from_utf8_lossy(&out.stdout)) {
        println!("cargo::rustc-cfg=waiter_span_location");
    }
}

/// `rustc 1.88.0 (6b00bc388 2025-06-23)`: 1.88 or later. A nightly or dev build of 1.88 may
/// predate the stabilization: from 1.89 on.
fn has_span_location(version: &str) -> bool {
    let Some(number) = version.split_whitespace().nth(1) else {
        return false;
    };
    let (number, pre) = match number.split_once('-') {
        Some((number, pre)) => (number, Some(pre)),
        None => (number, None),
    };
    let mut parts = number.split('.').map(str::parse::<u32>);
    let (Some(Ok(major)), Some(Ok(minor))) = (parts.next(), parts.next()) else {
        return false;
    };
    let first = if pre.is_some_and(|p| p.starts_with("nightly") || p.starts_with("dev")) {
        89
    } else {
        88
    };
    major > 1 || (major == 1 && minor >= first)
}

#[cfg(test)]
mod tests {
    use super::has_span_location;

    #[test]
    fn from_rust_1_88_on() {
        assert!(has_span_location("rustc 1.88.0 (6b00bc388 2025-06-23)"));
        assert!(has_span_location("rustc 1.95.0 (59807616e 2026-04-14)\n"));
        assert!(has_span_location("rustc 1.88.0-beta.3 (x 2025-05-01)"));
        assert!(has_span_location("rustc 1.89.0-nightly (x 2025-06-01)"));
        assert!(has_span_location("rustc 2.0.0"));
        assert!(!has_span_location("rustc 1.87.0 (17067e9ac 2025-05-09)"));
        assert!(!has_span_location("rustc 1.85.1"));
        assert!(!has_span_location("rustc 1.88.0-nightly (x 2025-04-01)"));
        assert!(!has_span_location(""));
        assert!(!has_span_location("error: no such command"));
    }
}
