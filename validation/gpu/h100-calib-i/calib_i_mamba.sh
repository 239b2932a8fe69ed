#!/bin/bash
# Batch i, second fit pass (one call on nvidia-h100-x1): builds mamba_ssm's forward selective
# scan from mamba_ssm_fwd/ (calib_i.py --check-mamba: against the reference), then the ncu and
# timing passes over the FIT cases of the families selective_scan_cuda (mamba_ssm's kernel) and
# assoc_scan (two of its fit cases failed in the first pass), and brings the built module back
# in $OUT/mamba/ so the held-out call can load it without building.
#   bash validation/gpu/h100-calib-i/calib_i_mamba.sh
set -u
out=${OUT:-/tmp/out}
mkdir -p "$out/mamba"
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1 MAMBA_BUILD=/tmp/mamba_ssm_fwd_build
log="$out/log_fit2.txt"
t0=$(date +%s)
timeout 420 python3 calib_i.py --check-mamba --out "$out" > "$out/mamba_build_log.txt" 2>&1
echo "build rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$log"; tail -5 "$out/mamba_build_log.txt"
cp "$MAMBA_BUILD"/*.so "$out/mamba/" 2>/dev/null; ls -la "$out/mamba"
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,launch__grid_size,lts__t_sector_hit_rate.pct
timeout 200 ncu --metrics $M --clock-control none --cache-control all --profile-from-start off --csv \
  --log-file "$out/ncu_fit2.csv" python3 calib_i.py --profile --part fit --family selective_scan_cuda --family assoc_scan >> "$log" 2>&1
echo "ncu rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$log"
mkdir -p "$out/t2"; timeout 120 python3 calib_i.py --time --part fit --family selective_scan_cuda --family assoc_scan --out "$out/t2" >> "$log" 2>&1
echo "time rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$log"
mv "$out/t2/time_fit.csv" "$out/time_fit2.csv" 2>/dev/null; rmdir "$out/t2" 2>/dev/null
grep -E "FAILED|Error" "$log" | head
