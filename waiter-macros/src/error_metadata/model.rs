//! What the derive knows about the item once its attributes are read.

use proc_macro2::Span;

/// The item deriving `ProvideErrorMetadata`.
pub(crate) struct Container<'a> {
    pub ident: &'a syn::Ident,
    pub generics: &'a syn::Generics,
    /// Path to the runtime crate (`#[error_metadata(crate = "...")]`), `::waiter_runtime` by default.
    pub krate: syn::Path,
    pub data: Data<'a>,
}

pub(crate) enum Data<'a> {
    Enum(Vec<Variant<'a>>),
    /// A struct is one variant without a name.
    Struct(Variant<'a>),
}

/// One enum variant, or the struct itself.
pub(crate) struct Variant<'a> {
    /// `None` for a struct.
    pub ident: Option<&'a syn::Ident>,
    /// The variant or struct name: the default code, and what errors point at.
    pub name: &'a syn::Ident,
    /// Every field, marked or not.
    pub fields: Vec<Field<'a>>,
    /// Span of the fields (or of the name for a unit variant), for errors about the fields.
    pub fields_span: Span,
    pub attrs: VariantAttrs,
}

/// The variant-level `#[error_metadata(...)]` keys. Each `Option<Span>` is the key's span when given.
#[derive(Default)]
pub(crate) struct VariantAttrs {
    pub code: Option<syn::LitStr>,
    pub no_code: Option<Span>,
    pub status: Option<(u16, Span)>,
    pub retryable: Option<Span>,
    pub throttling: Option<Span>,
    pub transient: Option<Span>,
    pub transparent: Option<Span>,
    /// `codes = ["A", "B"]` on a catch-all variant (its code read from a field): codes it may
    /// carry that no variant models, for `#[waitable]`'s `errorType` check. With the key's span.
    pub codes: Option<(Vec<syn::LitStr>, Span)>,
}

impl VariantAttrs {
    /// Every key given except `transparent`, with its name (to say which conflicts).
    pub(crate) fn given(&self) -> Vec<(&'static str, Span)> {
        let mut given = Vec::new();
        if let Some(code) = &self.code {
            given.push(("code", code.span()));
        }
        let flags = [
            ("no_code", self.no_code),
            ("status", self.status.map(|(_, span)| span)),
            ("retryable", self.retryable),
            ("throttling", self.throttling),
            ("transient", self.transient),
            ("codes", self.codes.as_ref().map(|(_, span)| *span)),
        ];
        given.extend(
            flags
                .into_iter()
                .filter_map(|(name, span)| span.map(|span| (name, span))),
        );
        given
    }
}

/// A field and the roles its attributes give it (often none).
pub(crate) struct Field<'a> {
    pub member: syn::Member,
    pub ty: &'a syn::Type,
    pub roles: Vec<(Role, Span)>,
}

/// What a marked field provides.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Role {
    Code,
    Message,
    Status,
    RetryAfter,
}

impl Role {
    pub(crate) const ALL: [Role; 4] = [Role::Code, Role::Message, Role::Status, Role::RetryAfter];

    pub(crate) fn key(self) -> &'static str {
        match self {
            Role::Code => "code",
            Role::Message => "message",
            Role::Status => "status",
            Role::RetryAfter => "retry_after",
        }
    }
}

/// Whether `ty` names one of the item's type parameters (then a `transparent` field needs a bound).
pub(crate) fn mentions_any(ty: &syn::Type, params: &[&syn::Ident]) -> bool {
    fn walk(tokens: proc_macro2::TokenStream, params: &[&syn::Ident]) -> bool {
        tokens.into_iter().any(|tt| match tt {
            proc_macro2::TokenTree::Ident(ident) => params.iter().any(|p| **p == ident),
            proc_macro2::TokenTree::Group(group) => walk(group.stream(), params),
            _ => false,
        })
    }
    walk(quote::quote!(#ty), params)
}
