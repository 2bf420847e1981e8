#!/usr/bin/env python3
"""Generator of the `aws-waiters` test crate: every AWS waiter botocore ships, read by
`#[waitable(botocore = "..")]` from botocore's own `waiters-2.json` files (vendored under
`models/botocore/`), on typed outputs generated from the service models, and checked against
botocore's own matchers as oracle; and the same waiters read from the Smithy JSON AST models
(`#[waitable(smithy = "..")]`), checked against botocore's where both define them.

Run from anywhere, with botocore importable (`pip download --no-deps botocore==1.44.8`, unzip the
wheel, `PYTHONPATH=<that directory>`; `jmespath` too; botocore 1.44.8 wrote the checked-in
files):

    python3 tests/aws-waiters/gen.py [--smithy-models DIR]

It reads, for each service in botocore's `data/` directory, the NEWEST API version only
(`data/<service>/<version>/{service-2.json.gz,waiters-2.json}`) and writes:

- `models/botocore/<service>/<version>/waiters-2.json`: botocore's file, byte for byte (with
  botocore's `LICENSE.txt` and `NOTICE`, and `README.md` naming the version);
- `tests/oracle/<service>.rs`: per service, written once for both type variants: a `Client`
  whose operation methods carry `#[waitable(botocore = "models/botocore/..")]` (every waiter
  of the operation), and `poll()`, which runs one waiter for one poll against a canned answer.
  The outputs of operations with a `status` acceptor implement `OutputStatus` (a successful
  answer: status 200). Its `shapes` module is one of the two files below, chosen by `#[cfg]`.
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
  errors the acceptors name and one they do not, with HTTP status 400, and an error with each
  HTTP status a `status` acceptor names) and what botocore's matchers
  (`botocore.waiter.SingleWaiterConfig` / `AcceptorConfig`) say about each: the first acceptor
  that matches (its index in the file) and the state.
- `CONVERSION.md`: the numbers, and the recorded differences.

With `--smithy-models DIR` (a checkout of aws/api-models-aws: `DIR/<service>/service/<version>/
<service>-<version>.json`), also, for the services of `SMITHY_SERVICES` whose model is there:

- `models/smithy/<service>.json`: the model, copied (NOT committed: `.gitignore`d; the crate's
  build script turns the `smithy` test's modules on when the directory holds models);
- `tests/oracle/smithy/<service>.rs`: a client whose methods carry `#[waitable(smithy = "..")]`
  for the operations whose waiters botocore also has, and its `poll()`;
- `fixtures/smithy_oracle.json`: per waiter defined in both, the same sample answers (and the
  errors the Smithy acceptors name) with the decision of the Smithy definition (the spec's
  matchers, evaluated here with `jmespath`) and botocore's; where the two differ, why.

The oracle gives botocore a successful answer as the document plus
`ResponseMetadata.HTTPStatusCode = 200`, and an error as `{"Error": {"Code": ..}}` with its
status.
"""

import argparse
import glob
import gzip
import json
import os
import random
import re
import shutil
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

# The services whose Smithy model is read too (botocore's name -> api-models-aws's directory):
# the issue's DynamoDB, S3, EC2, ECS and CloudFormation, and the largest models with waiters that
# a snapshot of api-models-aws holds (RDS, SageMaker; EC2's model is over 4 MB).
SMITHY_SERVICES = {
    "dynamodb": "dynamodb",
    "s3": "s3",
    "ec2": "ec2",
    "ecs": "ecs",
    "cloudformation": "cloudformation",
    "rds": "rds",
    "sagemaker": "sagemaker",
}

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
    """botocore's verdict on one answer: (acceptor index or None, state, what botocore raised or
    None).

    A path whose evaluation is an error (`length(Missing)`: a JMESPath invalid-type error)
    makes botocore's matcher raise, and `Waiter.wait` with it: the wait ends with the
    JMESPath exception. The Smithy spec is silent; ours (`waiter-runtime/src/waiter/matchers.rs`)
    says an evaluation error does not match. Such an answer is recorded with what botocore
    raised, and the decision expected of us is botocore's with that acceptor not matching."""
    if "error" in answer:
        response = {
            "Error": {"Code": answer["error"], "Message": "m"},
            "ResponseMetadata": {"HTTPStatusCode": answer.get("status", 400)},
        }
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


