#!/usr/bin/env python3
"""Generator of the `aws-waiters` test crate: every AWS waiter botocore ships, converted to the
Smithy `@waitable` form, pasted on typed outputs generated from the service models, and checked
against botocore's own matchers as oracle.

Run from anywhere (needs the `botocore` and `jmespath` Python packages; botocore 1.43 wrote the
checked-in files):

    python3 tests/aws-waiters/gen.py

It reads, for each service in botocore's `data/` directory, the NEWEST API version only
(`data/<service>/<version>/{service-2.json.gz,waiters-2.json}`) and writes:

- `tests/oracle/<service>.rs`: per service, written once for both type variants: a `Client`
  whose operation methods carry the converted waiters in `#[waitable(...)]` (JSON AST), and
  `poll()`, which runs one waiter for one poll against a canned answer. Its `shapes` module is
  one of the two files below, chosen by `#[cfg]`.
- `tests/oracle/shapes/<service>.rs`: the output shape trees of the waited operations, PRUNED
  to the members the service's waiter paths name (and the required ones), about 500 types;
  what `cargo test` compiles. In it an enum is a Rust enum as the AWS SDK for Rust has it (a
  unit variant per value, serde-renamed, and an untagged `Unknown(String)`), so both string
  leaves are covered. Pruning keeps the check honest: a path naming a member the model lacks
  still fails, since only model members are generated.
- `tests/oracle/full/<service>.rs`: every member of every shape (structure -> `#[derive(Searchable,
  Deserialize)]` struct with a serde rename per member, list -> `Vec`, map -> `BTreeMap<String, _>`,
  string/enum/timestamp/blob -> `String`, integer/long -> `i64`, float/double -> `f64`,
  boolean -> `bool`, document -> `serde_json::Value`, members not `required` -> `Option`,
  recursion -> `Box`): about 1,800 structs, five times the compile time of the pruned variant,
  so compiled only with `RUSTFLAGS='--cfg aws_waiters_full'`.
- `tests/oracle/main.rs`: the modules and the dispatch from (service, waiter) to `poll()`.
- `fixtures/oracle.json`: per waiter, sample answers (documents generated from the output shape
  with the acceptors' expected values, empty lists, missing members and mixed states, plus the
  errors the acceptors name and one they do not) and what botocore's matchers
  (`botocore.waiter.SingleWaiterConfig` / `AcceptorConfig`) say about each: the first acceptor
  that matches (as an index into the CONVERTED acceptor list) and the state.
- `CONVERSION.md`: the numbers, the acceptors that have no Smithy form, the waiters left out.

Conversion (what Smithy's AWS models do):

- `path` -> `output` + `stringEquals` (string `expected`) or `booleanEquals` (boolean);
  a numeric `expected` becomes `booleanEquals` "true" on the path `(<path>) == \\`<n>\\``.
- `pathAll` -> `allStringEquals`, `pathAny` -> `anyStringEquals`.
- `error` -> `errorType`; botocore's `"expected": false` ("no error") -> `success: true` and
  `"expected": true` ("any error") -> `success: false` (botocore/waiter.py `_create_error_matcher`).
- `status` 200 -> `success: true` (a successful botocore response is an HTTP 200; the Smithy
  AWS models write `success: true`, e.g. EC2 `VpcExists`). Any other status has no Smithy form
  (which error code an HTTP status becomes depends on the protocol): the acceptor is dropped
  and listed in CONVERSION.md; a waiter left without a success acceptor (the spec requires one)
  is left out and listed.
- `description` -> `documentation`; `delay` -> `minDelay` (and `maxDelay` = `delay` when it is
  above Smithy's default 120); `maxAttempts` has no Smithy form (the caller gives the maximum
  wait).

The oracle gives botocore a successful answer as the document plus
`ResponseMetadata.HTTPStatusCode = 200`, and an error as `{"Error": {"Code": ..}}` with status
400 (so a dropped status acceptor never matches in the oracle either).
"""

import gzip
import json
import os
import random
import re
import subprocess
import sys

import botocore
import jmespath
import jmespath.exceptions
from botocore.waiter import SingleWaiterConfig

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(botocore.__file__), "data")
DOCS_PER_WAITER = 12
TARGETED = 60

