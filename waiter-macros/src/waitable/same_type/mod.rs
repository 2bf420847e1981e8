//! One waiter twice on one type: the same waiter on an async and a blocking method of one
//! client (or twice on one form) would define its `wait_until_*` function and its consts twice,
//! and rustc would say so three times, once about a const the user never wrote. Instead, the
//! second `#[waitable]` reports one error saying how to have both, and generates nothing for
//! the waiters the first one has.
//!
//! Each `#[waitable]` expansion sees its own function only, not the impl block around it, so
//! the file is read: its inherent impl blocks ([`outline`], from the file's tokens, [`lex`]), the
//! one holding this attribute (by the line and column the compiler gives the attribute), and the
//! `#[waitable]` functions before it in impl blocks of the same type (token for token, in the
//! same module) whose `#[cfg]`s are all this function's too (so that both are compiled). Their
//! waiters' names are read by the crate's own readers ([`tokens`] makes their arguments
//! tokens again): a pasted trait value, or a model file (`botocore = ".."`, `smithy = ".."`).
//!
//! The file is read and walked once per version per process ([`ReadCache`]), and what is
//! decided comes from its current content only (rust-analyzer's long-lived process edits it
//! under us). Nothing is checked when the compiler cannot say where the attribute is (before
//! Rust 1.88, whose `proc_macro::Span` has no file and line: rustc's duplicate-definition
//! errors then stand), when the file cannot be read or lexed, or when the attribute is not
//! found in it where the compiler says (a macro-generated function): the expansion is then the
//! same as without this check.

mod declared;
mod lex;
mod outline;
mod tokens;

use std::collections::HashMap;
use std::path::PathBuf;

use super::expand::{ItemNames, declares_consts};
use super::model::{Waitable, WaiterDef};
use super::signature::{MaybeItemFn, Operation};
use crate::ctxt::Ctxt;
use crate::read_cache::ReadCache;
use declared::{Declared, Models, Name};
use outline::WaitableFn;

/// Where a `#[waitable]` attribute starts, as `proc_macro::Span::call_site` gives it: the file
/// (as the compiler names it: relative to its working directory, or absolute), the 1-based line
/// and the 1-based column in characters.
pub(crate) struct Location {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
}

/// A source file's text, its `#[waitable]` functions, and the waiter names of each, read when
/// first needed.
struct Outline {
    source: lex::Source,
    fns: Vec<WaitableFn>,
    declared: Vec<Declared>,
    /// Per word of a pasted value (in lower case), the functions whose arguments have it: a
    /// pasted waiter name is one of its value's words, so only these can have it.
    pasted_words: HashMap<String, Vec<usize>>,
    /// The functions whose arguments name a model file (the names are in the file).
    model_files: Vec<usize>,
}

impl Outline {
    /// The functions before the `me`th that may generate one of `names` (by their keys), in
    /// the file's order.
    fn candidates(&self, me: usize, names: &[Name]) -> Vec<usize> {
        let mut found: Vec<usize> = names
            .iter()
            .filter_map(|n| self.pasted_words.get(&n.key))
            .flatten()
            .chain(&self.model_files)
            .copied()
            .filter(|i| *i < me)
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }
}

static OUTLINES: ReadCache<PathBuf, Option<Outline>> = ReadCache::new();

