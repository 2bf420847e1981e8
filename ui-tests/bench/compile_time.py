#!/usr/bin/env python3
"""Debug build time of a crate with 100 `#[waitable]` waiters vs. the same crate without them.

Generates two crates under `target/waiter-compile-time/` (one with the attributes, one with
the attributes removed), builds their dependencies once, then times `cargo build` of each crate
alone (touching its source) several times and prints the medians and their ratio.

    python3 ui-tests/bench/compile_time.py [--waiters 100] [--runs 5] [--jmespath]

`--jmespath` makes every waiter also carry `output` matchers (JMESPath compiled at macro time).
`--instantiate` adds a function that runs every waiter (`.wait(..).await`), so the generic
waiter loop is monomorphised once per waiter, as in a binary that uses them all.

`--typed` measures the typed-path checks alone: one crate whose waiters' outputs are nested
derived types read by three paths each (`Status.Name` with `stringEquals`, `Items[].Name` with
`allStringEquals`, `length(Items[?Ready]) > 0` with `booleanEquals`), built with the checks and
with `WAITER_MACROS_BENCH_UNTYPED=1` (the baseline, which leaves them out), alternately.

`--model-files` measures what reading the waiters from a model file adds (issue 38): three
crates whose `--copies` clients (10 by default) each have DynamoDB's `describe_table` with the
same two waiters (`TableExists`, `TableNotExists`), pasted (the baseline: the Smithy model's trait
value, as a user pastes it), read from botocore's `waiters-2.json`
(`tests/aws-waiters/models/botocore/dynamodb/2012-08-10/`), or read from DynamoDB's Smithy JSON
AST model (`--smithy-model`, by default `tests/aws-waiters/models/smithy/dynamodb.json`, which
`gen.py --smithy-models` copies there). Each is built alone, alternately,
`CARGO_INCREMENTAL=0`; the whole build's wall time, and rustc's own time for macro expansion
(`-Z time-passes`' `macro_expand_crate`, through `RUSTC_BOOTSTRAP=1`: a measurement only), which
is where reading a file costs, without the noise of the rest of the build.

`--same-type` measures what finding a waiter repeated on one type adds (issue 39.8: each
`#[waitable]` reads its source file, once per file, and compares its waiters with those of the
`#[waitable]`s before it on the same type): rustc's `macro_expand_crate` time (`-Z time-passes`,
as above) of two crates of `--waiters` waiters all on one type, pasted (the 100-waiter crate
above) and read from a botocore `waiters-2.json` of as many operations (one function per
operation), each built with the check and with `WAITER_MACROS_BENCH_NO_SAME_TYPE=1` (the
baseline, which leaves it out), alternately, `CARGO_INCREMENTAL=0`. With `--callgrind`, instead:
each crate's rustc once under valgrind's callgrind (through a `RUSTC_WRAPPER` that wraps that
crate's rustc only), and the instructions of the check (`same_type::remove_repeated`,
inclusive) against those of every `#[waitable]` expansion, of macro expansion and of the whole
rustc run: counts do not depend on the machine's load (about a minute per crate).
"""
import argparse
import os
import pathlib
import statistics
import subprocess
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "target" / "waiter-compile-time"

HEADER = """#![allow(dead_code, unused_imports)]
use waiter_runtime::{waitable, ProvideErrorMetadata};

#[derive(Debug, Clone)]
pub struct Error(pub &'static str);

impl ProvideErrorMetadata for Error {
    fn code(&self) -> Option<&str> { Some(self.0) }
}

#[derive(Debug, Clone__SEARCHABLE__)]
pub struct Output { pub status: String, pub items: Vec<String> }

pub struct Client;

impl Client {
"""

