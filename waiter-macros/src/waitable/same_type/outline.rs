//! The `#[waitable]` functions of a file's inherent impl blocks, found in its tokens
//! ([`lex`](super::lex)): for each, the type whose impl holds it (and the module of that impl),
//! the `#[cfg]`s it is under, and what decides the names of the items its waiters generate.
//!
//! Walked: the file's items and those of inline modules (`mod name { .. }`), at any depth; in
//! them, inherent impl blocks (`impl<T> Client<T> { .. }`), not trait impls (`impl T for C`),
//! whose items a trait declares. Not walked: items inside functions, blocks and macro
//! invocations (a `#[waitable]` there is not found, and nothing is checked for it). Only what
//! the walk needs is lexed: function bodies and attribute arguments stay text.

use std::borrow::Cow;

use super::lex::{Contents, Delim, Lit, Positions, Source, Token, Tree};
use crate::waitable::args::Format;

/// A `#[waitable]` function of an inherent impl block.
#[derive(Debug)]
pub(crate) struct WaitableFn {
    /// Where its `#[waitable]` attribute starts (its `#`), as the compiler counts.
    pub line: usize,
    pub column: usize,
    /// The function's name, as written.
    pub name: String,
    pub owner: Owner,
    /// The `#[cfg(..)]`s of its modules, its impl block and itself, as text.
    pub cfgs: Vec<String>,
    /// An `async fn` (else a blocking waiter's operation).
    pub is_async: bool,
    /// It takes `self` in some form.
    pub has_receiver: bool,
    /// It has a visibility (`pub`, `pub(crate)`, ..).
    pub has_visibility: bool,
    /// The attribute's arguments (what the macro is given), not lexed yet.
    pub args: Contents,
    /// The words of the arguments' text (letters and digits), in lower case: a pasted value's
    /// waiter names are among them.
    pub args_words: Vec<String>,
    /// They name a model file (`botocore = ".."` or `smithy = ".."` among them): its waiters'
    /// names are not in the attribute's text.
    pub names_a_model_file: bool,
}

/// The impl block's type, in the module the impl block is in: two impl blocks with the same
/// owner add to the same type's namespace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Owner {
    /// The inline modules around the impl block, outermost first.
    pub module: Vec<String>,
    /// The self type, as text (`Client<T>`).
    pub self_ty: String,
}

/// Every `#[waitable]` function of the file's inherent impl blocks, in the file's order.
pub(crate) fn waitable_fns(source: &Source) -> Vec<WaitableFn> {
    let mut walk = Walk {
        source,
        positions: Positions::new(&source.text),
        out: Vec::new(),
    };
    walk.items(&source.tokens(), &[], &[]);
    walk.out
}

struct Walk<'t> {
    source: &'t Source,
    positions: Positions<'t>,
    out: Vec<WaitableFn>,
}

