//! The JSON form of a `Serialize` value ([`Serialized`], `#[searchable(serde)]`
//! fields), converted with a bounded depth: `serde_json::to_value` recurses once per level of
//! the value, so deep data would overflow the stack.
//!
//! [`to_node`] serializes through [`Bounded`], a serializer adapter around `serde_json`'s value
//! serializer that counts two depths: the levels of arrays and objects (a container at
//! [`Node::MAX_DEPTH`] levels becomes `null` without its contents being serialized, as
//! [`Node::from_value`] makes it `null`), and every nested call (options and newtypes too, which
//! take stack but no level: past [`MAX_NESTING`] the value is `null`).

use serde::ser::{
    Serialize, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant, SerializeTuple,
    SerializeTupleStruct, SerializeTupleVariant, Serializer,
};
use serde_json::Value;

use super::view::{Node, Searchable};

/// The most nested serialize calls followed (levels, options and newtypes alike).
/// Makes any `T: serde::Serialize` searchable, for types that cannot derive [`Searchable`].
///
/// The value is converted to a `serde_json::Value` on every search (the one case where the whole
/// data is converted); prefer `#[derive(Searchable)]` on your own types. A value that fails to
/// serialize searches as `null`. The conversion stops at [`Node::MAX_DEPTH`] levels of arrays
/// and objects, as [`Node::from_value`] does (deeper parts are `null`, and are not serialized),
/// and at four times that many nested options and newtypes: deep data cannot overflow the stack.
///
/// ```
/// use waiter_runtime::jmespath;
/// use waiter_runtime::jmespath::Serialized;
///
/// #[derive(serde::Serialize)]
/// struct Foreign { state: &'static str }
///
/// let value = Foreign { state: "ready" };
/// let view = Serialized(&value);
/// let found = jmespath!("state").search(&view).unwrap();
/// assert_eq!(found.as_str(), Some("ready"));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Serialized<T>(pub T);

impl<T: serde::Serialize> Searchable for Serialized<T> {
    fn node(&self) -> Node<'_> {
        to_node(&self.0)
    }
}

pub(crate) const MAX_NESTING: usize = 4 * Node::MAX_DEPTH;

/// The JSON form of `value`, at most [`Node::MAX_DEPTH`] levels deep (deeper parts are `null`);
/// `null` when it fails to serialize.
pub(crate) fn to_node<T: Serialize + ?Sized>(value: &T) -> Node<'static> {
    Node::from_value(to_value(value))
}

fn to_value<T: Serialize + ?Sized>(value: &T) -> Value {
    Limited {
        value,
        depth: Depth::default(),
    }
    .serialize(serde_json::value::Serializer)
    .unwrap_or(Value::Null)
}

/// Where a value sits: its level of arrays and objects, and its nesting of serialize calls.
#[derive(Clone, Copy, Default)]
struct Depth {
    levels: usize,
    nesting: usize,
}

impl Depth {
    /// A member of a container at this depth.
    fn member(self) -> Depth {
        Depth {
            levels: self.levels + 1,
            nesting: self.nesting + 1,
        }
    }

    /// The content of an option or a newtype at this depth.
    fn wrapped(self) -> Depth {
        Depth {
            levels: self.levels,
            nesting: self.nesting + 1,
        }
    }
}

/// A value serialized through [`Bounded`] at `depth`.
struct Limited<'a, T: ?Sized> {
    value: &'a T,
    depth: Depth,
}

impl<T: Serialize + ?Sized> Serialize for Limited<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.depth.nesting >= MAX_NESTING {
            serializer.serialize_unit()
        } else {
            self.value.serialize(Bounded {
                inner: serializer,
                depth: self.depth,
            })
        }
    }
}

/// `inner` with the depth of the value it serializes.
struct Bounded<S> {
    inner: S,
    depth: Depth,
}

impl<S: Serializer> Bounded<S> {
    /// Whether a container here is too deep to be kept.
    fn too_deep(&self) -> bool {
        self.depth.levels >= Node::MAX_DEPTH
    }

    /// Opens a container with `open`, or cuts it (serialized as null) when it is too deep:
    /// every `serialize_seq`, `serialize_map`, `serialize_struct`... goes through here.
    fn open<C>(
        self,
        open: impl FnOnce(S) -> Result<C, S::Error>,
    ) -> Result<Compound<S, C>, S::Error> {
        if self.too_deep() {
            return Ok(Compound::Cut(self.inner));
        }
        Ok(Compound::Live {
            inner: open(self.inner)?,
            depth: self.depth,
        })
    }

    fn wrap<'a, T: ?Sized>(&self, value: &'a T) -> Limited<'a, T> {
        Limited {
            value,
            depth: self.depth.wrapped(),
        }
    }

    fn member<'a, T: ?Sized>(&self, value: &'a T) -> Limited<'a, T> {
        Limited {
            value,
            depth: self.depth.member(),
        }
    }
}

/// A container being serialized (`Live`), or one too deep, serialized as `null` (`Cut`, which
/// ignores its members).
enum Compound<S: Serializer, C> {
    Live { inner: C, depth: Depth },
    Cut(S),
}

impl<S: Serializer, C> Compound<S, C> {
    fn member<'a, T: ?Sized>(depth: Depth, value: &'a T) -> Limited<'a, T> {
        Limited {
            value,
            depth: depth.member(),
        }
    }
}

macro_rules! scalars {
    ($($method:ident($ty:ty);)*) => {
        $(fn $method(self, v: $ty) -> Result<S::Ok, S::Error> {
            self.inner.$method(v)
        })*
    };
}