TYPED_HEADER = """#![allow(dead_code, unused_imports)]
use waiter_runtime::{waitable, ProvideErrorMetadata, Searchable};

#[derive(Debug, Clone)]
pub struct Error(pub &'static str);

impl ProvideErrorMetadata for Error {
    fn code(&self) -> Option<&str> { Some(self.0) }
}

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct State { pub name: String, pub code: i32 }

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct Item { pub name: String, pub ready: bool, pub tags: Vec<String> }

#[derive(Debug, Clone, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct Output { pub status: State, pub items: Vec<Item> }

pub struct Client;

impl Client {
"""

def typed_waiter(i):
    return f"""    #[waitable(
        Resource{i}Ready: {{
            acceptors: [
                {{ state: "failure", matcher: {{ output: {{ path: "Status.Name", expected: "failed", comparator: "stringEquals" }} }} }}
                {{ state: "success", matcher: {{ output: {{ path: "Items[].Name", expected: "ok", comparator: "allStringEquals" }} }} }}
                {{ state: "retry", matcher: {{ output: {{ path: "length(Items[?Ready]) > `0`", expected: "true", comparator: "booleanEquals" }} }} }}
            ]
        }}
    )]
"""

def typed_op(i):
    return f"""    pub async fn get_resource_{i}(&self, id: &str, version: u32) -> Result<Output, Error> {{
        let _ = (id, version);
        Ok(Output {{ status: State {{ name: String::from("ok"), code: 0 }}, items: Vec::new() }})
    }}
"""

def generate_typed(path, n):
    generate(path, 0, False, False, False)
    body = TYPED_HEADER
    for i in range(n):
        body += typed_waiter(i) + typed_op(i)
    body += "}\n"
    (path / "src" / "lib.rs").write_text(body)

def waiter(i, jmespath):
    output = (
        '{ state: "failure", matcher: { output: { path: "status", expected: "failed", comparator: "stringEquals" } } }\n'
        '                { state: "success", matcher: { output: { path: "items[].to_string(@)", expected: "ok", comparator: "allStringEquals" } } }\n'
        if jmespath else ""
    )
    return f"""    #[waitable(
        Resource{i}Ready: {{
            documentation: "Waits until resource {i} is ready"
            acceptors: [
                {output}{{ state: "success", matcher: {{ success: true }} }}
                {{ state: "retry", matcher: {{ errorType: "NotFound" }} }}
            ]
            minDelay: 1
        }}
    )]
"""

def op(i):
    return f"""    pub async fn get_resource_{i}(&self, id: &str, version: u32) -> Result<Output, Error> {{
        let _ = (id, version);
        Ok(Output {{ status: String::from("ok"), items: Vec::new() }})
    }}
"""

def generate(path, n, with_attrs, jmespath, instantiate):
    (path / "src").mkdir(parents=True, exist_ok=True)
    (path / "Cargo.toml").write_text(f"""[package]
name = "{path.name}"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
waiter-runtime = {{ path = "{ROOT / 'waiter-runtime'}" }}
""")
    # The output type is searchable in both crates: deriving it is part of the user's model.
    body = HEADER.replace("__SEARCHABLE__", ", waiter_runtime::Searchable" if jmespath else "")
    for i in range(n):
        if with_attrs:
            body += waiter(i, jmespath)
        body += op(i)
    body += "}\n"
    if with_attrs and instantiate:
        body += "\npub async fn wait_all(client: &Client) {\n"
        for i in range(n):
            body += f"    let _ = client.wait_until_resource{i}_ready(\"id\", 1).wait(std::time::Duration::from_secs(1)).await;\n"
        body += "}\n"
    (path / "src" / "lib.rs").write_text(body)

def build(path, target, untyped=None):
    env = dict(os.environ, CARGO_TARGET_DIR=str(target))
    if untyped is not None:
        # The two builds of `--typed` share sources: no incremental state carried between them.
        env["CARGO_INCREMENTAL"] = "0"
    if untyped:
        env["WAITER_MACROS_BENCH_UNTYPED"] = "1"
    else:
        env.pop("WAITER_MACROS_BENCH_UNTYPED", None)
    subprocess.run(["cargo", "build", "-q", "--manifest-path", str(path / "Cargo.toml")], check=True, env=env)

