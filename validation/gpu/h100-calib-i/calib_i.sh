#!/bin/bash
# Batch i on the GPU machine (one call, one part): the environment, the ncu pass over the part's
# cases (calib_i.py --profile), then the CUDA-event timing pass (calib_i.py --time). The ncu
# metrics and flags are ../h100-calib-e/calib_e.sh's (batch d's).
#
#   bash validation/gpu/h100-calib-i/calib_i.sh fit
#   bash validation/gpu/h100-calib-i/calib_i.sh heldout COMMIT   # only once fgraph's predictions
#                                                                # for the held-out half are committed
# $OUT receives env.txt, log.txt, ncu_<part>.csv, time_<part>.csv, cases.json.
set -u
part=${1:-}
out=${OUT:-/tmp/out}
mkdir -p "$out"
case "$part" in
  fit) ;;
  heldout)
    if [ -z "${2:-}" ]; then
      echo "heldout: give the commit that holds the held-out predictions (calib_i.sh heldout COMMIT)" >&2; exit 2
    fi ;;
  *) echo "usage: calib_i.sh fit | calib_i.sh heldout PREDICTIONS_COMMIT" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1
# mamba_ssm's kernel as calib_i_mamba.sh built it (carried as .mamba/), else built here.
[ -f "$root/.mamba/selective_scan_cuda_fwd.so" ] && export MAMBA_SO="$root/.mamba/selective_scan_cuda_fwd.so"
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,launch__grid_size,lts__t_sector_hit_rate.pct
{ echo "part $part ${2:+predictions committed in $2}"
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv
  python3 -c 'import torch, triton; print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version(), "triton", triton.__version__); p=torch.cuda.get_device_properties(0); print(p.name, p.multi_processor_count, "SMs", p.L2_cache_size, "B L2")'
  python3 -c 'import inspect, torch; b=torch.backends.cuda; print("sdpa enabled: flash", b.flash_sdp_enabled(), "mem_efficient", b.mem_efficient_sdp_enabled(), "cudnn", b.cudnn_sdp_enabled(), "math", b.math_sdp_enabled())
try:
    from torch.nn.attention.varlen import varlen_attn; print("varlen_attn", inspect.signature(varlen_attn))
except Exception as ex: print("varlen_attn missing", repr(ex))'
  ncu --version | tail -1; date -u; } > "$out/env.txt" 2>&1
cat "$out/env.txt"
python3 calib_i.py --json --out "$out"
if [ "$part" = fit ]; then
  # the Triton scan against the reference, the APIs once, the published parameter counts
  timeout 150 python3 calib_i.py --smoke --out "$out" > "$out/smoke_log.txt" 2>&1
  echo "smoke rc=$?"; tail -40 "$out/smoke_log.txt"
fi
log="$out/log.txt"
t0=$(date +%s)
echo "== ncu $part" >> "$log"
timeout 380 ncu --metrics $M --clock-control none --cache-control all --profile-from-start off --csv \
  --log-file "$out/ncu_$part.csv" python3 calib_i.py --profile --part "$part" >> "$log" 2>&1
echo "ncu $part rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$log"
echo "== time $part" >> "$log"
timeout 150 python3 calib_i.py --time --part "$part" --out "$out" >> "$log" 2>&1
echo "time $part rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$log"
echo "regions: $(grep spin_kernel "$out/ncu_$part.csv" | cut -d, -f1 | sort -u | wc -l) (cases of part $part: $(python3 calib_i.py --list --part "$part" 2>/dev/null | wc -l))"
grep -E "FAILED|Error|error" "$log" | head -20
ls -la "$out"
