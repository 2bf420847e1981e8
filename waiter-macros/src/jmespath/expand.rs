//! Code generation: a checked JMESPath AST -> Rust tokens calling `waiter_runtime::jmespath::__private`.
//!
//! Every generated expression has type `Node<'a>` and may use `?` (the enclosing function or
//! closure returns `Result<Node<'a>, SearchError>`). The input of each sub-expression is given as
//! tokens evaluated exactly once, first.

use super::ast::{Ast, Comparator, KeyValuePair, Literal as Value};
use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote};

use super::functions;

pub(crate) fn rt() -> TokenStream {
    let p = crate::krate::private();
    quote!(#p::jmespath)
}

/// Emits `fn __jmespath_eval<'a>(Node<'a>) -> Result<Node<'a>, SearchError>` for `ast`.
pub(crate) fn eval_fn(ast: &Ast) -> TokenStream {
    let p = rt();
    let mut g = Gen { next: 0 };
    let root = g.ident();
    let body = g.expr(ast, quote!(#root));
    quote! {
        #[allow(unused_variables, unused_mut, clippy::all, clippy::pedantic)]
        fn __jmespath_eval<'a>(
            #root: #p::Node<'a>,
        ) -> ::core::result::Result<#p::Node<'a>, #p::SearchError> {
            fn __body<'a>(#root: #p::Node<'a>) -> #p::R<'a> {
                ::core::result::Result::Ok(#body)
            }
            #p::finish(__body(#root))
        }
    }
}

struct Gen {
    next: usize,
}

impl Gen {
    fn ident(&mut self) -> proc_macro2::Ident {
        self.next += 1;
        format_ident!("__n{}", self.next, span = Span::mixed_site())
    }