# Waiters whose published paths name members the service model does not have: a compile error
# by design (the checker is right). service -> waiter -> why.
BROKEN = {}

RUST_KEYWORDS = set(
    """as break const continue crate else enum extern false fn for if impl in let loop match mod
    move mut pub ref return self Self static struct super trait true type unsafe use where while
    async await dyn abstract become box do final macro override priv typeof unsized virtual yield
    try gen""".split()
)


def newest_versions():
    for service in sorted(os.listdir(DATA)):
        sdir = os.path.join(DATA, service)
        if not os.path.isdir(sdir):
            continue
        versions = sorted(v for v in os.listdir(sdir) if os.path.isdir(os.path.join(sdir, v)))
        if not versions:
            continue
        vdir = os.path.join(sdir, versions[-1])
        wpath = os.path.join(vdir, "waiters-2.json")
        if not os.path.exists(wpath):
            continue
        with gzip.open(os.path.join(vdir, "service-2.json.gz"), "rt") as f:
            model = json.load(f)
        with open(wpath) as f:
            waiters = json.load(f)["waiters"]
        yield service, versions[-1], model, waiters


def snake(name):
    s = re.sub(r"[^0-9A-Za-z]+", "_", name)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s)
    s = s.strip("_").lower() or "field"
    if s[0].isdigit():
        s = "n" + s
    if s in ("self", "super", "crate", "extern"):
        return s + "_"
    if s in RUST_KEYWORDS:
        return "r#" + s
    return s


def camel(name):
    parts = re.split(r"[^0-9A-Za-z]+", name)
    s = "".join(p[:1].upper() + p[1:] for p in parts if p)
    if not s or s[0].isdigit():
        s = "S" + s
    return s


def rust_str(s):
    return json.dumps(s)


# --------------------------------------------------------------------------------------------
# Conversion
# --------------------------------------------------------------------------------------------


def convert(waiter):
    """The Smithy form of a botocore waiter: (smithy dict, index map original -> converted or
    None, notes)."""
    acceptors = []
    index = []
    notes = []
    for a in waiter["acceptors"]:
        m, exp, state = a["matcher"], a["expected"], a["state"]
        matcher = None
        if m in ("path", "pathAll", "pathAny"):
            path = a["argument"]
            if m == "path":
                if isinstance(exp, bool):
                    cmp, e = "booleanEquals", "true" if exp else "false"
                elif isinstance(exp, (int, float)):
                    path, cmp, e = f"({path}) == `{json.dumps(exp)}`", "booleanEquals", "true"
                else:
                    cmp, e = "stringEquals", exp
            else:
                if not isinstance(exp, str):
                    raise SystemExit(f"{m} with a non-string expected: {a}")
                cmp, e = ("allStringEquals" if m == "pathAll" else "anyStringEquals"), exp
            matcher = {"output": {"path": path, "expected": e, "comparator": cmp}}
        elif m == "error":
            if exp is True:
                matcher = {"success": False}
            elif exp is False:
                matcher = {"success": True}
            else:
                matcher = {"errorType": exp}
        elif m == "status":
            if exp == 200:
                matcher = {"success": True}
                notes.append(f"`{state}` on HTTP status 200: `success: true`")
            else:
                notes.append(f"`{state}` on HTTP status {exp}: dropped (no Smithy form)")
        elif m == "error" and isinstance(exp, bool):
            notes.append(f"`{state}` on `error` expected {str(exp).lower()}: `success: {str(not exp).lower()}`")
        else:
            raise SystemExit(f"unknown matcher {m}")
        if matcher is None:
            index.append(None)
        else:
            index.append(len(acceptors))
            acceptors.append({"state": state, "matcher": matcher})
    smithy = {"acceptors": acceptors, "minDelay": waiter["delay"]}
    if waiter.get("description"):
        smithy["documentation"] = waiter["description"]
    if waiter["delay"] > 120:
        smithy["maxDelay"] = waiter["delay"]
    return smithy, index, notes


# --------------------------------------------------------------------------------------------
# Rust types from the service model
# --------------------------------------------------------------------------------------------