/// Removes from `model` the waiters that an earlier `#[waitable]` function of the same type
/// already generates, with one error at the first of them saying how to have both.
pub(crate) fn remove_repeated(
    cx: &Ctxt,
    location: &Location,
    item: &MaybeItemFn,
    op: &Operation,
    model: &mut Waitable,
) {
    if model.waiters.is_empty() {
        return;
    }
    let Ok(outline) = OUTLINES.load(location.file.clone(), &location.file, |text| {
        let source = lex::Source::new(text.to_owned())?;
        let fns = outline::waitable_fns(&source);
        let declared = fns.iter().map(|_| Declared::new()).collect();
        let mut pasted_words: HashMap<String, Vec<usize>> = HashMap::new();
        let mut model_files = Vec::new();
        for (i, f) in fns.iter().enumerate() {
            if f.names_a_model_file {
                model_files.push(i);
                continue;
            }
            for word in &f.args_words {
                let fns = pasted_words.entry(word.clone()).or_default();
                if fns.last() != Some(&i) {
                    fns.push(i);
                }
            }
        }
        Some(Outline {
            source,
            fns,
            declared,
            pasted_words,
            model_files,
        })
    }) else {
        return;
    };
    let Some(outline) = &*outline else { return };
    let name = op.sig.ident.to_string();
    let Some(me) = outline
        .fns
        .iter()
        .position(|f| f.line == location.line && f.column == location.column && f.name == name)
    else {
        return;
    };
    let this = &outline.fns[me];
    let ours = declares_consts(
        op.receiver.is_some(),
        !matches!(item.vis, syn::Visibility::Inherited),
    );
    // Each of our waiters that repeats one of an earlier function: its index, the earlier
    // function and that function's waiter.
    let mut repeated: Vec<(usize, &WaitableFn, String)> = Vec::new();
    let mut models = Models::default();
    let mine: Vec<Name> = model
        .waiters
        .iter()
        .map(|w| Name::new(w.name.clone()))
        .collect();
    for i in outline.candidates(me, &mine) {
        let (earlier, declared) = (&outline.fns[i], &outline.declared[i]);
        if earlier.owner != this.owner || !earlier.cfgs.iter().all(|c| this.cfgs.contains(c)) {
            continue;
        }
        let theirs = declares_consts(earlier.has_receiver, earlier.has_visibility);
        declared.with_names(&outline.source, earlier, &mut models, |names| {
            for their in names {
                for (index, mine) in mine.iter().enumerate() {
                    // Names are compared by their keys first, without making the items' names.
                    let clashes = mine.key == their.key
                        && ItemNames::of(&mine.name, ours)
                            .all()
                            .any(|n| ItemNames::of(&their.name, theirs).all().any(|t| t == n));
                    if clashes && !repeated.iter().any(|(i, _, _)| *i == index) {
                        repeated.push((index, earlier, their.name.clone()));
                    }
                }
            }
        });
    }
    if repeated.is_empty() {
        return;
    }
    repeated.sort_by_key(|(index, _, _)| *index);
    let (first, _, _) = repeated[0];
    cx.error(
        model.waiters[first].name_span,
        message(op, model, &this.owner.self_ty, &repeated),
    );
    let mut index = 0;
    model.waiters.retain(|_| {
        let keep = !repeated.iter().any(|(i, _, _)| *i == index);
        index += 1;
        keep
    });
}

