#!/bin/bash
# The multi-GPU calibration (issue 26) in one device call: the environment, the NCCL collectives
# (nccl_bench.py, the part's sizes), the TP-N Llama-3-70B decode step and the EP-N Mixtral MoE
# block (tp_decode.py), for each world size asked, within ~9 minutes.
#
#   bash validation/gpu/nccl/run.sh WORLD [PART] [PREDICTIONS_COMMIT]
#   bash validation/gpu/nccl/run.sh --dry-run WORLD [PART]      # the plan, no GPU, no torch
#
# WORLD: a number of GPUs (1, 2, 4, 8) or a list ("2,4": each in turn, on a host with at least
# the largest). PART: fit | heldout | all (default all): which message sizes nccl_bench.py
# measures (README.md: the split). PREDICTIONS_COMMIT, if given, is written into env.txt (the
# commit that holds predictions_nccl.json). STAGES (environment; default "bench steps") picks
# what runs: bench = nccl_bench.py, steps = tp_decode.py. BENCH_ARGS and STEPS_ARGS (environment)
# are appended to the scripts' arguments (a logic test on CPUs: "--device cpu --max-exp 14" and
# "--device cpu --tiny", with a stand-in nvidia-smi on the PATH).
#
# $OUT receives env.txt, log.txt, and per world W: nccl_wW_PART.csv, steps_wW.csv.
#
# NVLink multicast stays off (the device machines' rule): the three variables are exported
# here, before anything starts, and every rank of both scripts checks it has them (it refuses to
# start otherwise); torchrun passes the environment to its children. Nothing here calls
# cuMulticastCreate or PyTorch's symmetric memory.
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
dry=0
if [ "${1:-}" = "--dry-run" ]; then dry=1; shift; fi
worlds=${1:-}
part=${2:-all}
commit=${3:-}
stages=${STAGES:-bench steps}
case "$part" in fit|heldout|all) ;; *) echo "usage: run.sh [--dry-run] WORLD[,WORLD...] [fit|heldout|all] [COMMIT]" >&2; exit 2 ;; esac
if [ -z "$worlds" ]; then echo "usage: run.sh [--dry-run] WORLD[,WORLD...] [fit|heldout|all] [COMMIT]" >&2; exit 2; fi
here=$(cd "$(dirname "$0")" && pwd)
IFS=, read -r -a wl <<< "$worlds"
nw=${#wl[@]}
# The time: 540 s in all, less ~20 s for the environment; per world, 55% to the collectives.
per=$(( 520 / nw ))
tb=$(( per * 55 / 100 )); ts=$(( per - tb ))
if [ $dry = 1 ]; then
  echo "run.sh plan: worlds ${wl[*]}, part $part, stages: $stages; per world: bench <= ${tb} s, steps <= ${ts} s"
  for w in "${wl[@]}"; do
    python3 "$here/nccl_bench.py" --dry-run --world "$w" --part "$part"
    python3 "$here/tp_decode.py" --dry-run --world "$w"
  done
  exit 0
fi
out=${OUT:-/tmp/out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
env_txt="$out/env.txt"; log="$out/log.txt"
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
{ echo "run.sh worlds ${wl[*]} part $part stages: $stages ${commit:+predictions committed in $commit}"
  echo "multicast off: NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE TORCH_SYMM_MEM_DISABLE_MULTICAST=$TORCH_SYMM_MEM_DISABLE_MULTICAST NVSHMEM_DISABLE_NVLS=$NVSHMEM_DISABLE_NVLS"
  echo "GPUs: $ngpu"; date -u
  nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.sm,clocks.max.mem,pci.bus_id --format=csv
  echo "== nvidia-smi topo -m"; nvidia-smi topo -m
  echo "== nvidia-smi nvlink -s (first GPU)"; nvidia-smi nvlink -s -i 0 2>&1 | head -30
  python3 -c 'import torch, os; print("torch", torch.__version__, "cuda", torch.version.cuda, "nccl", ".".join(map(str, torch.cuda.nccl.version())), "gpus", torch.cuda.device_count()); p = torch.cuda.get_device_properties(0); print(p.name, p.multi_processor_count, "SMs", p.total_memory, "B"); print("child sees:", " ".join(k + "=" + os.environ.get(k, "<unset>") for k in ("NCCL_NVLS_ENABLE", "TORCH_SYMM_MEM_DISABLE_MULTICAST", "NVSHMEM_DISABLE_NVLS")))'
  echo "torchrun: $(command -v torchrun)"
} > "$env_txt" 2>&1
cat "$env_txt"
# NCCL's own account of its setup (version, transports, whether NVLS is used) goes to log.txt.
export NCCL_DEBUG=${NCCL_DEBUG:-INFO} NCCL_DEBUG_SUBSYS=${NCCL_DEBUG_SUBSYS:-INIT,ENV}
t0=$(date +%s)
port=29611
for w in "${wl[@]}"; do
  if [ "$w" -gt "$ngpu" ]; then echo "world $w: only $ngpu GPUs here; skipped" | tee -a "$log"; continue; fi
  for st in $stages; do
    port=$((port + 1))
    case $st in
      bench) cmd=(nccl_bench.py --part "$part" --out "$out" ${BENCH_ARGS:-}); lim=$tb ;;
      steps) cmd=(tp_decode.py --out "$out" ${STEPS_ARGS:-}); lim=$ts ;;
      *) echo "unknown stage $st" | tee -a "$log"; continue ;;
    esac
    echo "== world $w $st (limit ${lim} s): ${cmd[*]}" | tee -a "$log"
    s0=$(date +%s)
    timeout -k 10 "$lim" torchrun --nproc-per-node "$w" --master-port "$port" "$here/${cmd[0]}" "${cmd[@]:1}" >> "$log" 2>&1
    rc=$?
    echo "world $w $st rc=$rc $(( $(date +%s) - s0 )) s (total $(( $(date +%s) - t0 )) s)" | tee -a "$log"
  done
done
echo "== summary"
grep -h "refusing\|WRONG RESULT\|FAILED\|Error\|error:" "$log" | grep -v "NCCL INFO" | sort | uniq -c | head -20
grep -h "NVLS\|NCCL version" "$log" | sort | uniq -c | head -10
for f in "$out"/nccl_w*.csv "$out"/steps_w*.csv; do [ -f "$f" ] && echo "$(basename "$f"): $(( $(wc -l < "$f") - 1 )) rows"; done
ls -la "$out"
