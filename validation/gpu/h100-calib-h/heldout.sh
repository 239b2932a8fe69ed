#!/bin/bash
# One held-out calibration batch on the GPU machine (one call): the environment, the ncu pass
# over the batch's cases (SCRIPT --profile --part heldout), then the CUDA-event timing pass
# (SCRIPT --time). The ncu metrics and flags are calib_h.sh's (batch h's). Batches j, k and l
# call it from their calib_X.sh; it refuses to run without the predictions' commit.
#
#   bash validation/gpu/h100-calib-h/heldout.sh DIR/calib_X.py heldout PREDICTIONS_COMMIT
# $OUT receives env.txt, log.txt, ncu_heldout.csv, time_heldout.csv, cases.json.
set -u
script=${1:-}
part=${2:-}
out=${OUT:-/tmp/out}
mkdir -p "$out"
if [ -z "$script" ] || [ "$part" != heldout ] || [ -z "${3:-}" ]; then
  echo "usage: heldout.sh CALIB_SCRIPT heldout PREDICTIONS_COMMIT (the commit that holds the predictions)" >&2; exit 2
fi
cd "$(dirname "$script")"
py=$(basename "$script")
export PYTHONUNBUFFERED=1
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,launch__grid_size,lts__t_sector_hit_rate.pct
{ echo "part $part predictions committed in $3"
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version()); p=torch.cuda.get_device_properties(0); print(p.name, p.multi_processor_count, "SMs", p.L2_cache_size, "B L2")'
  ncu --version | tail -1; date -u; } > "$out/env.txt" 2>&1
cat "$out/env.txt"
python3 "$py" --json --out "$out"
log="$out/log.txt"
t0=$(date +%s)
echo "== ncu $part" >> "$log"
timeout 380 ncu --metrics $M --clock-control none --cache-control all --profile-from-start off --csv \
  --log-file "$out/ncu_$part.csv" python3 "$py" --profile --part "$part" >> "$log" 2>&1
echo "ncu $part rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$log"
echo "== time $part" >> "$log"
timeout 150 python3 "$py" --time --part "$part" --out "$out" >> "$log" 2>&1
echo "time $part rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$log"
echo "regions: $(grep spin_kernel "$out/ncu_$part.csv" | cut -d, -f1 | sort -u | wc -l) (cases: $(python3 "$py" --list --part "$part" 2>/dev/null | wc -l))"
grep -E "FAILED|Error|error" "$log" | head -20
ls -la "$out"