class Types:
    """The Rust types of one service's output shapes."""

    def __init__(self, model, keep=None):
        self.shapes = model["shapes"]
        # The member names to generate (with the required ones), or None for all.
        self.keep = keep
        self.names = {}  # shape name -> rust type name
        self.used = set()
        self.order = []  # structure shapes to emit, in discovery order

    def struct_name(self, shape):
        if shape not in self.names:
            base = camel(shape)
            name, n = base, 2
            while name in self.used:
                name, n = f"{base}{n}", n + 1
            self.used.add(name)
            self.names[shape] = name
            self.order.append(shape)
        return self.names[shape]

    def members(self, shape):
        s = self.shapes[shape]
        required = set(s.get("required", []))
        return {
            k: m
            for k, m in s.get("members", {}).items()
            if self.keep is None or k in self.keep or (k in required and not s.get("union"))
        }

    def direct_targets(self, shape):
        """Structures held directly (not through a list or map) by a structure."""
        return [m["shape"] for m in self.members(shape).values() if self.shapes[m["shape"]]["type"] == "structure"]

    def reaches(self, start, goal):
        seen, stack = set(), [start]
        while stack:
            x = stack.pop()
            if x == goal:
                return True
            if x in seen:
                continue
            seen.add(x)
            stack.extend(self.direct_targets(x))
        return False

    def rust(self, shape):
        s = self.shapes[shape]
        t = s["type"]
        if t == "structure":
            if s.get("document"):
                return "::serde_json::Value"
            return self.struct_name(shape)
        if t == "list":
            return f"::std::vec::Vec<{self.rust(s['member']['shape'])}>"
        if t == "map":
            return f"::std::collections::BTreeMap<::std::string::String, {self.rust(s['value']['shape'])}>"
        if t == "string" and "enum" in s and self.keep is not None:
            return self.struct_name(shape)
        if t in ("string", "timestamp", "blob"):
            return "::std::string::String"
        if t in ("integer", "long", "short", "byte", "bigInteger"):
            return "i64"
        if t in ("float", "double", "bigDecimal"):
            return "f64"
        if t == "boolean":
            return "bool"
        raise SystemExit(f"unknown shape type {t} ({shape})")

    def emit_enum(self, out, shape, name, values):
        """A Smithy enum as an AWS SDK for Rust has it: a unit variant per value, and the values
        this client does not know as a string (an untagged variant)."""
        out.append(f"    /// `{shape}` (an enum).")
        out.append("    #[derive(::waiter_runtime::Searchable, ::serde::Deserialize)]")
        out.append(f"    pub enum {name} {{")
        variants = {"Unknown"}
        for v in values:
            variant = camel(v)
            base, n = variant, 2
            while variant in variants or variant == "Self":
                variant, n = f"{base}{n}", n + 1
            variants.add(variant)
            out.append(f"        #[serde(rename = {rust_str(v)})]")
            out.append(f"        {variant},")
        out.append("        /// A value this client does not know.")
        out.append("        #[serde(untagged)]")
        out.append("        Unknown(::std::string::String),")
        out.append("    }")

    def emit(self, out):
        i = 0
        while i < len(self.order):
            shape = self.order[i]
            i += 1
            s = self.shapes[shape]
            name = self.names[shape]
            if s["type"] == "string":
                self.emit_enum(out, shape, name, s["enum"])
                continue
            required = set(s.get("required", []))
            out.append(f"    /// `{shape}`{' (a union)' if s.get('union') else ''}.")
            out.append("    #[derive(::waiter_runtime::Searchable, ::serde::Deserialize)]")
            out.append(f"    pub struct {name} {{")
            fields = set()
            for member, m in self.members(shape).items():
                ty = self.rust(m["shape"])
                if self.shapes[m["shape"]]["type"] == "structure" and self.reaches(m["shape"], shape):
                    ty = f"::std::boxed::Box<{ty}>"
                if member not in required or s.get("union"):
                    ty = f"::std::option::Option<{ty}>"
                field = snake(member)
                base, n = field, 2
                while field in fields:
                    field, n = f"{base}_{n}", n + 1
                fields.add(field)
                out.append(f"        #[serde(rename = {rust_str(member)})]")
                out.append(f"        pub {field}: {ty},")
            out.append("    }")


# --------------------------------------------------------------------------------------------
# Documents for the oracle
# --------------------------------------------------------------------------------------------


