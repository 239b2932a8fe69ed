#!/usr/bin/env bash
# Every example under every preset, policy and output format, written to one folder per run:
# `scripts/golden.sh BIN OUTDIR`, then `diff -r` two OUTDIRs. Used to show that a change of
# layout changes no output (issue 20's "no behaviour change"). Times are printed by the
# reports and are deterministic (the cost model, not a measurement), so outputs compare
# byte for byte.
set -uo pipefail
bin=$(realpath "$1"); out=$2
mkdir -p "$out"
cd "$(dirname "$0")/.."
run() { # name args...
  local name=$1; shift
  "$bin" "$@" >"$out/$name.out" 2>"$out/$name.err"; echo "rc=$?" >>"$out/$name.err"
}
for f in examples/*.fgraph; do
  b=$(basename "$f" .fgraph)
  run "check-$b" check "$f"
  run "check-json-$b" check --format json "$f"
  run "check-sarif-$b" check --format sarif "$f"
  run "check-github-$b" check --format github "$f"
  for fmt in human json; do
    for fz in seed inductor xla tvm; do
      run "an-$fmt-$fz-$b" analyze --format "$fmt" --fuser "$fz" "$f"
    done
    for pol in store recompute inline; do
      run "an-$fmt-pol-$pol-$b" analyze --format "$fmt" --policy "$pol" "$f"
    done
    run "an-$fmt-flags-$b" analyze --format "$fmt" --reduction-epilogue --horizontal grouped-gemm --fuse-diamonds --matmul-epilogue bias --flash-attention "$f"
    run "an-$fmt-budget-$b" analyze --format "$fmt" --max-kernel-ops 4 --max-kernel-tensors 5 --max-registers 128 "$f"
    run "an-$fmt-hw-$b" analyze --format "$fmt" --traffic-model hardware --launch eager "$f"
    run "an-$fmt-hwflash-$b" analyze --format "$fmt" --traffic-model hardware --flash-attention --causal-attention --attention-kernel flash2 "$f"
    run "an-$fmt-summary-$b" analyze --format "$fmt" --summary "$f"
    run "an-$fmt-hints-$b" analyze --format "$fmt" --hints --ledger "$f"
    run "an-$fmt-compare-$b" analyze --format "$fmt" --compare "$f"
    for hw in a100 h200 h100-measured; do
      run "an-$fmt-$hw-$b" analyze --format "$fmt" --hardware "$hw" "$f"
    done
  done
  run "an-dot-$b" analyze --dot "$out/$b.dot" "$f"
  run "an-roof-$b" analyze --roofline "$out/$b.roof.svg" "$f"
done
for f in tests/fixtures/*.fgraph tests/fixtures/*/*.fgraph; do
  b=$(echo "$f" | tr '/' '_')
  run "fx-$b" check "$f"
  run "fx-json-$b" check --format json "$f"
  run "fx-an-$b" analyze --format json "$f"
done
for fmt in human json; do
  run "transformer-$fmt" transformer --seq-len 512 --hidden-dim 1024 --num-heads 16 --format "$fmt"
  run "hardware-$fmt" hardware h100 --format "$fmt"
done
run "hardware-list" hardware
for c in $(sed -n 's/^ *\([A-Z][A-Za-z]*\) *= *"\([a-z-]*\)".*/\2/p' src/diagnostics/code.rs); do
  run "explain-$c" explain "$c"
done
