//! The waiters another `#[waitable]` function of the file generates, read by the crate's own
//! readers as its own expansion reads them ([`tokens`](super::tokens) makes its arguments tokens
//! again): a pasted trait value's, or a model file's (`botocore = ".."`, `smithy = ".."`).
//!
//! Each function's arguments are read once per version of the source file; a model file's
//! waiters once per version of the model file too (the source may stay as it is while the model
//! file changes). One expansion compares its waiters with every `#[waitable]` before it on its
//! type, so each of these is read once per file, not once per expansion.

use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use proc_macro2::Span;
use syn::LitStr;

use super::lex::Source;
use super::outline::WaitableFn;
use super::tokens;
use crate::ctxt::Ctxt;
use crate::waitable::args::{self, FileArgs, Format};
use crate::waitable::file::{self, Loaded};
use crate::waitable::model::Waitable;
use crate::waitable::{node, read};

/// A function's waiters, read when first needed.
pub(super) struct Declared(OnceLock<Kind>);

/// A waiter's name, and its key: its ASCII letters and digits in lower case (a valid name is
/// nothing else). Two waiters' items
/// (`wait_until_<snake_case>`, `<SHOUTY_SNAKE_CASE>_WAITER`, `<UPPERCASE>_WAITER`) can be the
/// same only when their keys are, which is a cheaper comparison than making the items' names.
pub(super) struct Name {
    pub name: String,
    pub key: String,
}

impl Name {
    pub(super) fn new(name: String) -> Name {
        let key = name
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect();
        Name { name, key }
    }
}

enum Kind {
    /// A pasted trait value's waiters (none when its errors leave none).
    Pasted(Vec<Name>),
    /// A model file's, with the version of the model file they were read from.
    File {
        args: ModelArgs,
        read: Mutex<Option<(Loaded, Vec<Name>)>>,
    },
    /// Arguments that cannot be made tokens again: nothing is known.
    Unknown,
}

/// `botocore = ".."` or `smithy = ".."` and what narrows it, as plain data (tokens cannot be
/// kept from one expansion to the next).
struct ModelArgs {
    format: Format,
    path: String,
    operation: Option<String>,
    waiters: Option<Vec<String>>,
}

/// The model files as loaded during one expansion, each looked up once (a function's file is
/// most often the one all its type's functions name).
#[derive(Default)]
pub(super) struct Models(Vec<(Format, String, Option<Loaded>)>);

impl Declared {
    pub(super) fn new() -> Declared {
        Declared(OnceLock::new())
    }

    /// `with` called with the names of the waiters `f` (whose arguments these are) generates:
    /// those of its expansion, or of its fallback when it has errors.
    pub(super) fn with_names<R>(
        &self,
        source: &Source,
        f: &WaitableFn,
        models: &mut Models,
        with: impl FnOnce(&[Name]) -> R,
    ) -> R {
        match self.0.get_or_init(|| kind(source, f)) {
            Kind::Pasted(names) => with(names),
            Kind::Unknown => with(&[]),
            Kind::File { args, read } => {
                let at = match models
                    .0
                    .iter()
                    .position(|(format, path, _)| *format == args.format && *path == args.path)
                {
                    Some(at) => at,
                    None => {
                        let loaded = file::loaded(&args.path, args.format);
                        models.0.push((args.format, args.path.clone(), loaded));
                        models.0.len() - 1
                    }
                };
                let Some(loaded) = &models.0[at].2 else {
                    // A file that cannot be read: `read` says which names its fallback keeps.
                    return with(&model_names(args, &f.name));
                };
                let mut read = read.lock().unwrap_or_else(PoisonError::into_inner);
                match &*read {
                    Some((from, names)) if Arc::ptr_eq(from, loaded) => with(names),
                    _ => {
                        let names = model_names(args, &f.name);
                        let out = with(&names);
                        *read = Some((Arc::clone(loaded), names));
                        out
                    }
                }
            }
        }
    }
}

/// What `f`'s arguments (in `source`) are, and a pasted value's waiters.
fn kind(source: &Source, f: &WaitableFn) -> Kind {
    let Some(tokens) = tokens::contents_stream(source, &f.args) else {
        return Kind::Unknown;
    };
    // A mistaken `crate = ".."` is the expansion's one error: no waiter.
    let Ok((_, rest)) = crate::krate::split_option(tokens) else {
        return Kind::Pasted(Vec::new());
    };
    let cx = Ctxt::new();
    let kind = match args::read(&cx, rest) {
        args::Source::File(file) => Kind::File {
            args: ModelArgs {
                format: file.format,
                path: file.path.value(),
                operation: file.operation.map(|o| o.value()),
                waiters: file
                    .waiters
                    .map(|names| names.iter().map(LitStr::value).collect()),
            },
            read: Mutex::new(None),
        },
        args::Source::Pasted(tokens) => match node::parse_trait_value(tokens) {
            Ok(node) => Kind::Pasted(names(&read::read(&cx, &node))),
            Err(_) => Kind::Pasted(Vec::new()),
        },
        args::Source::Nothing => Kind::Pasted(Vec::new()),
    };
    // Its errors are its own expansion's to report.
    let _ = cx.check();
    kind
}

/// The waiters the function `fn_name` generates from `args`' model file.
fn model_names(args: &ModelArgs, fn_name: &str) -> Vec<Name> {
    let lit = |s: &str| LitStr::new(s, Span::call_site());
    let args = FileArgs {
        format: args.format,
        path: lit(&args.path),
        operation: args.operation.as_deref().map(lit),
        waiters: args
            .waiters
            .as_ref()
            .map(|names| names.iter().map(|n| lit(n)).collect()),
    };
    file::waiter_names(&args, fn_name)
        .into_iter()
        .map(Name::new)
        .collect()
}

fn names(model: &Waitable) -> Vec<Name> {
    model
        .waiters
        .iter()
        .map(|w| Name::new(w.name.clone()))
        .collect()
}
