//! What the two sides of a typed path agree on about a type: `#[derive(Searchable)]` publishes a
//! description of each member (its wire name's hash, the wrappers around its innermost type) and
//! a typed path's check reads the root type the same way (its wrappers) and looks fields up by
//! the same hash. One home for both, so that they cannot drift apart. The runtime only compares
//! (`waiter_runtime::__private_v0_1::typed`): it computes no hash of its own.

use syn::{GenericArgument, PathArguments, Type};

/// A wire name's hash (64-bit FNV-1a), stored beside a member and beside a path's field: lookups
/// compare it before the name.
pub(crate) fn hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// `Array` or `Map` layers around the innermost type, outermost first.
pub(crate) fn unwrap(ty: &Type) -> (Vec<&'static str>, Type) {
    let mut wraps = Vec::new();
    let mut ty = ty.clone();
    loop {
        let next = match &ty {
            Type::Reference(r) => Some((*r.elem).clone()),
            Type::Paren(p) => Some((*p.elem).clone()),
            Type::Group(g) => Some((*g.elem).clone()),
            Type::Slice(s) => {
                wraps.push("Array");
                Some((*s.elem).clone())
            }
            Type::Array(a) => {
                wraps.push("Array");
                Some((*a.elem).clone())
            }
            Type::Path(p) if p.qself.is_none() => {
                let last = p.path.segments.last().expect("a path has a segment");
                let args: Vec<Type> = match &last.arguments {
                    PathArguments::AngleBracketed(a) => a
                        .args
                        .iter()
                        .filter_map(|a| match a {
                            GenericArgument::Type(t) => Some(t.clone()),
                            _ => None,
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                match (last.ident.to_string().as_str(), args.as_slice()) {
                    ("Option" | "Box" | "Rc" | "Arc", [inner]) => Some(inner.clone()),
                    (
                        "Vec" | "VecDeque" | "LinkedList" | "BTreeSet" | "HashSet" | "IndexSet",
                        [inner, ..],
                    ) => {
                        wraps.push("Array");
                        Some(inner.clone())
                    }
                    ("HashMap" | "BTreeMap" | "IndexMap", [_, value, ..]) => {
                        wraps.push("Map");
                        Some(value.clone())
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        match next {
            Some(inner) => ty = inner,
            None => return (wraps, ty),
        }
    }
}