def smithy_decision(trait_waiter, answer):
    """The Smithy waiters spec's verdict on one answer, for a waiter of a Smithy model: (acceptor
    index or None, state). The matchers as the spec defines them; a path whose evaluation is an
    error does not match (as ours)."""
    is_error = "error" in answer
    output = None if is_error else (answer["output"] or {})
    for i, a in enumerate(trait_waiter["acceptors"]):
        m = a["matcher"]
        if "success" in m:
            hit = (not is_error) == m["success"]
        elif "errorType" in m:
            hit = is_error and answer["error"] == m["errorType"].rsplit("#", 1)[-1]
        elif "output" in m or "inputOutput" in m:
            if is_error:
                hit = False
            else:
                pm = m.get("output") or m["inputOutput"]
                data = output if "output" in m else {"input": {}, "output": output}
                try:
                    result = jmespath.search(pm["path"], data)
                except jmespath.exceptions.JMESPathError:
                    result = None
                    hit = False
                cmp, exp = pm["comparator"], pm["expected"]
                if cmp == "stringEquals":
                    hit = isinstance(result, str) and result == exp
                elif cmp == "booleanEquals":
                    hit = isinstance(result, bool) and result == (exp == "true")
                elif cmp == "allStringEquals":
                    hit = isinstance(result, list) and bool(result) and all(
                        isinstance(x, str) and x == exp for x in result
                    )
                elif cmp == "anyStringEquals":
                    hit = isinstance(result, list) and any(isinstance(x, str) and x == exp for x in result)
                else:
                    raise SystemExit(f"unknown comparator {cmp}")
        else:
            raise SystemExit(f"unknown Smithy matcher {m}")
        if hit:
            return i, a["state"]
    return None, ("error" if is_error else "retry")


def samples(waiter, model, seed):
    """Sample answers for one waiter: DOCS_PER_WAITER documents generated from the output shape
    (strings drawn from the acceptors' expected values and path literals, the enum's values and
    "other"; lists of 0 to 3 elements; members on the paths sometimes missing), then, for each
    acceptor no document matched yet, up to TARGETED tries at a document that matches it
    (its expected value in every string); then every error code an acceptor names and one it
    does not (HTTP status 400), and an error with each HTTP status a `status` acceptor names
    (other than 200, a successful answer's)."""
    op = model["operations"][waiter["operation"]]
    out_shape = op.get("output", {}).get("shape")
    fields, strings = set(), set()
    errors = []
    statuses = []
    for a in waiter["acceptors"]:
        if a["matcher"] in ("path", "pathAll", "pathAny"):
            f, lits = path_words(a["argument"])
            fields |= f
            strings |= lits
            if isinstance(a["expected"], str):
                strings.add(a["expected"])
        elif a["matcher"] == "error" and isinstance(a["expected"], str):
            errors.append(a["expected"])
        elif a["matcher"] == "status" and a["expected"] != 200:
            statuses.append(a["expected"])
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
        answers.append({"error": code, "status": 400})
    for status in sorted(set(statuses)):
        answers.append({"error": "UnnamedError", "status": status})
    return answers


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def pruned_keep(by_op):
    """The member names the waiters' paths name: the pruned variant generates those (and the
    required members) only."""
    keep = set()
    for group in by_op.values():
        for _, w in group:
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


def folded(name):
    """A name as `#[waitable]` compares operations: without `_`, in lower case."""
    return name.replace("_", "").lower()


def client_methods(lines, model, by_op, attribute):
    """The `Client`'s methods, one per operation, each under `attribute(op_name)`; and the
    outputs of those whose waiters have a `status` acceptor (they implement `OutputStatus`)."""
    types = Types(model, None)
    statuses = []
    lines.append("/// A client of canned answers.")
    lines.append("pub struct Client(pub Canned);")
    lines.append("")
    lines.append("impl Client {")
    for op_name in sorted(by_op):
        op = model["operations"][op_name]
        out_shape = op.get("output", {}).get("shape")
        out_ty = f"shapes::{types.struct_name(out_shape)}" if out_shape else "()"
        method = snake(op_name)
        args = attribute(op_name)
        if folded(method) != folded(op_name):
            args += f", operation = {rust_str(op_name)}"
        lines.append(f"    #[::waiter_runtime::waitable({args})]")
        lines.append(f"    pub async fn {method}(&self) -> ::std::result::Result<{out_ty}, AwsError> {{")
        lines.append("        self.0.answer()")
        lines.append("    }")
        has_status = any(
            a["matcher"] == "status" for _, w in by_op[op_name] for a in w.get("acceptors", [])
        )
        if has_status and out_shape:
            statuses.append(out_ty)
    lines.append("}")
    for ty in statuses:
        lines.append("")
        lines.append("/// A successful answer (status 200), which botocore's `status` acceptors read.")
        lines.append(f"impl ::waiter_runtime::OutputStatus for {ty} {{}}")
    lines.append("")