/// The error: which waiters repeat which, and how to have both.
fn message(
    op: &Operation,
    model: &Waitable,
    self_ty: &str,
    repeated: &[(usize, &WaitableFn, String)],
) -> String {
    let ours: Vec<&WaiterDef> = repeated
        .iter()
        .map(|(i, _, _)| &model.waiters[*i])
        .collect();
    let quoted = |names: &mut dyn Iterator<Item = &str>| {
        let names: Vec<String> = names.map(|n| format!("`{n}`")).collect();
        match names.as_slice() {
            [one] => one.clone(),
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
            [] => String::new(),
        }
    };
    let mut earlier: Vec<&WaitableFn> = Vec::new();
    for (_, f, _) in repeated {
        if !earlier.iter().any(|e| std::ptr::eq(*e, *f)) {
            earlier.push(f);
        }
    }
    let by = quoted(&mut earlier.iter().map(|f| f.name.as_str()));
    let lines = earlier
        .iter()
        .map(|f| f.line.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let (one, what) = if ours.len() == 1 {
        (true, "waiter")
    } else {
        (false, "waiters")
    };
    let names = quoted(&mut ours.iter().map(|w| w.name.as_str()));
    let same_case = repeated
        .iter()
        .all(|(i, _, theirs)| model.waiters[*i].name == *theirs);
    let s = if earlier.len() == 1 { "" } else { "s" };
    let head = if same_case {
        format!(
            "{what} {names} {} already generated on `{self_ty}` by the `#[waitable]`{s} of {by} \
             (line{s} {lines})",
            if one { "is" } else { "are" },
        )
    } else {
        let theirs = quoted(&mut repeated.iter().map(|(_, _, t)| t.as_str()));
        format!(
            "{what} {names} {} only in case from {theirs} of {by} (line{s} {lines}), on the \
             same type `{self_ty}`: waiter names are unique ignoring case on a type",
            if one { "differs" } else { "differ" },
        )
    };
    let function = ItemNames::of(&ours[0].name, true).function;
    let defined = if one {
        format!("`{function}` would be defined twice")
    } else {
        "their functions would be defined twice".to_owned()
    };
    let other_forms = earlier.iter().any(|f| f.is_async == op.blocking);
    let (form, suffix) = if op.blocking {
        ("blocking", "Blocking")
    } else {
        ("async", "Async")
    };
    let recipe = match (&model.origin, other_forms && same_case) {
        (None, true) => {
            let renamed = format!("{}{suffix}", ours[0].name);
            format!(
                "to have the async and the blocking form on one type, give this {what} another \
                 name, as in `{renamed}: {{ .. }}` (its function is `{}`), or put the {form} \
                 methods on a client type of their own",
                ItemNames::of(&renamed, true).function
            )
        }
        (None, false) => {
            format!("give this {what} another name, or remove one of the two")
        }
        (Some(origin), true) => format!(
            "a model file's waiters keep its names: to have the async and the blocking form, \
             put the {form} methods on a client type of their own, or paste {} trait value from \
             `{}` under another name",
            if one { "the waiter's" } else { "the waiters'" },
            origin.file
        ),
        (Some(_), false) => {
            "name the waiters this one generates with `waiters = [..]`, or remove one of the two"
                .to_owned()
        }
    };
    if same_case {
        format!("{head}: {defined}; {recipe}")
    } else {
        format!("{head}; {recipe}")
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use proc_macro2::TokenStream;
    use quote::quote;

    use super::{Location, OUTLINES};

    /// `source` written to this test's own file.
    fn source_file(test: &str, source: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("waiter-same-type-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("lib.rs");
        std::fs::write(&path, source).unwrap();
        path
    }

    /// The expansion of the `n`th `#[waitable` of the file (from 0), given as the compiler gives
    /// it: its arguments, its function, and where it starts.
    fn expand_nth(path: &PathBuf, n: usize, attr: TokenStream, item: TokenStream) -> String {
        let source = std::fs::read_to_string(path).unwrap();
        let (line, text) = source
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains("#[waitable"))
            .nth(n)
            .expect("the attribute");
        let location = Location {
            file: path.clone(),
            line: line + 1,
            column: text.find("#[waitable").unwrap() + 1,
        };
        crate::waitable::expand(attr, item, Some(&location)).to_string()
    }

    const STREAM_EXISTS: &str =
        r#"StreamExists: { acceptors: [{ state: "success", matcher: { success: true } }] }"#;

    fn stream_exists() -> TokenStream {
        STREAM_EXISTS.parse().unwrap()
    }

    fn async_fn() -> TokenStream {
        quote!(
            pub async fn describe_stream(&self, name: &str) -> Result<(), Error> {
                Ok(())
            }
        )
    }

    fn blocking_fn() -> TokenStream {
        quote!(
            pub fn describe_stream_blocking(&self, name: &str) -> Result<(), Error> {
                Ok(())
            }
        )
    }

    /// An async and a blocking method of `Client` with the same waiter, in `impl Client` blocks
    /// under `first` and `second` (the text before each).
    fn both_forms(first: &str, second: &str) -> String {
        format!(
            "pub struct Client;\n\
             {first}impl Client {{\n    #[waitable({STREAM_EXISTS})]\n    pub async fn describe_stream(&self, name: &str) -> Result<(), Error> {{ Ok(()) }}\n}}\n\
             {second}impl Client {{\n    #[waitable({STREAM_EXISTS})]\n    pub fn describe_stream_blocking(&self, name: &str) -> Result<(), Error> {{ Ok(()) }}\n}}\n"
        )
    }

    #[test]
    fn the_second_on_one_type_is_one_error_and_generates_no_waiter() {
        let path = source_file("second", &both_forms("", ""));
        let first = expand_nth(&path, 0, stream_exists(), async_fn());
        assert!(!first.contains("compile_error"), "{first}");
        assert!(first.contains("fn wait_until_stream_exists"), "{first}");
        let second = expand_nth(&path, 1, stream_exists(), blocking_fn());
        assert_eq!(second.matches("compile_error").count(), 1, "{second}");
        assert!(
            second.contains(
                "waiter `StreamExists` is already generated on `Client` by the `#[waitable]` of \
                 `describe_stream` (line 3)"
            ),
            "{second}"
        );
        assert!(
            second.contains("`StreamExistsBlocking: { .. }`"),
            "{second}"
        );
        assert!(second.contains("fn describe_stream_blocking"), "{second}");
        assert!(!second.contains("fn wait_until_stream_exists"), "{second}");
        assert!(!second.contains("_WAITER"), "{second}");
        // Without where the attribute is (before Rust 1.88), rustc's errors stand.
        let unplaced = crate::waitable::expand(stream_exists(), blocking_fn(), None).to_string();
        assert!(
            unplaced.contains("fn wait_until_stream_exists"),
            "{unplaced}"
        );
    }

    /// [`both_forms`] with the second method `async` too, and that method.
    fn second_async(source: String) -> (String, TokenStream) {
        let source = source.replace(
            "pub fn describe_stream_blocking",
            "pub async fn describe_stream_blocking",
        );
        let item = quote!(
            pub async fn describe_stream_blocking(&self, name: &str) -> Result<(), Error> {
                Ok(())
            }
        );
        (source, item)
    }

    #[test]
    fn an_async_waiter_after_a_blocking_one_is_told_the_async_suffix() {
        let blocking_first =
            both_forms("", "").replace("pub async fn describe_stream(", "pub fn describe_stream(");
        let (source, item) = second_async(blocking_first);
        let path = source_file("async-second", &source);
        let second = expand_nth(&path, 1, stream_exists(), item);
        assert!(second.contains("`StreamExistsAsync: { .. }`"), "{second}");
        assert!(
            second.contains("put the async methods on a client type"),
            "{second}"
        );
    }

    #[test]
    fn the_same_form_twice_is_told_to_rename_or_remove() {
        let (source, item) = second_async(both_forms("", ""));
        let path = source_file("same-form", &source);
        let second = expand_nth(&path, 1, stream_exists(), item);
        assert!(
            second.contains("give this waiter another name, or remove one of the two"),
            "{second}"
        );
    }

    #[test]
    fn other_types_and_other_modules_are_left_alone() {
        let source = both_forms("", "").replacen("impl Client {", "impl AsyncClient {", 1);
        let path = source_file("other-type", &source);
        let second = expand_nth(&path, 1, stream_exists(), blocking_fn());
        assert!(!second.contains("compile_error"), "{second}");
        // `blocking::Client` and `Client` are two types, each with its own pair.
        let source = format!(
            "mod blocking {{\n{}}}\n{}",
            both_forms("", ""),
            both_forms("", "")
        );
        let path = source_file("other-module", &source);
        let top_first = expand_nth(&path, 2, stream_exists(), async_fn());
        assert!(!top_first.contains("compile_error"), "{top_first}");
        for n in [1, 3] {
            let second = expand_nth(&path, n, stream_exists(), blocking_fn());
            assert_eq!(second.matches("compile_error").count(), 1, "{n}: {second}");
        }
    }

    #[test]
    fn cfgs_that_may_leave_the_first_out_are_left_alone() {
        let source = both_forms(
            "#[cfg(feature = \"tokio\")]\n",
            "#[cfg(not(feature = \"tokio\"))]\n",
        );
        let path = source_file("cfg-exclusive", &source);
        let second = expand_nth(&path, 1, stream_exists(), blocking_fn());
        assert!(!second.contains("compile_error"), "{second}");
        // The first compiled whenever the second is: the same error.
        let source = both_forms("", "#[cfg(feature = \"blocking\")]\n");
        let path = source_file("cfg-implied", &source);
        let second = expand_nth(&path, 1, stream_exists(), blocking_fn());
        assert!(second.contains("compile_error"), "{second}");
        let source = both_forms("#[cfg(unix)]\n", "#[cfg(unix)]\n");
        let path = source_file("cfg-same", &source);
        let second = expand_nth(&path, 1, stream_exists(), blocking_fn());
        assert!(second.contains("compile_error"), "{second}");
    }

    #[test]
    fn model_file_waiters_repeated_are_told_the_client_recipe() {
        let dir =
            std::env::temp_dir().join(format!("waiter-same-type-{}-model", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let model = dir.join("waiters-2.json");
        std::fs::write(
            &model,
            r#"{"version": 2, "waiters": {
                "TableExists": {"operation": "DescribeTable", "delay": 20, "maxAttempts": 25,
                    "acceptors": [{"expected": true, "matcher": "error", "state": "retry"}]},
                "TableNotExists": {"operation": "DescribeTable", "delay": 20, "maxAttempts": 25,
                    "acceptors": [{"expected": false, "matcher": "error", "state": "retry"}]}}}"#,
        )
        .unwrap();
        let model = model.to_str().unwrap();
        let source = format!(
            "pub struct Client;\nimpl Client {{\n    #[waitable(botocore = {model:?})]\n    pub async fn describe_table(&self) -> Result<(), Error> {{ Ok(()) }}\n\n    #[waitable(botocore = {model:?})]\n    pub fn describe_table_blocking(&self) -> Result<(), Error> {{ Ok(()) }}\n}}\n"
        );
        let path = source_file("model", &source);
        let second = expand_nth(
            &path,
            1,
            quote!(botocore = #model, operation = "DescribeTable"),
            quote!(
                pub fn describe_table_blocking(&self) -> Result<(), Error> {
                    Ok(())
                }
            ),
        );
        assert_eq!(second.matches("compile_error").count(), 1, "{second}");
        assert!(
            second.contains("waiters `TableExists` and `TableNotExists` are already generated"),
            "{second}"
        );
        assert!(
            second.contains("put the blocking methods on a client type of their own"),
            "{second}"
        );
        assert!(!second.contains("fn wait_until_table"), "{second}");
    }

    #[test]
    fn an_edited_file_is_read_again_and_walked_once_per_version() {
        let path = source_file("edited", &both_forms("", ""));
        for _ in 0..3 {
            let second = expand_nth(&path, 1, stream_exists(), blocking_fn());
            assert!(second.contains("compile_error"), "{second}");
        }
        assert_eq!(OUTLINES.reads(&path), 1);
        // The first waiter renamed: the second one stands alone.
        std::fs::write(
            &path,
            both_forms("", "").replacen("StreamExists", "StreamExistsAsync", 1),
        )
        .unwrap();
        let second = expand_nth(&path, 1, stream_exists(), blocking_fn());
        assert!(!second.contains("compile_error"), "{second}");
        assert_eq!(OUTLINES.reads(&path), 2);
    }

    #[test]
    fn an_attribute_not_where_the_compiler_says_is_left_alone() {
        let path = source_file("elsewhere", &both_forms("", ""));
        // Another function at that place (a macro wrote this one).
        let second = expand_nth(
            &path,
            1,
            stream_exists(),
            quote!(
                pub fn generated(&self, name: &str) -> Result<(), Error> {
                    Ok(())
                }
            ),
        );
        assert!(!second.contains("compile_error"), "{second}");
        // A file that cannot be read, or lexed.
        let missing = Location {
            file: PathBuf::from("/nonexistent/lib.rs"),
            line: 1,
            column: 1,
        };
        let out =
            crate::waitable::expand(stream_exists(), blocking_fn(), Some(&missing)).to_string();
        assert!(!out.contains("compile_error"), "{out}");
        let path = source_file("unlexable", &format!("{}\n\"open", both_forms("", "")));
        let second = expand_nth(&path, 1, stream_exists(), blocking_fn());
        assert!(!second.contains("compile_error"), "{second}");
    }
}
