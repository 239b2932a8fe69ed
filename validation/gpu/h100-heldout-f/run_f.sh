#!/bin/bash
# Batch f on the GPU machine (one call): ncu over the cases, then the layers (compile and
# label pass without ncu, then ncu over compiled and eager runs with --nvtx). The method,
# ncu metrics and flags are batch d's (../h100-heldout-d/run_d.sh), run from wherever this
# folder was carried (the device machine got it as target/batchf/validation/gpu/h100-heldout-f,
# beside batch d's and validation/inductor's scripts).
# `run_f.sh cases` runs the cases pass alone (how the committed ncu_cases.csv was taken: the
# first call's cases pass failed on a recursion bug in cases_f.py's builder, its layers pass
# is the committed one).
set -u
out=${OUT:-/tmp/out}
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,launch__grid_size,lts__t_sector_hit_rate.pct
{ nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  python3 -c 'import torch, triton; print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version(), "triton", triton.__version__); p=torch.cuda.get_device_properties(0); print(p.name, p.multi_processor_count, "SMs", p.L2_cache_size, "B L2")'
  ncu --version | tail -1; date -u; } > "$out/env.txt" 2>&1
cat "$out/env.txt"
log="$out/log.txt"
t0=$(date +%s)
echo "== ncu cases" >> "$log"
timeout 140 ncu --metrics $M --clock-control none --cache-control all --profile-from-start off --csv \
  --log-file "$out/ncu_cases.csv" python3 cases_f.py --profile >> "$log" 2>&1; echo "ncu cases rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$log"
if [ "${1:-}" = cases ]; then grep -c spin_kernel "$out/ncu_cases.csv"; grep -E "FAILED|Error|error" "$log" | head; exit; fi
echo "== layers prep" >> "$log"
timeout 110 python3 cases_f.py --layers-prep "$out" >> "$log" 2>&1; echo "prep rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$log"
echo "== ncu layers" >> "$log"
TORCHINDUCTOR_COMPILE_THREADS=1 timeout 150 ncu --nvtx --metrics $M --clock-control none --cache-control all \
  --profile-from-start off --csv --log-file "$out/ncu_layers.csv" python3 cases_f.py --layers-profile >> "$log" 2>&1
echo "ncu layers rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$log"
grep -c spin_kernel "$out/ncu_cases.csv" "$out/ncu_layers.csv"; grep -E "FAILED|Error|error" "$log" | head -20
ls -la "$out"