def poll_fn(lines, names):
    lines.append("/// Polls the waiter `name` once against `answer`.")
    lines.append("pub async fn poll(name: &str, answer: Canned) -> Outcome {")
    lines.append("    let client = Client(answer);")
    lines.append("    match name {")
    for name in names:
        lines.append(f"        {rust_str(name)} => first_poll(client.wait_until_{snake(name)}()).await,")
    lines.append('        other => panic!("no waiter {other}"),')
    lines.append("    }")
    lines.append("}")


def write_module(path, service, version, model, by_op, mod, file):
    """The client and its waiters, written once: the shapes module is the pruned variant's or,
    with `--cfg aws_waiters_full`, the full one's."""
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
        "",
    ]
    client_methods(lines, model, by_op, lambda op: f"botocore = {rust_str(file)}")
    poll_fn(lines, [name for op in sorted(by_op) for name, _ in by_op[op]])
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_smithy_module(path, service, version, model, by_op, mod, file):
    """The same client, its waiters read from the service's Smithy model."""
    lines = [
        f"//! Generated by `tests/aws-waiters/gen.py` from the Smithy model of `{service}`: do not edit.",
        "",
        "use aws_waiters::{AwsError, Canned, Outcome, first_poll};",
        "",
        f"use crate::{mod}::shapes;",
        "",
    ]
    client_methods(lines, model, by_op, lambda op: f"smithy = {rust_str(file)}")
    poll_fn(lines, [name for op in sorted(by_op) for name, _ in by_op[op]])
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def find_smithy_model(root, directory):
    """The newest model of `directory` in a checkout of aws/api-models-aws."""
    found = sorted(glob.glob(os.path.join(root, "**", directory, "service", "*", "*.json"), recursive=True))
    return found[-1] if found else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smithy-models", help="a checkout of aws/api-models-aws")
    options = parser.parse_args()

    out_dir = os.path.join(HERE, "tests", "oracle")
    models_dir = os.path.join(HERE, "models", "botocore")
    for d in (out_dir, os.path.join(out_dir, "full"), os.path.join(out_dir, "shapes"), models_dir, os.path.join(HERE, "fixtures")):
        os.makedirs(d, exist_ok=True)
    for d in (out_dir, os.path.join(out_dir, "full"), os.path.join(out_dir, "shapes")):
        for f in os.listdir(d):
            if f.endswith(".rs") and f != "oracle.rs" and f != "smithy.rs":
                os.remove(os.path.join(d, f))
    shutil.rmtree(models_dir)
    os.makedirs(models_dir)
    vendor_licence(models_dir)

    smithy_dir = os.path.join(HERE, "models", "smithy")
    smithy_rs = os.path.join(out_dir, "smithy")
    if options.smithy_models:
        shutil.rmtree(smithy_dir, ignore_errors=True)
        shutil.rmtree(smithy_rs, ignore_errors=True)
        os.makedirs(smithy_dir)
        os.makedirs(smithy_rs)

    fixture = []
    smithy_fixture = []
    modules = []
    smithy_modules = []
    stats = {"services": 0, "waiters": 0, "compiled": 0, "cases": 0, "botocore_raises": 0}
    stats.update({"acceptors": 0, "acceptors_matched": 0, "empty_list_pathAll": 0, "empty_list_pathAny": 0})
    stats.update({"status_acceptors": 0, "status_cases": 0})
    raises_md = {}
    smithy_md = []
    smithy_only = []
    smithy_stats = {"services": 0, "waiters": 0, "cases": 0, "differ": 0, "only_smithy": 0, "only_botocore": 0}
    for service, version, model, waiters in newest_versions():
        if not waiters:
            continue
        stats["services"] += 1
        mod = snake(service).replace("r#", "")
        src = os.path.join(DATA, service, version, "waiters-2.json")
        dst_dir = os.path.join(models_dir, service, version)
        os.makedirs(dst_dir)
        shutil.copyfile(src, os.path.join(dst_dir, "waiters-2.json"))
        file = f"models/botocore/{service}/{version}/waiters-2.json"
        by_op = {}
        for name in sorted(waiters):
            stats["waiters"] += 1
            w = waiters[name]
            by_op.setdefault(w["operation"], []).append((name, w))
        for variant, keep in (("shapes", pruned_keep(by_op)), ("full", None)):
            write_shapes(os.path.join(out_dir, variant, f"{mod}.rs"), service, version, model, by_op, keep)
        write_module(os.path.join(out_dir, f"{mod}.rs"), service, version, model, by_op, mod, file)
        answers_of = {}
        for op_name in sorted(by_op):
            for name, w in by_op[op_name]:
                stats["compiled"] += 1
                seed = hash_seed(service, name)
                cases = []
                answers = samples(w, model, seed)
                answers_of[name] = answers
                for answer in answers:
                    acc, state, raised = botocore_decision(w, answer)
                    case = dict(answer)
                    case["state"] = state
                    case["acceptor"] = acc
                    if raised:
                        raises_md.setdefault(f"- {service} `{name}`: {raised}", None)
                        case["botocore_raises"] = raised
                        stats["botocore_raises"] += 1
                    if acc is not None and w["acceptors"][acc]["matcher"] == "status":
                        stats["status_cases"] += 1
                    cases.append(case)
                stats["cases"] += len(cases)
                matched = {c["acceptor"] for c in cases if c["acceptor"] is not None}
                stats["acceptors"] += len(w["acceptors"])
                stats["status_acceptors"] += sum(a["matcher"] == "status" for a in w["acceptors"])
                stats["acceptors_matched"] += len(matched)
                for a in w["acceptors"]:
                    if a["matcher"] in ("pathAll", "pathAny"):
                        for c in cases:
                            if c.get("output") is not None and jmespath.search(a["argument"], c["output"]) == []:
                                stats["empty_list_" + a["matcher"]] += 1
                fixture.append({"service": service, "waiter": name, "cases": cases})
        modules.append((service, mod))
        if options.smithy_models and service in SMITHY_SERVICES:
            found = find_smithy_model(options.smithy_models, SMITHY_SERVICES[service])
            if found is None:
                smithy_only.append(f"- {service}: no Smithy model in the checkout given (over 4 MB, or absent)")
                continue
            compared = smithy_compare(
                service, model, waiters, by_op, answers_of, found, smithy_md, smithy_only, smithy_stats
            )
            if compared is None:
                continue
            smithy_by_op, waiter_cases = compared
            shutil.copyfile(found, os.path.join(smithy_dir, f"{service}.json"))
            write_smithy_module(
                os.path.join(smithy_rs, f"{mod}.rs"), service, version, model, smithy_by_op, mod,
                f"models/smithy/{service}.json",
            )
            smithy_fixture.extend(waiter_cases)
            smithy_modules.append((service, mod))

    write_main(out_dir, modules)
    with open(os.path.join(HERE, "fixtures", "oracle.json"), "w") as f:
        json.dump({"stats": stats, "waiters": fixture}, f, separators=(",", ":"), sort_keys=True)
        f.write("\n")
    if options.smithy_models:
        write_smithy_main(smithy_rs, smithy_modules)
        with open(os.path.join(HERE, "fixtures", "smithy_oracle.json"), "w") as f:
            json.dump({"stats": smithy_stats, "waiters": smithy_fixture}, f, separators=(",", ":"), sort_keys=True)
            f.write("\n")
        smithy_report = [
            "## The same waiters read from the Smithy models",
            "",
            f"`gen.py --smithy-models` compared {smithy_stats['waiters']} waiters of {smithy_stats['services']}",
            f"services defined in both botocore and the Smithy models, on {smithy_stats['cases']} answers",
            "(botocore's samples and the errors the Smithy acceptors name): the Smithy-read waiter decides",
            "as the Smithy spec does on each (the `smithy` test), and as botocore does on all but",
            f"{smithy_stats['differ']}, where the two definitions differ:",
            "",
            *smithy_md,
            "",
            "## Waiters one of them does not have",
            "",
            "The Smithy models are those of the checkout given (its date is the models'), botocore's",
            "its release's:",
            "",
            *smithy_only,
            "",
        ]
        with open(os.path.join(HERE, "SMITHY.md"), "w") as f:
            f.write("\n".join(["# botocore's waiters and the Smithy models'", "", *smithy_report]))
    md = [
        "# botocore's waiters, read from botocore's files",
        "",
        f"Generated by `gen.py` from botocore {botocore.__version__}: {stats['services']} services with",
        f"waiters (newest API version each), {stats['waiters']} waiters, all {stats['compiled']} read by",
        "`#[waitable(botocore = \"..\")]` from the vendored `models/botocore/`, compiled on typed outputs",
        f"and oracle-checked against {stats['cases']} sample answers. Of their {stats['acceptors']} acceptors",
        f"({stats['status_acceptors']} of them `status` matchers), {stats['acceptors_matched']} are the first",
        f"match of at least one answer ({stats['status_cases']} answers are decided by a `status` acceptor).",
        f"A `pathAll` path evaluates to an empty list {stats['empty_list_pathAll']} times, a `pathAny` path",
        f"{stats['empty_list_pathAny']} times (neither matches, in botocore as in the spec and ours).",
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
    ]
    with open(os.path.join(HERE, "CONVERSION.md"), "w") as f:
        f.write("\n".join(md))
    # The workspace is `cargo fmt --check`ed: format what was written (rustfmt from PATH), from the
    # test's root, so that the `#[path]`s of the shapes modules resolve as rustc resolves them.
    subprocess.run(["rustfmt", "--edition", "2024", os.path.join(out_dir, "main.rs")], check=True)
    print(stats)
    if options.smithy_models:
        print(smithy_stats)


