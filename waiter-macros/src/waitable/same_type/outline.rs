//! The `#[waitable]` functions of a file's inherent impl blocks, found in its tokens
//! ([`lex`](super::lex)): for each, the type whose impl holds it (and the module of that impl),
//! the `#[cfg]`s it is under, and what decides the names of the items its waiters generate.
//!
//! Walked: the file's items and those of inline modules (`mod name { .. }`), at any depth; in
//! them, inherent impl blocks (`impl<T> Client<T> { .. }`), not trait impls (`impl T for C`),
//! whose items a trait declares. Not walked: items inside functions, blocks and macro
//! invocations (a `#[waitable]` there is not found, and nothing is checked for it).

use super::lex::{Delim, Lit, Token, Tree};

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
    /// The attribute's arguments: what the macro is given.
    pub args: Vec<Token>,
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
pub(crate) fn waitable_fns(tokens: &[Token]) -> Vec<WaitableFn> {
    let mut out = Vec::new();
    items(tokens, &[], &[], &mut out);
    out
}

/// The items of a file or inline module.
fn items(tokens: &[Token], module: &[String], cfgs: &[String], out: &mut Vec<WaitableFn>) {
    let mut at = 0;
    while at < tokens.len() {
        let (attrs, after_attrs) = attributes(tokens, at);
        let mut kw = visibility(tokens, after_attrs).0;
        while tokens
            .get(kw)
            .is_some_and(|t| t.is_ident("unsafe") || t.is_ident("default"))
        {
            kw += 1;
        }
        let mut inner_cfgs = cfgs.to_vec();
        inner_cfgs.extend(attrs.iter().filter_map(|a| cfg(a)));
        match (tokens.get(kw), tokens.get(kw + 1), tokens.get(kw + 2)) {
            (Some(m), Some(name), Some(body)) if m.is_ident("mod") => {
                if let (Tree::Ident(name), Some((Delim::Brace, inner))) = (&name.tree, body.group())
                {
                    let mut module = module.to_vec();
                    module.push(name.clone());
                    items(inner, &module, &inner_cfgs, out);
                    at = kw + 3;
                    continue;
                }
            }
            (Some(i), _, _) if i.is_ident("impl") => {
                if let Some((owner, body, end)) = inherent_impl(tokens, kw, module) {
                    impl_items(body, &owner, &inner_cfgs, out);
                    at = end;
                    continue;
                }
            }
            _ => {}
        }
        at = skip_item(tokens, kw);
    }
}

/// The outer attributes from `at` (each the bracket group after `#`; inner ones `#![..]` are
/// skipped), and where the item after them starts.
fn attributes(tokens: &[Token], mut at: usize) -> (Vec<&[Token]>, usize) {
    let mut attrs = Vec::new();
    loop {
        match (tokens.get(at), tokens.get(at + 1), tokens.get(at + 2)) {
            (Some(hash), Some(group), _) if hash.is_punct('#') => match group.group() {
                Some((Delim::Bracket, inner)) => {
                    attrs.push(inner);
                    at += 2;
                }
                _ if group.is_punct('!')
                    && tokens
                        .get(at + 2)
                        .and_then(Token::group)
                        .is_some_and(|(d, _)| d == Delim::Bracket) =>
                {
                    at += 3;
                }
                _ => return (attrs, at),
            },
            _ => return (attrs, at),
        }
    }
}

/// After an optional visibility (`pub`, `pub(crate)`, `pub(in path)`): where the item goes on,
/// and whether there was one.
fn visibility(tokens: &[Token], at: usize) -> (usize, bool) {
    if !tokens.get(at).is_some_and(|t| t.is_ident("pub")) {
        return (at, false);
    }
    match tokens.get(at + 1).and_then(Token::group) {
        Some((Delim::Paren, _)) => (at + 2, true),
        _ => (at + 1, true),
    }
}

/// Past the item starting at `at`: up to its `;` or its first brace group (a body), whichever
/// comes first (a `;` after a body is an empty item of its own).
fn skip_item(tokens: &[Token], at: usize) -> usize {
    let mut at = at;
    while let Some(t) = tokens.get(at) {
        at += 1;
        if t.is_punct(';') || matches!(t.group(), Some((Delim::Brace, _))) {
            break;
        }
    }
    at
}

