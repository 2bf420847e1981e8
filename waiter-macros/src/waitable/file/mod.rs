//! `#[waitable(botocore = "..")]` and `#[waitable(smithy = "..")]`: the waiters of the
//! operation, read from the service's own model file at build time, then checked and expanded
//! as a pasted trait value is.
//!
//! - the path is relative to the crate's manifest directory (`CARGO_MANIFEST_DIR`);
//! - the file is read once per compiler process however many functions name it
//!   ([`cache`]), and only what `#[waitable]` needs of it is built ([`index`]);
//! - the operation is `operation = ".."`, else the function's name in PascalCase (compared
//!   ignoring case, so that `describe_db_instances` is `DescribeDBInstances`);
//! - the expansion includes the file (`include_bytes!`), so that the compiler rebuilds the
//!   crate when it changes ([`track`]).
//!
//! Every mistake is one error at the attribute's path, naming the file: a file that cannot be
//! read (the path tried), is not JSON (line and column), is not the format named, has no
//! waiter for the operation, or lacks a waiter `waiters` names (did you mean).

mod botocore;
mod cache;
mod index;
mod smithy;
mod track;

use std::path::{Path, PathBuf};

use heck::ToUpperCamelCase;
use proc_macro2::TokenStream;
use syn::LitStr;

use super::args::FileArgs;
use super::model::{Origin, Waitable, WaiterDef};
use crate::closest::closest;
use crate::ctxt::Ctxt;
pub(crate) use cache::Loaded;
use index::{Index, Unreadable};

/// The waiters `args` names for the function `fn_name` (as written, `r#` and all), and the
/// tokens that make the compiler track the file. On an error, the waiters `waiters = [..]`
/// names (by name only, for the fallback), so that their callers compile.
pub(crate) fn read(cx: &Ctxt, args: &FileArgs, fn_name: &str) -> (Waitable, TokenStream) {
    let written = args.path.value();
    let span = args.path.span();
    let origin = Origin {
        file: written.clone(),
        format: args.format.key(),
    };
    let named_only = || {
        args.waiters
            .iter()
            .flatten()
            .map(|w| WaiterDef::named(w.value(), w.span()))
            .collect()
    };
    let path = resolve(&written);
    let loaded = match cache::load(&path, args.format) {
        Ok(loaded) => loaded,
        Err(err) => {
            cx.error(
                span,
                format!(
                    "cannot read the model file `{written}`: {err} (tried `{}`; the path is \
                     relative to the crate's manifest directory, where its Cargo.toml is)",
                    path.display()
                ),
            );
            return (with_origin(named_only(), origin), TokenStream::new());
        }
    };
    let tracking = track::tracking(&path);
    let index = match &*loaded {
        Ok(index) => index,
        Err(Unreadable::NotJson { line, column, what }) => {
            cx.error(
                span,
                format!("`{written}` is not JSON: {what}, at line {line}, column {column}"),
            );
            return (with_origin(named_only(), origin), tracking);
        }
        Err(Unreadable::NotTheFormat(why)) => {
            cx.error(span, format!("`{written}`: {why}"));
            return (with_origin(named_only(), origin), tracking);
        }
    };
    let Some(operation) = operation(cx, args, fn_name, index, &origin) else {
        return (with_origin(named_only(), origin), tracking);
    };
    let waiters = match index {
        Index::Botocore { waiters } => waiters
            .iter()
            .filter(|(_, of, _)| of.as_deref() == Some(operation))
            .filter(|(name, _, _)| wanted(args, name))
            .filter_map(|(name, _, value)| {
                cx.in_context(Some(origin.waiter(name)), || {
                    botocore::waiter(cx, name, value, span)
                })
            })
            .collect(),
        Index::Smithy { waitable, .. } => {
            let (_, value) = waitable
                .iter()
                .find(|(of, _)| of == operation)
                .expect("a waited operation");
            let context = format!("`{written}`, operation `{operation}`: ");
            let read = cx.in_context(Some(context), || {
                super::read::read(cx, &smithy::node(value, span))
            });
            read.waiters
                .into_iter()
                .filter(|w| wanted(args, &w.name))
                .collect()
        }
    };
    check_wanted(cx, args, index, operation, &written);
    (with_origin(waiters, origin), tracking)
}

