#!/bin/bash
# Batch e on the GPU machine (one call): ncu over the fit cases of calib_e.py, or of the case
# script given as the argument (batch g's calib_g.sh passes ../h100-calib-g/calib_g.py).
# The ncu metrics and flags are ../h100-heldout-d/run_d.sh's (and ../h100-calib-c/calib_c.sh's).
set -u
out=${OUT:-/tmp/out}
script=${1:-$(dirname "$0")/calib_e.py}
cd "$(dirname "$script")"
script=$(basename "$script")
export PYTHONUNBUFFERED=1
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,launch__grid_size,lts__t_sector_hit_rate.pct
{ nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  python3 -c 'import torch, triton; print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version(), "triton", triton.__version__); p=torch.cuda.get_device_properties(0); print(p.name, p.multi_processor_count, "SMs", p.L2_cache_size, "B L2")'
  ncu --version | tail -1; date -u; } > "$out/env.txt" 2>&1
cat "$out/env.txt"
log="$out/log.txt"
t0=$(date +%s)
echo "== ncu cases" >> "$log"
timeout 240 ncu --metrics $M --clock-control none --cache-control all --profile-from-start off --csv \
  --log-file "$out/ncu_cases.csv" python3 "$script" --profile >> "$log" 2>&1; echo "ncu cases rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$log"
grep -c spin_kernel "$out/ncu_cases.csv"; grep -E "FAILED|Error|error" "$log" | head -20
ls -la "$out"