/// `#[cfg(..)]`'s text.
fn cfg(attr: &[Token]) -> Option<String> {
    match attr {
        [name, args] if name.is_ident("cfg") && args.group().is_some() => Some(text(attr)),
        _ => None,
    }
}

/// The arguments of a `#[waitable]` attribute (`waitable`, `waiter_runtime::waitable`, ..):
/// what its parentheses hold, nothing for a bare `#[waitable]`.
fn waitable_args(attr: &[Token]) -> Option<&[Token]> {
    let (path, args) = match attr.split_last() {
        Some((last, path)) if last.group().is_some() => (path, last.group().map(|(_, a)| a)),
        _ => (attr, None),
    };
    let last = path.last()?;
    let is_path = path
        .iter()
        .all(|t| t.is_punct(':') || matches!(t.tree, Tree::Ident(_)));
    (is_path && last.is_ident("waitable")).then(|| args.unwrap_or(&[]))
}

/// The impl block at `at` (its `impl`), when it is inherent: its owner, its items and where it
/// ends.
fn inherent_impl<'t>(
    tokens: &'t [Token],
    at: usize,
    module: &[String],
) -> Option<(Owner, &'t [Token], usize)> {
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
            Tree::Group(Delim::Brace, body) if depth == 0 => {
                let self_ty = &tokens[start..end_of_type.unwrap_or(i)];
                if self_ty.is_empty() {
                    return None;
                }
                let owner = Owner {
                    module: module.to_vec(),
                    self_ty: text(self_ty),
                };
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

/// The `#[waitable]` functions of an inherent impl block's items.
fn impl_items(body: &[Token], owner: &Owner, cfgs: &[String], out: &mut Vec<WaitableFn>) {
    let mut at = 0;
    while at < body.len() {
        let (attrs, after_attrs) = attributes(body, at);
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
                // The attribute's `#`: two tokens per outer attribute before it.
                let hash = &body[attr_start(body, at, index)];
                let mut fn_cfgs = cfgs.to_vec();
                fn_cfgs.extend(attrs.iter().filter_map(|a| cfg(a)));
                out.push(WaitableFn {
                    line: hash.line,
                    column: hash.column,
                    name: name.clone(),
                    owner: owner.clone(),
                    cfgs: fn_cfgs,
                    is_async,
                    has_receiver: has_receiver(&body[kw + 2..]),
                    has_visibility,
                    args: args.to_vec(),
                });
            }
        }
        at = skip_item(body, kw);
    }
}

/// Where the `index`th outer attribute of the item at `at` starts (inner attributes `#![..]`
/// between them skipped as [`attributes`] does).
fn attr_start(tokens: &[Token], mut at: usize, index: usize) -> usize {
    let mut seen = 0;
    loop {
        if tokens.get(at + 1).is_some_and(|t| t.is_punct('!')) {
            at += 3;
            continue;
        }
        if seen == index {
            return at;
        }
        seen += 1;
        at += 2;
    }
}

/// Whether the parameters (the tokens after the function's name: generics, then the
/// parenthesized list) start with a receiver: `self`, `mut self`, `&self`, `&'a mut self`,
/// `self: Box<Self>`.
fn has_receiver(after_name: &[Token]) -> bool {
    let Some((_, params)) = after_name
        .iter()
        .find_map(|t| t.group().filter(|(d, _)| *d == Delim::Paren))
    else {
        return false;
    };
    let (_, at) = attributes(params, 0);
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

/// Tokens as text, spaced only where two words meet (`Client<T>`, `cfg(feature="x")`,
/// `dyn Trait`).
pub(crate) fn text(tokens: &[Token]) -> String {
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
            Tree::Group(d, inner) => {
                let (open, close) = match d {
                    Delim::Paren => ('(', ')'),
                    Delim::Bracket => ('[', ']'),
                    Delim::Brace => ('{', '}'),
                };
                (format!("{open}{}{close}", text(inner)), false)
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
    use super::{WaitableFn, waitable_fns};
    use crate::waitable::same_type::lex::lex;

    fn found(source: &str) -> Vec<WaitableFn> {
        waitable_fns(&lex(source).expect("lexes"))
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
        assert_eq!(super::text(&fns[0].args), "A:{}");
        // A bare attribute has no arguments; other attributes named so are not ours.
        let fns = found("impl C { #[waitable] fn a() {} #[not::waitable::x] fn b() {} }");
        assert_eq!(fns.len(), 1);
        assert!(fns[0].args.is_empty());
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
