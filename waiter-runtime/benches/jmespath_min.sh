#!/usr/bin/env bash
# `jmespath_min` the way BENCHMARKS.md reports it ("JMESPath: the hand loop at every size"):
#
#   waiter-runtime/benches/jmespath_min.sh [BASE_REV] [RUNS]
#
# Builds the example (`cargo build --release`, the default release profile: what
# `cargo run --release` runs) from the working tree and, given BASE_REV, from that commit too
# (in a temporary worktree, its own target directory under target/jmespath-min-base); prints
# the machine (CPU, cores, load average before each run); runs the binaries alternately RUNS
# times (default 3): each row is compiled / hand loop of the same binary, the minimum of 200
# alternating batches. The time ratios move with the machine and its load (other processes
# only add time, and the minimum keeps what they did not touch); the instruction counts per
# call that follow (valgrind's callgrind, where installed) do not: they are the same on every
# run of the same binaries.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
base="${1:-}"
runs="${2:-3}"
cd "$repo"
out="$repo/target/jmespath-min"
mkdir -p "$out"
cargo build --quiet --release -p waiter-benches --example jmespath_min
cp target/release/examples/jmespath_min "$out/after"
bins=(after)
if [ -n "$base" ]; then
  tree="$(mktemp -d)"
  git worktree add --quiet --detach "$tree" "$base"
  trap 'git worktree remove --force "$tree"' EXIT
  (cd "$tree" && CARGO_TARGET_DIR="$repo/target/jmespath-min-base" \
    cargo build --quiet --release -p waiter-benches --example jmespath_min)
  cp "$repo/target/jmespath-min-base/release/examples/jmespath_min" "$out/before"
  bins=(before after)
fi
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
for run in $(seq "$runs"); do
  for bin in "${bins[@]}"; do
    echo "== $bin, run $run (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
    "$out/$bin" | grep -E '^(structs|comparator)/'
  done
done
if command -v valgrind >/dev/null; then
  # The hand loop only where the binary can run it alone (`hand:N`: since this script); a
  # binary that cannot is compared with the hand loop of the working tree's build (same
  # source; its count is the same in every build tried).
  count() { # binary, JMESPATH_MIN_PROFILE: instructions per call (50,000,000 / N calls)
    local n="${2#hand:}" total
    total=$(JMESPATH_MIN_PROFILE="$2" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
      "$out/$1" 2>&1 | sed -n 's/.*Collected : *//p')
    echo $((total / (50000000 / n)))
  }
  echo "== instructions per call (callgrind), compiled / hand loop"
  for n in 10 100 1000; do
    hand=$(count after "hand:$n")
    for bin in "${bins[@]}"; do
      ours=$(count "$bin" "$n")
      echo "$bin structs/$n: $ours / $hand ($(python3 -c "print(f'{$ours/$hand:.2f}x')"))"
    done
  done
fi
