#!/bin/bash
# Runs measure_batch2.py under Nsight Compute, as ../shared/gpu/h100-batch1 was taken:
#   ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
#       --clock-control none --cache-control all|none, profiling the cudaProfilerStart/Stop
#       region only.
# Usage (on the GPU machine, from the repository root): validation/gpu/measure_batch2.sh OUTDIR
set -u
out=${1:-.}
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
  ncu --version | tail -1; } > "$out/env.txt" 2>&1
# Compile every compiled mode once (and check it against eager) outside the profiler, so the
# profiled processes load the kernels from Inductor's cache.
python3 measure_batch2.py --warm > "$out/warm.log" 2>&1
run() {  # case mode cache
  echo "### $1 $2 cache=$3" >> "$out/ncu.csv"
  timeout 240 ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,launch__grid_size \
    --clock-control none --cache-control "$3" --profile-from-start off --csv \
    python3 measure_batch2.py --case "$1" --mode "$2" --profile >> "$out/ncu.csv" 2>> "$out/ncu.err"
  echo "done $1 $2 $3 rc=$?"
}
run swiglu eager all
run swiglu compiled all
run swiglu compiled_max all
run res_ln_gelu eager all
run res_ln_gelu compiled all
run attention_flash eager all
run attention_flash flash all
run attention_flash cudnn all
run swiglu eager none
run res_ln_gelu eager none