impl Walk<'_> {
    /// The items of a file or inline module.
    fn items(&mut self, tokens: &[Token], module: &[String], cfgs: &[String]) {
        let mut at = 0;
        while at < tokens.len() {
            let (attrs, after_attrs) = attributes(self.source, tokens, at);
            let mut kw = visibility(tokens, after_attrs).0;
            while tokens
                .get(kw)
                .is_some_and(|t| t.is_ident("unsafe") || t.is_ident("default"))
            {
                kw += 1;
            }
            let mut inner_cfgs = cfgs.to_vec();
            inner_cfgs.extend(attrs.iter().filter_map(|a| cfg(self.source, a)));
            match (tokens.get(kw), tokens.get(kw + 1), tokens.get(kw + 2)) {
                (Some(m), Some(name), Some(body)) if m.is_ident("mod") => {
                    if let (Tree::Ident(name), Some((Delim::Brace, inner))) =
                        (&name.tree, self.source.group(body))
                    {
                        let mut module = module.to_vec();
                        module.push(name.clone());
                        self.items(&inner, &module, &inner_cfgs);
                        at = kw + 3;
                        continue;
                    }
                }
                (Some(i), _, _) if i.is_ident("impl") => {
                    if let Some((owner, body, end)) = inherent_impl(self.source, tokens, kw, module)
                    {
                        self.impl_items(&body, &owner, &inner_cfgs);
                        at = end;
                        continue;
                    }
                }
                _ => {}
            }
            at = skip_item(tokens, kw);
        }
    }

    /// The `#[waitable]` functions of an inherent impl block's items.
    fn impl_items(&mut self, body: &[Token], owner: &Owner, cfgs: &[String]) {
        let mut at = 0;
        while at < body.len() {
            let (attrs, after_attrs) = attributes(self.source, body, at);
            let (mut kw, has_visibility) = visibility(body, after_attrs);
            let mut is_async = false;
            loop {
                match body.get(kw).map(|t| &t.tree) {
                    Some(Tree::Ident(q))
                        if matches!(
                            q.as_str(),
                            "const" | "unsafe" | "safe" | "default" | "extern"
                        ) => {}
                    Some(Tree::Ident(q)) if q == "async" => is_async = true,
                    // `extern "C"`'s ABI.
                    Some(Tree::Literal(_)) => {}
                    _ => break,
                }
                kw += 1;
            }
            let waitable = attrs
                .iter()
                .enumerate()
                .find_map(|(i, a)| waitable_args(a).map(|args| (i, args)));
            let is_fn = body.get(kw).is_some_and(|t| t.is_ident("fn"));
            if let (Some((index, args)), true) = (waitable, is_fn) {
                if let Some(Tree::Ident(name)) = body.get(kw + 1).map(|t| &t.tree) {
                    let (line, column) = self.positions.at(attrs[index].offset);
                    let mut fn_cfgs = cfgs.to_vec();
                    fn_cfgs.extend(attrs.iter().filter_map(|a| cfg(self.source, a)));
                    let names_a_model_file = names_a_model_file(self.source, &args);
                    let args_words = match &args {
                        Contents::Text(range) => words(&self.source.text[range.clone()]),
                        Contents::Tokens(tokens) => words(&token_text(self.source, tokens)),
                    };
                    self.out.push(WaitableFn {
                        line,
                        column,
                        name: name.clone(),
                        owner: owner.clone(),
                        cfgs: fn_cfgs,
                        is_async,
                        has_receiver: has_receiver(self.source, &body[kw + 2..]),
                        has_visibility,
                        args,
                        args_words,
                        names_a_model_file,
                    });
                }
            }
            at = skip_item(body, kw);
        }
    }
}

/// An outer attribute: where its `#` is, and what its brackets hold.
struct Attribute<'a> {
    offset: usize,
    content: Cow<'a, [Token]>,
}

/// The outer attributes from `at` (each the bracket group after `#`; inner ones `#![..]` are
/// skipped), and where the item after them starts.
fn attributes<'a>(
    source: &Source,
    tokens: &'a [Token],
    mut at: usize,
) -> (Vec<Attribute<'a>>, usize) {
    let mut attrs = Vec::new();
    while tokens.get(at).is_some_and(|t| t.is_punct('#')) {
        let bang = tokens.get(at + 1).is_some_and(|t| t.is_punct('!'));
        let bracket = tokens.get(at + 1 + usize::from(bang));
        match bracket.and_then(|b| source.group(b)) {
            Some((Delim::Bracket, content)) => {
                if !bang {
                    attrs.push(Attribute {
                        offset: tokens[at].offset,
                        content,
                    });
                }
                at += 2 + usize::from(bang);
            }
            _ => break,
        }
    }
    (attrs, at)
}

/// After an optional visibility (`pub`, `pub(crate)`, `pub(in path)`): where the item goes on,
/// and whether there was one.
fn visibility(tokens: &[Token], at: usize) -> (usize, bool) {
    if !tokens.get(at).is_some_and(|t| t.is_ident("pub")) {
        return (at, false);
    }
    match tokens.get(at + 1).and_then(Token::delim) {
        Some(Delim::Paren) => (at + 2, true),
        _ => (at + 1, true),
    }
}

/// Past the item starting at `at`: up to its `;` or its first brace group (a body), whichever
/// comes first (a `;` after a body is an empty item of its own).
fn skip_item(tokens: &[Token], at: usize) -> usize {
    let mut at = at;
    while let Some(t) = tokens.get(at) {
        at += 1;
        if t.is_punct(';') || t.delim() == Some(Delim::Brace) {
            break;
        }
    }
    at
}