def path_words(expr):
    """Field names and string literals of a JMESPath expression."""
    fields, literals = set(), set()

    def walk(node):
        if node["type"] == "field":
            fields.add(node["value"])
        if node["type"] == "literal" and isinstance(node["value"], str):
            literals.add(node["value"])
        for c in node.get("children", []):
            if isinstance(c, dict):
                walk(c)

    walk(jmespath.compile(expr).parsed)
    return fields, literals


class DocGen:
    def __init__(self, shapes, fields, strings, rng):
        self.shapes = shapes
        self.fields = fields
        self.strings = sorted(strings)
        self.rng = rng
        self.favored = None
        self.force = False

    def value(self, shape, depth, wanted):
        s = self.shapes[shape]
        t = s["type"]
        r = self.rng
        if t == "structure":
            if s.get("document"):
                return {}
            out = {}
            required = set(s.get("required", []))
            members = s.get("members", {})
            if s.get("union"):
                names = [k for k in members if k in self.fields]
                if names and wanted and depth < 8:
                    k = r.choice(names)
                    out[k] = self.value(members[k]["shape"], depth + 1, True)
                return out
            for k, m in members.items():
                on_path = k in self.fields and wanted and depth < 8
                if on_path and (self.force or r.random() < 0.85):
                    out[k] = self.value(m["shape"], depth + 1, True)
                elif k in required:
                    out[k] = self.value(m["shape"], depth + 1, on_path)
            return out
        if t == "list":
            n = r.choice([1, 1, 2] if self.force else [0, 1, 1, 2, 2, 3]) if wanted and depth < 8 else 0
            return [self.value(s["member"]["shape"], depth + 1, wanted) for _ in range(n)]
        if t == "map":
            n = r.choice([0, 1, 2]) if wanted and depth < 8 else 0
            keys = sorted(self.fields) + ["k1", "k2"]
            return {r.choice(keys): self.value(s["value"]["shape"], depth + 1, wanted) for _ in range(n)}
        if t in ("string",):
            choices = list(self.strings)
            if "enum" in s:
                choices += r.sample(s["enum"], min(2, len(s["enum"])))
            choices.append("other")
            if self.favored is not None and (r.random() < 0.6 or (self.force and r.random() < 0.9)):
                return self.favored
            return r.choice(choices)
        if t in ("timestamp",):
            return "2024-01-01T00:00:00Z"
        if t == "blob":
            return "YmxvYg=="
        if t in ("integer", "long", "short", "byte", "bigInteger"):
            return r.choice([0, 1, 2])
        if t in ("float", "double", "bigDecimal"):
            return r.choice([0.0, 1.5])
        if t == "boolean":
            return r.choice([True, False])
        raise SystemExit(t)


def botocore_decision(config, answer):
    """botocore's verdict on one answer: (original acceptor index or None, state, what botocore
    raised or None).

    A path whose evaluation is an error (`length(Missing)`: a JMESPath invalid-type error)
    makes botocore's matcher raise, and `Waiter.wait` with it: the wait ends with the
    JMESPath exception. The Smithy spec is silent; ours (`waiter-runtime/src/jmespath/matchers.rs`)
    says an evaluation error does not match. Such an answer is recorded with what botocore
    raised, and the decision expected of us is botocore's with that acceptor not matching."""
    if "error" in answer:
        response = {"Error": {"Code": answer["error"], "Message": "m"}, "ResponseMetadata": {"HTTPStatusCode": 400}}
    else:
        response = dict(answer["output"] or {})
        response["ResponseMetadata"] = {"HTTPStatusCode": 200}
    raised = None
    for i, acceptor in enumerate(SingleWaiterConfig(config).acceptors):
        try:
            if acceptor.matcher_func(response):
                return i, acceptor.state, raised
        except jmespath.exceptions.JMESPathError as e:
            raised = raised or f"{type(e).__name__}: {e}"
    # No acceptor: an error ends the wait (botocore raises WaiterError), an output retries.
    return None, ("error" if "error" in answer else "retry"), raised