def timed(path, target, runs, untyped=None):
    times = []
    for _ in range(runs):
        (path / "src" / "lib.rs").touch()
        start = time.perf_counter()
        build(path, target, untyped)
        times.append(time.perf_counter() - start)
    return statistics.median(times), times

MODEL_HEADER = """#![allow(dead_code, unused_imports)]
use waiter_runtime::{waitable, ProvideErrorMetadata, Searchable};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error { ResourceNotFoundException }

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct TableDescription { pub table_status: String }

#[derive(Debug, Searchable)]
#[serde(rename_all = "PascalCase")]
pub struct DescribeTableOutput { pub table: Option<TableDescription> }
"""

def generate_model_crate(path, copies, attribute):
    generate(path, 0, False, False, False)
    body = MODEL_HEADER
    for i in range(copies):
        body += f"""
pub struct Client{i};

impl Client{i} {{
    #[waitable({attribute})]
    pub async fn describe_table(&self, name: &str) -> Result<DescribeTableOutput, Error> {{
        let _ = name;
        Err(Error::ResourceNotFoundException)
    }}
}}
"""
    (path / "src" / "lib.rs").write_text(body)

def model_files(args, target):
    import json
    import shutil
    smithy = pathlib.Path(args.smithy_model)
    botocore = ROOT / "tests/aws-waiters/models/botocore/dynamodb/2012-08-10/waiters-2.json"
    model = json.loads(smithy.read_text())
    trait = next(
        shape["traits"]["smithy.waiters#waitable"]
        for shape_id, shape in model["shapes"].items()
        if shape_id.endswith("#DescribeTable")
    )
    crates = {
        "pasted": json.dumps(trait),
        "botocore": 'botocore = "models/waiters-2.json"',
        "smithy": 'smithy = "models/dynamodb.json"',
    }
    dirs = {}
    for name, attribute in crates.items():
        path = OUT / f"model_files_{name}"
        generate_model_crate(path, args.copies, attribute)
        (path / "models").mkdir(exist_ok=True)
        shutil.copyfile(botocore, path / "models" / "waiters-2.json")
        shutil.copyfile(smithy, path / "models" / "dynamodb.json")
        build(path, target, untyped=False)
        dirs[name] = path
    runs = {name: [] for name in crates}
    expansion = {name: [] for name in crates}
    for _ in range(args.runs):
        for name, path in dirs.items():
            runs[name] += timed(path, target, 1, untyped=False)[1]
        for name, path in dirs.items():
            # Its own target directory: `RUSTC_BOOTSTRAP` is part of every crate's fingerprint.
            expansion[name].append(expand_time(path, target.parent / "target-time-passes"))
    print(f"{args.copies} functions, each with DynamoDB's 2 `DescribeTable` waiters; Smithy model {smithy.stat().st_size} bytes, botocore file {botocore.stat().st_size} bytes")
    for title, table in (("build", runs), ("macro expansion", expansion)):
        base = statistics.median(table["pasted"])
        for name in crates:
            med = statistics.median(table[name])
            print(f"{title:15} {name:9} median {med * 1000:.0f} ms  (+{(med - base) * 1000:.0f} ms)  runs {[round(t * 1000) for t in table[name]]}")

def expand_time(path, target):
    """rustc's `macro_expand_crate` time for the crate, in seconds."""
    (path / "src" / "lib.rs").touch()
    env = dict(os.environ, CARGO_TARGET_DIR=str(target), CARGO_INCREMENTAL="0", RUSTC_BOOTSTRAP="1")
    out = subprocess.run(
        ["cargo", "rustc", "-q", "--manifest-path", str(path / "Cargo.toml"), "--", "-Z", "time-passes"],
        check=True, env=env, capture_output=True, text=True,
    )
    for line in out.stderr.splitlines():
        if line.startswith("time:") and line.split()[-1] == "macro_expand_crate":
            return float(line.split()[1].rstrip(";"))
    raise SystemExit("no macro_expand_crate line in rustc's -Z time-passes output")

