//! Static types of JMESPath expressions, inferred at macro time (Smithy's validator style).
//!
//! A [`Ty`] is the set of JMESPath types an expression may evaluate to. The waitable macro sees
//! the simplified [`StaticType`].

use super::ast::Literal;

pub(crate) const NULL: u8 = 1;
pub(crate) const BOOL: u8 = 2;
pub(crate) const NUM: u8 = 4;
pub(crate) const STR: u8 = 8;
pub(crate) const ARR: u8 = 16;
pub(crate) const OBJ: u8 = 32;
pub(crate) const EXPREF: u8 = 64;
/// Every JSON type (an expression reference is never data).
pub(crate) const ANY: u8 = NULL | BOOL | NUM | STR | ARR | OBJ;

/// The set of types an expression may evaluate to, with the element types of arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Ty {
    pub kinds: u8,
    /// Possible element types when `kinds` includes arrays (`0` for "no element").
    pub elem: u8,
}

impl Ty {
    pub const ANY: Ty = Ty {
        kinds: ANY,
        elem: ANY,
    };

    pub const fn of(kinds: u8) -> Ty {
        Ty { kinds, elem: ANY }
    }

    pub const fn array(elem: u8) -> Ty {
        Ty { kinds: ARR, elem }
    }

    pub fn union(self, other: Ty) -> Ty {
        Ty {
            kinds: self.kinds | other.kinds,
            elem: self.elem | other.elem,
        }
    }

    pub fn may(self, kinds: u8) -> bool {
        self.kinds & kinds != 0
    }

    pub fn literal(value: &Literal) -> Ty {
        match value {
            Literal::Null => Ty::of(NULL),
            Literal::Bool(_) => Ty::of(BOOL),
            Literal::Number(_) => Ty::of(NUM),
            Literal::String(_) => Ty::of(STR),
            Literal::Array(items) => {
                Ty::array(items.iter().fold(0, |acc, v| acc | Ty::literal(v).kinds))
            }
            Literal::Object(_) => Ty::of(OBJ),
        }
    }

    /// The simplified type seen by callers: one kind when only one (besides `null`) is possible.
    pub fn to_static(self) -> StaticType {
        let non_null = self.kinds & !NULL;
        match non_null {
            0 => StaticType::Null,
            BOOL => StaticType::Boolean,
            NUM => StaticType::Number,
            STR => StaticType::String,
            ARR => StaticType::Array(Box::new(Ty::of(self.elem).to_static())),
            OBJ => StaticType::Object,
            _ => StaticType::Any,
        }
    }
}

/// Names the kinds of a set, `string|number`.
pub(crate) fn describe(kinds: u8) -> String {
    let names = [
        (NULL, "null"),
        (BOOL, "boolean"),
        (NUM, "number"),
        (STR, "string"),
        (ARR, "array"),
        (OBJ, "object"),
        (EXPREF, "expression reference"),
    ];
    let parts: Vec<&str> = names
        .iter()
        .filter(|(k, _)| kinds & k != 0)
        .map(|(_, n)| *n)
        .collect();
    if parts.is_empty() {
        "nothing".to_owned()
    } else {
        parts.join(" or ")
    }
}

/// The statically inferred result type of an expression, as the waitable macro uses it.
///
/// `Null` means "always null"; a known kind means "that kind or null"; `Any` means unknown
/// (a field of the input, for example).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum StaticType {
    Boolean,
    Number,
    String,
    Array(Box<StaticType>),
    Object,
    Null,
    Any,
}

impl StaticType {
    /// The JMESPath name of the type (`boolean`, `array`...; `any` when unknown).
    pub(crate) fn name(&self) -> &'static str {
        match self {
            StaticType::Boolean => "boolean",
            StaticType::Number => "number",
            StaticType::String => "string",
            StaticType::Array(_) => "array",
            StaticType::Object => "object",
            StaticType::Null => "null",
            StaticType::Any => "any",
        }
    }
}