impl<S: Serializer> Serializer for Bounded<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Compound<S, S::SerializeSeq>;
    type SerializeTuple = Compound<S, S::SerializeTuple>;
    type SerializeTupleStruct = Compound<S, S::SerializeTupleStruct>;
    type SerializeTupleVariant = Compound<S, S::SerializeTupleVariant>;
    type SerializeMap = Compound<S, S::SerializeMap>;
    type SerializeStruct = Compound<S, S::SerializeStruct>;
    type SerializeStructVariant = Compound<S, S::SerializeStructVariant>;

    scalars! {
        serialize_bool(bool);
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_i128(i128);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_u128(u128);
        serialize_f32(f32);
        serialize_f64(f64);
        serialize_char(char);
        serialize_str(&str);
        serialize_bytes(&[u8]);
    }

    fn serialize_none(self) -> Result<S::Ok, S::Error> {
        self.inner.serialize_none()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        let value = self.wrap(value);
        self.inner.serialize_some(&value)
    }

    fn serialize_unit(self) -> Result<S::Ok, S::Error> {
        self.inner.serialize_unit()
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<S::Ok, S::Error> {
        self.inner.serialize_unit_struct(name)
    }

    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        self.inner.serialize_unit_variant(name, index, variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        let value = self.wrap(value);
        self.inner.serialize_newtype_struct(name, &value)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        // `{"variant": value}`: an object.
        if self.too_deep() {
            return self.inner.serialize_unit();
        }
        let value = self.member(value);
        self.inner
            .serialize_newtype_variant(name, index, variant, &value)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        self.open(|s| s.serialize_seq(len))
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.open(|s| s.serialize_tuple(len))
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.open(|s| s.serialize_tuple_struct(name, len))
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        self.open(|s| s.serialize_tuple_variant(name, index, variant, len))
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.open(|s| s.serialize_map(len))
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        self.open(|s| s.serialize_struct(name, len))
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.open(|s| s.serialize_struct_variant(name, index, variant, len))
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// The members of a compound: forwarded at the next level while it is live, ignored once cut;
/// `end` is the compound's, or `null`.
macro_rules! compound {
    ($trait:ident, $($method:ident($($arg:ident: $ty:ty),*)),*) => {
        impl<S: Serializer, C: $trait<Ok = S::Ok, Error = S::Error>> $trait for Compound<S, C> {
            type Ok = S::Ok;
            type Error = S::Error;

            $(fn $method<T: Serialize + ?Sized>(&mut self, $($arg: $ty,)* value: &T) -> Result<(), S::Error> {
                match self {
                    Compound::Live { inner, depth } => {
                        inner.$method($($arg,)* &Self::member(*depth, value))
                    }
                    Compound::Cut(_) => Ok(()),
                }
            })*

            fn end(self) -> Result<S::Ok, S::Error> {
                match self {
                    Compound::Live { inner, .. } => inner.end(),
                    Compound::Cut(serializer) => serializer.serialize_unit(),
                }
            }
        }
    };
}

compound!(SerializeSeq, serialize_element());
compound!(SerializeTuple, serialize_element());
compound!(SerializeTupleStruct, serialize_field());
compound!(SerializeTupleVariant, serialize_field());
compound!(SerializeMap, serialize_key(), serialize_value());
compound!(SerializeStruct, serialize_field(key: &'static str));
compound!(SerializeStructVariant, serialize_field(key: &'static str));

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn nested(levels: usize) -> Value {
        let mut v = json!(1);
        for _ in 0..levels {
            v = Value::Array(vec![v]);
        }
        v
    }

    #[test]
    fn shallow_values_convert_as_serde_json_does() {
        let v = json!({"a": [1, {"b": null, "c": "x"}], "d": true, "e": 1.5});
        assert_eq!(to_value(&v), v);
        assert_eq!(to_value(&Some(vec![(1, "a")])), json!([[1, "a"]]));
    }

    #[test]
    fn containers_deeper_than_max_depth_are_null_as_from_value_makes_them() {
        let v = nested(Node::MAX_DEPTH + 10);
        assert_eq!(
            to_node(&v).to_value(),
            Node::from_value(v.clone()).to_value(),
            "the same cut as `Node::from_value`"
        );
        let mut cut = to_value(&v);
        let mut levels = 0;
        while let Value::Array(mut a) = cut {
            levels += 1;
            cut = a.pop().unwrap();
        }
        assert_eq!((levels, cut), (Node::MAX_DEPTH, Value::Null));
    }

    /// Newtypes around newtypes: no level of arrays, one serialize call each; 7 at the bottom.
    struct Wrap(Option<Box<Wrap>>);

    impl Serialize for Wrap {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            match &self.0 {
                Some(inner) => serializer.serialize_newtype_struct("Wrap", inner),
                None => serializer.serialize_u8(7),
            }
        }
    }

    fn wraps(n: usize) -> Wrap {
        let mut w = Wrap(None);
        for _ in 0..n {
            w = Wrap(Some(Box::new(w)));
        }
        w
    }

    fn unwrap_all(mut w: Wrap) {
        while let Some(next) = w.0.take() {
            w = *next;
        }
    }

    #[test]
    fn nesting_without_levels_is_bounded_too() {
        let shallow = wraps(MAX_NESTING - 1);
        assert_eq!(to_value(&shallow), json!(7));
        unwrap_all(shallow);
        let deep = wraps(MAX_NESTING);
        assert_eq!(to_value(&deep), Value::Null);
        unwrap_all(deep);
    }
}
