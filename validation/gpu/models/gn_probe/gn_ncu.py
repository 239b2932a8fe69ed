"""The first kernel of Inductor's channels-last group norm under Nsight Compute (VALIDATION.md
§45): for each listed shape, `silu(group_norm(x + t, 32, w, b))` compiled as gn_probe.py does
it, three warm-up calls, then one call profiled; the kernel's time, DRAM reads, L1 and L2
sectors and hit rates say why the straddling splits run at two speeds.

    ncu --kernel-name regex:group_norm_0 --metrics METRICS --cache-control all \\
        --clock-control none --profile-from-start off --csv --log-file OUT/ncu.csv \\
        python3 gn_ncu.py OUT 'B,C,H;B,C,H;...'
                                    # OUT/cases.csv names the profiled calls in order,
                                    # OUT/code/*.py the generated code
"""
import csv
import os
import sys

import torch
from torch._inductor.utils import run_and_get_code

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gn_probe import gn  # noqa: E402


def main():
    out = sys.argv[1]
    listed = [tuple(map(int, s.split(","))) for s in sys.argv[2].split(";")]
    os.makedirs(os.path.join(out, "code"), exist_ok=True)
    with open(os.path.join(out, "cases.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["case", "batch", "channels", "hw"])
        for i, (bsz, c, h) in enumerate(listed):
            torch._dynamo.reset()
            x = torch.randn(bsz, c, h, h, device="cuda", dtype=torch.float16).to(memory_format=torch.channels_last)
            t = torch.randn(bsz, c, 1, 1, device="cuda", dtype=torch.float16)
            wt = torch.rand(c, device="cuda", dtype=torch.float16) + 0.5
            b = torch.rand(c, device="cuda", dtype=torch.float16)
            cf = torch.compile(gn)
            _, code = run_and_get_code(cf, x, t, wt, b)
            with open(os.path.join(out, "code", f"b{bsz}_c{c}_h{h}.py"), "w") as f:
                f.write(code[0])
            for _ in range(3):
                cf(x, t, wt, b)
            torch.cuda.synchronize()
            torch.cuda.profiler.start()
            cf(x, t, wt, b)
            torch.cuda.synchronize()
            torch.cuda.profiler.stop()
            w.writerow([i, bsz, c, h])
            fh.flush()
            print(i, bsz, c, h, flush=True)


if __name__ == "__main__":
    main()
