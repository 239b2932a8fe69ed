"""Where a plain-launch step's host time goes (VALIDATION §57): `python3 host_ops.py OUT CASE.py ...`.
For each module (`Graph(device)`, `make_inputs(device)`: an emitted module or a transformers
case), the plain step is timed as measure.py times it (20 steps between CUDA events, median of 3
runs), then one step is profiled on the host: every aten op's count and total host time (its
CPU time including children, the dispatcher and the launch) to OUT/host_ops.csv, and per case
the step's wall time, CUDA kernels and the host time of the top-level Python-issued ops to
OUT/summary.txt."""
import csv
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from measure import built, host_probe, issue_us, label_of, timed  # noqa: E402


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    host_probe(out)
    w = csv.writer(open(os.path.join(out, "host_ops.csv"), "w", newline=""))
    w.writerow(["case", "op", "count", "cpu_total_us", "cpu_self_us"])
    summ = open(os.path.join(out, "summary.txt"), "w")
    from torch.profiler import ProfilerActivity, profile
    for path in sys.argv[2:]:
        label = label_of(path)
        try:
            with torch.inference_mode():
                step = built(path)
                t, best = timed(step)
                host = issue_us(step)
                with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
                    step()
                    torch.cuda.synchronize()
                kernels = sum(1 for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA)
                top = 0.0
                for e in prof.key_averages():
                    if e.key.startswith("aten::") or e.key.startswith("cuda"):
                        w.writerow([label, e.key, e.count, round(e.cpu_time_total, 1), round(e.self_cpu_time_total, 1)])
                for e in prof.events():
                    if e.cpu_parent is None and e.device_type == torch.autograd.DeviceType.CPU:
                        top += e.cpu_time_total
                print(f"{label}: plain step {t:.1f} µs (best {best:.1f}); host issue {host:.1f} µs a step; "
                      f"{kernels} CUDA kernels; profiled top-level host ops {top:.1f} µs", file=summ, flush=True)
            del step
            torch.cuda.empty_cache()
        except Exception as e:  # noqa: BLE001
            print(f"{label}: error {e!r}"[:400], file=summ, flush=True)


if __name__ == "__main__":
    main()
