#!/bin/bash
# Calibration batch for the hardware traffic model (issue 11). On the GPU machine, from the
# repository root: bash validation/gpu/calib.sh OUTDIR  (the lent-GPU call ran it from .dev11/).
# Writes env.txt, cases.csv, time.csv, ncu-cold.csv (--cache-control all), ncu-warm.csv
# (--cache-control none), log.txt. Clocks are left as found (--clock-control none).
set -u
out=${1:-.}
here=$(dirname "$0")
export PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
  ncu --version | tail -1; } > "$out/env.txt" 2>&1
python3 "$here/calib.py" --cases "$out/cases.csv" --dry-run 2>&1 | tee -a "$out/log.txt"
echo "## time pass" | tee -a "$out/log.txt"
timeout 170 python3 "$here/calib.py" --time "$out/time.csv" --reps 15 >> "$out/log.txt" 2>&1
echo "time rc=$?" | tee -a "$out/log.txt"
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,launch__grid_size
timeout 230 ncu --metrics $M --clock-control none --cache-control all --profile-from-start off --csv \
  python3 "$here/calib.py" --profile > "$out/ncu-cold.csv" 2>> "$out/log.txt"
echo "ncu cold rc=$?" | tee -a "$out/log.txt"
timeout 150 ncu --metrics $M --clock-control none --cache-control none --profile-from-start off --csv \
  python3 "$here/calib.py" --profile > "$out/ncu-warm.csv" 2>> "$out/log.txt"
echo "ncu warm rc=$?" | tee -a "$out/log.txt"
tail -5 "$out/time.csv"; grep -c spin "$out/ncu-cold.csv" "$out/ncu-warm.csv"