def vendor_licence(models_dir):
    """botocore's licence and notice beside its files, and where they come from."""
    dist = glob.glob(os.path.join(os.path.dirname(os.path.dirname(botocore.__file__)), f"botocore-{botocore.__version__}.dist-info"))
    if not dist:
        raise SystemExit("botocore's dist-info (LICENSE.txt, NOTICE) is not beside the package")
    for name in ("LICENSE.txt", "NOTICE"):
        shutil.copyfile(os.path.join(dist[0], name), os.path.join(models_dir, name))
    with open(os.path.join(models_dir, "README.md"), "w") as f:
        f.write(
            f"""# botocore's waiter files

`<service>/<api version>/waiters-2.json`: the `waiters-2.json` of the newest API version of each
service with waiters, byte for byte as botocore {botocore.__version__} ships them (the PyPI wheel
`botocore-{botocore.__version__}-py3-none-any.whl`, `botocore/data/`), copied by `../../gen.py`.

botocore is Copyright Amazon.com, Inc. or its affiliates, licensed under the Apache License 2.0:
`LICENSE.txt` and `NOTICE` here are botocore's own.
"""
        )


def smithy_compare(service, model, waiters, by_op, answers_of, found, smithy_md, smithy_only, smithy_stats):
    """The waiters of `service` defined in both botocore and its Smithy model (`found`): the
    operations (with their botocore-named waiters the Smithy model has) and the fixture entries.
    """
    with open(found) as f:
        smithy = json.load(f)
    traits = {}
    for shape_id, shape in smithy["shapes"].items():
        trait = shape.get("traits", {}).get("smithy.waiters#waitable")
        if shape.get("type") == "operation" and trait:
            traits[shape_id.rsplit("#", 1)[-1]] = trait
    smithy_by_op = {}
    cases_out = []
    for op_name, trait in sorted(traits.items()):
        for name, tw in sorted(trait.items()):
            if name not in waiters or waiters[name]["operation"] != op_name:
                smithy_stats["only_smithy"] += 1
                smithy_only.append(f"- {service} `{name}`: in the Smithy model only")
                continue
            if op_name not in by_op:
                continue
            smithy_by_op.setdefault(op_name, []).append((name, tw))
            answers = list(answers_of[name])
            named = sorted(
                {a["matcher"]["errorType"].rsplit("#", 1)[-1] for a in tw["acceptors"] if "errorType" in a["matcher"]}
                - {a["error"] for a in answers if "error" in a}
            )
            answers += [{"error": code, "status": 400} for code in named]
            cases = []
            differ = 0
            for answer in answers:
                acc, state = smithy_decision(tw, answer)
                b_acc, b_state, _ = botocore_decision(waiters[name], answer)
                case = dict(answer)
                case["state"] = state
                case["acceptor"] = acc
                case["botocore_state"] = b_state
                differ += state != b_state
                cases.append(case)
            smithy_stats["waiters"] += 1
            smithy_stats["cases"] += len(cases)
            smithy_stats["differ"] += differ
            if differ:
                smithy_md.append(
                    f"- {service} `{name}`: {differ} of {len(cases)} answers "
                    + "(" + why_differ(waiters[name], tw) + ")"
                )
            cases_out.append({"service": service, "waiter": name, "cases": cases})
    for name, w in sorted(waiters.items()):
        if w["operation"] not in traits or name not in traits[w["operation"]]:
            smithy_stats["only_botocore"] += 1
            smithy_only.append(f"- {service} `{name}`: in botocore only")
    if not smithy_by_op:
        return None
    smithy_stats["services"] += 1
    return smithy_by_op, cases_out