BOTOCORE_HEADER = """#![allow(dead_code, unused_imports)]
use waiter_runtime::{waitable, ProvideErrorMetadata};

#[derive(Debug, ProvideErrorMetadata)]
pub enum Error { NotFound }

pub struct Client;

impl Client {
"""

def generate_botocore_crate(path, n):
    """`n` functions on one type, each with the one waiter of its operation in a botocore file."""
    import json
    generate(path, 0, False, False, False)
    (path / "models").mkdir(exist_ok=True)
    waiters = {
        f"Resource{i}Ready": {
            "operation": f"GetResource{i}", "delay": 5, "maxAttempts": 10,
            "acceptors": [
                {"matcher": "error", "expected": "NotFound", "state": "retry"},
                {"matcher": "error", "expected": False, "state": "success"},
            ],
        }
        for i in range(n)
    }
    (path / "models" / "waiters-2.json").write_text(json.dumps({"version": 2, "waiters": waiters}))
    body = BOTOCORE_HEADER
    for i in range(n):
        body += f"""    #[waitable(botocore = "models/waiters-2.json")]
    pub async fn get_resource_{i}(&self, id: &str) -> Result<(), Error> {{
        let _ = id;
        Ok(())
    }}
"""
    body += "}\n"
    (path / "src" / "lib.rs").write_text(body)

def same_type(args, target):
    pasted, botocore = OUT / "same_type_pasted", OUT / "same_type_botocore"
    generate(pasted, args.waiters, True, False, False)
    generate_botocore_crate(botocore, args.waiters)
    time_target = target.parent / "target-time-passes"
    for path in (pasted, botocore):
        build(path, target, untyped=False)
    if args.callgrind:
        same_type_callgrind((("pasted", pasted), ("botocore", botocore)), target)
        return
    runs = {(name, checked): [] for name in ("pasted", "botocore") for checked in (True, False)}
    for _ in range(args.runs):
        for name, path in (("pasted", pasted), ("botocore", botocore)):
            for checked in (True, False):
                if checked:
                    os.environ.pop("WAITER_MACROS_BENCH_NO_SAME_TYPE", None)
                else:
                    os.environ["WAITER_MACROS_BENCH_NO_SAME_TYPE"] = "1"
                runs[(name, checked)].append(expand_time(path, time_target))
    os.environ.pop("WAITER_MACROS_BENCH_NO_SAME_TYPE", None)
    print(f"{args.waiters} waiters on one type; rustc's macro_expand_crate")
    for name in ("pasted", "botocore"):
        base = statistics.median(runs[(name, False)])
        checked = statistics.median(runs[(name, True)])
        print(f"{name:9} check left out: median {base * 1000:.1f} ms  runs {[round(t * 1000, 1) for t in runs[(name, False)]]}")
        print(f"{name:9} checked:        median {checked * 1000:.1f} ms  runs {[round(t * 1000, 1) for t in runs[(name, True)]]}  (+{(checked - base) * 1000:.1f} ms)")
        low, low_checked = min(runs[(name, False)]), min(runs[(name, True)])
        print(f"{name:9} fastest runs: {low * 1000:.1f} ms and {low_checked * 1000:.1f} ms (+{(low_checked - low) * 1000:.1f} ms)")

CALLGRIND_WRAPPER = """#!/bin/sh
# RUSTC_WRAPPER: the bench crate's rustc under callgrind, every other crate's as is.
rustc="$1"; shift
case " $* " in
  *" --crate-name same_type_"*) exec valgrind --tool=callgrind --callgrind-out-file="$CALLGRIND_OUT" "$rustc" "$@" ;;
  *) exec "$rustc" "$@" ;;
esac
"""

