//! `compliance_cases!()`: expands into the official JMESPath compliance suite, one
//! `__jmespath_verdict!` invocation per case (the compiler of `jmespath!`, its verdict as a
//! value). Workspace-only and unpublished: the shipped macro crate runs no `cargo metadata`.
//!
//! The suite is read from the `jmespath` crate's package (`tests/compliance/*.json`) in the
//! resolved dependency graph, located with `cargo metadata`; nothing is copied into this repo.
//! `benchmarks.json` holds benchmarks, not cases, and is skipped.

use std::path::{Path, PathBuf};
use std::process::Command;

use jmespath::Variable;
use proc_macro2::{Span, TokenStream};
use quote::quote;

/// The suite's cases as `fn cases() -> Vec<Case>` (see `tests/compliance.rs`).
#[proc_macro]
pub fn compliance_cases(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    expand(input.into()).into()
}

fn expand(input: TokenStream) -> TokenStream {
    if !input.is_empty() {
        return syn::Error::new(Span::call_site(), "`compliance_cases!()` takes no input")
            .to_compile_error();
    }
    match cases() {
        Ok(ts) => ts,
        Err(msg) => syn::Error::new(Span::call_site(), msg).to_compile_error(),
    }
}

fn suite_dir() -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR")
        .map_err(|_| "CARGO_MANIFEST_DIR is not set".to_owned())?;
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--manifest-path"])
        .arg(Path::new(&manifest_dir).join("Cargo.toml"))
        .output()
        .map_err(|e| format!("cannot run `cargo metadata`: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "`cargo metadata` failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let meta = Variable::from_json(&String::from_utf8_lossy(&out.stdout))?;
    let packages = meta
        .as_object()
        .and_then(|o| o.get("packages"))
        .and_then(|p| p.as_array())
        .ok_or("unexpected `cargo metadata` output")?;
    for p in packages {
        let Some(p) = p.as_object() else { continue };
        if p.get("name")
            .and_then(|n| n.as_string())
            .map(String::as_str)
            == Some("jmespath")
        {
            let manifest = p
                .get("manifest_path")
                .and_then(|m| m.as_string())
                .ok_or("jmespath package without manifest_path")?;
            let dir = Path::new(manifest).parent().ok_or("bad manifest path")?;
            return Ok(dir.join("tests").join("compliance"));
        }
    }
    Err("the `jmespath` package is not in the dependency graph".to_owned())
}

fn cases() -> Result<TokenStream, String> {
    let dir = suite_dir()?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| p.file_name().is_some_and(|n| n != "benchmarks.json"))
        .collect();
    files.sort();
    let mut givens = Vec::new();
    let mut cases = Vec::new();
    for path in &files {
        let file = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let suites = Variable::from_json(&text).map_err(|e| format!("{file}: {e}"))?;
        for suite in suites
            .as_array()
            .ok_or_else(|| format!("{file}: not an array"))?
        {
            let suite = suite
                .as_object()
                .ok_or_else(|| format!("{file}: suite not an object"))?;
            let given_index = givens.len();
            givens.push(
                suite
                    .get("given")
                    .map_or("null".to_owned(), |g| g.to_string()),
            );
            let list = suite
                .get("cases")
                .and_then(|c| c.as_array())
                .ok_or("no cases")?;
            for case in list {
                let case = case.as_object().ok_or("case not an object")?;
                let Some(expr) = case.get("expression").and_then(|e| e.as_string()) else {
                    continue;
                };
                let expected = if let Some(r) = case.get("result") {
                    let json = r.to_string();
                    quote!(Expected::Result(#json))
                } else if let Some(e) = case.get("error").and_then(|e| e.as_string()) {
                    quote!(Expected::Error(#e))
                } else {
                    continue;
                };
                cases.push(quote! {
                    Case {
                        file: #file,
                        expression: #expr,
                        given: #given_index,
                        expected: #expected,
                        verdict: ::waiter_runtime::__private_v0_1::__jmespath_verdict!(#expr),
                    }
                });
            }
        }
    }
    Ok(quote! {
        /// The given documents, as JSON text.
        static GIVENS: &[&str] = &[#(#givens),*];
        /// Every case of the suite.
        fn cases() -> ::std::vec::Vec<Case> {
            ::std::vec![#(#cases),*]
        }
    })
}