/// `#[cfg(..)]`'s text.
fn cfg(source: &Source, attr: &Attribute) -> Option<String> {
    match &*attr.content {
        [name, args] if name.is_ident("cfg") && args.delim().is_some() => {
            Some(token_text(source, &attr.content))
        }
        _ => None,
    }
}

/// The arguments of a `#[waitable]` attribute (`waitable`, `waiter_runtime::waitable`, ..):
/// what its parentheses hold, nothing for a bare `#[waitable]`.
fn waitable_args(attr: &Attribute) -> Option<Contents> {
    let (path, args) = match attr.content.split_last() {
        Some((last, path)) if last.delim().is_some() => match &last.tree {
            Tree::Group(_, contents) => (path, contents.clone()),
            _ => return None,
        },
        _ => (&attr.content[..], Contents::Tokens(Vec::new())),
    };
    let last = path.last()?;
    let is_path = path
        .iter()
        .all(|t| t.is_punct(':') || matches!(t.tree, Tree::Ident(_)));
    (is_path && last.is_ident("waitable")).then_some(args)
}

/// Whether the arguments name a model file: `botocore = ..` or `smithy = ..` at their top
/// level (what makes `args::read` read them as a model file's).
fn names_a_model_file(source: &Source, args: &Contents) -> bool {
    let tokens = match args {
        Contents::Text(range) => source.lex(range.clone()),
        Contents::Tokens(tokens) => tokens.clone(),
    };
    tokens.windows(2).any(|pair| {
        [Format::Botocore, Format::Smithy]
            .iter()
            .any(|f| pair[0].is_ident(f.key()))
            && pair[1].is_punct('=')
    })
}