/// The names of the waiters [`read`] gives the function `fn_name` for `args`, found without
/// reading the waiters into the model (nor tracking the file): the same, but for a waiter whose
/// reading fails (the function's own expansion reports that error). On an error before the
/// waiters, the names its fallback keeps: those of `waiters = [..]`.
pub(crate) fn waiter_names(args: &FileArgs, fn_name: &str) -> Vec<String> {
    let cx = Ctxt::new();
    let found = (|| {
        let loaded = cache::load(&resolve(&args.path.value()), args.format).ok()?;
        let index = loaded.as_ref().as_ref().ok()?;
        let origin = Origin {
            file: args.path.value(),
            format: args.format.key(),
        };
        let operation = operation(&cx, args, fn_name, index, &origin)?;
        let names: Vec<String> = index
            .waiters_by_operation()
            .into_iter()
            .filter(|(name, op)| *op == operation && wanted(args, name))
            .map(|(name, _)| name.to_owned())
            .collect();
        Some(names)
    })();
    // Its errors are its own expansion's to report.
    let _ = cx.check();
    found.unwrap_or_else(|| args.waiters.iter().flatten().map(LitStr::value).collect())
}

/// The model file `written` (as the attribute writes it) read as `format`, as loaded now; `None`
/// when it cannot be read. What [`read`] gives stays the same while this is the same `Arc`.
pub(crate) fn loaded(written: &str, format: super::args::Format) -> Option<Loaded> {
    cache::load(&resolve(written), format).ok()
}

fn with_origin(mut waiters: Vec<WaiterDef>, origin: Origin) -> Waitable {
    for waiter in &mut waiters {
        waiter.read_from = Some(origin.describe());
    }
    Waitable {
        waiters,
        origin: Some(origin),
    }
}

/// The file's absolute path: `written` under the crate's manifest directory (or the current
/// directory when the compiler is run without Cargo).
fn resolve(written: &str) -> PathBuf {
    let path = Path::new(written);
    if path.is_absolute() {
        return path.to_path_buf();
    }
    let base = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default();
    base.join(path)
}

/// Whether `waiters = [..]` (if given) names `name`.
fn wanted(args: &FileArgs, name: &str) -> bool {
    args.waiters
        .as_ref()
        .is_none_or(|names| names.iter().any(|n| n.value() == name))
}

/// The operation's name as the file writes it, or an error saying what the file has.
fn operation<'i>(
    cx: &Ctxt,
    args: &FileArgs,
    fn_name: &str,
    index: &'i Index,
    origin: &Origin,
) -> Option<&'i str> {
    let fn_name = fn_name.strip_prefix("r#").unwrap_or(fn_name);
    let (wanted, how, span) = match &args.operation {
        Some(lit) => (lit.value(), "`operation`".to_owned(), lit.span()),
        None => (
            fn_name.to_upper_camel_case(),
            format!(
                "`{fn_name}` in PascalCase (name the model's operation with `operation = \
                 \"..\"` when it differs)"
            ),
            args.path.span(),
        ),
    };
    let folded = |s: &str| s.replace('_', "").to_ascii_lowercase();
    let folded_wanted = folded(&wanted);
    // Found without listing the operations (a function per operation of a large model asks
    // for its own): the list is for the error.
    if let Some(found) = index
        .waiter_operations()
        .find(|w| *w == wanted)
        .or_else(|| {
            index
                .waiter_operations()
                .find(|w| folded(w) == folded_wanted)
        })
    {
        return Some(found);
    }
    let waited = index.waited_operations();
    let file = &origin.file;
    let exists = match index {
        Index::Smithy { operations, .. } => operations
            .iter()
            .find(|o| folded(o) == folded(&wanted))
            .map(String::as_str),
        Index::Botocore { .. } => None,
    };
    let message = match exists {
        Some(found) => format!(
            "operation `{found}` of `{file}` has no waiters (no `smithy.waiters#waitable` \
             trait){}",
            listing(&waited)
        ),
        None => {
            let hint = match closest(&wanted, waited.iter().copied(), wanted.len() / 3 + 1) {
                Some(near) => format!("; did you mean `{near}`?"),
                None => listing(&waited),
            };
            format!("`{file}` has no waiter on operation `{wanted}` ({how}){hint}")
        }
    };
    cx.error(span, message);
    None
}

