#!/usr/bin/env bash
# Build cost: what our crates add to a user's cold build.
#
# Three crates made as a user makes them, outside the workspace, with the same dependencies
# (tokio with `macros` and `rt-multi-thread`, serde with `derive`, serde_json, reqwest 0.13 with
# `json`): `base` without our crates, `before` with waiter-runtime at BEFORE (a git revision),
# `after` with this checkout's. Each is built cold (an empty target directory, the registry
# already downloaded) ROUNDS times, interleaved (base, before, after, base, ...) so that a busy
# machine slows all three alike. Prints, per crate, the crates compiled and the median wall
# time, and what our crates add over `base`.
#
#   waiter-runtime/benches/build_cost.sh [BEFORE] [ROUNDS]      (defaults: 0ee0b70, 3)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
before_rev="${1:-0ee0b70}"
rounds="${2:-3}"
work="$repo/target/build-cost"
rm -rf "$work"
mkdir -p "$work"
git -C "$repo" worktree remove --force "$work/before-src" 2>/dev/null || true
git -C "$repo" worktree add --detach --quiet "$work/before-src" "$before_rev"
trap 'git -C "$repo" worktree remove --force "$work/before-src" 2>/dev/null || true' EXIT

make_crate() { # name, waiter-runtime path or ""
  local dir="$work/$1"
  mkdir -p "$dir/src"
  {
    printf '[package]\nname = "user-%s"\nversion = "0.1.0"\nedition = "2024"\npublish = false\n\n[workspace]\n\n[dependencies]\n' "$1"
    printf 'tokio = { version = "1", features = ["macros", "rt-multi-thread", "time"] }\n'
    printf 'serde = { version = "1", features = ["derive"] }\nserde_json = "1"\n'
    printf 'reqwest = { version = "0.13", default-features = false, features = ["json"] }\n'
    [ -z "$2" ] || printf 'waiter-runtime = { path = "%s" }\n' "$2"
  } > "$dir/Cargo.toml"
  if [ -z "$2" ]; then
    cat > "$dir/src/main.rs" <<'RUST'
#[derive(Debug, serde::Deserialize)]
struct Table { status: String }

async fn describe(http: &reqwest::Client) -> Result<Table, std::io::Error> {
    let _ = http;
    Ok(serde_json::from_str(r#"{"status": "ACTIVE"}"#)?)
}

#[tokio::main]
async fn main() {
    let table = describe(&reqwest::Client::new()).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    assert_eq!(table.status, "ACTIVE");
}
RUST
  else
    cat > "$dir/src/main.rs" <<'RUST'
use std::time::Duration;
use waiter_runtime::{Searchable, waitable};

#[derive(Debug, serde::Deserialize, Searchable)]
struct Table { status: String }

struct Client { http: reqwest::Client }

impl Client {
    #[waitable(TableActive: { acceptors: [
        { state: "success", matcher: { output: { path: "status", expected: "ACTIVE", comparator: "stringEquals" } } }
    ] })]
    async fn describe(&self) -> Result<Table, std::io::Error> {
        let _ = &self.http;
        Ok(serde_json::from_str(r#"{"status": "ACTIVE"}"#)?)
    }
}

#[tokio::main]
async fn main() {
    let client = Client { http: reqwest::Client::new() };
    let done = client.wait_until_table_active().wait(Duration::from_secs(1)).await.unwrap();
    assert_eq!(done.output().unwrap().status, "ACTIVE");
}
RUST
  fi
  (cd "$dir" && cargo fetch --quiet)
}

make_crate base ""
make_crate before "$work/before-src/waiter-runtime"
make_crate after "$repo/waiter-runtime"

declare -A times cpus crates
for round in $(seq "$rounds"); do
  for name in base before after; do
    target="$work/target-$name"
    rm -rf "$target"
    start=$(date +%s.%N)
    # The build's CPU time (user + system, from the subshell's `times`) too: on a machine
    # other builds share, wall time moves by tens of percent, CPU time far less.
    log=$(cd "$work/$name" && CARGO_TARGET_DIR="$target" cargo build --offline 2>&1; times)
    end=$(date +%s.%N)
    n=$(printf '%s\n' "$log" | grep -c '^ *Compiling ' || true)
    t=$(echo "$end - $start" | bc)
    c=$(printf '%s\n' "$log" | tail -1 | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); s += p[1] * 60 + p[2] } print s }')
    times[$name]="${times[$name]:-} $t"
    cpus[$name]="${cpus[$name]:-} $c"
    crates[$name]=$n
    printf 'round %s  %-6s  %3s crates  %6.1f s  %6.1f s CPU\n' "$round" "$name" "$n" "$t" "$c"
  done
done

median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
base=$(echo "${times[base]}" | median)
echo
base_cpu=$(echo "${cpus[base]}" | median)
printf '%-7s %7s %9s %11s %11s %11s\n' crate crates "median s" "added s" "median CPU" "added CPU"
for name in base before after; do
  m=$(echo "${times[$name]}" | median)
  mc=$(echo "${cpus[$name]}" | median)
  printf '%-7s %7s %9.1f %11.1f %11.1f %11.1f\n' "$name" "${crates[$name]}" "$m" "$(echo "$m - $base" | bc)" \
    "$mc" "$(echo "$mc - $base_cpu" | bc)"
done
b=$(echo "${times[before]}" | median); a=$(echo "${times[after]}" | median)
bc_=$(echo "${cpus[before]}" | median); ac=$(echo "${cpus[after]}" | median)
echo
echo "added by our crates, after / before: $(echo "scale=2; ($a - $base) / ($b - $base)" | bc) (wall), $(echo "scale=2; ($ac - $base_cpu) / ($bc_ - $base_cpu)" | bc) (CPU)"
echo "whole build, after / before: $(echo "scale=3; $a / $b" | bc) (wall), $(echo "scale=3; $ac / $bc_" | bc) (CPU)"
echo "crates added: before $(( ${crates[before]} - ${crates[base]} )), after $(( ${crates[after]} - ${crates[base]} ))"
