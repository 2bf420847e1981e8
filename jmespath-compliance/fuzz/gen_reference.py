#!/usr/bin/env python3
"""Random JMESPath expressions and documents, evaluated by the reference implementation
(jmespath.py 1.1.0), frozen for jmespath-compliance/tests/reference_random.rs.

Regenerate (from the repository root; needs `pip install jmespath==1.1.0`):

    python3 jmespath-compliance/fuzz/gen_reference.py
    REFERENCE_RANDOM_DUMP=/tmp/rejections.json cargo test -p jmespath-compliance --test reference_random
    python3 jmespath-compliance/fuzz/gen_reference.py --review /tmp/rejections.json
    cargo test -p jmespath-compliance --test reference_random

(the second and third steps refresh fuzz/static_rejections.json; see `review` below). To explore
beyond the checked-in set, set SEED, COUNT (random expressions) and DOCUMENTS in the environment,
run the test, and put everything back with the commands above.

It writes, deterministically (fixed seeds):
  - jmespath-compliance/tests/reference_random/exprs_NN.in: `&[(source, verdict!(source)), ...]`,
    the expressions compiled by `__jmespath_verdict!` (split in groups, one test target);
  - jmespath-compliance/tests/reference_random/fixture.json: the documents, and per expression
    the expected outcome: a compile-time rejection (`syntax` for ParseError/LexerError,
    `unknown-function`, `invalid-arity`), or per document the value or the runtime error kind
    (`invalid-type` for JMESPathTypeError, `invalid-value` for a slice step of 0).

Expected values are jmespath.py's, except where jmespath.py departs from the JMESPath
specification (https://jmespath.org/specification.html): there the expected value follows the
specification and the case records what jmespath.py gives and why it is not followed (`SPEC`
below lists the departures). A case is "known" when the corrected result differs from the raw
jmespath.py result on some document.

Static rejections that jmespath.py would evaluate (our documented stricter rules, the
`jmespath` module docs, "Stricter than JMESPath") are listed in jmespath-compliance/fuzz/static_rejections.json with
the rule that rejects them; the test fails on any other.
"""
import json
import math
import os
import random
import re
import sys

import jmespath
from jmespath import exceptions, functions, visitor
from jmespath.parser import Parser

assert jmespath.__version__ == "1.1.0", jmespath.__version__

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "tests", "reference_random")
SEED = int(os.environ.get("SEED", "20261123"))
RANDOM_COUNT = int(os.environ.get("COUNT", "2400"))
DOCUMENTS = int(os.environ.get("DOCUMENTS", "16"))
GROUP = 500

rng = random.Random(SEED)

# ------------------------------------------------------------------------------ vocabulary

PLAIN_KEYS = ["a", "b", "c", "foo", "bar"]
# (source in an expression, key in a document)
QUOTED_KEYS = [
    ('"a"', "a"),
    ('"with space"', "with space"),
    ('"\\u00e9t\\u00e9"', "\u00e9t\u00e9"),
    ('"\u00e9t\u00e9"', "\u00e9t\u00e9"),
    ('"\\"q\\""', '"q"'),
    ('"\U0001F600"', "\U0001F600"),
    ('"\\ud83d\\ude00"', "\U0001F600"),
    ('"a.b"', "a.b"),
    ('"1"', "1"),
    ('"\\\\"', "\\"),
    ('"tab\\t"', "tab\t"),
    ('"\\/"', "/"),
]
DOC_KEYS = PLAIN_KEYS * 3 + [k for _, k in QUOTED_KEYS if k != "a"]

FUNCS = {  # name: argument kinds ("e" expression, "&" expression reference, "*" variadic)
    "abs": "e", "avg": "e", "ceil": "e", "floor": "e", "contains": "ee",
    "ends_with": "ee", "starts_with": "ee", "join": "ee", "keys": "e",
    "values": "e", "length": "e", "map": "&e", "max": "e", "min": "e",
    "max_by": "e&", "min_by": "e&", "sort_by": "e&", "merge": "e*",
    "not_null": "e*", "reverse": "e", "sort": "e", "sum": "e", "to_array": "e",
    "to_string": "e", "to_number": "e", "type": "e",
}

JSON_LITERALS = [
    "1", "-1", "0", "2", "3", "1.0", "-0.0", "1e3", "1.5", "-2.5", "1E-2", "0.1",
    "9007199254740993", "-9223372036854775808", "18446744073709551615",
    "true", "false", "null",
    '"x"', '""', '"a"', '"foo"', '"\u00e9"', '"\\u00e9"', '"\\ud83d\\ude00"', '"a\\"b"',
    '"12"', '"-1.5"', '"1e3"', '" 12"', '"+1"', '"01"', '".5"', '"1."', '"1_0"',
    '"nan"', '"inf"', '"0x1F"',
    "[]", "{}", "[1, 2, 3]", "[3, 1, 2]", '["b", "a", "c"]', '[1, "a"]', "[1.5, -1, 0]",
    "[[1, 2], [3]]", '[{"a": 1}, {"a": 2}]', '{"a": 1, "b": [2]}', '{"b": 1, "a": {"c": null}}',
    "[null, true]", '["a", ["b"]]', "[-0.0, 0]", '"a`b"',
]
RAW_STRINGS = ["'x'", "''", "'a'", "'foo'", "'a\\'b'", "'\\\\'", "'\u00e9'", "'\\n'", "'12'",
               "'b'", "'a b'", "'\U0001F600'"]


