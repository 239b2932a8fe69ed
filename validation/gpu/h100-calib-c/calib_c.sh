#!/bin/bash
# Runs calib_c.py on the GPU machine: events timing, then ncu with flushed caches, the same
# metrics and flags as ../h100-calib/calib.sh.
set -u
out=${OUT:-/tmp/out}
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
{ nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  python3 -c 'import torch, triton; print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version(), "triton", triton.__version__); p=torch.cuda.get_device_properties(0); print(p.name, p.multi_processor_count, "SMs", p.L2_cache_size, "B L2")'
  ncu --version | tail -1; date -u; } > "$out/env.txt" 2>&1
cat "$out/env.txt"
timeout 150 python3 calib_c.py --out "$out" > "$out/events.log" 2>&1; echo "events rc=$?"
grep FAILED "$out/events.log"; tail -2 "$out/events.log"
timeout 330 ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,launch__grid_size,lts__t_sector_hit_rate.pct \
  --clock-control none --cache-control all --profile-from-start off --csv --log-file "$out/ncu_flushed.csv" \
  python3 calib_c.py --profile > "$out/profile.log" 2> "$out/ncu.err"; echo "ncu rc=$?"
grep -c spin_kernel "$out/ncu_flushed.csv"; grep FAILED "$out/profile.log"; tail -3 "$out/ncu.err"
ls -la "$out"
