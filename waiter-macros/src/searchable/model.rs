//! The internal model of the annotated type.

use syn::{Ident, Path};

pub(crate) enum Shape {
    /// Struct with named fields: an object.
    Object(Vec<Field>),
    /// `struct Id(String)`: the inner value.
    Newtype(Field),
    /// Tuple struct with several fields: an array.
    Tuple(Vec<Field>),
    /// Unit struct: null.
    Unit,
    Enum(Vec<Variant>),
}

pub(crate) struct Field {
    /// `self.<member>`: a name or a tuple index.
    pub member: syn::Member,
    /// The field's type (statically resolved member chains recurse into it).
    pub ty: Box<syn::Type>,
    pub wire: String,
    pub how: How,
    pub flatten: bool,
}

pub(crate) enum How {
    Node,
    Blob,
    Timestamp,
    Serde,
    With(Path),
}

pub(crate) struct Variant {
    pub ident: Ident,
    pub wire: String,
    pub untagged: bool,
    pub fields: VariantFields,
}

pub(crate) enum VariantFields {
    Unit,
    Newtype(Field),
    Tuple(Vec<Field>),
    Named(Vec<Field>),
}