def ident():
    if rng.random() < 0.82:
        return rng.choice(PLAIN_KEYS)
    return rng.choice(QUOTED_KEYS)[0]


def literal():
    r = rng.random()
    if r < 0.25:
        return rng.choice(RAW_STRINGS)
    v = rng.choice(JSON_LITERALS).replace("`", "\\`")
    if rng.random() < 0.15:
        v = " %s " % v  # whitespace inside backticks
    return "`%s`" % v


def number():
    return str(rng.choice([-3, -2, -1, 0, 0, 1, 1, 2, 3, 5]))


def bracket():
    r = rng.random()
    if r < 0.4:
        return "[%s]" % rng.choice(["0", "1", "-1", "2", "-2", "-0", "5"])
    parts = [rng.choice(["", "", number()]) for _ in range(2)]
    if rng.random() < 0.5:
        parts.append(rng.choice(["", "1", "-1", "2", "-2", "0", "3"]))
    return "[" + ":".join(parts) + "]"


def function(d):
    name = rng.choice(sorted(FUNCS))
    kinds = FUNCS[name]
    args = []
    for k in kinds:
        if k == "&":
            args.append("&" + expr(d))
        elif k == "*":
            args.extend(expr(d) for _ in range(rng.randint(0, 2)))
        else:
            args.append(expr(d))
    r = rng.random()
    if r < 0.04:
        args = args[:-1]  # arity
    elif r < 0.07:
        args.append(expr(d))
    elif r < 0.10 and "&" in kinds:
        args = [a[1:] if a.startswith("&") else "&" + a for a in args]  # wrong expref use
    elif r < 0.12:
        name = rng.choice(["lenght", "to_str", "foo", "sort_By"])  # unknown
    return "%s(%s)" % (name, ", ".join(args))


def expr(depth):
    if depth <= 0:
        return rng.choice([ident, ident, ident, ident, literal, literal, lambda: "@"])()
    r = rng.random()
    d = depth - 1
    if r < 0.12:
        return "%s.%s" % (expr(d), ident())
    if r < 0.19:
        return "%s%s" % (expr(d), bracket())
    if r < 0.25:
        return "%s[*].%s" % (expr(d), rng.choice([ident, lambda: expr(d)])())
    if r < 0.30:
        return "%s[]%s" % (expr(d), rng.choice(["", ".%s" % ident(), "[]", "[0]"]))
    if r < 0.34:
        return "%s.*%s" % (expr(d), rng.choice(["", ".%s" % ident(), "[0]"]))
    if r < 0.41:
        return "%s[?%s]%s" % (expr(d), expr(d), rng.choice(["", ".%s" % ident(), "[0]"]))
    if r < 0.45:
        return "[%s]" % ", ".join(expr(d) for _ in range(rng.randint(1, 3)))
    if r < 0.49:
        keys = rng.sample(PLAIN_KEYS + ['"k y"', '"\u00e9"'], rng.randint(1, 3))
        return "{%s}" % ", ".join("%s: %s" % (k, expr(d)) for k in keys)
    if r < 0.57:
        op = rng.choice(["==", "!=", "<", "<=", ">", ">="])
        return "%s %s %s" % (expr(d), op, expr(d))
    if r < 0.62:
        return "%s %s %s" % (expr(d), rng.choice(["||", "&&"]), expr(d))
    if r < 0.64:
        return "!%s" % expr(d)
    if r < 0.68:
        return "%s | %s" % (expr(d), expr(d))
    if r < 0.70:
        return "(%s)" % expr(d)
    if r < 0.72:
        return "%s.[%s]" % (expr(d), ", ".join(expr(d) for _ in range(rng.randint(1, 2))))
    if r < 0.74:
        return "%s.{x: %s, y: %s}" % (expr(d), expr(d), expr(d))
    if r < 0.76:
        return "*.%s" % ident()
    if r < 0.78:
        return "[*]%s" % rng.choice(["", ".%s" % ident(), "[0]"])
    return function(d)


# Targeted cases: every function with right and wrong argument types and arities.
ARG_SAMPLES = ["@", "a", "foo", "a[0]", "`1`", "`-1.5`", "`1e3`", "`-0.0`", "`1.0`",
               "`9007199254740993`", "`-9223372036854775808`", "`true`", "`null`", "'x'", "''",
               "'\u00e9\U0001F600'", "`[1.0, 2, -0.0]`", "`[0.1, 0.2]`", "'1e3'", "' 12'",
               "`[]`", "`[1, 2]`", '`["b", "a"]`', '`[1, "a"]`', "`{}`", '`{"a": 1}`', "&a", "&@"]


