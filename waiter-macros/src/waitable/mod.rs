//! `#[waitable(...)]`: the value of a Smithy `@waitable` trait on an `async fn`.
//!
//! Phases, as in `serde_derive`, all reporting into one [`Ctxt`]:
//! * parse: [`args`] tells a pasted trait value from a model file's arguments; [`node`] reads
//!   the tokens as a Smithy node value (IDL or JSON form), [`read`] types it into the [`model`]
//!   (and recognises botocore's format pasted: [`botocore`]), or [`file`] reads the waiters
//!   from a botocore or Smithy model file; [`signature`] reads
//!   the annotated function's signature (never its body, which passes through untouched, as
//!   `tracing-attributes` does);
//! * check: [`check`] applies the cross-member rules and compiles every JMESPath path and
//!   message ([`paths`]), with its static type against the comparator, and adds the typed-path
//!   checks ([`crate::typed_paths`]);
//! * expand: [`expand`](mod@expand) emits one `wait_until_*` function and one metadata const per waiter, or
//!   on error the same items with their signatures and no logic ([`expand::fallback`]), so that
//!   one mistake is one error and callers do not fail too.

use proc_macro2::{Span, TokenStream};
use quote::quote;

use crate::ctxt::Ctxt;

mod args;
mod botocore;
mod check;
mod expand;
mod file;
mod fingerprint;
pub(crate) mod model;
mod node;
mod paths;
mod read;
mod same_type;
pub(crate) mod signature;

pub(crate) use same_type::Location;

/// The expansion of `#[waitable(attr)] item`; `location` is where the attribute is, when the
/// compiler says (see [`same_type`]).
pub(crate) fn expand(
    attr: TokenStream,
    item: TokenStream,
    location: Option<&Location>,
) -> TokenStream {
    let item_fn: signature::MaybeItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(_) => {
            let err = syn::Error::new(
                Span::call_site(),
                "#[waitable] goes on an `async fn` or a plain `fn` with a body (a method taking `&self`, or a free function) returning `Result<O, E>`",
            )
            .to_compile_error();
            return quote!(#err #item);
        }
    };
    let (krate, attr) = match crate::krate::split_option(attr) {
        Ok(split) => split,
        Err(err) => {
            let err = err.to_compile_error();
            return quote!(#err #item);
        }
    };
    let expanded = crate::krate::with(krate.as_ref(), || {
        let cx = Ctxt::new();
        let op = signature::read(&cx, &item_fn.sig);
        let no_waiters = || model::Waitable {
            waiters: Vec::new(),
            origin: None,
        };
        let (mut model, tracking) = match args::read(&cx, attr) {
            args::Source::Pasted(attr) => match node::parse_trait_value(attr) {
                Ok(node) => (read::read(&cx, &node), TokenStream::new()),
                Err(err) => {
                    cx.syn_error(err);
                    (no_waiters(), TokenStream::new())
                }
            },
            args::Source::File(args) => file::read(&cx, &args, &op.sig.ident.to_string()),
            args::Source::Nothing => (no_waiters(), TokenStream::new()),
        };
        // Only for `ui-tests/bench/compile_time.py --same-type`, to measure what it costs.
        let measured = std::env::var_os("WAITER_MACROS_BENCH_NO_SAME_TYPE").is_none();
        if let Some(location) = location.filter(|_| measured) {
            same_type::remove_repeated(&cx, location, &item_fn, &op, &mut model);
        }
        let code = check::check(&cx, &model, &op);
        // A build with errors is never up to date, so only a successful one needs the model
        // file tracked.
        match cx.check() {
            Ok(warnings) => expand::expand(&item_fn, &op, &model, &code, &warnings, tracking),
            Err(errors) => {
                let errors = errors.to_compile_error();
                let fallback = expand::fallback(&item_fn, &op, &model, &code);
                quote!(#errors #fallback)
            }
        }
    });
    // The annotated function itself, exactly as written.
    quote!(#item #expanded)
}

#[cfg(test)]
mod tests {
    use quote::quote;

    /// The signature rustdoc shows for a waiter is the one the macro writes: it names the
    /// output and error types, `Waiter<'_, O, E>`.
    fn signature_of(item: proc_macro2::TokenStream) -> String {
        let attr =
            quote!(ThingExists: { acceptors: [{ state: "success", matcher: { success: true } }] });
        let out = super::expand(attr, item, None).to_string();
        let start = out
            .find("fn wait_until_thing_exists")
            .expect("a waiter function");
        let end = start + out[start..].find('{').expect("a body");
        out[start..end].trim().to_owned()
    }

    #[test]
    fn waiter_signatures_name_output_and_error() {
        assert_eq!(
            signature_of(quote! {
                pub async fn describe(&self, ids: Vec<String>) -> Result<DescribeInstancesOutput, CloudError> { todo!() }
            }),
            "fn wait_until_thing_exists (& self , ids : Vec < String >) -> :: waiter_runtime :: Waiter < '_ , DescribeInstancesOutput , CloudError >"
        );
        assert_eq!(
            signature_of(quote! {
                pub async fn describe(&self, id: &str) -> Result<Out, Error> { todo!() }
            }),
            "fn wait_until_thing_exists < 'a > (& 'a self , id : & 'a str) -> :: waiter_runtime :: Waiter < 'a , Out , Error >"
        );
        assert_eq!(
            signature_of(quote! {
                async fn describe(id: String) -> Result<Out, Error> { todo!() }
            }),
            "fn wait_until_thing_exists (id : String) -> :: waiter_runtime :: Waiter < 'static , Out , Error >"
        );
    }

    #[test]
    fn the_body_is_passed_through_untouched() {
        let item = quote! {
            async fn describe(id: String) -> Result<Out, Error> { this is not rust at all }
        };
        let attr =
            quote!(ThingExists: { acceptors: [{ state: "success", matcher: { success: true } }] });
        let out = super::expand(attr, item.clone(), None).to_string();
        assert!(out.starts_with(&item.to_string()), "{out}");
        assert!(!out.contains("compile_error"), "{out}");
    }
}