/// "; the operations with waiters: `A`, `B`, ..".
fn listing(waited: &[&str]) -> String {
    if waited.is_empty() {
        return "; the file has no waiters".to_owned();
    }
    let mut shown: Vec<String> = waited.iter().take(12).map(|w| format!("`{w}`")).collect();
    if waited.len() > 12 {
        shown.push(format!("and {} more", waited.len() - 12));
    }
    format!("; the operations with waiters: {}", shown.join(", "))
}

/// Each name of `waiters = [..]` is a waiter of `operation`: else an error at it (did you
/// mean, or the operation it polls).
fn check_wanted(cx: &Ctxt, args: &FileArgs, index: &Index, operation: &str, file: &str) {
    let Some(names) = &args.waiters else { return };
    let all = index.waiters_by_operation();
    let ours: Vec<&str> = all
        .iter()
        .filter(|(_, op)| *op == operation)
        .map(|(name, _)| *name)
        .collect();
    for name in names {
        let wanted = name.value();
        if ours.contains(&wanted.as_str()) {
            continue;
        }
        let message = match all.iter().find(|(n, _)| *n == wanted) {
            Some((_, other)) => format!(
                "waiter `{wanted}` of `{file}` polls operation `{other}`, not `{operation}`: \
                 put it on the function calling `{other}`"
            ),
            None => {
                let hint = match closest(&wanted, ours.iter().copied(), wanted.len() / 3 + 1) {
                    Some(near) => format!("did you mean `{near}`?"),
                    None => format!(
                        "its waiters are {}",
                        ours.iter()
                            .map(|w| format!("`{w}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                format!("`{file}` has no waiter `{wanted}` on operation `{operation}`; {hint}")
            }
        };
        cx.error(name.span(), message);
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use quote::quote;

    use super::cache;
    use crate::waitable::args::Format;

    /// A model file of this test's own, in a fresh directory.
    fn model_file(test: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("waiter-macros-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("waiters-2.json");
        std::fs::write(&path, text).unwrap();
        path
    }

    const DYNAMODB: &str = r#"{"version": 2, "waiters": {
        "TableExists": {"operation": "DescribeTable", "delay": 20, "maxAttempts": 25,
            "acceptors": [
                {"expected": "ACTIVE", "matcher": "path", "state": "success", "argument": "Table.TableStatus"},
                {"expected": "ResourceNotFoundException", "matcher": "error", "state": "retry"}]},
        "TableNotExists": {"operation": "DescribeTable", "delay": 20, "maxAttempts": 25,
            "acceptors": [{"expected": "ResourceNotFoundException", "matcher": "error", "state": "success"}]}
    }}"#;

    fn expand(path: &std::path::Path, function: proc_macro2::TokenStream) -> String {
        let path = path.to_str().unwrap();
        crate::waitable::expand(quote!(botocore = #path), function, None).to_string()
    }

    #[test]
    fn a_file_is_read_once_however_many_functions_name_it() {
        let path = model_file("read-once", DYNAMODB);
        for _ in 0..5 {
            let out = expand(
                &path,
                quote!(
                    pub async fn describe_table(&self) -> Result<Out, Error> {
                        todo!()
                    }
                ),
            );
            assert!(out.contains("fn wait_until_table_exists"), "{out}");
            assert!(out.contains("fn wait_until_table_not_exists"), "{out}");
            assert!(!out.contains("compile_error"), "{out}");
        }
        assert_eq!(cache::reads(&path, Format::Botocore), 1);
        // An edited file (another length) is read again.
        std::fs::write(&path, DYNAMODB.replace("\"delay\": 20", "\"delay\": 5")).unwrap();
        let out = expand(
            &path,
            quote!(
                pub async fn describe_table(&self) -> Result<Out, Error> {
                    todo!()
                }
            ),
        );
        assert!(out.contains("from_secs (5u64)"), "{out}");
        assert_eq!(cache::reads(&path, Format::Botocore), 2);
    }

    #[test]
    fn the_expansion_includes_the_file() {
        let path = model_file("tracked", DYNAMODB);
        let out = expand(
            &path,
            quote!(
                pub async fn describe_table(&self) -> Result<Out, Error> {
                    todo!()
                }
            ),
        );
        let include = format!("include_bytes ! ({:?})", path.to_str().unwrap());
        assert_eq!(out.matches(&include).count(), 1, "{out}");
    }
}