def targeted():
    out = []
    for name, kinds in sorted(FUNCS.items()):
        n = len(kinds.replace("*", ""))
        for arity in sorted({0, max(n - 1, 0), n, n + 1, n + 2}):
            for _ in range(6 if arity == n else 2):
                args = [rng.choice(ARG_SAMPLES) for _ in range(arity)]
                out.append("%s(%s)" % (name, ", ".join(args)))
        # each sample in each position, the others right
        for i, k in enumerate(kinds.replace("*", "e")):
            for s in ARG_SAMPLES:
                args = [("&a" if kk == "&" else "a") for kk in kinds.replace("*", "e")]
                args[i] = s
                out.append("%s(%s)" % (name, ", ".join(args)))
    for a in JSON_LITERALS:
        for b in ["`1`", "`1.0`", "`true`", "`null`", "'1'", "`[1]`", "`{\"a\": 1}`", "a", "'a'"]:
            op = rng.choice(["==", "!=", "<", "<=", ">", ">="])
            out.append("`%s` %s %s" % (a.replace("`", "\\`"), op, b))
    return out


def mutate(e):
    """A likely syntax error: a token dropped, doubled or replaced."""
    toks = re.findall(r"`[^`]*`|'[^']*'|\"[^\"]*\"|[A-Za-z_][A-Za-z0-9_]*|-?\d+|\[\]|\[\?|\|\||&&|[<>!=]=|.", e)
    toks = [t for t in toks if not t.isspace()]
    if not toks:
        return e
    i = rng.randrange(len(toks))
    r = rng.random()
    if r < 0.4:
        del toks[i]
    elif r < 0.6:
        toks.insert(i, toks[i])
    else:
        toks[i] = rng.choice(["[", "]", "{", "}", "(", ")", ".", ",", ":", "|", "&", "=", "-", "+",
                              "`", "'", "\"", "#", "1.5", "[?", "!", "<", "a b"])
    return " ".join(toks)


# Hand-picked: malformed expressions, and each departure of jmespath.py from the specification.
HAND = ["`[1]` == `[true]`", '`{"a": 0}` == `{"a": false}`', "a == `[1]`", "contains(`[1]`, `true`)",
        "contains('abc', `1`)", "to_number(' 12')", "to_number('1_0')", "to_number('nan')",
        "to_number('+1')", "to_number('01')", "'a' < 'b'", "`1` < 'a'", "a < b",
        'min_by(`[{"a": 1}, {"a": "x"}]`, &a)', 'max_by(`[{"a": "x"}, {"a": 1}]`, &a)',
        "merge(`{}`, `[1]`)", "merge(@, 'ab')", "to_array(&a)", "[&a]", "a[0][:].b",
        # numbers as text, and Unicode
        "to_string(sum(`[-0.0]`))", "to_string(ceil(`1e300`))", "to_string(floor(`-1.5`))",
        "to_string(abs(`-0.0`))", "to_string(avg(`[-0.0]`))", "to_string(max(`[1, 1.0]`))",
        "to_string(min(`[1.0, 1]`))", "to_string(sort(`[1.0, 1, -0.0, 0]`))",
        'to_string(sort_by(`[{"a": 1.0, "i": 0}, {"a": 1, "i": 1}]`, &a))',
        'max_by(`[{"a": 1, "i": 0}, {"a": 1.0, "i": 1}]`, &a).i',
        'min_by(`[{"a": 1, "i": 0}, {"a": 1.0, "i": 1}]`, &a).i',
        "to_string(`1e400`)", "to_string(`123456789012345678901234567890`)", "`1e400`",
        "to_string(to_number('1e3'))", "to_string(to_number('-0'))", "to_string(to_number('-0.0'))",
        "to_string(to_number('123456789012345678901234567890'))", "to_string(to_number('1.50'))",
        "to_string(`0.1` == `0.10`)", "length('\U0001F600\u00e9')", "reverse('a\U0001F600b')",
        "sort(['\U0001F600', '\uffff', 'z', 'Z', '\u00e9'])", "max(['\U0001F600', '\uffff'])",
        "to_string(`\"\\u0000\\u001f\\u007f\\u2028\"`)", "to_string('\u2028')",
        "join('\u00e9', ['a', 'b'])", "starts_with('\U0001F600x', '\U0001F600')",
        "to_string(`[]`)", "to_string(`{}`)", "to_string(`{\"a\": []}`)", "type(`1.0`)",
        "`1` == `1.0`", "`-0.0` == `0`", "`9007199254740993` == `9007199254740992`",
        "`18446744073709551615` > `18446744073709551614`", "`9007199254740993` > `9007199254740992.0`",
        "`9007199254740993` == `9007199254740992.0`", "`-9223372036854775808` < `18446744073709551615`",
        "sort(`[18446744073709551615, 18446744073709551614, 9007199254740993, 9007199254740992.0]`)",
        "max(`[18446744073709551614, 18446744073709551615]`)", "a[-1][::-1][0]", "{a: a b: b}", 'keys(`{"b": 1, "a": 2}`)', 'to_string(`{"b": [1.0], "a": "\u00e9"}`)', '""', "a.\"\"", "`foo`", "`[1,]`", "a[1.0]", "a[+1]", "a.1", "a[\"b\"]", "{}", "a.{}",
          "a.[]", "a..b", "a[", "a]", "[a,]", "{a: b,}", "{a}", "a[?]", "a[?b", "(a", "a)", "@@",
          "a.@", "a[:: ]", "a[:::]", "a[0:1:2:3]", "length(a,)", "length(,a)", "f(a)", "`\\`",
          "'abc", "\"abc", "a ! b", "a = b", "a === b", "!", "&&", "||a", "a||", "*.", ".a",
          "a.*.", "a[*", "a[-]", "a[-a]", "a.\"\\x\"", "a.\"\\u12\"", "a.\"\\ud800\"", "`\"\\ud800\"`",
          "&a", "a[?&b]", "[&a]", "{x: &a}", "a | &b", "length(&a)", "map(a, &b)", "`{\"a\":1,}`",
          "a.b c", "a b", "1", "-1", "a[01]", "a[-01]", "a[1:2 3]", "`1e`", "`--1`", "`01`",
          "'\\'", "a[0]b", "a.[b]c", "[a][b]", "{a: b}{c: d}", "a[9999999999]", "a[-2147483649]",
          "a[2147483647]", "a[-2147483648]", "a[::-2147483648]", "a[?a==b]", "a[?a=b]",
          "abs(\n1\n)", "a\t.\rb", "`  1  `", "` [1, 2] `", "'a\\\\'", "'\\\\'", "'a\\b'",
          "\"a\\\\b\"", "a.\"b\\\"c\"", "A1_x", "_a", "a-b", "$a", "a.`1`", "a.'x'", "a.(b)",
          "a[`0`]", "@.a", "@[0]", "@.*", "`null`.a", "'x'.a", "`[1]`.a", "`{\"a\": 2}`.a"]