def samples(waiter, model, seed):
    """Sample answers for one waiter: DOCS_PER_WAITER documents generated from the output shape
    (strings drawn from the acceptors' expected values and path literals, the enum's values and
    "other"; lists of 0 to 3 elements; members on the paths sometimes missing), then, for each
    acceptor no document matched yet, up to TARGETED tries at a document that matches it
    (its expected value in every string); then every error code an acceptor names and one it
    does not."""
    op = model["operations"][waiter["operation"]]
    out_shape = op.get("output", {}).get("shape")
    fields, strings = set(), set()
    errors = []
    for a in waiter["acceptors"]:
        if a["matcher"] in ("path", "pathAll", "pathAny"):
            f, lits = path_words(a["argument"])
            fields |= f
            strings |= lits
            if isinstance(a["expected"], str):
                strings.add(a["expected"])
        elif a["matcher"] == "error" and isinstance(a["expected"], str):
            errors.append(a["expected"])
    rng = random.Random(seed)
    answers = []
    seen = set()
    if out_shape:
        gen = DocGen(model["shapes"], fields, strings, rng)

        def add(doc):
            key = json.dumps(doc, sort_keys=True)
            if key in seen:
                return False
            seen.add(key)
            answers.append({"output": doc})
            return True

        favors = [None] + sorted(strings)
        for i in range(DOCS_PER_WAITER * 3):
            if len(answers) >= DOCS_PER_WAITER:
                break
            gen.favored = favors[i % len(favors)]
            add(gen.value(out_shape, 0, True))
        matched = {botocore_decision(waiter, a)[0] for a in answers}
        for i, a in enumerate(waiter["acceptors"]):
            if i in matched or a["matcher"] not in ("path", "pathAll", "pathAny"):
                continue
            gen.favored = a["expected"] if isinstance(a["expected"], str) else None
            gen.force = True
            for _ in range(TARGETED):
                doc = gen.value(out_shape, 0, True)
                hit = botocore_decision(waiter, {"output": doc})[0]
                if hit not in matched and add(doc):
                    matched.add(hit)
                if i in matched:
                    break
            gen.force = False
    else:
        answers.append({"output": None})
    for code in sorted(set(errors)) + ["UnnamedError"]:
        answers.append({"error": code})
    return answers


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def waitable_json(trait):
    """The trait value as JSON, one acceptor a line, indented for the attribute."""
    out = ["{"]
    for i, (name, w) in enumerate(trait.items()):
        out.append(f"        {json.dumps(name)}: {{")
        out.append('            "acceptors": [')
        accs = [f"                {json.dumps(a)}" for a in w["acceptors"]]
        out.append(",\n".join(accs))
        out.append("            ],")
        rest = [f'            "{k}": {json.dumps(v)}' for k, v in w.items() if k != "acceptors"]
        out.append(",\n".join(rest))
        out.append("        }" + ("," if i + 1 < len(trait) else ""))
    out.append("    }")
    return "\n".join(out)


def pruned_keep(by_op):
    """The member names the waiters' paths name: the pruned variant generates those (and the
    required members) only."""
    keep = set()
    for group in by_op.values():
        for _, w, _, _ in group:
            for a in w["acceptors"]:
                if a["matcher"] in ("path", "pathAll", "pathAny"):
                    keep |= path_words(a["argument"])[0]
    return keep