def why_differ(botocore_waiter, smithy_waiter):
    """What differs between a botocore waiter and the Smithy model's, in words."""
    b = botocore_waiter["acceptors"]
    statuses = [f"`{a['state']}` on HTTP {a['expected']}" for a in b if a["matcher"] == "status"]
    if statuses:
        return "botocore's " + ", ".join(statuses) + ": the Smithy model has no `status` matcher"
    b_codes = sorted(a["expected"] for a in b if a["matcher"] == "error" and isinstance(a["expected"], str))
    s_codes = sorted(
        a["matcher"]["errorType"].rsplit("#", 1)[-1] for a in smithy_waiter["acceptors"] if "errorType" in a["matcher"]
    )
    if b_codes != s_codes:
        return f"botocore's error codes {', '.join(b_codes)}; the Smithy model's {', '.join(s_codes)}"
    return "the acceptors differ"


def dispatch(doc, signature, modules, missing):
    """A `poll` dispatching on the service to each module's `poll`."""
    lines = [f"/// {doc}", f"{signature} {{", "    match service {"]
    for service, mod in modules:
        lines.append(f"        {rust_str(service)} => {mod}::poll(waiter, answer).await,")
    lines += [f'        other => panic!("{missing} {{other}}"),', "    }", "}", ""]
    return lines


