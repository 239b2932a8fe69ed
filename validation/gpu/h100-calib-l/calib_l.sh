#!/bin/bash
# Batch l on the GPU machine (one call): the environment, the ncu pass over the held-out cases
# (calib_l.py --profile), then the CUDA-event timing pass (calib_l.py --time). The ncu metrics
# and flags are ../h100-calib-i/calib_i.sh's (batch h's).
#
#   bash validation/gpu/h100-calib-l/calib_l.sh heldout COMMIT   # only once fgraph's predictions
#                                                                # (predictions_l.json) are committed
# $OUT receives env.txt, log.txt, ncu_heldout.csv, time_heldout.csv, cases.json.
set -u
part=${1:-}
out=${OUT:-/tmp/out}
mkdir -p "$out"
if [ "$part" != heldout ] || [ -z "${2:-}" ]; then
  echo "usage: calib_l.sh heldout PREDICTIONS_COMMIT (the commit that holds predictions_l.json)" >&2; exit 2
fi
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,launch__grid_size,lts__t_sector_hit_rate.pct
{ echo "part $part predictions committed in $2"
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version()); p=torch.cuda.get_device_properties(0); print(p.name, p.multi_processor_count, "SMs", p.L2_cache_size, "B L2")'
  ncu --version | tail -1; date -u; } > "$out/env.txt" 2>&1
cat "$out/env.txt"
python3 calib_l.py --json --out "$out"
log="$out/log.txt"
t0=$(date +%s)
echo "== ncu $part" >> "$log"
timeout 380 ncu --metrics $M --clock-control none --cache-control all --profile-from-start off --csv \
  --log-file "$out/ncu_$part.csv" python3 calib_l.py --profile --part "$part" >> "$log" 2>&1
echo "ncu $part rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$log"
echo "== time $part" >> "$log"
timeout 150 python3 calib_l.py --time --part "$part" --out "$out" >> "$log" 2>&1
echo "time $part rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$log"
echo "regions: $(grep spin_kernel "$out/ncu_$part.csv" | cut -d, -f1 | sort -u | wc -l) (cases: $(python3 calib_l.py --list --part "$part" 2>/dev/null | wc -l))"
grep -E "FAILED|Error|error" "$log" | head -20
ls -la "$out"