# ------------------------------------------------------------------------------ documents

def scalar():
    return rng.choice([
        None, True, False, 0, 1, -1, 2, 3, 1.0, -0.0, 1e3, 1.5, -2.5, 0.1, 9007199254740993,
        -9223372036854775808, 18446744073709551615, "", "x", "a", "b", "foo", "\u00e9t\u00e9",
        "\U0001F600", "12", "-1.5", "1e3", " 12", "01", "nan", "a b", "A",
    ])


def value(depth):
    r = rng.random()
    if depth <= 0 or r < 0.35:
        return scalar()
    if r < 0.6:
        n = rng.choice([0, 1, 2, 3, 3, 4, 5])
        kind = rng.random()
        if kind < 0.25:  # homogeneous numbers or strings (sortable)
            pool = rng.choice([[0, 1, 2, 3, -1, 1.5, 1e3, -0.0], ["a", "b", "x", "", "foo", "\u00e9"]])
            return [rng.choice(pool) for _ in range(n)]
        if kind < 0.45:  # objects sharing keys (projections, filters, *_by)
            k = rng.choice(PLAIN_KEYS)
            return [{k: rng.choice([1, 2, 3, -1, 1.5, "a", "b"]),
                     rng.choice(PLAIN_KEYS): value(depth - 2)} for _ in range(n)]
        return [value(depth - 1) for _ in range(n)]
    n = rng.choice([0, 1, 2, 3, 4])
    return {rng.choice(DOC_KEYS): value(depth - 1) for _ in range(n)}


def document(i):
    if i == 0:
        return None
    if i == 1:
        return {}
    if i == 2:
        return [1, 2, 3, "a", None, [4, 5], {"a": 1}]
    if i == 3:
        return {"a": [[{"b": 1, "c": "x"}, {"b": 2.5}], [{"b": -1}]], "b": [[1, 2], [3], []],
                "c": {"a": {"b": "\u00e9"}, "foo": [{"a": 1}, {"a": "1"}]}, "foo": "bar",
                "bar": [{"a": 3, "b": "z"}, {"a": 1, "b": "y"}, {"a": 2, "b": "x"}]}
    keys = rng.sample(PLAIN_KEYS, rng.randint(3, 5))
    d = {k: value(3) for k in keys}
    if rng.random() < 0.6:
        d[rng.choice(DOC_KEYS)] = value(2)
    return d


# ------------------------------------------------------------------------------ reference

class Crash(Exception):
    """jmespath.py failed with a Python exception that is not a JMESPath error."""