SIGNATURE = "async fn poll(service: &str, waiter: &str, answer: aws_waiters::Canned) -> aws_waiters::Outcome"


def write_main(out_dir, modules):
    main_rs = [
        "//! Generated by `tests/aws-waiters/gen.py`: do not edit. Every AWS waiter botocore ships",
        "//! (newest API version of each service), read from botocore's own `waiters-2.json`, on",
        "//! typed outputs, polled once per sample answer and compared with what botocore's matchers",
        "//! decide (`fixtures/oracle.json`); and, where `models/smithy/` holds Smithy models, the",
        "//! same waiters read from them (`smithy`).",
        "",
        "#![allow(dead_code, clippy::all)]",
        "",
    ]
    main_rs += [f"mod {mod};" for _, mod in modules]
    main_rs += ["", "mod oracle;", "#[cfg(aws_waiters_smithy)]", "mod smithy;", ""]
    main_rs += dispatch("Polls `waiter` of `service` once against `answer`.", SIGNATURE, modules, "no service")
    with open(os.path.join(out_dir, "main.rs"), "w") as f:
        f.write("\n".join(main_rs))


def write_smithy_main(smithy_rs, modules):
    lines = [
        "//! Generated by `tests/aws-waiters/gen.py --smithy-models`: do not edit. The clients whose",
        "//! waiters are read from the Smithy models in `models/smithy/`.",
        "",
    ]
    lines += [f"pub mod {mod};" for _, mod in modules]
    lines.append("")
    lines += dispatch(
        "Polls the Smithy-read `waiter` of `service` once against `answer`.",
        "pub " + SIGNATURE,
        modules,
        "no Smithy model of",
    )
    with open(os.path.join(smithy_rs, "mod.rs"), "w") as f:
        f.write("\n".join(lines))


def hash_seed(service, name):
    h = 0xCBF29CE484222325
    for b in f"{service}/{name}".encode():
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


if __name__ == "__main__":
    sys.exit(main())
