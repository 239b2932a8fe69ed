#!/bin/bash
# The harness without a GPU (and without torch): every file compiles, run.sh parses, every
# script's --dry-run prints its plan with a poisoned `torch` first on the path (so a dry run
# that imports torch fails), and compare.py --self-test puts synthetic rows through extract.py
# and compare.py.   bash validation/gpu/nccl/test_nogpu.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/poison/torch"
echo 'raise ImportError("a --dry-run must not import torch")' > "$tmp/poison/torch/__init__.py"
for f in "$here"/*.py; do python3 -m py_compile "$f"; done
bash -n "$here/run.sh"
export PYTHONPATH="$tmp/poison" PYTHONDONTWRITEBYTECODE=1
for w in 1 2 4 8; do
  for p in fit heldout all; do python3 "$here/nccl_bench.py" --dry-run --world $w --part $p > "$tmp/plan.txt"; done
  grep -q "part fit" "$tmp/plan.txt"; grep -q "part heldout" "$tmp/plan.txt"
  python3 "$here/tp_decode.py" --dry-run --world $w > /dev/null
done
python3 "$here/nccl_bench.py" --dry-run --world 8 | grep -q "collective send_recv (send/recv): 21 cases"
python3 "$here/nccl_bench.py" --dry-run --world 1 | grep -q "collective send_recv (send/recv): skipped"
bash "$here/run.sh" --dry-run 2,4 fit > /dev/null
python3 "$here/compare.py" --dry-run > /dev/null
python3 "$here/compare.py" --template --world 2 --part heldout > "$tmp/t.json"
python3 "$here/compare.py" --self-test > "$tmp/self.txt"; tail -1 "$tmp/self.txt"
echo "nccl harness: 1 passed, 0 failed"