def reference(expression, doc, interpreter_cls=visitor.TreeInterpreter):
    parser = SpecParser if interpreter_cls is SpecInterpreter else Parser
    parsed = parser()._do_parse(expression)  # not `parse`: its cache is shared by subclasses
    if parser is SpecParser and parsed.parsed != Parser()._do_parse(expression).parsed:
        USED.add("index_slice")
    interp = interpreter_cls()
    try:
        v = interp.visit(parsed.parsed, doc)
    except exceptions.JMESPathTypeError:
        return {"e": "invalid-type"}
    except (exceptions.UnknownFunctionError, exceptions.ArityError) as e:
        return {"e": "unknown-function" if isinstance(e, exceptions.UnknownFunctionError) else "invalid-arity"}
    except ValueError as e:
        if "slice step cannot be zero" in str(e):
            return {"e": "invalid-value"}
        return {"e": "crash: ValueError: %s" % e}
    except (TypeError, RecursionError, OverflowError) as e:
        return {"e": "crash: %s: %s" % (type(e).__name__, e)}
    if has_expref(v):
        return {"e": "crash: an expression reference as a value"}
    return {"v": v}


def has_expref(v):
    if isinstance(v, visitor._Expression):
        return True
    if isinstance(v, list):
        return any(has_expref(x) for x in v)
    if isinstance(v, dict):
        return any(has_expref(x) for x in v.values())
    return False


def json_safe(v):
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None
    if isinstance(v, list):
        return [json_safe(x) for x in v]
    if isinstance(v, dict):
        return {k: json_safe(x) for k, x in v.items()}
    return v


# ------------------------------------------------------------------------------ spec corrections
# Where jmespath.py 1.1.0 departs from the specification, the expected result follows the
# specification. Each departure has a name used as the reason of a known difference.

SPEC = {
    "ordering": "`<`, `<=`, `>`, `>=` order numbers only, anything else is null (spec, "
                "Comparison Operators); jmespath.py also orders strings, and raises a Python "
                "TypeError for a string against a number",
    "equality": "equality is by JSON type at every depth (spec: \"Two numbers are equal if they "
                "have the same value\", booleans are not numbers); jmespath.py lets Python's "
                "`1 == True` through inside arrays and objects (`[1] == [true]`)",
    "contains": "contains() compares with JMESPath equality: `contains([1], true)` is false, and "
                "a string subject with a non-string search is false; jmespath.py uses Python's "
                "`in` (true for 1/true, TypeError for a number in a string)",
    "to_number": "to_number() parses strings that conform to the json-number production (spec); "
                 "jmespath.py uses Python's int()/float(), which accept ' 12', '+1', '01', "
                 "'1_0', 'nan', 'inf'",
    "by_mixed": "min_by()/max_by() keys must all be numbers or all strings (spec: "
                "expression->number|string, and mixed types are not ordered): invalid-type; "
                "jmespath.py raises a Python TypeError",
    "merge_args": "merge() takes objects only, in every position (spec: merge(object "
                  "*argument)); jmespath.py checks the first argument's type only and then fails "
                  "with a Python TypeError or merges the pairs of an array",
    "lone_surrogate": "a string or identifier holding an unpaired UTF-16 surrogate (`\\ud800`) "
                      "is not Unicode text, so the expression is rejected (syntax); jmespath.py "
                      "carries the lone surrogate along",
    "expref_value": "an expression reference is only a function argument (it is not a JSON "
                    "value); jmespath.py returns its internal object",
    "index_slice": "a slice after an index (`a[0][:].b`) is a projection like any slice (grammar "
                   "and the projection rules); jmespath.py's parser appends it to the index "
                   "expression, so `.b` applies to the sliced array",
    "big_int": "numbers are 64-bit integers or doubles (as serde_json's): an integer literal "
               "beyond 64 bits, and ceil()/floor() of a double beyond 2^64, are doubles (the "
               "same number to JMESPath; to_string writes 1.2345678901234568e+29, 1e+300); "
               "jmespath.py keeps exact Python integers and writes all their digits",
    "literal_order": "the members of an object literal are held in code-point order (the order "
                     "of objects is not part of JMESPath: keys() \"implementations are not required "
                     "to return keys in any specific order\"); jmespath.py keeps the literal's order, "
                     "visible through keys(), values(), `*` and to_string()",
}