def same_type_callgrind(paths, target):
    """Instructions of the check against the expansions', from rustc run under callgrind."""
    wrapper = OUT / "callgrind-rustc.sh"
    wrapper.write_text(CALLGRIND_WRAPPER)
    wrapper.chmod(0o755)
    rows = {
        "check (same_type::remove_repeated)": "waiter_macros::waitable::same_type::remove_repeated ",
        "every #[waitable] expansion": "waiter_macros::waitable [",
        "macro expansion (expand_crate)": "MacroExpander>::expand_crate ",
    }
    for name, path in paths:
        out = OUT / f"callgrind.{name}.out"
        (path / "src" / "lib.rs").touch()
        env = dict(os.environ, CARGO_TARGET_DIR=str(target), RUSTC_WRAPPER=str(wrapper), CALLGRIND_OUT=str(out))
        env.pop("WAITER_MACROS_BENCH_NO_SAME_TYPE", None)
        subprocess.run(["cargo", "build", "-q", "--manifest-path", str(path / "Cargo.toml")], check=True, env=env, capture_output=True)
        report = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)], check=True, capture_output=True, text=True).stdout
        total = next(int(l.split()[0].replace(",", "")) for l in report.splitlines() if "PROGRAM TOTALS" in l)
        print(f"{name}: rustc {total:,} instructions")
        for title, needle in rows.items():
            line = next((l for l in report.splitlines() if needle in l), None)
            count = int(line.split()[0].replace(",", "")) if line else 0
            print(f"  {title:38} {count:>14,}  ({count / total * 100:.2f} % of rustc)")

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--waiters", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jmespath", action="store_true")
    parser.add_argument("--instantiate", action="store_true")
    parser.add_argument("--typed", action="store_true")
    parser.add_argument("--model-files", action="store_true")
    parser.add_argument("--same-type", action="store_true")
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--smithy-model", default=str(ROOT / "tests/aws-waiters/models/smithy/dynamodb.json"))
    args = parser.parse_args()
    target = OUT / "target"
    if args.model_files:
        model_files(args, target)
        return
    if args.same_type:
        same_type(args, target)
        return
    if args.typed:
        typed_dir = OUT / "typed_waiters"
        generate_typed(typed_dir, args.waiters)
        build(typed_dir, target, untyped=True)
        build(typed_dir, target, untyped=False)
        base_runs, with_runs = [], []
        for _ in range(args.runs):
            base_runs += timed(typed_dir, target, 1, untyped=True)[1]
            with_runs += timed(typed_dir, target, 1, untyped=False)[1]
        base, with_ = statistics.median(base_runs), statistics.median(with_runs)
        paths = 3 * args.waiters
        print(f"{args.waiters} waiters, {paths} paths, typed checks left out: median {base:.2f}s  runs {[round(t, 2) for t in base_runs]}")
        print(f"{args.waiters} waiters, {paths} paths, typed checks:          median {with_:.2f}s  runs {[round(t, 2) for t in with_runs]}")
        print(f"ratio: {with_ / base:.2f}x  (+{with_ - base:.2f}s, {(with_ - base) / paths * 1000:.2f} ms per path)")
        return
    with_dir, without_dir = OUT / "with_waiters", OUT / "without_waiters"
    generate(with_dir, args.waiters, True, args.jmespath, args.instantiate)
    generate(without_dir, args.waiters, False, args.jmespath, False)
    build(without_dir, target)  # dependencies, once
    build(with_dir, target)
    # Alternate the two builds so that load from other processes hits both alike.
    base_runs, with_runs = [], []
    for _ in range(args.runs):
        base_runs += timed(without_dir, target, 1)[1]
        with_runs += timed(with_dir, target, 1)[1]
    base, with_ = statistics.median(base_runs), statistics.median(with_runs)
    print(f"{args.waiters} operations, attributes removed: median {base:.2f}s  runs {[round(t, 2) for t in base_runs]}")
    print(f"{args.waiters} operations with #[waitable]:    median {with_:.2f}s  runs {[round(t, 2) for t in with_runs]}")
    print(f"ratio: {with_ / base:.2f}x  (+{with_ - base:.2f}s, {(with_ - base) / args.waiters * 1000:.1f} ms per waiter)")

if __name__ == "__main__":
    main()