def write_shapes(path, service, version, model, by_op, keep):
    """The body of the `shapes` module of one variant."""
    types = Types(model, keep)
    # The output types first, in the order `write_module` names them.
    for op_name in sorted(by_op):
        out_shape = model["operations"][op_name].get("output", {}).get("shape")
        if out_shape:
            types.struct_name(out_shape)
    what = "all members" if keep is None else "the members the paths name, and the required ones"
    lines = [
        f"//! Generated by `tests/aws-waiters/gen.py` from botocore's `{service}/{version}`: do not edit.",
        f"//! The output shapes of the waited operations, with {what}.",
        "",
    ]
    types.emit(lines)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_module(path, service, version, model, by_op, mod):
    """The client and its waiters, written once: the shapes module is the pruned variant's or,
    with `--cfg aws_waiters_full`, the full one's."""
    types = Types(model, None)
    lines = [
        f"//! Generated by `tests/aws-waiters/gen.py` from botocore's `{service}/{version}`: do not edit.",
        "",
        "use aws_waiters::{AwsError, Canned, Outcome, first_poll};",
        "",
        "/// The output shapes of the waited operations.",
        "#[cfg(not(aws_waiters_full))]",
        f'#[path = "shapes/{mod}.rs"]',
        "pub mod shapes;",
        "/// The output shapes of the waited operations.",
        "#[cfg(aws_waiters_full)]",
        f'#[path = "full/{mod}.rs"]',
        "pub mod shapes;",
    ]
    ops = []
    for op_name in sorted(by_op):
        op = model["operations"][op_name]
        out_shape = op.get("output", {}).get("shape")
        out_ty = f"shapes::{types.struct_name(out_shape)}" if out_shape else "()"
        ops.append((op_name, out_ty))
    lines.append("")
    lines.append("/// A client of canned answers.")
    lines.append("pub struct Client(pub Canned);")
    lines.append("")
    lines.append("impl Client {")
    dispatch = []
    for op_name, out_ty in ops:
        group = by_op[op_name]
        body = waitable_json({name: smithy for name, _, smithy, _ in group})
        lines.append(f"    #[::waiter_runtime::waitable({body})]")
        lines.append(f"    pub async fn {snake(op_name)}(&self) -> ::std::result::Result<{out_ty}, AwsError> {{")
        lines.append("        self.0.answer()")
        lines.append("    }")
        for name, _, _, _ in group:
            dispatch.append(f"        {rust_str(name)} => first_poll(client.wait_until_{snake(name)}()).await,")
    lines.append("}")
    lines.append("")
    lines.append("/// Polls the waiter `name` once against `answer`.")
    lines.append("pub async fn poll(name: &str, answer: Canned) -> Outcome {")
    lines.append("    let client = Client(answer);")
    lines.append("    match name {")
    lines.extend(dispatch)
    lines.append('        other => panic!("no waiter {other}"),')
    lines.append("    }")
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    out_dir = os.path.join(HERE, "tests", "oracle")
    os.makedirs(out_dir, exist_ok=True)
    os.makedirs(os.path.join(HERE, "fixtures"), exist_ok=True)
    os.makedirs(os.path.join(out_dir, "full"), exist_ok=True)
    os.makedirs(os.path.join(out_dir, "shapes"), exist_ok=True)
    for d in (out_dir, os.path.join(out_dir, "full"), os.path.join(out_dir, "shapes")):
        for f in os.listdir(d):
            if f.endswith(".rs") and f != "oracle.rs":
                os.remove(os.path.join(d, f))

    fixture = []
    modules = []
    stats = {"services": 0, "waiters": 0, "compiled": 0, "cases": 0, "botocore_raises": 0}
    stats.update({"acceptors": 0, "acceptors_matched": 0, "empty_list_pathAll": 0, "empty_list_pathAny": 0})
    notes_md = []
    raises_md = {}
    left_out = []
    for service, version, model, waiters in newest_versions():
        if not waiters:
            continue
        stats["services"] += 1
        mod = snake(service).replace("r#", "")
        types = Types(model)
        by_op = {}
        for name in sorted(waiters):
            stats["waiters"] += 1
            w = waiters[name]
            smithy, index, notes = convert(w)
            for n in notes:
                notes_md.append(f"- {service} `{name}`: {n}")
            if not any(a["state"] == "success" for a in smithy["acceptors"]):
                left_out.append(f"- {service} `{name}`: no success acceptor left (the spec requires one)")
                continue
            if name in BROKEN.get(service, {}):
                left_out.append(f"- {service} `{name}`: {BROKEN[service][name]}")
                continue
            by_op.setdefault(w["operation"], []).append((name, w, smithy, index))
        if not by_op:
            continue
        for variant, keep in (("shapes", pruned_keep(by_op)), ("full", None)):
            write_shapes(os.path.join(out_dir, variant, f"{mod}.rs"), service, version, model, by_op, keep)
        write_module(os.path.join(out_dir, f"{mod}.rs"), service, version, model, by_op, mod)
        for op_name in sorted(by_op):
            for name, w, smithy, index in by_op[op_name]:
                stats["compiled"] += 1
                seed = hash_seed(service, name)
                cases = []
                for answer in samples(w, model, seed):
                    orig, state, raised = botocore_decision(w, answer)
                    acc = None if orig is None else index[orig]
                    case = dict(answer)
                    case["state"] = state
                    case["acceptor"] = acc
                    if orig is not None and acc is None:
                        case["dropped"] = True
                    if raised:
                        raises_md.setdefault(f"- {service} `{name}`: {raised}", None)
                        case["botocore_raises"] = raised
                        stats["botocore_raises"] += 1
                    cases.append(case)
                stats["cases"] += len(cases)
                matched = {c["acceptor"] for c in cases if c["acceptor"] is not None}
                stats["acceptors"] += len(smithy["acceptors"])
                stats["acceptors_matched"] += len(matched)
                for a in w["acceptors"]:
                    if a["matcher"] in ("pathAll", "pathAny"):
                        for c in cases:
                            if c.get("output") is not None and jmespath.search(a["argument"], c["output"]) == []:
                                stats["empty_list_" + a["matcher"]] += 1
                fixture.append({"service": service, "waiter": name, "cases": cases})
        modules.append((service, mod))

    main_rs = [
        "//! Generated by `tests/aws-waiters/gen.py`: do not edit. Every AWS waiter botocore ships",
        "//! (newest API version of each service), in the Smithy form, on typed outputs, polled",
        "//! once per sample answer and compared with what botocore's matchers decide",
        "//! (`fixtures/oracle.json`).",
        "",
        "#![allow(dead_code, clippy::all)]",
        "",
    ]
    for _, mod in modules:
        main_rs.append(f"mod {mod};")
    main_rs += [
        "",
        "mod oracle;",
        "",
        "/// Polls `waiter` of `service` once against `answer`.",
        "async fn poll(service: &str, waiter: &str, answer: aws_waiters::Canned) -> aws_waiters::Outcome {",
        "    match service {",
    ]
    for service, mod in modules:
        main_rs.append(f"        {rust_str(service)} => {mod}::poll(waiter, answer).await,")
    main_rs += ['        other => panic!("no service {other}"),', "    }", "}", ""]
    with open(os.path.join(out_dir, "main.rs"), "w") as f:
        f.write("\n".join(main_rs))
    with open(os.path.join(HERE, "fixtures", "oracle.json"), "w") as f:
        json.dump({"stats": stats, "waiters": fixture}, f, separators=(",", ":"), sort_keys=True)
        f.write("\n")
    md = [
        "# botocore waiters in the Smithy form",
        "",
        f"Generated by `gen.py` from botocore {botocore.__version__}: {stats['services']} services with",
        f"waiters (newest API version each), {stats['waiters']} waiters, {stats['compiled']} compiled and",
        f"oracle-checked against {stats['cases']} sample answers. Of their {stats['acceptors']} acceptors,",
        f"{stats['acceptors_matched']} are the first match of at least one answer. A `pathAll` path",
        f"evaluates to an empty list {stats['empty_list_pathAll']} times, a `pathAny` path",
        f"{stats['empty_list_pathAny']} times (neither matches, in botocore as in the spec and ours).",
        "",
        "## Acceptors converted in a way of their own, or dropped",
        "",
        *notes_md,
        "",
        "## Known difference: botocore raises",
        "",
        "On these waiters, botocore's matcher raises a JMESPath error for some sample answers (a",
        "function given a missing member), and its `Waiter.wait` ends with that exception. The",
        "Smithy spec says nothing; ours says an evaluation error does not match, and the oracle",
        f"expects that ({stats['botocore_raises']} answers):",
        "",
        *raises_md,
        "",
        "## Waiters left out",
        "",
        *left_out,
        "",
    ]
    with open(os.path.join(HERE, "CONVERSION.md"), "w") as f:
        f.write("\n".join(md))
    # The workspace is `cargo fmt --check`ed: format what was written (rustfmt from PATH), from the
    # test's root, so that the `#[path]`s of the shapes modules resolve as rustc resolves them.
    subprocess.run(["rustfmt", "--edition", "2024", os.path.join(out_dir, "main.rs")], check=True)
    print(stats)


def hash_seed(service, name):
    h = 0xCBF29CE484222325
    for b in f"{service}/{name}".encode():
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


if __name__ == "__main__":
    sys.exit(main())