def json_type(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return "expref"


def spec_equal(x, y):
    tx, ty = json_type(x), json_type(y)
    if tx != ty:
        return False
    if tx == "array":
        return len(x) == len(y) and all(spec_equal(a, b) for a, b in zip(x, y))
    if tx == "object":
        return x.keys() == y.keys() and all(spec_equal(x[k], y[k]) for k in x)
    return x == y


JSON_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?\Z")

USED = set()  # the corrections that fired for the current evaluation


class SpecParser(Parser):
    """jmespath.py's parser without its shortcut for `x[0][:]`: it appends the slice to the
    index expression, so the slice does not project (`a[0][:].b` applies `.b` to the slice)."""

    def _token_led_lbracket(self, left):
        token = self._lookahead_token(0)
        if token["type"] in ["number", "colon"]:
            right = self._parse_index_expression()
            return self._project_if_slice(left, right)
        return super()._token_led_lbracket(left)


class SpecFunctions(functions.Functions):
    @functions.signature({"types": ["array", "string"]}, {"types": []})
    def _func_contains(self, subject, search):
        if isinstance(subject, str):
            r = isinstance(search, str) and search in subject
        else:
            r = any(spec_equal(x, search) for x in subject)
        try:
            raw = search in subject
        except TypeError:
            raw = None
        if raw != r:
            USED.add("contains")
        return r

    @functions.signature({"types": []})
    def _func_to_number(self, arg):
        if isinstance(arg, str):
            if JSON_NUMBER.match(arg):
                v = float(arg) if re.search(r"[.eE]", arg) else doubles(int(arg))
                if isinstance(v, float) and math.isinf(v):
                    v = None
            else:
                v = None
            raw = super()._func_to_number(arg)
            if json_safe(raw) != v or type(raw) != type(v):
                if not (raw == v and json_type(raw) == json_type(v)):
                    USED.add("to_number")
            return v
        return super()._func_to_number(arg)

    @functions.signature({"types": ["number"]})
    def _func_ceil(self, arg):
        return self._big(math.ceil(arg))

    @functions.signature({"types": ["number"]})
    def _func_floor(self, arg):
        return self._big(math.floor(arg))

    def _big(self, v):
        if abs(v) >= 2 ** 64:
            USED.add("big_int")
            return float(v)
        return v

    @functions.signature({"types": ["object"], "variadic": True})
    def _func_merge(self, *arguments):
        if any(not isinstance(a, dict) for a in arguments):
            USED.add("merge_args")
            raise exceptions.JMESPathTypeError("merge", arguments, "?", ["object"])
        return super()._func_merge(*arguments)

    def _by(self, array, expref, name, pick):
        if not array:
            return None
        keys = []
        for x in array:
            k = expref.visit(expref.expression, x)
            t = json_type(k)
            if t not in ("number", "string"):
                if len({t for _, t in keys}) > 1:
                    USED.add("by_mixed")  # jmespath.py compares as it goes: a TypeError first
                raise exceptions.JMESPathTypeError(name, k, t, ["number", "string"])
            keys.append((k, t))
        if len({t for _, t in keys}) > 1:
            USED.add("by_mixed")
            raise exceptions.JMESPathTypeError(name, keys[0][0], "mixed", ["number", "string"])
        best = 0
        for i, (k, _) in enumerate(keys):
            if pick(k, keys[best][0]):
                best = i
        return array[best]

    @functions.signature({"types": ["array"]}, {"types": ["expref"]})
    def _func_min_by(self, array, expref):
        return self._by(array, expref, "min_by", lambda a, b: a < b)

    @functions.signature({"types": ["array"]}, {"types": ["expref"]})
    def _func_max_by(self, array, expref):
        return self._by(array, expref, "max_by", lambda a, b: a > b)


def doubles(v):
    """Integers beyond 64 bits as doubles (SPEC["big_int"])."""
    if isinstance(v, int) and not isinstance(v, bool) and not -2 ** 63 <= v < 2 ** 64:
        USED.add("big_int")
        return float(v)
    if isinstance(v, list):
        return [doubles(x) for x in v]
    if isinstance(v, dict):
        return {k: doubles(x) for k, x in v.items()}
    return v


class SpecInterpreter(visitor.TreeInterpreter):
    def __init__(self):
        super().__init__(visitor.Options(custom_functions=SpecFunctions()))

    def visit_comparator(self, node, value):
        op = node["value"]
        left = self.visit(node["children"][0], value)
        right = self.visit(node["children"][1], value)
        if op in ("eq", "ne"):
            r = spec_equal(left, right)
            if r != visitor._equals(left, right):
                USED.add("equality")
            return r if op == "eq" else not r
        try:
            raw = visitor.TreeInterpreter.COMPARATOR_FUNC[op](left, right) \
                if visitor._is_comparable(left) and visitor._is_comparable(right) else None
        except TypeError:
            raw = "crash"
        if visitor._is_actual_number(left) and visitor._is_actual_number(right):
            return visitor.TreeInterpreter.COMPARATOR_FUNC[op](left, right)
        if raw is not None:
            USED.add("ordering")
        return None

    def visit_literal(self, node, value):
        v = node["value"]
        s = sorted_keys(doubles(v))
        if json.dumps(s) != json.dumps(v):
            USED.add("literal_order")
        return s


def static_problem(expression):
    """unknown-function / invalid-arity / syntax found without evaluating (jmespath.py finds the
    first two only when the call runs)."""
    try:
        parsed = Parser().parse(expression).parsed
    except exceptions.JMESPathError as e:
        if isinstance(e, (exceptions.ParseError, exceptions.EmptyExpressionError)):
            return ["syntax"]
        raise
    try:
        json.dumps(parsed, ensure_ascii=False, default=str).encode("utf-8")
    except UnicodeEncodeError:
        return ["syntax", "lone_surrogate"]
    kinds = []

    def walk(n, expref_ok=False):
        if not isinstance(n, dict):
            return
        if n.get("type") == "expref" and not expref_ok:
            kinds.append("invalid-type")
            kinds.append("expref_value")
        if n.get("type") == "function_expression":
            name = n["value"]
            spec = functions.Functions.FUNCTION_TABLE.get(name)
            if spec is None:
                kinds.append("unknown-function")
            else:
                sig = spec["signature"]
                nargs = len(n["children"])
                if sig and sig[-1].get("variadic"):
                    ok = nargs >= len(sig)
                else:
                    ok = nargs == len(sig)
                if not ok:
                    kinds.append("invalid-arity")
        if n.get("type") == "function_expression":
            spec = functions.Functions.FUNCTION_TABLE.get(n["value"])
            sig = spec["signature"] if spec else []
            for i, c in enumerate(n["children"]):
                types = sig[min(i, len(sig) - 1)]["types"] if sig else []
                walk(c, types == ["expref"])
            return
        for c in n.get("children", []):
            walk(c)

    walk(parsed)
    return kinds


def main():
    # Members in code-point order, as serde_json (without `preserve_order`) holds them: the order
    # of keys()/values() is the document's in both implementations.
    docs = [sorted_keys(document(i)) for i in range(DOCUMENTS)]
    exprs, seen = [], set()

    def add(e):
        if e not in seen and len(e) <= 160:
            seen.add(e)
            exprs.append(e)

    for e in HAND:
        add(e)
    for e in targeted():
        add(e)
    while len(exprs) < len(HAND) + RANDOM_COUNT + 900:
        e = expr(rng.randint(1, 4))
        add(mutate(e) if rng.random() < 0.07 else e)

    cases = []
    stats = {}
    for e in exprs:
        case = {"expression": e}
        kinds = static_problem(e)
        if kinds:
            known = sorted({k for k in kinds if k in SPEC})
            case["rejected"] = sorted({k for k in kinds if k not in SPEC})
            if known:
                case["known"] = known
            stats["rejected"] = stats.get("rejected", 0) + 1
        else:
            expected, raw_all, reasons = [], [], set()
            for d in docs:
                USED.clear()
                raw = reference(e, d)
                spec = reference(e, d, SpecInterpreter)
                if "e" in raw and raw["e"].startswith("crash: an expression reference"):
                    USED.add("expref_value")
                    spec = {"e": "invalid-type"}
                if raw != spec:
                    reasons |= USED
                    if not USED:
                        raise SystemExit("%r on %r: raw %r, spec %r without a reason" % (e, d, raw, spec))
                if "e" in spec and spec["e"].startswith("crash"):
                    raise SystemExit("%r on %r: uncorrected crash %r" % (e, d, spec))
                expected.append({"v": json_safe(spec["v"])} if "v" in spec else spec)
                raw_all.append({"v": json_safe(raw["v"])} if "v" in raw else raw)
            case["results"] = expected
            if expected != raw_all:
                case["jmespath_py"] = raw_all
                case["known"] = sorted(reasons)
                for r in reasons:
                    stats["known:" + r] = stats.get("known:" + r, 0) + 1
        cases.append(case)

    os.makedirs(OUT_DIR, exist_ok=True)
    for f in os.listdir(OUT_DIR):
        if f.startswith("exprs_") and f.endswith(".in"):
            os.remove(os.path.join(OUT_DIR, f))
    groups = [exprs[i:i + GROUP] for i in range(0, len(exprs), GROUP)]
    for gi, group in enumerate(groups):
        with open(os.path.join(OUT_DIR, "exprs_%02d.in" % gi), "w", encoding="utf-8") as f:
            f.write("// Generated by jmespath-compliance/fuzz/gen_reference.py: do not edit.\n&[\n")
            for e in group:
                lit = rust_str(e)
                f.write("    (%s, verdict!(%s)),\n" % (lit, lit))
            f.write("]\n")
    with open(os.path.join(OUT_DIR, "groups.in"), "w", encoding="utf-8") as f:
        f.write("// Generated by jmespath-compliance/fuzz/gen_reference.py: do not edit.\n&[\n")
        for gi in range(len(groups)):
            f.write('    include!("exprs_%02d.in"),\n' % gi)
        f.write("]\n")
    fixture = {
        "generator": "jmespath-compliance/fuzz/gen_reference.py (seed %d, jmespath.py %s)"
                     % (SEED, jmespath.__version__),
        "default_settings": not any(v in os.environ for v in ("SEED", "COUNT", "DOCUMENTS")),
        "spec_departures": SPEC,
        "documents": docs,
        "groups": len(groups),
        "cases": cases,
    }
    with open(os.path.join(OUT_DIR, "fixture.json"), "w", encoding="utf-8") as f:
        json.dump(fixture, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print("%d expressions x %d documents, %d groups; %s" % (len(exprs), len(docs), len(groups), stats),
          file=sys.stderr)


def sorted_keys(v):
    if isinstance(v, list):
        return [sorted_keys(x) for x in v]
    if isinstance(v, dict):
        return {k: sorted_keys(v[k]) for k in sorted(v)}
    return v


def rust_str(s):
    out = ['"']
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\u{%x}" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


# ------------------------------------------------------------------------------ review
# `gen_reference.py --review DUMP`: DUMP is written by the Rust test run with
# `REFERENCE_RANDOM_DUMP=DUMP`: our compile-time rejections of expressions that jmespath.py
# evaluates (or rejects with another kind). Each is classified under one of our documented rules
# (`jmespath` module docs, "Stricter than JMESPath"), or under a departure of jmespath.py's parser from the
# grammar; a rejection for a certain type error is checked against jmespath.py: it must never
# have run a call of that function successfully on any document. Anything else stops the review.
# The result is written to fuzz/static_rejections.json.

RULES = {
    "literal_field": "a field of a literal that is not an object: always null, a misplaced quote or "
                     "backtick (jmespath module docs, Stricter than JMESPath)",
    "certain_type_error": "an argument whose type can never be accepted: the call fails whenever it "
                          "runs, so the code around it is dead or wrong (jmespath module docs, Stricter than "
                          "JMESPath); jmespath.py fails only on the documents where the call runs",
    "index_range": "an index or slice bound outside the i64 range (jmespath module docs, Stricter than JMESPath)",
    "function_args": "function arguments are separated by exactly one comma (grammar: "
                     "function-arg *( \",\" function-arg )); jmespath.py's parser accepts a "
                     "trailing comma and missing commas",
    "hash_syntax": "the key-value pairs of a multi-select hash are separated by commas (grammar: "
                   "keyval-expr *( \",\" keyval-expr )); jmespath.py's parser accepts `{a: a b: b}`",
    "number_range": "a number literal beyond the range of a double (`1e400`) is rejected; "
                    "jmespath.py reads it as infinity, which is no JSON value",
    "legacy_literal": "a literal is `json-value` between backticks (grammar); jmespath.py reads "
                      "invalid JSON there as a string (a deprecated legacy form)",
    "slice_syntax": "slice = \"[\" [number] \":\" [number] [\":\" [number]] \"]\" (grammar); "
                    "jmespath.py's parser accepts extra numbers",
}


class Tracing(functions.Functions):
    CALLS = set()

    def call_function(self, name, args):
        r = super().call_function(name, args)
        Tracing.CALLS.add(name)
        return r


def review(dump_path):
    dump = json.load(open(dump_path, encoding="utf-8"))
    fixture = json.load(open(os.path.join(OUT_DIR, "fixture.json"), encoding="utf-8"))
    docs = fixture["documents"]
    listed_path = os.path.join(ROOT, "fuzz", "static_rejections.json")
    listed, bad = {}, []
    for e, msg in sorted(dump.items()):
        if re.search(r"field `.*` is read from an? [a-z]+ literal", msg):
            rule = "literal_field"
        elif "index or slice bound" in msg:
            rule = "index_range"
        elif "number out of range" in msg:
            rule = "number_range"
        elif "invalid JSON in literal" in msg:
            rule = "legacy_literal"
        elif re.search(r"argument \d+ of ([a-z_]+)\(\) must be", msg):
            rule = "certain_type_error"
            fname = re.search(r"argument \d+ of ([a-z_]+)\(\)", msg).group(1)
            Tracing.CALLS.clear()
            for d in docs:
                try:
                    visitor.TreeInterpreter(visitor.Options(custom_functions=Tracing())).visit(
                        Parser().parse(e).parsed, d)
                except Exception:
                    pass
            # jmespath.py type-checks only the first argument of merge() (SPEC["merge_args"]).
            later_merge_arg = fname == "merge" and not msg.startswith("argument 0 ")
            if fname in Tracing.CALLS and e.count(fname + "(") == 1 and not later_merge_arg:
                bad.append((e, msg, "jmespath.py ran %s() successfully" % fname))
                continue
        elif "expected an expression, found `)`" in msg or "expected `,` or `)`" in msg:
            rule = "function_args"
        elif "expected `,` or `}`" in msg:
            rule = "hash_syntax"
        elif "expected `:` or `]`" in msg:
            rule = "slice_syntax"
        else:
            bad.append((e, msg, "no rule"))
            continue
        listed[e] = rule
    with open(listed_path, "w", encoding="utf-8") as f:
        json.dump({"rules": RULES, "rejections": dict(sorted(listed.items()))}, f,
                  ensure_ascii=False, indent=1)
        f.write("\n")
    for e, msg, why in bad:
        print("NOT LISTED (%s): %s\n  %s" % (why, e, msg), file=sys.stderr)
    print("%d listed" % len(listed), file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--review":
        review(sys.argv[2])
    else:
        main()
