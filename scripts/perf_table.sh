#!/usr/bin/env bash
# Prints the end-to-end table of docs/PERFORMANCE.md: for each size, the best of RUNS runs of
# `fgraph check` and `fgraph analyze --format json` (output to a file) on a generated chain,
# wall time, CPU time and peak RSS. Usage: scripts/perf_table.sh [RUNS] [OPS...]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
shift || true
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(10000 100000 200000 1000000)
cargo build --release -q
bin=./target/release/fgraph
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
best() { # best wall time of $runs runs of "$@"; prints "wall user+sys rss_kb"
  local out=() line
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$tmp/time" -f "%e %U %S %M" "$@" > "$tmp/out" 2>/dev/null || true
    out+=("$(tail -1 "$tmp/time")")
  done
  printf '%s\n' "${out[@]}" | sort -n | head -1 | awk '{printf "%.2f s | %.2f s | %.0f MiB", $1, $2+$3, $4/1024}'
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| ops | source MB | check wall | check CPU | check peak RSS | analyze JSON wall | analyze CPU | analyze peak RSS |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "${sizes[@]}"; do
  python3 scripts/gen_chain.py "$n" > "$tmp/c.fgraph"
  mb=$(stat -c %s "$tmp/c.fgraph" | awk '{printf "%.1f", $1/1e6}')
  c=$(best "$bin" check "$tmp/c.fgraph")
  a=$(best "$bin" analyze --format json "$tmp/c.fgraph")
  echo "| $n | $mb | $c | $a |"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