    /// A closure `|x| Ok(<ast evaluated on x>)` for projections and expression references.
    fn closure(&mut self, ast: &Ast) -> TokenStream {
        let p = rt();
        let x = self.ident();
        let body = self.expr(ast, quote!(#x));
        // Typed: the closure is bound by `let` before the call, where nothing else says its
        // signature (an untyped one fails with E0282 as soon as its body calls a method).
        quote!(|#x: #p::Node<'a>| -> #p::R<'a> { ::core::result::Result::Ok(#body) })
    }

    fn expr(&mut self, ast: &Ast, input: TokenStream) -> TokenStream {
        let p = rt();
        match ast {
            Ast::Identity { .. } => input,
            Ast::Field { name, .. } => quote!(#p::field(#input, #name)),
            Ast::Subexpr { .. } if field_chain(ast).is_some() => {
                let names = field_chain(ast).unwrap_or_default();
                quote!(#p::follow_node(#input, &[#(#names),*]))
            }
            Ast::Subexpr { lhs, rhs, .. } => {
                let l = self.expr(lhs, input);
                self.expr(rhs, l)
            }
            Ast::Index { idx, .. } => quote!(#p::index(#input, #idx)),
            Ast::Slice {
                start, stop, step, ..
            } => {
                let opt = |v: &Option<i64>| match v {
                    Some(v) => quote!(::core::option::Option::Some(#v)),
                    None => quote!(::core::option::Option::None),
                };
                let (start, stop) = (opt(start), opt(stop));
                quote!(#p::slice(#input, #start, #stop, #step)?)
            }
            Ast::Literal { value, .. } if is_large(value) => {
                let mut json = String::new();
                to_json(value, &mut json);
                quote!({
                    let _ = #input;
                    static LITERAL: #p::LiteralCell = #p::LiteralCell::new();
                    #p::literal_json(&LITERAL, #json)
                })
            }
            Ast::Literal { value, .. } => {
                let lit = literal(value);
                quote!({ let _ = #input; #lit })
            }
            Ast::Flatten { .. } | Ast::Projection { .. } => self.collect(ast, input),
            Ast::ObjectValues { node, .. } => {
                let n = self.expr(node, input);
                quote!(#p::object_values(#n))
            }
            Ast::Not { node, .. } => {
                let n = self.expr(node, input);
                quote!(#p::not(#n))
            }
            Ast::Comparison {
                comparator,
                lhs,
                rhs,
                ..
            } => {
                let c = self.ident();
                let l = self.expr(lhs, quote!(#c.clone()));
                let r = self.expr(rhs, quote!(#c));
                let op = match comparator {
                    Comparator::Equal => quote!(eq),
                    Comparator::NotEqual => quote!(ne),
                    Comparator::LessThan => quote!(lt),
                    Comparator::LessThanEqual => quote!(le),
                    Comparator::GreaterThan => quote!(gt),
                    Comparator::GreaterThanEqual => quote!(ge),
                };
                quote!({ let #c = #input; let __l = #l; let __r = #r; #p::#op(&__l, &__r) })
            }
            Ast::And { .. } | Ast::Or { .. } => {
                // `a || b || c`: one flat sequence of tests in a labelled block, whatever the
                // number of operands (no block nested per operand).
                let c = self.ident();
                let v = self.ident();
                let done = syn::Lifetime::new(&format!("'__{}", self.ident()), Span::mixed_site());
                let operands = ast.operands();
                let last = operands.len() - 1;
                let test = if matches!(ast, Ast::And { .. }) {
                    quote!(!#p::truthy(&#v))
                } else {
                    quote!(#p::truthy(&#v))
                };
                // One variable assigned again (a `let` per operand would open a scope per
                // operand, nested: rustc overflowed on 4,000).
                let steps = operands[..last].iter().map(|o| {
                    let e = self.expr(o, quote!(#c.clone()));
                    quote!(#v = #e; if #test { break #done #v; })
                });
                let steps: Vec<TokenStream> = steps.collect();
                let tail = self.expr(operands[last], quote!(#c));
                quote!({ #done: { let #c = #input; let mut #v; #(#steps)* #tail } })
            }
            Ast::Condition {
                predicate, then, ..
            } => {
                let c = self.ident();
                let pred = self.expr(predicate, quote!(#c.clone()));
                let then = self.expr(then, quote!(#c));
                quote!({ let #c = #input; if #p::truthy(&#pred) { #then } else { #p::Node::Null } })
            }
            Ast::MultiList { elements, .. } if elements.len() > 1 => {
                match elements.iter().map(field_chain).collect::<Option<Vec<_>>>() {
                    Some(paths) => {
                        let paths = paths.iter().map(|names| quote!(&[#(#names),*]));
                        quote!(#p::select_list(#input, &[#(#paths),*]))
                    }
                    None => self.multi_list(elements, input),
                }
            }
            Ast::MultiList { elements, .. } => self.multi_list(elements, input),
            Ast::MultiHash { elements, .. } if elements.len() > 1 => {
                let last = last_of_each_key(elements);
                let members: Option<Vec<TokenStream>> = elements
                    .iter()
                    .enumerate()
                    .filter(|(i, kv)| last[kv.key.as_str()] == *i)
                    .map(|(_, kv)| {
                        let names = field_chain(&kv.value)?;
                        let k = &kv.key;
                        Some(quote!((#k, &[#(#names),*])))
                    })
                    .collect();
                match members {
                    Some(members) => quote!(#p::select_hash(#input, &[#(#members),*])),
                    None => self.multi_hash(elements, input),
                }
            }
            Ast::MultiHash { elements, .. } => self.multi_hash(elements, input),
            Ast::Expref { .. } => {
                // Rejected by the checker; kept total for robustness.
                quote!({ let _ = #input; #p::Node::Null })
            }
            Ast::Function { name, args, .. } => self.call(name, args, input),
        }
    }

    /// `[a, b, ...]`: code per element (the elements are not all field chains).
    fn multi_list(&mut self, elements: &[Ast], input: TokenStream) -> TokenStream {
        let p = rt();
        let c = self.ident();
        let items: Vec<TokenStream> = elements
            .iter()
            .map(|e| self.expr(e, quote!(#c.clone())))
            .collect();
        quote!({
            let #c = #input;
            if #c.is_null() { #p::Node::Null } else { #p::owned_array(::std::vec![#(#items),*]) }
        })
    }

    /// `{k: v, ...}`: code per member (the values are not all field chains).
    fn multi_hash(&mut self, elements: &[KeyValuePair], input: TokenStream) -> TokenStream {
        let p = rt();
        let c = self.ident();
        let m = self.ident();
        let last = last_of_each_key(elements);
        // Pushes, not a `let` per member (each would open a scope, nested in the next).
        let pushes = elements.iter().enumerate().map(|(i, kv)| {
            let e = self.expr(&kv.value, quote!(#c.clone()));
            if last[kv.key.as_str()] == i {
                let k = &kv.key;
                quote!(#m.push((#k, #e));)
            } else {
                quote!(::core::mem::drop(#e);)
            }
        });
        let pushes: Vec<TokenStream> = pushes.collect();
        let n = last.len();
        quote!({
            let #c = #input;
            if #c.is_null() { #p::Node::Null } else {
                let mut #m = ::std::vec::Vec::with_capacity(#n);
                #(#pushes)*
                #p::owned_object(#m)
            }
        })
    }

    /// Projections and flattens, fused: nested `a[].b[].c` streams each final element into one
    /// output vector, with no intermediate array per level.
    fn collect(&mut self, ast: &Ast, input: TokenStream) -> TokenStream {
        let p = rt();
        if let Ast::Projection { lhs, rhs, .. } = ast {
            if let Some(chain) = field_chain(rhs) {
                return self.collect_chain(lhs, &chain, input);
            }
        }
        let out = self.ident();
        let sink = self.ident();
        let is_array = self.ident();
        let stream = self.stream(ast, input, &sink, None);
        quote!({
            let mut #out = ::std::vec::Vec::new();
            let #is_array = {
                let mut #sink = |v: #p::Node<'a>| {
                    #out.push(v);
                    ::core::result::Result::Ok::<(), #p::E>(())
                };
                #stream?
            };
            if #is_array { #p::owned_array(#out) } else { #p::Node::Null }
        })
    }

    /// `lhs[*].a.b` (or `lhs[].a.b`): elements follow the chain and are pushed straight onto
    /// the output, with no closure call per element.
    fn collect_chain(&mut self, lhs: &Ast, chain: &[String], input: TokenStream) -> TokenStream {
        let p = rt();
        let names = quote!(&[#(#chain),*]);
        let flat = match lhs {
            Ast::Flatten { node, .. } => flat_projection(node),
            _ => None,
        };
        match (lhs, flat) {
            // `name[].a.b[].c.d` from the input: the member is walked in place (a derived
            // struct's with static dispatch, no node built for it).
            (_, Some((Ast::Field { name, .. }, first))) => quote!(
                #p::project_member_flat_follow_flat(#input, #name, &[#(#first),*], #names)
            ),
            // `items[].a.b[].c.d`: one runtime call, statically dispatched over derived structs.
            (_, Some((items, first))) => {
                let e = self.expr(items, input);
                quote!(#p::project_flat_follow_flat(#e, &[#(#first),*], #names))
            }
            (Ast::Flatten { node, .. }, None) => {
                let out = self.ident();
                let is_array = self.ident();
                let s = self.ident();
                let inner = self.stream(node, input, &s, None);
                quote!({
                    let mut #out = #p::Out::new();
                    let #is_array = {
                        let mut #s = |el: #p::Node<'a>| {
                            #p::flat_extend_follow(el, #names, &mut #out);
                            ::core::result::Result::Ok::<(), #p::E>(())
                        };
                        #inner?
                    };
                    if #is_array { #out.finish() } else { #p::Node::Null }
                })
            }
            // `items[*].a.b`: one runtime call.
            (other, None) => {
                let e = self.expr(other, input);
                quote!(#p::project_follow(#e, #names))
            }
        }
    }

    /// Tokens of type `Result<bool, E>`: calls the closure `sink` on every element of the
    /// array `ast` evaluates to (after following the member chain `path` from it, if any), and
    /// says whether it is an array at all (else it is null). A `path` is only passed by
    /// projections, whose sinks drop nulls.
    fn stream(
        &mut self,
        ast: &Ast,
        input: TokenStream,
        sink: &proc_macro2::Ident,
        path: Option<&[String]>,
    ) -> TokenStream {
        let p = rt();
        match (ast, path) {
            (Ast::Projection { lhs, rhs, .. }, None) => {
                let s = self.ident();
                let keep = quote!(|v: #p::Node<'a>| {
                    if !v.is_null() {
                        #sink(v)?;
                    }
                    ::core::result::Result::Ok::<(), #p::E>(())
                });
                if let Some(chain) = field_chain(rhs) {
                    // `lhs[*].a.b`: each element follows the chain in one call.
                    let inner = self.stream(lhs, input, &s, Some(&chain));
                    return quote!({ let mut #s = #keep; #inner });
                }
                let x = self.ident();
                let body = self.expr(rhs, quote!(#x));
                let inner = self.stream(lhs, input, &s, None);
                quote!({
                    let mut #s = |#x: #p::Node<'a>| {
                        let v = #body;
                        if !v.is_null() {
                            #sink(v)?;
                        }
                        ::core::result::Result::Ok::<(), #p::E>(())
                    };
                    #inner
                })
            }
            (Ast::Flatten { node, .. }, path) => {
                let s = self.ident();
                let inner = self.stream(node, input, &s, None);
                let step = match path {
                    Some(names) => quote!(#p::flat_step_follow(el, &[#(#names),*], &mut #sink)),
                    None => quote!(#p::flat_step(el, &mut #sink)),
                };
                quote!({
                    let mut #s = |el: #p::Node<'a>| #step;
                    #inner
                })
            }
            (Ast::Projection { .. }, Some(names)) => {
                let s = self.ident();
                let inner = self.stream(ast, input, &s, None);
                quote!({
                    let mut #s = |v: #p::Node<'a>| #sink(#p::follow_node(v, &[#(#names),*]));
                    #inner
                })
            }
            (other, path) => {
                let e = self.expr(other, input);
                match path {
                    Some(names) => quote!(#p::each_follow(#e, &[#(#names),*], &mut #sink)),
                    None => quote!(#p::each(#e, &mut #sink)),
                }
            }
        }
    }

    fn call(&mut self, name: &str, args: &[Ast], input: TokenStream) -> TokenStream {
        let p = rt();
        let f = functions::lookup(name).expect("checked: known function");
        let helper = format_ident!("{}", f.helper);
        let c = self.ident();
        let mut lets = Vec::new();
        let mut vals = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let v = self.ident();
            let last = i + 1 == args.len();
            let inp = if last { quote!(#c) } else { quote!(#c.clone()) };
            let e = match a {
                Ast::Expref { ast, .. } => {
                    let cl = self.closure(ast);
                    quote!({ let _ = #inp; #cl })
                }
                other => self.expr(other, inp),
            };
            lets.push(quote!(let #v = #e;));
            vals.push(v);
        }
        let call = if f.variadic.is_some() {
            quote!(#p::#helper(::std::vec![#(#vals),*])?)
        } else {
            quote!(#p::#helper(#(#vals),*)?)
        };
        quote!({ let #c = #input; #(#lets)* #call })
    }
}

/// `items[].a.b` as (`items`, `["a", "b"]`).
fn flat_projection(ast: &Ast) -> Option<(&Ast, Vec<String>)> {
    match ast {
        Ast::Projection { lhs, rhs, .. } => match &**lhs {
            Ast::Flatten { node, .. } => Some((&**node, field_chain(rhs)?)),
            _ => None,
        },
        _ => None,
    }
}

/// Later duplicates win, as in a JSON object: the last place of each key.
fn last_of_each_key(elements: &[KeyValuePair]) -> std::collections::HashMap<&str, usize> {
    elements
        .iter()
        .enumerate()
        .map(|(i, kv)| (kv.key.as_str(), i))
        .collect()
}

/// A chain of fields `a.b.c` as `["a", "b", "c"]` (a single field too).
fn field_chain(ast: &Ast) -> Option<Vec<String>> {
    ast.field_chain()
}

/// Whether a literal is kept as JSON text (`literal_json`) rather than built by code per value:
/// more than 64 values, and no number but integers (the runtime's JSON reader might round a
/// double differently from the macro's).
fn is_large(value: &Value) -> bool {
    fn count(value: &Value, n: &mut usize) -> bool {
        *n += 1;
        match value {
            Value::Number(x) => x.is_integer(),
            Value::Array(items) => items.iter().all(|v| count(v, n)),
            Value::Object(members) => members.values().all(|v| count(v, n)),
            _ => true,
        }
    }
    let mut n = 0;
    matches!(value, Value::Array(_) | Value::Object(_)) && count(value, &mut n) && n > 64
}

/// A literal as JSON text (members in the literal's order: by key).
fn to_json(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => super::json::quote_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                to_json(v, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                super::json::quote_string(k, out);
                out.push(':');
                to_json(v, out);
            }
            out.push('}');
        }
    }
}

/// Tokens building a literal value as an owned `Node<'static>`.
fn literal(value: &Value) -> TokenStream {
    let p = rt();
    match value {
        Value::Null => quote!(#p::Node::Null),
        Value::Bool(b) => quote!(#p::Node::Bool(#b)),
        Value::String(s) => quote!(#p::string(#s)),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                quote!(#p::number_i64(#i))
            } else if let Some(u) = n.as_u64() {
                quote!(#p::number_u64(#u))
            } else {
                let f = Literal::f64_suffixed(n.as_f64());
                quote!(#p::number_f64(#f))
            }
        }
        Value::Array(items) => {
            let items = items.iter().map(literal);
            quote!(#p::owned_array(::std::vec![#(#items),*]))
        }
        Value::Object(members) => {
            let members = members.iter().map(|(k, v)| {
                let v = literal(v);
                quote!((#k, #v))
            });
            quote!(#p::owned_object(::std::vec![#(#members),*]))
        }
    }
}