/// The impl block at `at` (its `impl`), when it is inherent: its owner, its items and where it
/// ends.
fn inherent_impl<'t>(
    source: &Source,
    tokens: &'t [Token],
    at: usize,
    module: &[String],
) -> Option<(Owner, Cow<'t, [Token]>, usize)> {
    let mut i = at + 1;
    // The generic parameters: balanced `<..>` (an arrow's `>` closes nothing).
    if tokens.get(i).is_some_and(|t| t.is_punct('<')) {
        let mut depth = 0;
        while let Some(t) = tokens.get(i) {
            i += 1;
            match t.tree {
                Tree::Punct('<', _) => depth += 1,
                Tree::Punct('>', _) if !is_arrow_head(tokens, i - 1) => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    let start = i;
    let mut depth = 0i32;
    let mut end_of_type = None;
    while let Some(t) = tokens.get(i) {
        match &t.tree {
            Tree::Group(Delim::Brace, _) if depth == 0 => {
                let self_ty = &tokens[start..end_of_type.unwrap_or(i)];
                if self_ty.is_empty() {
                    return None;
                }
                let owner = Owner {
                    module: module.to_vec(),
                    self_ty: token_text(source, self_ty),
                };
                let (_, body) = source.group(t)?;
                return Some((owner, body, i + 1));
            }
            Tree::Punct('<', _) => depth += 1,
            Tree::Punct('>', _) if !is_arrow_head(tokens, i) => depth -= 1,
            // `impl Trait for Type`, `impl !Send for Type` (not `for<'a>`, a bound's).
            Tree::Ident(kw)
                if kw == "for"
                    && depth == 0
                    && !tokens.get(i + 1).is_some_and(|t| t.is_punct('<')) =>
            {
                return None;
            }
            Tree::Ident(kw) if kw == "where" && depth == 0 => {
                end_of_type.get_or_insert(i);
            }
            Tree::Punct(';', _) => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// Whether the `>` at `at` is the head of `->`.
fn is_arrow_head(tokens: &[Token], at: usize) -> bool {
    at > 0 && matches!(tokens[at - 1].tree, Tree::Punct('-', true))
}

/// Whether the parameters (the tokens after the function's name: generics, then the
/// parenthesized list) start with a receiver: `self`, `mut self`, `&self`, `&'a mut self`,
/// `self: Box<Self>`.
fn has_receiver(source: &Source, after_name: &[Token]) -> bool {
    let Some(params) = after_name
        .iter()
        .find(|t| t.delim() == Some(Delim::Paren))
        .and_then(|t| source.group(t))
        .map(|(_, params)| params)
    else {
        return false;
    };
    let (_, at) = attributes(source, &params, 0);
    let first = params[at..]
        .iter()
        .take_while(|t| !t.is_punct(',') && !(t.is_punct(':')));
    let mut saw_self = false;
    for t in first {
        match &t.tree {
            Tree::Ident(s) if s == "self" => saw_self = true,
            Tree::Ident(s) if s == "mut" => {}
            Tree::Punct('&', _) | Tree::Lifetime(_) => {}
            _ => return false,
        }
    }
    saw_self
}

/// The runs of ASCII letters and digits of `text`, in lower case (a waiter's name is such a
/// run: `^[A-Z][A-Za-z0-9]*$`).
fn words(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let mut words: Vec<String> = Vec::new();
    let mut at = 0;
    // By bytes: a proc macro is usually built without optimizations.
    while at < bytes.len() {
        if bytes[at].is_ascii_alphanumeric() {
            let start = at;
            while at < bytes.len() && bytes[at].is_ascii_alphanumeric() {
                at += 1;
            }
            words.push(text[start..at].to_ascii_lowercase());
        } else {
            at += 1;
        }
    }
    words
}

/// Tokens as text, spaced only where two words meet (`Client<T>`, `cfg(feature="x")`,
/// `dyn Trait`).
pub(crate) fn token_text(source: &Source, tokens: &[Token]) -> String {
    let mut out = String::new();
    let mut last_word = false;
    for t in tokens {
        let (piece, word) = match &t.tree {
            Tree::Ident(s) => (s.clone(), true),
            Tree::Lifetime(s) => (format!("'{s}"), true),
            Tree::Punct(c, _) => (c.to_string(), false),
            Tree::Literal(Lit::Str(Some(v))) => (format!("{v:?}"), true),
            Tree::Literal(Lit::Str(None)) => ("\"?\"".to_owned(), true),
            Tree::Literal(Lit::Int(n)) => (n.to_string(), true),
            Tree::Literal(Lit::Other(s)) => (s.clone(), true),
            Tree::Group(..) => {
                let Some((d, inner)) = source.group(t) else {
                    continue;
                };
                let (open, close) = match d {
                    Delim::Paren => ('(', ')'),
                    Delim::Bracket => ('[', ']'),
                    Delim::Brace => ('{', '}'),
                };
                (
                    format!("{open}{}{close}", token_text(source, &inner)),
                    false,
                )
            }
        };
        if word && last_word {
            out.push(' ');
        }
        out.push_str(&piece);
        last_word = word;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{WaitableFn, token_text, waitable_fns};
    use crate::waitable::same_type::lex::{Contents, Source};

    fn found(text: &str) -> Vec<WaitableFn> {
        waitable_fns(&Source::new(text.to_owned()).expect("lexes"))
    }

    /// A function's attribute arguments as text.
    fn args(text: &str, f: &WaitableFn) -> String {
        let source = Source::new(text.to_owned()).unwrap();
        match &f.args {
            Contents::Text(range) => token_text(&source, &source.lex(range.clone())),
            Contents::Tokens(tokens) => token_text(&source, tokens),
        }
    }

    /// `(module path, self type, function, line)` of each function found.
    fn summary(source: &str) -> Vec<(String, String, String, usize)> {
        found(source)
            .into_iter()
            .map(|f| (f.owner.module.join("::"), f.owner.self_ty, f.name, f.line))
            .collect()
    }

    fn row(module: &str, ty: &str, name: &str, line: usize) -> (String, String, String, usize) {
        (module.to_owned(), ty.to_owned(), name.to_owned(), line)
    }

    #[test]
    fn inherent_impls_in_nested_modules() {
        let source = r#"
            use waiter_runtime::waitable;
            pub struct Client;
            impl Client {
                #[waitable(A: {})]
                pub async fn a(&self) -> Result<(), E> { Ok(()) }
                fn helper(&self) {}
            }
            mod blocking {
                pub mod inner {
                    pub struct Client;
                    impl Client {
                        /// Docs first.
                        #[waiter_runtime::waitable(A: {})]
                        pub fn a(&self) -> Result<(), E> { Ok(()) }
                    }
                }
                mod outlined;
                fn f() { impl Hidden { #[waitable(A: {})] fn a(&self) {} } }
            }
        "#;
        assert_eq!(
            summary(source),
            [
                row("", "Client", "a", 5),
                row("blocking::inner", "Client", "a", 14),
            ]
        );
        let fns = found(source);
        assert!(fns[0].is_async && fns[0].has_receiver && fns[0].has_visibility);
        assert!(!fns[1].is_async);
        assert_eq!(fns[1].column, 25);
    }

    #[test]
    fn generic_impls_are_their_self_types() {
        let source = r#"
            impl<T: Transport<Error = E>, E> Client<T> where T: Send {
                #[waitable(A: {})]
                async fn a(&self) {}
            }
            impl<F: Fn() -> u8> Client<F> {
                #[waitable(B: {})]
                async fn b(&'_ self) {}
            }
            impl Client<u8> {
                #[waitable(C: {})]
                unsafe extern "C" fn c(self: &Self) {}
            }
            unsafe impl<'a> Wrapper<'a, [u8; 4]> {
                #[waitable(D: {})]
                pub(crate) const async fn d(x: u8) {}
            }
        "#;
        assert_eq!(
            summary(source),
            [
                row("", "Client<T>", "a", 3),
                row("", "Client<F>", "b", 7),
                row("", "Client<u8>", "c", 11),
                row("", "Wrapper<'a,[u8;4]>", "d", 15),
            ]
        );
        let fns = found(source);
        assert!(fns[1].has_receiver && fns[2].has_receiver && !fns[3].has_receiver);
        assert!(fns[3].is_async && fns[3].has_visibility && !fns[2].is_async);
    }

    #[test]
    fn trait_impls_are_not_walked() {
        let source = r#"
            impl Describe for Client {
                #[waitable(A: {})]
                async fn a(&self) {}
            }
            impl<T> From<T> for Client<T> where for<'a> &'a T: Send {
                #[waitable(A: {})]
                async fn a(&self) {}
            }
            impl !Send for Client {}
            impl Client {
                #[waitable(A: {})]
                async fn a(&self) {}
            }
        "#;
        assert_eq!(summary(source), [row("", "Client", "a", 12)]);
    }

    #[test]
    fn cfgs_of_modules_impls_and_functions_are_kept() {
        let source = r#"
            #[cfg(feature = "blocking")]
            mod blocking {
                #[cfg(not(test))]
                #[allow(dead_code)]
                impl Client {
                    #[waitable(A: {})]
                    #[cfg(unix)]
                    fn a(&self) {}
                }
            }
            #[cfg_attr(docsrs, doc(cfg(x)))]
            impl Client {
                #[waitable(A: {})]
                fn a(&self) {}
            }
        "#;
        let fns = found(source);
        assert_eq!(
            fns[0].cfgs,
            ["cfg(feature=\"blocking\")", "cfg(not(test))", "cfg(unix)"]
        );
        assert!(fns[1].cfgs.is_empty());
    }

    #[test]
    fn the_attribute_is_found_where_it_starts() {
        let source =
            "impl C {\n    /// Doc.\n    #[inline] #![x] #[waitable(A: {})]\n    fn a() {}\n}";
        let fns = found(source);
        assert_eq!((fns[0].line, fns[0].column), (3, 21));
        assert_eq!(args(source, &fns[0]), "A:{}");
        assert!(!fns[0].names_a_model_file);
        // A bare attribute has no arguments; other attributes named so are not ours.
        let source = "impl C { #[waitable] fn a() {} #[not::waitable::x] fn b() {} }";
        let fns = found(source);
        assert_eq!(fns.len(), 1);
        assert_eq!(args(source, &fns[0]), "");
        let source = "impl C { #[waitable(crate = \"x\", smithy = \"m.json\")] fn a() {} }";
        assert!(found(source)[0].names_a_model_file);
    }

    #[test]
    fn items_around_impls_do_not_derail_the_walk() {
        let source = r#"
            const X: Foo = Foo { a: 1 };
            static Y: [u8; 2] = [1, 2];
            macro_rules! m { ($x:ident) => { impl $x {} }; }
            m!(Client);
            struct S { a: u8 }
            fn f() -> impl Fn() -> u8 { || 1 }
            use a::{b, c};
            impl Client {
                const N: usize = 1;
                type T = u8;
                m!();
                #[waitable(A: {})]
                fn a(&self) {}
            }
        "#;
        assert_eq!(summary(source), [row("", "Client", "a", 13)]);
    }
}
