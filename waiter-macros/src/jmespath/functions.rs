//! The built-in function table: parameter types, arity, result types.

use super::types::{ANY, ARR, BOOL, EXPREF, NULL, NUM, OBJ, STR, Ty};

/// One parameter: the accepted kinds, and for typed arrays the accepted element kinds.
#[derive(Clone, Copy)]
pub(crate) struct Param {
    pub kinds: u8,
    /// For `array[number]`-style parameters: the element kinds (`0`: any element).
    pub elem: u8,
    pub name: &'static str,
}

const fn p(kinds: u8, name: &'static str) -> Param {
    Param {
        kinds,
        elem: 0,
        name,
    }
}

const fn typed(elem: u8, name: &'static str) -> Param {
    Param {
        kinds: ARR,
        elem,
        name,
    }
}

const NUMBER: Param = p(NUM, "number");
const STRING: Param = p(STR, "string");
const ANY_P: Param = p(ANY, "any");
const ARRAY: Param = p(ARR, "array");
const OBJECT: Param = p(OBJ, "object");
const EXPR: Param = p(EXPREF, "expression reference (`&expr`)");
const ARRAY_NUMBER: Param = typed(NUM, "array[number]");
const SORTABLE: Param = typed(NUM | STR, "array[number] or array[string]");

pub(crate) struct Function {
    pub name: &'static str,
    pub params: &'static [Param],
    /// Type of further arguments, for variadic functions.
    pub variadic: Option<Param>,
    pub returns: Ty,
    /// Name of the runtime helper in `__private`.
    pub helper: &'static str,
}

macro_rules! f {
    ($name:literal, [$($p:expr),*], $var:expr, $ret:expr) => {
        Function {
            name: $name,
            params: &[$($p),*],
            variadic: $var,
            returns: $ret,
            helper: concat!("fn_", $name),
        }
    };
}

pub(crate) static FUNCTIONS: &[Function] = &[
    f!("abs", [NUMBER], None, Ty::of(NUM)),
    f!("avg", [ARRAY_NUMBER], None, Ty::of(NUM | NULL)),
    f!("ceil", [NUMBER], None, Ty::of(NUM)),
    f!(
        "contains",
        [p(ARR | STR, "array or string"), ANY_P],
        None,
        Ty::of(BOOL)
    ),
    f!("ends_with", [STRING, STRING], None, Ty::of(BOOL)),
    f!("floor", [NUMBER], None, Ty::of(NUM)),
    f!(
        "join",
        [STRING, typed(STR, "array[string]")],
        None,
        Ty::of(STR)
    ),
    f!("keys", [OBJECT], None, Ty::array(STR)),
    f!(
        "length",
        [p(STR | ARR | OBJ, "string, array or object")],
        None,
        Ty::of(NUM)
    ),
    f!("map", [EXPR, ARRAY], None, Ty::array(ANY)),
    f!("max", [SORTABLE], None, Ty::of(NUM | STR | NULL)),
    f!("max_by", [ARRAY, EXPR], None, Ty::ANY),
    f!("merge", [OBJECT], Some(OBJECT), Ty::of(OBJ)),
    f!("min", [SORTABLE], None, Ty::of(NUM | STR | NULL)),
    f!("min_by", [ARRAY, EXPR], None, Ty::ANY),
    f!("not_null", [ANY_P], Some(ANY_P), Ty::ANY),
    f!(
        "reverse",
        [p(ARR | STR, "array or string")],
        None,
        Ty::of(ARR | STR)
    ),
    f!("sort", [SORTABLE], None, Ty::of(ARR)),
    f!("sort_by", [ARRAY, EXPR], None, Ty::of(ARR)),
    f!("starts_with", [STRING, STRING], None, Ty::of(BOOL)),
    f!("sum", [ARRAY_NUMBER], None, Ty::of(NUM)),
    f!("to_array", [ANY_P], None, Ty::of(ARR)),
    f!("to_number", [ANY_P], None, Ty::of(NUM | NULL)),
    f!("to_string", [ANY_P], None, Ty::of(STR)),
    f!("type", [ANY_P], None, Ty::of(STR)),
    f!("values", [OBJECT], None, Ty::array(ANY)),
];

pub(crate) fn lookup(name: &str) -> Option<&'static Function> {
    FUNCTIONS.iter().find(|f| f.name == name)
}

/// The known function whose name is closest to `name`, for "did you mean" hints.
pub(crate) fn closest(name: &str) -> Option<&'static str> {
    crate::closest::closest(name, FUNCTIONS.iter().map(|f| f.name), 2)
}
