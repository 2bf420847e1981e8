//! What `#[derive(Searchable)]` publishes about a type for typed paths: a [`Desc`] of its wire
//! members, built to a depth ([`Depth`], [`Described`]), the fallback for types that publish
//! nothing ([`Probe`], [`Undescribed`]), and the members a path can name in a description.

use std::marker::PhantomData;

/// What a value is, as far as paths are concerned.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Not known at compile time: anything goes.
    Unknown,
    String,
    Number,
    Boolean,
    Object,
}

/// A layer around a member's innermost type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Wrap {
    Array,
    Map,
}

/// One member of a derived type, by its wire name.
#[derive(Clone, Copy, Debug)]
pub struct Member {
    pub name: &'static str,
    /// The name's hash (64-bit FNV-1a of the wire name): a lookup compares it, and the name only
    /// on a match. The runtime never computes it: `waiter-macros`' hash of a wire name writes it
    /// here (`#[derive(Searchable)]`) and beside a path's field ([`Op::Field`](super::Op), by
    /// `#[waitable]` and `jmespath!(Type, ..)`), one function for both sides, so there is no twin
    /// in this crate to keep equal (it could not share a home: the runtime depends on the
    /// macros). Were the two sides to disagree, every member would be missing and the typed-path
    /// tests (`typed_paths_that_are_valid_compile_and_run`) would stop compiling.
    pub hash: u64,
    /// The Rust field's name, for "Rust field `state` is `State` on the wire".
    pub rust: &'static str,
    pub wraps: &'static [Wrap],
    /// The innermost type's description.
    pub ty: &'static Desc,
}

/// A type's description.
#[derive(Clone, Copy, Debug)]
pub struct Desc {
    /// The Rust type's name, for messages.
    pub name: &'static str,
    pub kind: Kind,
    pub members: &'static [Member],
    /// The descriptions of `flatten`ed members: their members are this type's. One that is not
    /// a described object (a map, an unknown type) makes any name valid.
    pub flattened: &'static [&'static Desc],
    /// Whether members may exist that are not listed (an untagged variant): an unknown name is
    /// then not an error.
    pub open: bool,
}

impl Desc {
    pub const UNKNOWN: &'static Desc = &Desc::leaf("", Kind::Unknown);

    pub const fn leaf(name: &'static str, kind: Kind) -> Desc {
        Desc {
            name,
            kind,
            members: &[],
            flattened: &[],
            open: false,
        }
    }
}

/// A depth of description: [`Z`] (nothing known) or [`S`]`<N>` (one more level than `N`).
pub trait Depth {
    const ZERO: bool;
    type Pred: Depth;
}

/// Depth zero.
pub struct Z;

/// One level deeper than `N`.
pub struct S<N>(PhantomData<N>);

impl Depth for Z {
    const ZERO: bool = true;
    type Pred = Z;
}

impl<N: Depth> Depth for S<N> {
    const ZERO: bool = false;
    type Pred = N;
}

/// Implemented by `#[derive(Searchable)]` and by the standard leaf types, at every depth.
pub trait Described<N: Depth> {
    const DESC: &'static Desc;
}

/// `Probe::<T, N>::LINK` is `T`'s description at depth `N - 1` when `T` is described (unknown
/// at depth zero), else [`Desc::UNKNOWN`] (through [`Undescribed`], which must be in scope):
/// the inherent constant wins when its bound holds.
pub struct Probe<T: ?Sized, N>(PhantomData<N>, PhantomData<T>);

/// The fallback of [`Probe`].
pub trait Undescribed {
    const LINK: &'static Desc = Desc::UNKNOWN;
}

impl<T: ?Sized, N> Undescribed for Probe<T, N> {}

impl<T: ?Sized + Described<N::Pred>, N: Depth> Probe<T, N> {
    pub const LINK: &'static Desc = link::<T, N>();
}

// The description one level down is read in a second function: the constants a function
// names are evaluated when it is called, so depth zero stops the recursion here.
const fn link<T: ?Sized + Described<N::Pred>, N: Depth>() -> &'static Desc {
    if N::ZERO {
        Desc::UNKNOWN
    } else {
        described::<T, N::Pred>()
    }
}

const fn described<T: ?Sized + Described<M>, M: Depth>() -> &'static Desc {
    T::DESC
}

macro_rules! leaves {
    ($kind:ident: $($ty:ty),*) => {$(
        impl<N: Depth> Described<N> for $ty {
            const DESC: &'static Desc = &Desc::leaf(stringify!($ty), Kind::$kind);
        }
    )*};
}

leaves!(String: String, str, char, std::borrow::Cow<'_, str>);
leaves!(Number: u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64);
leaves!(Boolean: bool);

/// How many members a path can name in `desc`: its own and its `flatten`ed members'.
pub(super) const fn member_count(desc: &'static Desc) -> usize {
    let mut n = desc.members.len();
    let mut i = 0;
    while i < desc.flattened.len() {
        if matches!(desc.flattened[i].kind, Kind::Object) {
            n += member_count(desc.flattened[i]);
        }
        i += 1;
    }
    n
}

/// The `k`th of the [`member_count`] members of `desc`.
pub(super) const fn nth_member(desc: &'static Desc, k: usize) -> &'static Member {
    if k < desc.members.len() {
        return &desc.members[k];
    }
    let mut k = k - desc.members.len();
    let mut i = 0;
    loop {
        let flat = desc.flattened[i];
        if matches!(flat.kind, Kind::Object) {
            let n = member_count(flat);
            if k < n {
                return nth_member(flat, k);
            }
            k -= n;
        }
        i += 1;
    }
}
